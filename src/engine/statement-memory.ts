// SQLite statements the agent has dropped are freed while it runs, not when V8 gets round to it.
//
// better-sqlite3 has no finalize(): a statement's sqlite3_stmt is finalized when V8 collects its
// JavaScript object, and only a full (mark-compact) collection does (the scavenges of the young
// generation keep native-backed objects alive). V8 does not know what such an object holds: a
// statement on a table with change capture carries its compiled trigger programs, 8 to 25 KB of
// native memory behind a JavaScript object of a few dozen bytes. With the agent's small JavaScript heap
// a full collection is rare, so statements the caches dropped piled up: pgbench -M simple sending
// `UPDATE pgbench_accounts SET abalance = abalance + -1234 WHERE aid = 5678` (each text new) grew the
// agent to 1.8 GB in 90 s (67,000 statements), and to 2.4 GB in 5 minutes of mixed literal writes; with
// a full collection every 1,000 statements prepared, an in-process model of it stays at 116 MB where it
// otherwise reached 320 MB in 30,000.
//
// So every PREPARES_PER_COLLECTION writes' statements prepared on this thread (more when the
// JavaScript heap is large: one per HEAP_BYTES_PER_PREPARE of it, so that a collection's cost stays a
// small share of the work between two), a full collection is asked for, run by V8 as a task of its
// own. Reads' statements are not counted: they hold a few KB, V8's own collections keep up with them
// (reads with a new text each time levelled off about 250 MB above the start), and counting them made
// the first-seen reads of `npm run bench -- pg` cost twice as much (1,684 µs of server CPU against
// 832–895 µs uncounted: a full collection of the agent's heap of analyses every 250 statements). Its cost is
// mostly the finalizing itself, about 36 µs a statement with capture triggers (their prepare is about
// 115 µs), paid in a pause of tens of milliseconds per thousand; a workload that reuses its statements
// (parameters, the caches' hits) prepares none and pays nothing. Asking by growth of the resident size
// instead let thousands pile up between collections: pauses of 0.4 to 0.9 s, and RSS still climbing.
import v8 from 'node:v8';
import vm from 'node:vm';
import Database from 'better-sqlite3';
import { log } from '../observability/log';

/** Statements prepared between two full collections, at the least. */
export const PREPARES_PER_COLLECTION = 1000;
/** One statement more between two collections per this many bytes of JavaScript heap in use. */
export const HEAP_BYTES_PER_PREPARE = 64 * 1024;

type Gc = (options: { type: 'major'; execution: 'async' }) => unknown;
type Prepare = (this: Database.Database, source: string) => Database.Statement;

let installed = false;
let prepared = 0;
let collections = 0;
/** Statements to prepare before the next collection. */
let due = PREPARES_PER_COLLECTION;

/** Full collections asked for so far (for tests and metrics). */
export function statementCollections(): number {
  return collections;
}

/**
 * Counts the writes' statements this thread prepares (every better-sqlite3 connection: the writer,
 * the PG catalog's) and asks for a full collection every PREPARES_PER_COLLECTION or more.
 * Once per thread; the agent calls it at start.
 */
export function collectDroppedStatements(): void {
  if (installed) return;
  installed = true;
  // V8's gc() taken from a fresh context: the flag exposes it there, not on this context's global
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as Gc | undefined;
  if (typeof gc !== 'function') {
    log.warn('V8 gave no gc(): dropped SQLite statements are freed only when V8 collects on its own');
    return;
  }
  const proto = Database.prototype as unknown as { prepare: Prepare };
  const prepare = proto.prepare;
  proto.prepare = function (this: Database.Database, source: string) {
    const st = prepare.call(this, source);
    // (a read's statement is small and V8's own collections keep up with it; a write's carries its
    // table's triggers)
    if (!st.readonly && ++prepared >= due) {
      prepared = 0;
      collections++;
      gc({ type: 'major', execution: 'async' });
      due = Math.max(
        PREPARES_PER_COLLECTION,
        Math.round(v8.getHeapStatistics().used_heap_size / HEAP_BYTES_PER_PREPARE),
      );
    }
    return st;
  };
}
