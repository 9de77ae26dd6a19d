/** Messages between the subscription store (store.ts) and its writer thread (store-writer.ts). */

/** Words of the SharedArrayBuffer both threads see. */
export const STATE_WORDS = 3;
/** The sequence number of the last transaction the thread is done with (committed or failed). */
export const DONE = 0;
/** 1 once the thread closed its connection. */
export const CLOSED = 1;
/** How many messages of operations (chunks and commits) the thread has run (wrapping at 2^31). */
export const APPLIED = 2;

/**
 * Encoded operations (see store-ops.ts). `seq` 0: a chunk of a transaction that goes on (or, with
 * `rollback`, its end without any of it; with `close`, the end of the thread); otherwise the
 * transaction's last part, to commit, answered with a StoreAck of that `seq`.
 */
export interface StoreChunk {
  seq: number;
  nums?: Float64Array;
  text?: string;
  rollback?: boolean;
  close?: boolean;
}

/** A transaction committed, or failed with `error` (then none of it was written). */
export interface StoreAck {
  seq: number;
  error?: string;
}
