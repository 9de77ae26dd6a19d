// Which rows the open deferred blocks read and wrote, by key, so that blocks that would fail each
// other at COMMIT wait for each other instead (protocols/pg/session/deferred-block.ts).
//
// A deferred block is checked at COMMIT: every statement runs again and must tell what it told the
// client. Two blocks that each UPDATE a row and then SELECT it (pgbench's tpcb-like reads the
// account it just updated) both read the row before either commits; the second to commit then reads
// the first one's change and fails with 40001. PostgreSQL makes the second wait at its UPDATE for the
// first one's row lock. Here the rows of point statements (`... WHERE pk = $n` on a table's one-column
// primary key) are noted per block: a block's read of a row claims it; a block's read waits while
// another open block claims that row and either of the two writes it; a block's COMMIT waits while
// another open block claims a row it writes. The second block then reads after the first one's
// commit, and both commit. Statements of other shapes claim nothing (their block is checked at
// COMMIT as before), and so do autocommit writes, HTTP writes and merges: a block whose read row one
// of those changes still fails with 40001. Two blocks waiting for each other (each read a row the
// other writes) do not wait: the first to commit wins, the other fails with 40001 as before. No wait
// lasts longer than CLAIM_WAIT_MS (nor the session's query timeout): a block left open by its client
// holds the others back that long at most, and then they go on as before claims (the one that read
// may then fail with 40001).
import type { Schema } from '../../../src/engine/schema/model';
import type { SqlValue } from '../../../src/engine/values';
import { Lru } from '../../../src/lru';

/** The longest a block waits for another (the blocks of one workload last milliseconds). */
export const CLAIM_WAIT_MS = 2000;

/** A point statement: the table and key of its one row, and whether it reads it (SELECT) or writes it. */
export interface PointRow {
  key: string;
  reads: boolean;
}

const IDENT = `("(?:[^"]|"")+"|[A-Za-z_][A-Za-z0-9_$]*)`;
const VALUE = String.raw`(\$\d+|-?\d+|'(?:[^']|'')*')`;
const TAIL = String.raw`\s+WHERE\s+${IDENT}\s*=\s*${VALUE}\s*;?\s*$`;
const SELECT = new RegExp(String.raw`^\s*SELECT\s+[\s\S]+?\s+FROM\s+${IDENT}${TAIL}`, 'i');
const UPDATE = new RegExp(String.raw`^\s*UPDATE\s+${IDENT}\s+SET\s+[\s\S]+?${TAIL}`, 'i');
const DELETE = new RegExp(String.raw`^\s*DELETE\s+FROM\s+${IDENT}${TAIL}`, 'i');

/** A point statement's shape: table, where its key comes from (a parameter's name or a literal), reads. */
interface Shape {
  table: string;
  param: string | null;
  literal: string;
  reads: boolean;
}

const SHAPES = new WeakMap<Schema, Lru<string, Shape | null>>();
const KEYS = new WeakMap<Schema, Map<string, string>>();

function unquote(name: string): string {
  return (name.startsWith('"') ? name.slice(1, -1).replace(/""/g, '"') : name).toLowerCase();
}

/** Each table's one-column primary key, by lower-case names. */
function singleKeys(schema: Schema): Map<string, string> {
  let keys = KEYS.get(schema);
  if (!keys) {
    keys = new Map();
    for (const t of schema.tables.values())
      if (t.primaryKey.length === 1) keys.set(t.name.toLowerCase(), t.primaryKey[0].toLowerCase());
    KEYS.set(schema, keys);
  }
  return keys;
}

function shapeOf(sql: string, schema: Schema): Shape | null {
  const m = SELECT.exec(sql) ?? UPDATE.exec(sql) ?? DELETE.exec(sql);
  if (!m) return null;
  const table = unquote(m[1]);
  if (singleKeys(schema).get(table) !== unquote(m[2])) return null;
  const v = m[3];
  return {
    table,
    param: v.startsWith('$') ? v.slice(1) : null,
    literal: v.startsWith("'") ? v.slice(1, -1).replace(/''/g, "'") : v,
    reads: /^\s*SELECT/i.test(sql),
  };
}

