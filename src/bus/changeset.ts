import type { SqlValue } from '../engine/values';

/** What happened to one row. */
export type ChangeKind = 'insert' | 'update' | 'delete';

/** One changed row of a changeset. */
export interface RowChange {
  table: string;
  /** Primary-key values, in the order of the table's primary-key columns. */
  pk: SqlValue[];
  kind: ChangeKind;
  /**
   * The row's column values after the change (all columns); null for a delete, and for a local change
   * of a table no live query reads (the agent does not read the row back for nobody: ChangeCapture.rowsWanted).
   */
  values: Record<string, SqlValue> | null;
}

/**
 * One committed transaction, local or merged from a peer: the unit every consumer of the
 * change feed (update streams, subscriptions, replication) sees, in commit order.
 */
export interface Changeset {
  /** The origin agent's site id, hex (32 characters). */
  actor: string;
  /** The origin's db_version of this transaction (contiguous from 1 per origin). */
  version: number;
  /** Where this agent got it: written here, or merged from a peer. */
  origin: 'local' | 'remote';
  /** Rows changed, in the order they changed (seq). */
  changes: RowChange[];
  /** This agent's commit order of changesets (1, 2, 3, ... per process run). */
  seq: number;
}

/** A consumer's bounded queue of changesets; it ends with an error when the consumer falls behind. */
export interface FeedConsumer extends AsyncIterableIterator<Changeset> {
  /** True once the queue overflowed; next() then rejects with a 'too slow' error. */
  readonly lagged: boolean;
  close(): void;
}

/**
 * The one change-feed bus. `observe` callbacks run synchronously at commit, while the writer is still
 * held, so they see the database exactly as of that changeset; `consume` queues are for everything
 * that may lag (network streams, replication).
 */
export interface ChangeFeed {
  publish(cs: Changeset): void;
  observe(fn: (cs: Changeset) => void): () => void;
  consume(name: string, capacity: number): FeedConsumer;
}
