import type Database from 'better-sqlite3';
import { sqlStateError } from '../errors';
import { byteaInput } from './pg-strings';
import { type Charset, charsetOf, encodingNamed } from './encodings/client-encodings';

// PostgreSQL's functions of a bytea's bytes and bits (get_byte, set_byte, get_bit, set_bit) and its
// encoding conversions (convert_to, convert_from, convert), which SQLite has no counterpart of. The
// database's encoding is UTF8, as PostgreSQL's here: text is UTF-8, a conversion reads or writes
// the other encoding's bytes, by the conversions the client encodings use (encodings/client-encodings.ts:
// PostgreSQL's tables, single-byte and SJIS, EUC_JP, BIG5, GBK, ...; the few Patina has none of, as
// EUC_TW or MULE_INTERNAL, a clear 0A000). NULL in, NULL out: these are strict there.

const bytes = (x: unknown): Buffer => (x instanceof Uint8Array ? Buffer.from(x) : byteaInput(String(x)));

/** 2202E for an index past the bytes (or bits), as byteaGetByte and its kin word it. */
function checkIndex(n: number, count: number): void {
  if (!Number.isInteger(n) || n < 0 || n >= count)
    throw sqlStateError('2202E', `index ${n} out of valid range, 0..${count - 1}`);
}

const unsupported = (enc: string) =>
  sqlStateError('0A000', `conversion between UTF8 and ${enc} is not supported by Patina's PostgreSQL front end`);

/** (catalog-functions.ts's pg_char_to_encoding reads the names here too.) */
export { encodingNamed };

/** The conversion of a database encoding other than UTF8 and SQL_ASCII (the client encodings'); 0A000 for one Patina has none of. */
function charsetFor(enc: string): Charset {
  const c = charsetOf(enc);
  if (!c) throw unsupported(enc);
  return c;
}

/** The encoding an argument names: 22023 for a name PostgreSQL does not know. */
function encodingOf(name: unknown, side: 'source' | 'destination'): string {
  const enc = encodingNamed(String(name));
  if (!enc) throw sqlStateError('22023', `invalid ${side} encoding name "${String(name)}"`);
  return enc;
}

const hexBytes = (b: Uint8Array) => [...b].map((c) => `0x${c.toString(16).padStart(2, '0')}`).join(' ');

/** The bytes a UTF-8 character's lead byte announces (pg_utf8_mblen). */
const utf8Length = (c: number) =>
  c < 0x80 ? 1 : (c & 0xe0) === 0xc0 ? 2 : (c & 0xf0) === 0xe0 ? 3 : (c & 0xf8) === 0xf0 ? 4 : 1;

/** UTF-8 as PostgreSQL's pg_verify_mbstr checks it: 22021 naming the first bad sequence's bytes (a zero byte too). */
function checkUtf8(b: Buffer, enc = 'UTF8'): void {
  for (let i = 0; i < b.length; ) {
    const n = utf8Length(b[i]);
    const seq = b.subarray(i, i + n);
    const cp = n === 1 ? b[i] : legalCodePoint(seq, n);
    if (b[i] === 0 || (n === 1 && b[i] >= 0x80) || cp < 0)
      throw sqlStateError('22021', `invalid byte sequence for encoding "${enc}": ${hexBytes(seq)}`);
    i += n;
  }
}

/** The code point of an n-byte UTF-8 sequence, or -1 where pg_utf8_islegal refuses it (short, overlong, a surrogate, past U+10FFFF). */
function legalCodePoint(seq: Uint8Array, n: number): number {
  if (seq.length < n) return -1;
  let cp = seq[0] & (0xff >> (n + 1));
  for (let k = 1; k < n; k++) {
    if ((seq[k] & 0xc0) !== 0x80) return -1;
    cp = (cp << 6) | (seq[k] & 0x3f);
  }
  const min = n === 2 ? 0x80 : n === 3 ? 0x800 : 0x10000;
  return cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) ? -1 : cp;
}

/** Bytes in `enc` as text (UTF-8): 22021 for a byte sequence that is not `enc`'s, 22P05 for a character with no Unicode equivalent. */
function decodeFrom(b: Buffer, enc: string): string {
  if (enc === 'UTF8' || enc === 'SQL_ASCII') {
    // (SQL_ASCII's bytes are taken as they are, into a UTF8 database: checked as its text is)
    checkUtf8(b);
    return b.toString('utf8');
  }
  const charset = charsetFor(enc);
  // (a zero byte is no character of any encoding: PostgreSQL's pg_verify_mbstr refuses it)
  const zero = b.indexOf(0);
  if (zero >= 0) throw sqlStateError('22021', `invalid byte sequence for encoding "${enc}": 0x00`);
  return charset.decode(b);
}

/** Text (UTF-8) as bytes in `enc`: 22P05 for a character `enc` has not. */
function encodeTo(s: string, enc: string): Buffer {
  if (enc === 'UTF8' || enc === 'SQL_ASCII') return Buffer.from(s, 'utf8');
  return charsetFor(enc).encode(s);
}

export function installPgByteaFunctions(db: Database.Database): void {
  const fn = (name: string, f: (...args: unknown[]) => unknown) =>
    db.function(name, { deterministic: true, varargs: true, safeIntegers: true }, (...args: unknown[]) =>
      args.some((a) => a === null || a === undefined) ? null : (f(...args) as never),
    );
  fn('get_byte', (b, n) => {
    const bs = bytes(b);
    checkIndex(Number(n), bs.length);
    return bs[Number(n)];
  });
  // (the new byte is the int's low 8 bits, as the C cast to char makes it: 257 is 1, -1 is 255)
  fn('set_byte', (b, n, v) => {
    const bs = bytes(b);
    checkIndex(Number(n), bs.length);
    bs[Number(n)] = Number(BigInt.asUintN(8, BigInt(v as number | bigint)));
    return bs;
  });
  // bit n is bit n % 8 of byte n / 8, from the least significant
  fn('get_bit', (b, n) => {
    const bs = bytes(b);
    checkIndex(Number(n), bs.length * 8);
    return (bs[Math.floor(Number(n) / 8)] >> (Number(n) % 8)) & 1;
  });
  fn('set_bit', (b, n, v) => {
    const bs = bytes(b);
    checkIndex(Number(n), bs.length * 8);
    const bit = Number(v);
    if (bit !== 0 && bit !== 1) throw sqlStateError('22023', 'new bit must be 0 or 1');
    const at = Math.floor(Number(n) / 8);
    const mask = 1 << (Number(n) % 8);
    bs[at] = bit ? bs[at] | mask : bs[at] & ~mask;
    return bs;
  });
  fn('convert_to', (s, enc) => encodeTo(String(s), encodingOf(enc, 'destination')));
  fn('convert_from', (b, enc) => decodeFrom(bytes(b), encodingOf(enc, 'source')));
  fn('convert', (b, from, to) => {
    const src = encodingOf(from, 'source');
    const dst = encodingOf(to, 'destination');
    return encodeTo(decodeFrom(bytes(b), src), dst);
  });
}