/** The one row a statement reads or writes, by its table's one-column primary key; null for other shapes. */
export function pointRow(sql: string, params: Record<string, SqlValue> | undefined, schema: Schema): PointRow | null {
  let known = SHAPES.get(schema);
  if (!known) SHAPES.set(schema, (known = new Lru(1024)));
  let shape = known.get(sql);
  if (shape === undefined) known.set(sql, (shape = shapeOf(sql, schema)));
  if (!shape) return null;
  let value: string = shape.literal;
  if (shape.param !== null) {
    const v = params?.[shape.param];
    if (v === undefined || v === null || v instanceof Uint8Array) return null;
    value = String(v); // 7 and '7' name the same row here: a claim too many only waits
  }
  return { key: `${shape.table}\0${value}`, reads: shape.reads };
}

/** One open deferred block's rows: those it read (claimed) and those it wrote. */
export class BlockRows {
  readonly claimed = new Set<string>();
  /** The rows it claimed by reading them (claimed also holds, from its COMMIT on, the rows it writes). */
  readonly read = new Set<string>();
  readonly written = new Set<string>();
  /** Past its COMMIT's wait: its commit is queued for the writer, ahead of every later one. */
  committing = false;
  /** The block this one waits for now. */
  waitingFor: BlockRows | null = null;
  ended = false;
  readonly #waiters: (() => void)[] = [];

  /** Resolves when the block ends, or after `ms`. */
  whenEnded(ms: number): Promise<void> {
    if (this.ended) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.#waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  _end(): void {
    this.ended = true;
    for (const w of this.#waiters.splice(0)) w();
  }
}

/** The claims of every open deferred block of one writer. */
export class RowClaims {
  readonly #claimants = new Map<string, Set<BlockRows>>();
  /**
   * The rows of the blocks holding the writer's transaction (Writer.hold): other blocks' statements
   * are tried out inside it and would read their uncommitted writes, so their reads of rows one of
   * them wrote wait until it ends (or is preempted).
   */
  readonly holders = new Set<BlockRows>();

  /** Another open block that `block` must wait for before reading `key` (null: none, or waiting would deadlock). */
  #blockerOfRead(block: BlockRows, key: string): BlockRows | null {
    const owners = this.#claimants.get(key);
    if (!owners) return null;
    for (const other of owners) {
      if (other === block || other.ended) continue;
      if ((other.written.has(key) || block.written.has(key)) && !this.#waitsFor(other, block)) return other;
    }
    return null;
  }

  /**
   * Another open block that claims a row `block` writes (null: none, or waiting would deadlock). A
   * block past its COMMIT's wait that only writes the row is not waited for: its commit does not
   * depend on the row's value, and its claim is there to hold readers back.
   */
  #blockerOfCommit(block: BlockRows, except?: ReadonlySet<BlockRows>): BlockRows | null {
    for (const key of block.written) {
      const owners = this.#claimants.get(key);
      if (!owners) continue;
      for (const other of owners) {
        if (other === block || other.ended || (other.committing && !other.read.has(key)) || except?.has(other))
          continue;
        if (!this.#waitsFor(other, block)) return other;
      }
    }
    return null;
  }

  /** Whether `from` waits, directly or through others, for `to`. */
  #waitsFor(from: BlockRows, to: BlockRows): boolean {
    for (let b: BlockRows | null = from, n = 0; b && n < 1000; b = b.waitingFor, n++) if (b === to) return true;
    return false;
  }

