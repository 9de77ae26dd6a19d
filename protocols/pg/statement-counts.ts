// Statements and errors of the PG front end, counted for the metrics: by command tag (a few kinds
// one by one, the rest as other), by SQLSTATE, the statement analysis cache's hits and misses, and
// the texts parsed.
/** Statement kinds counted one by one; any other command tag counts as "other". */
import { lookup } from '../../src/lookup';
const KINDS = new Set([
  'SELECT',
  'INSERT',
  'UPDATE',
  'DELETE',
  'BEGIN',
  'COMMIT',
  'ROLLBACK',
  'SET',
  'SHOW',
  'SAVEPOINT',
  'RELEASE',
]);

/** Distinct tags remembered with their kind ('SELECT 1000' and the like are worked out each time past this). */
const MAX_TAGS = 1024;

/** Statement analyses found in a session's cache, and made (the parse and analysis of a new text). */
export const analysisCounts = { hits: 0, misses: 0 };

/** Texts parsed by PostgreSQL's parser (sql/parse.ts): once per text however many passes read its tree. */
export const parseCounts = { parses: 0 };

/**
 * Transaction blocks committed on their own held transaction (each statement run once) or replayed at
 * COMMIT (session/deferred-block.ts), and held transactions rolled back for others (preempted).
 */
export const blockCounts = { direct: 0, replayed: 0, preempted: 0 };

/**
 * What pg_stat_database shows of the PG front end's work since the agent started: transactions
 * committed and rolled back (an autocommit statement is one), rows returned by SELECT and FETCH, and
 * rows written by INSERT, UPDATE and DELETE, from their command tags.
 */
export const databaseCounts = { commits: 0, rollbacks: 0, returned: 0, inserted: 0, updated: 0, deleted: 0 };

type TupleField = 'returned' | 'inserted' | 'updated' | 'deleted';
const TUPLE_FIELDS: Record<string, TupleField> = lookup({
  SELECT: 'returned',
  FETCH: 'returned',
  INSERT: 'inserted',
  UPDATE: 'updated',
  DELETE: 'deleted',
});

/**
 * What the PG front end did, counted for the metrics (read when scraped): connections accepted and
 * open, statements completed by kind, errors by SQLSTATE class (its first two characters).
 */
export class PgCounts {
  accepted = 0;
  open = 0;
  /** Connections closed for not logging in within authentication_timeout. */
  authTimeouts = 0;
  /** Startups refused with 53300 past max_connections. */
  tooMany = 0;
  readonly errors = new Map<string, number>();
  /** The catalog worker processes by state (server.ts sets it: catalog/catalog-workers.ts). */
  catalogWorkers: () => { idle: number; busy: number; starting: number } = () => ({ idle: 0, busy: 0, starting: 0 });
  /** A counter per kind, and the counter of each tag seen (tags of small counts are the same strings each time: connection/results.ts). */
  readonly #byKind = new Map<string, { n: number }>();
  readonly #byTag = new Map<string, { kind: { n: number }; field: TupleField | undefined; rows: number }>();

  /** Statement analyses found in a session's cache (hit) and made (miss). */
  get analyses(): { hits: number; misses: number } {
    return analysisCounts;
  }

  /** Texts parsed by PostgreSQL's parser. */
  get parses(): number {
    return parseCounts.parses;
  }

  /** Blocks committed directly or replayed, and held transactions preempted. */
  get blocks(): { direct: number; replayed: number; preempted: number } {
    return blockCounts;
  }

  /** Statements completed, by kind. */
  get statements(): Map<string, number> {
    return new Map([...this.#byKind].map(([kind, c]) => [kind, c.n]));
  }

  /** A statement completed with this command tag (once per query: one lookup of a known string). */
  completed(tag: string): void {
    let t = this.#byTag.get(tag);
    if (t === undefined) {
      const word = tag.split(' ', 1)[0];
      const kind = KINDS.has(word) ? word.toLowerCase() : word === 'START' ? 'begin' : 'other';
      let counter = this.#byKind.get(kind);
      if (!counter) this.#byKind.set(kind, (counter = { n: 0 }));
      // (the rows of `INSERT 0 5`, `UPDATE 3`, `SELECT 10`: its last number)
      t = { kind: counter, field: TUPLE_FIELDS[word], rows: Number(/ (\d+)$/.exec(tag)?.[1] ?? 0) };
      if (this.#byTag.size < MAX_TAGS) this.#byTag.set(tag, t);
    }
    t.kind.n++;
    if (t.field) databaseCounts[t.field] += t.rows;
  }

  /** A statement (or message) failed with this SQLSTATE. */
  failed(sqlstate: string): void {
    const cls = /^[0-9A-Z]{2}/.test(sqlstate) ? sqlstate.slice(0, 2) : 'XX';
    this.errors.set(cls, (this.errors.get(cls) ?? 0) + 1);
  }
}
