// SQL cursors of a session (DECLARE / FETCH / MOVE / CLOSE): each holds the rows of its query's
// streamed read and pulls the next batch only when FETCH asks for more than it has. A SCROLL cursor
// (psycopg2's `scrollable=True` and its `scroll()`) keeps every row it has read, as PostgreSQL's
// materializes them, and goes backward, to FIRST, LAST, ABSOLUTE n and RELATIVE n too.
import type { PgToken } from '../sql/lexer';
import type { SqlValue } from '../../../src/engine/values';
import type { Analyzed } from '../sql/analyzed';
import type { Outcome } from './engine';
import { identName } from '../sql/lexer';
import { pgError } from '../sqlstate';

/** Rows of a result, pulled batch by batch (a session's streamed read). */
export interface RowBatches {
  next(): Promise<unknown[][] | null>;
  cancel(): void;
}

interface SqlCursor<C> {
  columns: C;
  hold: boolean;
  buffer: unknown[][];
  at: number;
  source: RowBatches | null;
  /** DECLARE ... SCROLL: every row read is kept (`buffer` from 0), `at` the position (0 before the first row, n on row n). */
  scroll: boolean;
}

/** Which way a FETCH or MOVE goes: `count` rows forward or backward (ALL: Infinity), or to a row by position. */
export type FetchDirection = 'forward' | 'backward' | 'absolute' | 'relative';

/**
 * FETCH [NEXT | PRIOR | FIRST | LAST | ABSOLUTE n | RELATIVE n | n | ALL | FORWARD [n | ALL] |
 * BACKWARD [n | ALL]] [FROM | IN] name (and MOVE), as PostgreSQL reads it: a negative count goes the
 * other way. Only a SCROLL cursor goes other than forward (SqlCursors.fetch).
 */
export function parseFetch(sig: PgToken[], move: boolean): { name: string; count: number; dir: FetchDirection } {
  let i = 1;
  let count = 1;
  let dir: FetchDirection = 'forward';
  const up = (k: number) => (sig[k]?.type === 'word' ? sig[k].text.toUpperCase() : '');
  // a count, signed (`FETCH -2`, `RELATIVE -1`); null when sig[k] is none
  const num = (k: number): [number, number] | null => {
    const minus = sig[k]?.text === '-' || sig[k]?.text === '+';
    const t = sig[minus ? k + 1 : k];
    if (t?.type !== 'number' || !/^\d+$/.test(t.text)) return null;
    return [sig[k].text === '-' ? -Number(t.text) : Number(t.text), minus ? 2 : 1];
  };
  const w = up(i);
  if (w === 'NEXT' || w === 'PRIOR') (dir = w === 'NEXT' ? 'forward' : 'backward'), i++;
  else if (w === 'FIRST' || w === 'LAST') (dir = 'absolute'), (count = w === 'FIRST' ? 1 : -1), i++;
  else if (w === 'ABSOLUTE' || w === 'RELATIVE') {
    dir = w === 'ABSOLUTE' ? 'absolute' : 'relative';
    const n = num(i + 1);
    if (!n) throw pgError('42601', `syntax error at or near "${sig[i + 1]?.text ?? 'end of input'}"`);
    count = n[0];
    i += 1 + n[1];
  } else if (w === 'FORWARD' || w === 'BACKWARD' || w === 'ALL') {
    dir = w === 'BACKWARD' ? 'backward' : 'forward';
    if (w !== 'ALL') i++;
    const n = num(i);
    if (up(i) === 'ALL') (count = Infinity), i++;
    else if (n) (count = n[0]), (i += n[1]);
  } else {
    const n = num(i);
    if (n) (count = n[0]), (i += n[1]);
  }
  if ((dir === 'forward' || dir === 'backward') && count < 0)
    (dir = dir === 'forward' ? 'backward' : 'forward'), (count = -count);
  if (up(i) === 'FROM' || up(i) === 'IN') i++;
  if (!sig[i] || (sig[i].type !== 'word' && sig[i].type !== 'quoted') || sig.length > i + 1) {
    throw pgError(
      '42601',
      `syntax error at or near "${sig[i]?.text ?? 'end of input'}": ${move ? 'MOVE' : 'FETCH'} needs a cursor name`,
    );
  }
  return { name: identName(sig[i]), count, dir };
}

/** 55000 of a FETCH or MOVE other than forward on a cursor that is not SCROLL. */
export function forwardOnly() {
  const err = pgError('55000', 'cursor can only scan forward');
  err.hint = 'Declare it with SCROLL option to enable backward scan.';
  return err;
}

/**
 * A portal of the extended query protocol, which FETCH and MOVE reach by its name as a cursor
 * (connection/portal-cursor.ts); `run` runs its statement when no Execute has.
 */
export interface PortalCursor<C> {
  columns: C;
  fetch(
    count: number,
    move: boolean,
    dir: FetchDirection,
    run: (an: Analyzed, params: SqlValue[]) => Outcome | Promise<Outcome>,
  ): Promise<{ rows: unknown[][]; moved: number }>;
}

