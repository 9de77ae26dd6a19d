import type { SqlValue } from '../engine/values';

/*
 * Primary-key encoding: a row's identity in the clock tables and on the wire, so it must be the
 * same bytes on every machine (no host byte order, no locale, no JS number rounding).
 *
 *   byte 0              number of key columns (1..255)
 *   then per column     one type tag byte, then its payload:
 *     0x00 NULL         nothing
 *     0x01 INTEGER      8 bytes, big-endian two's complement (64-bit exact)
 *     0x02 REAL         8 bytes, IEEE 754 binary64, big-endian
 *     0x03 TEXT         4-byte big-endian byte length, then the UTF-8 bytes
 *     0x04 BLOB         4-byte big-endian byte length, then the bytes
 *
 * Values are taken as SQLite stores them (after column affinity): an INTEGER is a bigint when
 * read with safe integers on; a JS number is a REAL.
 */

const NULL = 0x00;
const INTEGER = 0x01;
const REAL = 0x02;
const TEXT = 0x03;
const BLOB = 0x04;

/** Encodes primary-key values (in key-column order) into the agreed bytes. */
export function encodePk(values: readonly unknown[]): Buffer {
  if (values.length === 0 || values.length > 255)
    throw new Error(`a primary key has 1 to 255 columns, got ${values.length}`);
  let size = 1;
  const texts: (Buffer | null)[] = values.map((v) => (typeof v === 'string' ? Buffer.from(v, 'utf8') : null));
  values.forEach((v, i) => {
    if (v === null || v === undefined) size += 1;
    else if (typeof v === 'bigint' || typeof v === 'number') size += 9;
    else if (typeof v === 'string') size += 5 + texts[i]!.length;
    else if (v instanceof Uint8Array) size += 5 + v.length;
    else throw new Error(`cannot encode a primary-key value of type ${typeof v}`);
  });
  const out = Buffer.allocUnsafe(size);
  out[0] = values.length;
  let o = 1;
  values.forEach((v, i) => {
    if (v === null || v === undefined) {
      out[o++] = NULL;
    } else if (typeof v === 'bigint') {
      out[o++] = INTEGER;
      out.writeBigInt64BE(v, o);
      o += 8;
    } else if (typeof v === 'number') {
      out[o++] = REAL;
      out.writeDoubleBE(v, o);
      o += 8;
    } else {
      const bytes = typeof v === 'string' ? texts[i]! : (v as Uint8Array);
      out[o++] = typeof v === 'string' ? TEXT : BLOB;
      out.writeUInt32BE(bytes.length, o);
      o += 4;
      out.set(bytes, o);
      o += bytes.length;
    }
  });
  return out;
}

/**
 * decodePk of the bytes given as hex (SQLite's hex(): upper case), as change capture reads touched
 * rows' keys; a key of one INTEGER column, the common case, without a Buffer.
 */
export function decodePkHex(hex: string): SqlValue[] {
  if (hex.length === 20 && hex.startsWith('0101')) return [BigInt.asIntN(64, BigInt(`0x${hex.slice(4)}`))];
  return decodePk(Buffer.from(hex, 'hex'));
}

/** Decodes encodePk's bytes back into values: INTEGER as bigint, REAL as number, BLOB as Buffer. */
export function decodePk(buf: Uint8Array): SqlValue[] {
  const b = Buffer.isBuffer(buf) ? buf : Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  const n = b[0];
  const out: SqlValue[] = [];
  let o = 1;
  for (let i = 0; i < n; i++) {
    const tag = b[o++];
    switch (tag) {
      case NULL:
        out.push(null);
        break;
      case INTEGER:
        out.push(b.readBigInt64BE(o));
        o += 8;
        break;
      case REAL:
        out.push(b.readDoubleBE(o));
        o += 8;
        break;
      case TEXT:
      case BLOB: {
        const len = b.readUInt32BE(o);
        o += 4;
        const bytes = b.subarray(o, o + len);
        out.push(tag === TEXT ? bytes.toString('utf8') : Buffer.from(bytes));
        o += len;
        break;
      }
      default:
        throw new Error(`malformed primary key: unknown type tag ${tag} at byte ${o - 1}`);
    }
  }
  if (o !== b.length) throw new Error(`malformed primary key: ${b.length - o} bytes left over`);
  return out;
}