  /**
   * Waits while `blocker` names a block, then runs `free` in the same turn as the check that found
   * none (or once `limitMs` passed), so that no other block claims in between.
   */
  async #waitWhile(
    block: BlockRows,
    blocker: () => BlockRows | null,
    limitMs: number,
    free: () => void,
  ): Promise<void> {
    const until = Date.now() + limitMs;
    for (let other = blocker(); other && Date.now() < until; other = blocker()) {
      block.waitingFor = other;
      try {
        await other.whenEnded(until - Date.now());
      } finally {
        block.waitingFor = null;
      }
    }
    free();
  }

  #claim(block: BlockRows, key: string, read: boolean): void {
    if (block.ended) return; // its connection closed while it waited
    if (read) block.read.add(key);
    let owners = this.#claimants.get(key);
    if (!owners) this.#claimants.set(key, (owners = new Set()));
    owners.add(block);
    block.claimed.add(key);
  }

  /**
   * Notes that `block` is about to run `row`'s statement. A read waits (at most `limitMs`) while
   * another block claims the row and one of the two writes it, then claims it. Returns null when
   * nothing had to wait.
   */
  note(block: BlockRows, row: PointRow, limitMs: number): Promise<void> | null {
    if (!row.reads) {
      block.written.add(row.key);
      return null;
    }
    if (!this.#blockerOfRead(block, row.key)) {
      this.#claim(block, row.key, true);
      return null;
    }
    return this.#waitWhile(
      block,
      () => this.#blockerOfRead(block, row.key),
      limitMs,
      () => this.#claim(block, row.key, true),
    );
  }

  /**
   * Whether `block`'s COMMIT would wait now (beforeCommit) for another block that claims a row it
   * writes, but for the blocks `except` (those sharing its held transaction: SharedRows orders them).
   */
  commitBlocked(block: BlockRows, except?: ReadonlySet<BlockRows>): boolean {
    return this.#blockerOfCommit(block, except) !== null;
  }

  /**
   * Before `block`'s COMMIT: waits (at most `limitMs`) while another block claims a row it writes,
   * then claims the rows it writes until it ends, so that no block reads them between this check
   * and the commit. Returns null when nothing had to wait.
   */
  beforeCommit(block: BlockRows, limitMs: number): Promise<void> | null {
    const claimWritten = () => {
      block.committing = true;
      for (const key of block.written) this.#claim(block, key, false);
    };
    if (!this.#blockerOfCommit(block)) {
      claimWritten();
      return null;
    }
    return this.#waitWhile(block, () => this.#blockerOfCommit(block), limitMs, claimWritten);
  }

  /** The block ended (committed, failed, rolled back, or its connection closed): its claims go. */
  release(block: BlockRows): void {
    for (const key of block.claimed) {
      const owners = this.#claimants.get(key);
      owners?.delete(block);
      if (owners?.size === 0) this.#claimants.delete(key);
    }
    block.claimed.clear();
    block._end();
  }

  /** How many rows are claimed (for tests of release). */
  get size(): number {
    return this.#claimants.size;
  }
}

const REGISTRIES = new WeakMap<object, RowClaims>();

/** The claims of the blocks of one writer (`owner`: the engine's writer, shared by its sessions). */
export function rowClaimsOf(owner: object): RowClaims {
  let claims = REGISTRIES.get(owner);
  if (!claims) REGISTRIES.set(owner, (claims = new RowClaims()));
  return claims;
}

/**
 * What may run on a held transaction that other blocks share (Writer.hold): a point statement (its
 * one row is noted) with no subquery and not setting its key, or a one-row INSERT ... VALUES with no
 * subquery, upsert or RETURNING into a table with a rowid (its key is read back and noted). Neither
 * on a table that has a foreign key, is the target of one, or has a unique index besides its key:
 * their checks read rows no note covers. Anything else first ends the sharing (the transaction is
 * preempted, every block goes on deferred).
 */
export type SharedShape = { insert: null } | { insert: { table: string; keyQuery: string } };

const SHARED = new WeakMap<Schema, Lru<string, SharedShape | null>>();
const INSERT = new RegExp(
  String.raw`^\s*INSERT\s+INTO\s+${IDENT}\s*(?:\([^()]*\))?\s*VALUES\s*\(([\s\S]*)\)\s*;?\s*$`,
  'i',
);

/** Whether `table`'s writes check only its own key (see SharedShape). */
function keyOnly(schema: Schema, table: string): boolean {
  const def = [...schema.tables.values()].find((t) => t.name.toLowerCase() === table);
  if (def?.primaryKey.length !== 1) return false;
  if (/\bREFERENCES\b/i.test(def.sql) || def.indexes.some((i) => i.unique && i.origin !== 'pk')) return false;
  const named = new RegExp(String.raw`\bREFERENCES\s+"?${table.replace(/[^A-Za-z0-9_$]/g, '\\$&')}"?\b`, 'i');
  return ![...schema.tables.values()].some((t) => named.test(t.sql));
}

/** The text between VALUES' parentheses is one row: no parenthesis closes to the top level before the end. */
function oneRow(values: string): boolean {
  let depth = 0;
  for (let i = 0; i < values.length; i++) {
    const c = values[i];
    if (c === "'") {
      const end = values.indexOf("'", i + 1);
      if (end < 0) return false;
      i = end;
    } else if (c === '(') depth++;
    else if (c === ')' && --depth < 0) return false;
  }
  return depth === 0;
}

