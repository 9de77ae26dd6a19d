import type Database from 'better-sqlite3';

/**
 * The subscription store's writes, encoded compactly: what one or more of its transactions write,
 * as numbers (an operation code, then its numeric fields and the lengths of its strings) and one
 * string (its strings one after another). The agent's thread encodes them (a few array pushes per
 * row), and the store's writer thread (store-writer.ts) decodes and runs them: a batch of 2,000
 * changed rows is one message of one Float64Array (transferred, not copied) and one string.
 * An in-memory store runs them on the agent's thread at its commit, with the same code.
 */
export enum Op {
  /** sub, rowId, |key|, |cells| */
  InsertRow = 1,
  /** sub, rowId, |key|, |cells| */
  UpdateRow,
  /** sub, rowId */
  DeleteRow,
  /** sub, occ, rowId, |part| */
  InsertRef,
  /** sub, occ, rowId, |part| */
  DeleteRef,
  /** sub, changeId, rowId, at, |kind|, |cells| */
  AppendChange,
  /** sub, nextRowId, lastChange */
  SetHead,
  /** sub, at */
  SetListened,
  /** id, listenedAt, |uuid|, |key|, |sql|, |params| (-1: null), |columns| */
  InsertSubscription,
  /** sub */
  DeleteSubscription,
  /** sub, upTo, before */
  Prune,
  /** position */
  SetMatched,
}

/** Operations gathered for the store, in order. */
export class OpBuffer {
  nums: number[] = [];
  strs: string[] = [];

  get size(): number {
    return this.nums.length;
  }

  /** Drops what was added after `mark` (a nested transaction that failed). */
  truncate(mark: { nums: number; strs: number }): void {
    this.nums.length = mark.nums;
    this.strs.length = mark.strs;
  }

  mark(): { nums: number; strs: number } {
    return { nums: this.nums.length, strs: this.strs.length };
  }

  /** The encoded operations; the buffer starts empty again. */
  take(): { nums: Float64Array; text: string } {
    const out = { nums: Float64Array.from(this.nums), text: this.strs.join('') };
    this.nums = [];
    this.strs = [];
    return out;
  }
}

/** The prepared statements the operations run. */
export type WriteStatements = ReturnType<typeof prepareWrites>;

export function prepareWrites(db: Database.Database) {
  const p = (sql: string) => db.prepare(sql);
  return {
    begin: p('BEGIN IMMEDIATE'),
    commit: p('COMMIT'),
    insertRow: p('INSERT INTO rows (sub, row_id, key, cells) VALUES (?, ?, ?, ?)'),
    updateRow: p('UPDATE rows SET key = ?, cells = ? WHERE sub = ? AND row_id = ?'),
    deleteRow: p('DELETE FROM rows WHERE sub = ? AND row_id = ?'),
    insertRef: p('INSERT OR IGNORE INTO refs (sub, occ, part, row_id) VALUES (?, ?, ?, ?)'),
    deleteRef: p('DELETE FROM refs WHERE sub = ? AND occ = ? AND part = ? AND row_id = ?'),
    appendChange: p('INSERT INTO changes (sub, change_id, kind, row_id, cells, at) VALUES (?, ?, ?, ?, ?, ?)'),
    setHead: p('UPDATE subscriptions SET next_row_id = ?, last_change = ? WHERE id = ?'),
    setListened: p('UPDATE subscriptions SET listened_at = ? WHERE id = ?'),
    insertSub: p(
      'INSERT INTO subscriptions (id, uuid, key, sql, params, columns, next_row_id, last_change, listened_at) VALUES (?, ?, ?, ?, ?, ?, 1, 0, ?)',
    ),
    deleteSub: p('DELETE FROM subscriptions WHERE id = ?'),
    deleteRows: p('DELETE FROM rows WHERE sub = ?'),
    deleteRefs: p('DELETE FROM refs WHERE sub = ?'),
    deleteChanges: p('DELETE FROM changes WHERE sub = ?'),
    prune: p('DELETE FROM changes WHERE sub = ? AND change_id <= ? AND at < ?'),
    setState: p('INSERT INTO state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value'),
  };
}

/** Runs encoded operations (inside the caller's transaction). */
export function applyOps(st: WriteStatements, nums: Float64Array, text: string): void {
  let at = 0;
  const str = (n: number) => {
    const s = text.slice(at, at + n);
    at += n;
    return s;
  };
  for (let i = 0; i < nums.length; ) {
    switch (nums[i] as Op) {
      case Op.InsertRow: {
        const key = str(nums[i + 3]);
        st.insertRow.run(nums[i + 1], nums[i + 2], key, str(nums[i + 4]));
        i += 5;
        break;
      }
      case Op.UpdateRow: {
        const key = str(nums[i + 3]);
        st.updateRow.run(key, str(nums[i + 4]), nums[i + 1], nums[i + 2]);
        i += 5;
        break;
      }
      case Op.DeleteRow:
        st.deleteRow.run(nums[i + 1], nums[i + 2]);
        i += 3;
        break;
      case Op.InsertRef:
        st.insertRef.run(nums[i + 1], nums[i + 2], str(nums[i + 4]), nums[i + 3]);
        i += 5;
        break;
      case Op.DeleteRef:
        st.deleteRef.run(nums[i + 1], nums[i + 2], str(nums[i + 4]), nums[i + 3]);
        i += 5;
        break;
      case Op.AppendChange: {
        const kind = str(nums[i + 5]);
        st.appendChange.run(nums[i + 1], nums[i + 2], kind, nums[i + 3], str(nums[i + 6]), nums[i + 4]);
        i += 7;
        break;
      }
      case Op.SetHead:
        st.setHead.run(nums[i + 2], nums[i + 3], nums[i + 1]);
        i += 4;
        break;
      case Op.SetListened:
        st.setListened.run(nums[i + 2], nums[i + 1]);
        i += 3;
        break;
      case Op.InsertSubscription: {
        const uuid = str(nums[i + 3]);
        const key = str(nums[i + 4]);
        const sql = str(nums[i + 5]);
        const params = nums[i + 6] < 0 ? null : str(nums[i + 6]);
        const columns = str(nums[i + 7]);
        st.insertSub.run(nums[i + 1], uuid, key, sql, params, columns, nums[i + 2]);
        i += 8;
        break;
      }
      case Op.DeleteSubscription: {
        const sub = nums[i + 1];
        st.deleteRows.run(sub);
        st.deleteRefs.run(sub);
        st.deleteChanges.run(sub);
        st.deleteSub.run(sub);
        i += 2;
        break;
      }
      case Op.Prune:
        st.prune.run(nums[i + 1], nums[i + 2], nums[i + 3]);
        i += 4;
        break;
      case Op.SetMatched:
        st.setState.run('matched', nums[i + 1]);
        i += 2;
        break;
      default:
        throw new Error(`unknown subscription store operation ${nums[i]} at ${i}`);
    }
  }
  if (at !== text.length) throw new Error('subscription store operations: text left over');
}
