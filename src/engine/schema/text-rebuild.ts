import type Database from 'better-sqlite3';
import { log } from '../../observability/log';
import { floatText } from '../float-text';
import { jsonbText } from '../jsonb';
import { quoteIdentifier as q, significant, tokenize } from '../sql-text';
import { introspect } from './introspect';
import type { ColumnDef, TableDef } from './model';
import { storedAsNumber, withTextStorage } from './stored-types';

// A table created before JSON, JSONB and NAME columns were declared `JSONB TEXT` (stored-types.ts)
// keeps SQLite's NUMERIC affinity for them: a document `1.50` is stored as the REAL 1.5, and such a
// database and one created since store the same merged value differently. SQLite cannot change a
// column's affinity in place, so opening the database rebuilds such a table (SQLite's "12-step"
// procedure, https://www.sqlite.org/lang_altertable.html#otheralter): a new table from the stored
// CREATE statement with those columns declared `<type> TEXT`, the rows copied with those columns'
// numbers turned into text, the old table dropped, the new one renamed and its indexes (and any
// trigger stored with it) made again; all tables in one transaction, before change capture installs
// its triggers. It is local storage, not a write: no trigger fires, no clock, version or change log
// entry changes (the clock tables key rows by their primary key, which is copied as it is), so
// nothing is sent to peers. Every agent turns the same stored number into the same text.
//
// A table whose primary key has such a column is left as it is (and said so at every start): a key
// turned from 7 into '7' is another row identity (src/crdt/pk.ts encodes the stored type), so its
// clocks, tombstones and change log entries, and every peer's, would have to move with it.

/** What was rebuilt: per table, the columns now stored as text and how many of their values were numbers. */
export interface RebuiltTable {
  table: string;
  columns: string[];
  rows: number;
  converted: number;
}

/**
 * The text a stored number of such a column becomes: what the PG front end printed for it
 * (protocols/pg/types/text.ts, plainText; a jsonb value as jsonb prints it), so a client reads the
 * same value before and after. Integers arrive exact (safe integers).
 */
export function storedNumberText(v: bigint | number, jsonb: boolean): string {
  const plain = typeof v === 'bigint' || Number.isInteger(v) ? String(v) : floatText(v);
  return jsonb ? (jsonbText(plain) ?? plain) : plain;
}

const CONVERT = '__patina_stored_number_text';

/** Rebuilds the tables that still store a JSON, JSONB or NAME column with NUMERIC affinity; logs each. */
export function rebuildNumericTextColumns(db: Database.Database): RebuiltTable[] {
  const todo: { t: TableDef; cols: ColumnDef[] }[] = [];
  for (const t of introspect(db).tables.values()) {
    const cols = t.columns.filter((c) => storedAsNumber(c.storedType));
    if (cols.length === 0) continue;
    const keyCols = cols.filter((c) => c.pk > 0);
    if (keyCols.length > 0) {
      log.warn(
        { table: t.name, columns: keyCols.map((c) => c.name) },
        'table not rebuilt: a primary key column of type JSON, JSONB or NAME keeps NUMERIC affinity (a key stored as a number stays one)',
      );
      continue;
    }
    todo.push({ t, cols });
  }
  if (todo.length === 0) return [];
  db.function(CONVERT, { deterministic: true, safeIntegers: true }, (v: unknown, jsonb: unknown) =>
    typeof v === 'bigint' || typeof v === 'number' ? storedNumberText(v, jsonb === 1n) : (v as null),
  );
  // one transaction; each table in a savepoint of it (better-sqlite3 nests a transaction so), so that
  // one that cannot be rebuilt (a CHECK of the table that a text value fails, say) is left whole, as
  // it was, and said so at every start, and the agent opens as before
  const done: RebuiltTable[] = [];
  db.transaction(() => {
    for (const { t, cols } of todo) {
      try {
        done.push(db.transaction(() => rebuildTable(db, t, cols))());
      } catch (err) {
        log.warn(
          { table: t.name, reason: (err as Error).message },
          'table not rebuilt: rebuilding it to store its JSON, JSONB and NAME columns as text failed, nothing of it was changed',
        );
      }
    }
  }).immediate();
  for (const r of done) log.info(r, 'table rebuilt: JSON, JSONB and NAME columns now stored as text');
  return done;
}

