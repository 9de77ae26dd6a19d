// A transaction block that does not hold the writer between its statements.
//
// Holding the one writer from a block's first write to its COMMIT makes every other writer wait for
// the client's round trips. Instead, each statement of the block is tried out when it arrives: on the
// writer, in a transaction that is rolled back at once (capture quiet), after replaying the block's
// earlier statements so that it sees the block's own writes. Its outcome (rows changed, rows read)
// is what the client is told, and is kept. At COMMIT the whole block runs again for real, as one unit
// of a group commit, and every statement must tell exactly what it told the client; if one does not
// (a concurrent commit changed what the block saw), the block is refused with 40001 and nothing of it
// is written. So a block that commits is equivalent to running it whole at its commit: what the
// client saw, what it computed from that, and what is written all agree with one serial order.
// A block whose first write finds the writer free holds a transaction of its own instead (Writer.hold)
// and runs each statement once; its statements are kept here too (record), so that if the held
// transaction is preempted, the block goes on deferred with what it has told so far.
import type { Statement, StatementResult, WriterLease } from '../../../src/engine/writer';
import type { SqlValue } from '../../../src/engine/values';
import { pgError } from '../sqlstate';
import { Lru } from '../../../src/lru';

/** More statements than this and the block takes the writer instead (replays grow with the square). */
export const DEFERRED_STEPS = 64;

/** One statement of the block and what the client was told of it. */
interface Step {
  statement: Statement;
  rowsAffected: number;
  rows: unknown[][] | undefined;
  /** Schema tables the statement names (all it can read or write: schema files make no views or triggers). */
  tables: Set<string>;
  writes: boolean;
}

/** tablesNamed's answers per set of table names (a schema), by SQL text: a block's statements repeat. */
const NAMED = new WeakMap<ReadonlySet<string>, Lru<string, Set<string>>>();

/** The schema tables an SQL text names (by its identifiers; a name inside a string only costs a replay). */
export function tablesNamed(sql: string, tables: ReadonlySet<string>): Set<string> {
  let known = NAMED.get(tables);
  if (!known) NAMED.set(tables, (known = new Lru(1024)));
  let out = known.get(sql);
  if (!out) known.set(sql, (out = scanTables(sql, tables)));
  return out;
}

function scanTables(sql: string, tables: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  for (const m of sql.matchAll(/"((?:[^"]|"")+)"|([A-Za-z_][A-Za-z0-9_$]*)/g)) {
    const name = (m[1] !== undefined ? m[1].replace(/""/g, '"') : m[2]).toLowerCase();
    if (tables.has(name)) out.add(name);
  }
  return out;
}

export class DeferredBlock {
  readonly #steps: Step[] = [];
  readonly #tables: (sql: string) => Set<string>;

  /** `tables` names the schema tables of an SQL text (tablesNamed). */
  constructor(tables: (sql: string) => Set<string>) {
    this.#tables = tables;
  }

  get size(): number {
    return this.#steps.length;
  }

  /** Runs the block's statements so far on `lease`; throws 40001 when one tells something else now. */
  replay(lease: WriterLease<unknown>): void {
    this.#replay(lease, this.#steps);
  }

  #replay(lease: WriterLease<unknown>, steps: Step[]): void {
    for (const step of steps) {
      let r: StatementResult;
      try {
        r = lease.run(step.statement, 'statement');
      } catch (err) {
        throw serializationFailure(`a statement of this transaction now fails (${(err as Error).message})`);
      }
      if (r.rowsAffected !== step.rowsAffected || !sameRows(r.rows, step.rows)) {
        throw serializationFailure('a concurrent transaction changed what this transaction read or wrote');
      }
    }
  }

  /** Keeps what `statement` told when it ran on the block's own held transaction (Writer.hold). */
  record(statement: Statement, r: StatementResult, writes: boolean): void {
    this.#steps.push({
      statement,
      rowsAffected: r.rowsAffected,
      rows: r.rows,
      tables: this.#tables(statementText(statement)),
      writes,
    });
  }

  /**
   * Runs `statement` after the block's statements on `lease` and keeps what it told. Only the earlier
   * writes it can see are replayed first: those to tables it names, and the writes those depend on.
   */
  runNext(lease: WriterLease<unknown>, statement: Statement, writes: boolean): StatementResult {
    const tables = this.#tables(statementText(statement));
    const need = new Set(tables);
    const before: Step[] = [];
    for (let k = this.#steps.length - 1; k >= 0; k--) {
      const step = this.#steps[k];
      if (!step.writes || ![...step.tables].some((t) => need.has(t))) continue;
      before.push(step);
      for (const t of step.tables) need.add(t);
    }
    this.#replay(lease, before.reverse());
    const r = lease.run(statement, 'statement');
    this.#steps.push({ statement, rowsAffected: r.rowsAffected, rows: r.rows, tables, writes });
    return r;
  }
}

/** A statement's whole text: with the statements that feed it (a data-modifying WITH query's), which it writes too. */
function statementText(s: Statement): string {
  return s.feeds ? [s.sql, ...s.feeds.map((f) => f.sql)].join(' ') : s.sql;
}

function serializationFailure(why: string) {
  return pgError('40001', `could not serialize access due to concurrent update: ${why}; retry the transaction`);
}

function sameRows(a: unknown[][] | undefined, b: unknown[][] | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x.length !== y.length) return false;
    for (let j = 0; j < x.length; j++) if (!sameValue(x[j] as SqlValue, y[j] as SqlValue)) return false;
  }
  return true;
}

function sameValue(x: SqlValue, y: SqlValue): boolean {
  if (x instanceof Uint8Array || y instanceof Uint8Array)
    return x instanceof Uint8Array && y instanceof Uint8Array && Buffer.compare(x, y) === 0;
  return x === y;
}