/** The open cursors of one session; `C` is how the session describes a cursor's columns. */
export class SqlCursors<C> {
  readonly #open = new Map<string, SqlCursor<C>>();

  has(name: string): boolean {
    return this.#open.has(name);
  }

  /** A cursor's columns; undefined when there is no such cursor. */
  columnsOf(name: string): C | undefined {
    return this.#open.get(name)?.columns;
  }

  /** A new cursor over rows at hand (`all`) and then those `source` yields. */
  open(
    name: string,
    hold: boolean,
    columns: C,
    all: unknown[][] | null,
    source: RowBatches | null,
    scroll = false,
  ): void {
    if (this.#open.has(name)) throw pgError('42P03', `cursor "${name}" already exists`);
    this.#open.set(name, { columns, hold, buffer: all ? [...all] : [], at: 0, source, scroll });
  }

  /** The next `count` rows (MOVE: skipped, not kept); 34000 for an unknown or closed cursor. */
  async fetch(
    name: string,
    count: number,
    move: boolean,
    dir: FetchDirection = 'forward',
  ): Promise<{ columns: C; rows: unknown[][]; moved: number }> {
    const c = this.#open.get(name);
    if (!c) throw pgError('34000', `cursor "${name}" does not exist`);
    if (c.scroll) return { columns: c.columns, ...(await scrolled(c, count, move, dir)) };
    if (dir !== 'forward') throw forwardOnly();
    const rows: unknown[][] = [];
    let moved = 0;
    while (moved < count) {
      if (c.at >= c.buffer.length) {
        const next = c.source ? await c.source.next() : null;
        c.buffer = next ?? [];
        c.at = 0;
        if (next === null) {
          c.source = null;
          break;
        }
        continue;
      }
      const take = Math.min(c.buffer.length - c.at, count - moved);
      if (!move) for (let k = 0; k < take; k++) rows.push(c.buffer[c.at + k]);
      c.at += take;
      moved += take;
    }
    return { columns: c.columns, rows, moved };
  }

  /** Closes one cursor (false when there is none of that name), or every one (null). */
  close(name: string | null): boolean {
    if (name === null) {
      for (const n of [...this.#open.keys()]) this.close(n);
      return true;
    }
    const c = this.#open.get(name);
    if (!c) return false;
    this.#open.delete(name);
    c.source?.cancel();
    return true;
  }

  /** The transaction ended: cursors without HOLD close with it. */
  transactionEnded(): void {
    for (const [name, c] of [...this.#open]) if (!c.hold) this.close(name);
  }
}

/** Reads the next batch of a scroll cursor into its kept rows; false when there is none. */
async function more<C>(c: SqlCursor<C>): Promise<boolean> {
  const next = c.source ? await c.source.next() : null;
  if (next === null) {
    c.source = null;
    return false;
  }
  for (const row of next) c.buffer.push(row);
  return true;
}

/**
 * FETCH or MOVE on a scroll cursor, as PostgreSQL's PortalRunFetch moves: FORWARD and BACKWARD
 * return the rows passed over (BACKWARD in reverse order) and stop before the first row or after
 * the last; ABSOLUTE and RELATIVE land on one row (none, and before the first or after the last
 * row, when there is no such row); MOVE counts the rows passed over, or 1 for a row landed on.
 */
async function scrolled<C>(
  c: SqlCursor<C>,
  count: number,
  move: boolean,
  dir: FetchDirection,
): Promise<{ rows: unknown[][]; moved: number }> {
  const rows = c.buffer;
  // rows 1..n read (all of them when n is Infinity); false when there are fewer
  const upTo = async (n: number) => {
    while (rows.length < n && (await more(c)));
    return rows.length >= n;
  };
  // (FORWARD 0 and BACKWARD 0 are RELATIVE 0: the current row again)
  if (count === 0 && (dir === 'forward' || dir === 'backward')) dir = 'relative';
  if (dir === 'absolute' || dir === 'relative') {
    let target = dir === 'absolute' ? count : c.at + count;
    if (dir === 'absolute' && count < 0) {
      await upTo(Infinity);
      target = rows.length + 1 + count;
    } else if (dir === 'relative' && count === 0) target = c.at;
    if (target <= 0) {
      c.at = 0;
      return { rows: [], moved: 0 };
    }
    if (!(await upTo(target))) {
      c.at = rows.length + 1;
      return { rows: [], moved: 0 };
    }
    c.at = target;
    return { rows: move ? [] : [rows[target - 1]], moved: 1 };
  }
  const out: unknown[][] = [];
  let moved = 0;
  if (dir === 'forward') {
    while (moved < count && (await upTo(c.at + 1))) {
      c.at++;
      moved++;
      if (!move) out.push(rows[c.at - 1]);
    }
    if (moved < count) c.at = rows.length + 1;
  } else {
    if (c.at > rows.length + 1) c.at = rows.length + 1;
    while (moved < count && c.at > 1) {
      c.at--;
      moved++;
      if (!move) out.push(rows[c.at - 1]);
    }
    if (moved < count) c.at = 0;
  }
  return { rows: out, moved };
}