function rebuildTable(db: Database.Database, t: TableDef, cols: ColumnDef[]): RebuiltTable {
  const table = q(t.name);
  const tmp = q(`__patina_rebuild_${t.name}`);
  // the CREATE statement as stored, those columns declared `<type> TEXT`, under the temporary name
  const stored = withTextStorage(t.sql);
  const open = significant(tokenize(stored)).find((k) => k.type === 'punct' && k.text === '(');
  if (!open || stored === t.sql) throw new Error(`table "${t.name}": cannot rewrite its CREATE statement`);
  // indexes and triggers stored with the table go with the DROP; the key's own index (no sql) comes with the table
  const dependents = db
    .prepare(
      "SELECT sql FROM main.sqlite_schema WHERE tbl_name = ? AND type IN ('index', 'trigger') AND sql IS NOT NULL ORDER BY type, name",
    )
    .pluck()
    .all(t.name) as string[];
  db.exec(`CREATE TABLE main.${tmp} ${stored.slice(open.start)}`);

  // every stored column (generated ones are computed again), and a rowid table's rowid, which
  // nothing here keys on but which stays as it was
  const info = db.prepare('SELECT name, hidden FROM pragma_table_xinfo(?)').safeIntegers(false).all(t.name) as {
    name: string;
    hidden: number;
  }[];
  const names = info.filter((c) => c.hidden === 0).map((c) => c.name);
  const withoutRowid =
    (db
      .prepare("SELECT wr FROM pragma_table_list WHERE schema = 'main' AND name = ?")
      .pluck()
      .safeIntegers(false)
      .get(t.name) as number | undefined) === 1;
  const taken = new Set(info.map((c) => c.name.toLowerCase()));
  const rowid = withoutRowid ? undefined : ['rowid', '_rowid_', 'oid'].find((r) => !taken.has(r));
  const converted = new Map(cols.map((c) => [c.name, c.storedType.trim().toUpperCase() === 'JSONB' ? 1 : 0]));
  const target = [...(rowid ? [rowid] : []), ...names.map(q)];
  const source = [
    ...(rowid ? [rowid] : []),
    ...names.map((n) => (converted.has(n) ? `${CONVERT}(${q(n)}, ${converted.get(n)})` : q(n))),
  ];
  const numbers = db
    .prepare(
      `SELECT count(*) FROM main.${table} WHERE ${cols.map((c) => `typeof(${q(c.name)}) IN ('integer', 'real')`).join(' OR ')}`,
    )
    .pluck()
    .safeIntegers(false)
    .get() as number;
  const rows = db
    .prepare(`INSERT INTO main.${tmp} (${target.join(', ')}) SELECT ${source.join(', ')} FROM main.${table}`)
    .run().changes;
  const before = db.prepare(`SELECT count(*) FROM main.${table}`).pluck().safeIntegers(false).get() as number;
  if (rows !== before) throw new Error(`table "${t.name}": copied ${rows} of ${before} rows`);
  db.exec(`DROP TABLE main.${table}`);
  db.exec(`ALTER TABLE main.${tmp} RENAME TO ${table}`);
  for (const sql of dependents) db.exec(sql);

  // the rebuilt table must be what the current build creates: those columns of TEXT affinity
  const after = introspect(db).tables.get(t.name);
  const still = after?.columns.filter((c) => storedAsNumber(c.storedType)).map((c) => c.name) ?? ['(table)'];
  if (still.length > 0) throw new Error(`table "${t.name}": columns ${still.join(', ')} still have NUMERIC affinity`);
  return { table: t.name, columns: cols.map((c) => c.name), rows, converted: numbers };
}
