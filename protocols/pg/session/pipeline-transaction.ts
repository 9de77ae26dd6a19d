// An extended-protocol pipeline outside a block is one implicit transaction, as in PostgreSQL:
// everything from its first Execute to its Sync commits together at Sync, or not at all when a
// message fails (PostgreSQL then skips to Sync). pgjdbc's executeBatch and psycopg 3's executemany
// and pipeline() send several Bind/Execute before one Sync; with autocommit on, the rows before a
// failing one (a duplicate key) were stored and replicated here, none on PostgreSQL.
//
// A read alone changes nothing, so only a statement that does (a write, EXECUTE, NOTIFY) opens the
// transaction (Session.execute), and only when another Execute follows it before the Sync, or the
// Sync is not read yet (pipelineContinues, over the messages the connection holds): a lone write
// with its Sync behind it (node-postgres, pgbench -M extended, one Sync per statement) commits on
// its own as before, with no lease to take. Sync ends the transaction (Session.pipelineEnded).
import type { Analyzed } from '../sql/analyzed';

/** Whether a statement run outside a block opens the pipeline's implicit transaction. */
export function opensPipelineTransaction(an: Analyzed): boolean {
  switch (an.kind) {
    case 'sql':
      return !an.readonly && !an.local;
    case 'execute':
    case 'notify':
      return true;
    default:
      return false;
  }
}

/** Sync's and Execute's type bytes. */
const SYNC = 0x53;
const EXECUTE = 0x45;

/**
 * Whether the messages in `input` from `at` on hold an Execute before the next Sync, or no Sync at
 * all yet (what follows is not read: the transaction stays open until it comes, as PostgreSQL's).
 */
export function pipelineContinues(input: Buffer, at: number): boolean {
  while (at + 5 <= input.length) {
    const type = input[at];
    if (type === SYNC) return false;
    if (type === EXECUTE) return true;
    // (a length below its own 4 bytes is garbage the parser refuses when it reaches it; stepping by
    // it could go back and round for ever, on the agent's thread)
    const length = input.readInt32BE(at + 1);
    if (length < 4) return true;
    at += 1 + length;
  }
  return true;
}