function sharedShapeOf(sql: string, schema: Schema): SharedShape | null {
  if ((sql.match(/\bSELECT\b/gi)?.length ?? 0) > (/^\s*SELECT\b/i.test(sql) ? 1 : 0)) return null;
  const point = shapeOf(sql, schema);
  if (point) {
    if (!point.reads) {
      if (!keyOnly(schema, point.table)) return null;
      const set = /^\s*UPDATE\s+\S+\s+SET\s+([\s\S]+?)\s+WHERE\s/i.exec(sql);
      const key = singleKeys(schema).get(point.table)!;
      if (set && new RegExp(String.raw`(^|,)\s*"?${key}"?\s*=`, 'i').test(set[1])) return null;
    }
    return { insert: null };
  }
  const m = INSERT.exec(sql);
  if (!m || !oneRow(m[2]) || /\b(ON\s+CONFLICT|RETURNING)\b/i.test(sql)) return null;
  const table = unquote(m[1]);
  const def = [...schema.tables.values()].find((t) => t.name.toLowerCase() === table);
  if (!def || !keyOnly(schema, table) || /WITHOUT\s+ROWID\s*;?\s*$/i.test(def.sql)) return null;
  const q = (n: string) => `"${n.replace(/"/g, '""')}"`;
  return {
    insert: { table, keyQuery: `SELECT ${q(def.primaryKey[0])} FROM ${q(def.name)} WHERE rowid = last_insert_rowid()` },
  };
}

/** How a statement may run on a held transaction other blocks share; null when it may not (see SharedShape). */
export function sharedShape(sql: string, schema: Schema): SharedShape | null {
  let known = SHARED.get(schema);
  if (!known) SHARED.set(schema, (known = new Lru(1024)));
  let shape = known.get(sql);
  if (shape === undefined) known.set(sql, (shape = sharedShapeOf(sql, schema)));
  return shape;
}

/**
 * The order the blocks sharing one held transaction must commit in, as far as their rows tell. They
 * commit together, in one SQLite COMMIT; what each was told must hold in some serial order of them,
 * also should the transaction be preempted and each go on deferred (then the row claims order them).
 * So a block never reads a row another of them wrote (it would be told what no order after a
 * preemption may keep: the read preempts first, and is tried out on the last commit); a block that
 * writes a row others wrote or read comes after them, and a write that would close a cycle of
 * such "after"s preempts too.
 */
export class SharedRows {
  readonly #after = new Map<BlockRows, Set<BlockRows>>();

  /** Whether `a` comes after `b`, directly or through others. */
  #comesAfter(a: BlockRows, b: BlockRows): boolean {
    const seen = new Set<BlockRows>();
    const stack = [a];
    while (stack.length > 0) {
      const x = stack.pop()!;
      for (const y of this.#after.get(x) ?? []) {
        if (y === b) return true;
        if (!seen.has(y)) {
          seen.add(y);
          stack.push(y);
        }
      }
    }
    return false;
  }

  /**
   * `block` (one of `sharing`) is about to read, or write, row `key` (a write is noted in its
   * BlockRows.written by the caller). False, noting nothing, when it may not: a read of a row another
   * wrote, or a write that would close a cycle.
   */
  touch(block: BlockRows, key: string, writes: boolean, sharing: Iterable<BlockRows>): boolean {
    const before: BlockRows[] = [];
    for (const other of sharing) {
      if (other === block) continue;
      if (other.written.has(key)) {
        if (!writes) return false;
        before.push(other);
      } else if (writes && other.read.has(key)) before.push(other);
    }
    for (const b of before) if (this.#comesAfter(b, block)) return false;
    if (before.length > 0) {
      let mine = this.#after.get(block);
      if (!mine) this.#after.set(block, (mine = new Set()));
      for (const b of before) mine.add(b);
    }
    return true;
  }
}

const SHARED_ROWS = new WeakMap<object, SharedRows>();

/** The rows of the blocks sharing one held transaction (`held`: its Writer.hold identity). */
export function sharedRowsOf(held: object): SharedRows {
  let rows = SHARED_ROWS.get(held);
  if (!rows) SHARED_ROWS.set(held, (rows = new SharedRows()));
  return rows;
}
