import type { PinnedClock } from './micro-clock';
import type { SqlParams } from './values';

/** How a read returns its rows: NDJSON `row` lines built in the worker, or cell arrays. */
export type RowFormat = 'ndjson' | 'values';

/** A result column: its name and the type it was declared with (null for expressions). */
export interface ColumnInfo {
  name: string;
  declType: string | null;
}

export type ToWorker =
  | {
      type: 'run';
      id: number;
      sql: string;
      params: SqlParams | undefined;
      format: RowFormat;
      /** The PG session's now() and statement_timestamp() for this read (micro-clock.ts). */
      clock?: PinnedClock;
      credits: number;
      batchRows: number;
      batchBytes: number;
    }
  | { type: 'credit'; id: number; n: number }
  | { type: 'cancel'; id: number };

/** A worker's answer to a read (also what an in-process bounded read answers). */
export type ReadAnswer =
  | { type: 'head'; id: number; columns: ColumnInfo[]; time: number; batch: RowBatch | null; done: boolean }
  | { type: 'rows'; id: number; batch: RowBatch; done: boolean }
  | { type: 'done'; id: number }
  | {
      type: 'error';
      id: number;
      kind: 'user' | 'timeout' | 'internal' | 'conflict';
      message: string;
      code?: string;
      /** PostgreSQL's SQLSTATE when the failure carried one (a PostgreSQL-compatible function's). */
      sqlstate?: string;
      /** Its PostgreSQL HINT, when it had one. */
      hint?: string;
      /** Its PostgreSQL DETAIL, when it had one. */
      detail?: string;
    };

/** What a worker sends: its answers, and once, when its database is open, that it is ready. */
export type FromWorker = ReadAnswer | { type: 'ready' };

/** A batch of rows: NDJSON text (for 'ndjson') or rows of cells (for 'values'), and how many rows. */
export interface RowBatch {
  count: number;
  text?: string;
  rows?: unknown[][];
}
