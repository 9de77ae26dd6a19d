// What the PG front end needs from the engine (PgEngine, the narrow interface it is given), and
// what running a statement gives back (Outcome: rows at once, or a source streaming them).
import type { ReadCursor, ReadRequest } from '../../../src/engine/read-pool';
import type { Schema } from '../../../src/engine/schema/model';
import type { SqlValue } from '../../../src/engine/values';
import type { HeldMember, Statement, StatementResult, WriterLease } from '../../../src/engine/writer';
import type { Analyzed, ColumnDesc } from '../sql/analyzed';

/** What the PG front end needs from the engine. */
export interface PgEngine {
  readonly schema: Schema;
  read(req: ReadRequest): ReadCursor;
  /** A bounded point read's rows at once; null when it has to go through read(). */
  pointRead(sql: string, params: Record<string, SqlValue> | SqlValue[] | undefined): unknown[][] | null;
  lease(): Promise<WriterLease<unknown>>;
  /** A transaction the block holds between its statements while nothing else writes; null when something does. */
  hold(preempted: () => void, join?: boolean): Promise<HeldMember<unknown> | null>;
  group<T>(run: (lease: WriterLease<unknown>) => T): Promise<{ value: T; change: unknown }>;
  /** `inHold`: whether it may run inside a block's held transaction now (else it waits for its end). */
  tryOut<T>(run: (lease: WriterLease<unknown>) => T, inHold?: () => boolean): Promise<T>;
  transaction(statements: Statement[]): Promise<{ results: StatementResult[]; change: unknown }>;
  /** Prepares (never runs) on the writer: writes to tables with capture triggers prepare only there. */
  readonly writer: {
    /**
     * A block's held transaction (hold()): preempt rolls it back, keep makes it an ordinary lease
     * (false when other blocks share it: it is preempted instead), finishHeld commits it once every
     * block sharing it did (false: preempted), leaveHeld rolls it back, sharing counts its blocks.
     */
    preempt(member: HeldMember<unknown>): void;
    keep(member: HeldMember<unknown>): boolean;
    finishHeld(member: HeldMember<unknown>): boolean | Promise<boolean>;
    leaveHeld(member: HeldMember<unknown>): void;
    closeHeld(member: HeldMember<unknown>): void;
    runHeld(member: HeldMember<unknown>, s: Statement, where: string, writes?: boolean): StatementResult;
    sharing(member: HeldMember<unknown>): number;
    prepare(sql: string): { reader: boolean; readonly: boolean; columns(): { name: string; type: string | null }[] };
  };
}

/** Rows of a result, pulled batch by batch. */
export interface RowSource {
  next(): Promise<unknown[][] | null>;
  cancel(): void;
}

export interface Outcome {
  columns: ColumnDesc[] | null;
  /** Every row, when the result is already complete (point reads, catalog, writes); else `rows` streams them. */
  all: unknown[][] | null;
  rows: RowSource | null;
  /** Rows changed, for INSERT/UPDATE/DELETE tags. */
  affected?: number;
  /** A tag other than the statement's own (COMMIT of a failed transaction is ROLLBACK). */
  tag?: string;
  /** The statement the tag is of when not the one run (EXECUTE's prepared statement: `INSERT 0 1`). */
  of?: Analyzed;
  /** The scales of the parameters EXECUTE bound (its literal arguments'), as a Bind's portal keeps them. */
  paramScales?: number[];
}

/** The outcome of a statement that answers nothing (transaction control, SET, LISTEN, ...). */
export const NO_OUTCOME: Outcome = Object.freeze({ columns: null, all: [], rows: null }) as Outcome;
