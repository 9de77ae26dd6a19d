import type { SqlValue } from '../engine/values';
import type { RemoteColumn, RemoteRow } from '../crdt/merge';

/**
 * Values on the peer wire: JSON strings tagged with their SQLite type, so that plain JSON.parse (fast,
 * native) reads them back exactly. `i` INTEGER (decimal digits, 64-bit exact), `r` REAL (shortest
 * round-trip text), `t` TEXT, `b` BLOB (base64); NULL is null. A REAL that holds an integral value
 * stays REAL, which matters to the merge's type order.
 */
export type WireValue = string | null;

export function encodeValue(v: SqlValue | undefined): WireValue {
  if (v === null || v === undefined) return null;
  switch (typeof v) {
    case 'bigint':
      return 'i' + v.toString();
    case 'number':
      // better-sqlite3 with safe integers returns INTEGER as bigint, so a number is a REAL.
      return 'r' + String(v);
    case 'string':
      return 't' + v;
  }
  return 'b' + Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64');
}

export function decodeValue(w: WireValue): SqlValue {
  if (w === null) return null;
  const body = w.slice(1);
  switch (w.charCodeAt(0)) {
    case 105 /* i */:
      return BigInt(body);
    case 114 /* r */:
      return Number(body);
    case 116 /* t */:
      return body;
    case 98 /* b */:
      return Buffer.from(body, 'base64');
  }
  throw new Error(`bad value on the peer wire: ${JSON.stringify(w.slice(0, 20))}`);
}

/**
 * The clock entries of one row in one changeset, flat for a fast JSON.parse: the table, the encoded
 * primary key (base64), the row's causal length, the seq of the sentinel's change (-1 when this
 * version did not change the sentinel), then per column: name, value, col_version, seq. The
 * origin's site id and db_version are those of the changeset carrying the row.
 */
export type WireRow = (string | number | null)[];

/** A changeset, or one chunk of a large one (`part` from 0; `end` on the last). */
export interface WireChangeset {
  /** Origin site id, hex. */
  a: string;
  /** Origin db_version. */
  v: number;
  r: WireRow[];
  part: number;
  end: boolean;
  /** Push only: the peers this agent passes it on to (its part of the push tree). */
  to?: string[];
}

/** Versions of an origin that exist but have nothing left to send: every change was overwritten. */
export interface WireCleared {
  a: string;
  cleared: [number, number];
}

/** Per origin: the highest version seen and the ranges below it not seen yet. */
export type WireHeads = Record<string, { head: number; gaps: [number, number][] }>;

/** Turns wire rows back into the merge's rows. */
export function decodeRows(rows: WireRow[]): RemoteRow[] {
  return rows.map((w) => {
    const cols: RemoteColumn[] = [];
    for (let i = 4; i + 3 < w.length; i += 4) {
      cols.push({
        cid: w[i] as string,
        val: decodeValue(w[i + 1] as WireValue),
        colVersion: w[i + 2] as number,
        seq: w[i + 3] as number,
      });
    }
    const sentinelSeq = w[3] as number;
    return {
      table: w[0] as string,
      pk: Buffer.from(w[1] as string, 'base64'),
      cl: w[2] as number,
      sentinelSeq: sentinelSeq < 0 ? null : sentinelSeq,
      cols,
    };
  });
}
