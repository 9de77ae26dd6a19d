// Sizes and row counts of the user tables and their indexes, for pg_relation_size and its kin,
// pg_class.relpages/reltuples and pg_stat_user_tables. They are read on a read worker (SQLite's
// dbstat walks every page, about 0.3 ms a MB; count(*) walks the smallest btree), so the agent's
// thread never waits on them, and only when a catalog statement shows them and the file changed
// since the last read (SQLite's data_version: no work per write). In a file over 64 MiB a read is
// not repeated within ten times what the last one took (a large database is re-read at most a tenth
// of the time; a statement then sees sizes that old); a smaller one is read fresh each time.
import type { PgEngine } from '../session/engine';

/** One btree's bytes and pages (dbstat), and for a table its rows. */
export interface RelationStat {
  bytes: number;
  pages: number;
  rows: number;
}

/** The statements whose answer reads the stats (the rest never wait for them). */
const READS_STATS = /pg_(?:relation|total_relation|table|indexes)_size|relpages|reltuples|pg_stat_(?:user|all)_tables/i;

export const readsStats = (sql: string): boolean => READS_STATS.test(sql);

/** A file larger than this is not re-read within ten times the last read's time. */
const LARGE_FILE = 64 * 1024 * 1024;

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The stats of every btree by its SQLite name (a table's rows under the table's name). */
export class RelationStats {
  #stats = new Map<string, RelationStat>();
  #at = Number.NEGATIVE_INFINITY;
  #took = 0;
  #pending: Promise<void> | null = null;
  /** The file's data_version the stats were read at (a version of the catalog connection's). */
  #version = -1;

  /** A table's or SQLite index's stats as last read (zeros before the first read). */
  get(name: string): RelationStat {
    return this.#stats.get(name) ?? { bytes: 0, pages: 0, rows: 0 };
  }

  /** Reads them again if the file changed (unless it is large and the last read recent); concurrent callers share one read. */
  refresh(engine: PgEngine, dataVersion: number, fileBytes: number): Promise<void> {
    if (dataVersion === this.#version) return Promise.resolve();
    if (fileBytes > LARGE_FILE && performance.now() - this.#at <= this.#took * 10) return Promise.resolve();
    this.#pending ??= this.#read(engine, dataVersion).finally(() => {
      this.#pending = null;
    });
    return this.#pending;
  }

  async #read(engine: PgEngine, dataVersion: number): Promise<void> {
    const t0 = performance.now();
    const next = new Map<string, RelationStat>();
    for (const [name, bytes, pages] of await readAll(
      engine,
      'SELECT name, pgsize, pageno FROM dbstat WHERE aggregate = 1',
    ))
      next.set(String(name), { bytes: Number(bytes), pages: Number(pages), rows: 0 });
    const tables = [...engine.schema.tables.keys()];
    if (tables.length > 0) {
      const counts = tables.map((t) => `SELECT ${sqlText(t)}, count(*) FROM ${quote(t)}`).join(' UNION ALL ');
      for (const [name, rows] of await readAll(engine, counts)) {
        const s = next.get(String(name)) ?? { bytes: 0, pages: 0, rows: 0 };
        next.set(String(name), { ...s, rows: Number(rows) });
      }
    }
    this.#stats = next;
    this.#at = performance.now();
    this.#took = this.#at - t0;
    this.#version = dataVersion;
  }
}

const sqlText = (s: string) => `'${s.replace(/'/g, "''")}'`;

async function readAll(engine: PgEngine, sql: string): Promise<unknown[][]> {
  const cursor = engine.read({ sql, format: 'values' });
  await cursor.head();
  const rows: unknown[][] = [];
  for (;;) {
    const r = await cursor.next();
    if (r.done) return rows;
    rows.push(...((r.value.rows as unknown[][]) ?? []));
  }
}
