import type Database from 'better-sqlite3';
import { sqlStateError } from '../errors';
import { byteaInput } from './pg-strings';

// PostgreSQL's functions of a bytea's bytes and bits (get_byte, set_byte, get_bit, set_bit) and its
// encoding conversions (convert_to, convert_from, convert), which SQLite has no counterpart of. The
// database's encoding is UTF8, as PostgreSQL's here: text is UTF-8, a conversion reads or writes
// the other encoding's bytes. The single-byte encodings convert by a table (LATIN1 exactly, the
// others as the WHATWG tables that Node's TextDecoder holds); the multi-byte ones (SJIS, EUC_JP,
// BIG5, ...) are a clear 0A000. NULL in, NULL out: these are strict there.

const bytes = (x: unknown): Buffer => (x instanceof Uint8Array ? Buffer.from(x) : byteaInput(String(x)));

/** 2202E for an index past the bytes (or bits), as byteaGetByte and its kin word it. */
function checkIndex(n: number, count: number): void {
  if (!Number.isInteger(n) || n < 0 || n >= count)
    throw sqlStateError('2202E', `index ${n} out of valid range, 0..${count - 1}`);
}

/**
 * PostgreSQL's encoding names (pg_encname_tbl in encnames.c) as clean_encoding_name leaves them
 * (lower case, letters and digits only) → the encoding's name; `abc` is WIN1258 there.
 */
const ENCODING_NAMES: Record<string, string> = Object.create(null);
for (const [name, aliases] of Object.entries({
  UTF8: 'utf8 unicode',
  SQL_ASCII: 'sqlascii',
  LATIN1: 'latin1 iso88591',
  LATIN2: 'latin2 iso88592',
  LATIN3: 'latin3 iso88593',
  LATIN4: 'latin4 iso88594',
  LATIN5: 'latin5 iso88599',
  LATIN6: 'latin6 iso885910',
  LATIN7: 'latin7 iso885913',
  LATIN8: 'latin8 iso885914',
  LATIN9: 'latin9 iso885915',
  LATIN10: 'latin10 iso885916',
  ISO_8859_5: 'iso88595',
  ISO_8859_6: 'iso88596',
  ISO_8859_7: 'iso88597',
  ISO_8859_8: 'iso88598',
  WIN1250: 'win1250 windows1250',
  WIN1251: 'win1251 windows1251 win',
  WIN1252: 'win1252 windows1252',
  WIN1253: 'win1253 windows1253',
  WIN1254: 'win1254 windows1254',
  WIN1255: 'win1255 windows1255',
  WIN1256: 'win1256 windows1256',
  WIN1257: 'win1257 windows1257',
  WIN1258: 'win1258 windows1258 abc tcvn tcvn5712 vscii',
  WIN866: 'win866 windows866 alt',
  WIN874: 'win874 windows874',
  KOI8R: 'koi8r koi8',
  KOI8U: 'koi8u',
  SJIS: 'sjis shiftjis mskanji win932 windows932',
  SHIFT_JIS_2004: 'shiftjis2004',
  EUC_JP: 'eucjp',
  EUC_CN: 'euccn',
  EUC_KR: 'euckr',
  EUC_TW: 'euctw',
  EUC_JIS_2004: 'eucjis2004',
  BIG5: 'big5 win950 windows950',
  GBK: 'gbk win936 windows936',
  UHC: 'uhc win949 windows949',
  GB18030: 'gb18030',
  JOHAB: 'johab',
  MULE_INTERNAL: 'muleinternal',
}))
  for (const alias of aliases.split(' ')) ENCODING_NAMES[alias] = name;

/** The single-byte encodings' WHATWG labels (TextDecoder's); LATIN1 is Buffer's latin1, exactly ISO 8859-1. */
const SINGLE_BYTE: Record<string, string> = {
  LATIN2: 'iso-8859-2',
  LATIN3: 'iso-8859-3',
  LATIN4: 'iso-8859-4',
  LATIN5: 'iso-8859-9',
  LATIN6: 'iso-8859-10',
  LATIN7: 'iso-8859-13',
  LATIN8: 'iso-8859-14',
  LATIN9: 'iso-8859-15',
  ISO_8859_5: 'iso-8859-5',
  ISO_8859_6: 'iso-8859-6',
  ISO_8859_7: 'iso-8859-7',
  ISO_8859_8: 'iso-8859-8',
  WIN1250: 'windows-1250',
  WIN1251: 'windows-1251',
  WIN1252: 'windows-1252',
  WIN1253: 'windows-1253',
  WIN1254: 'windows-1254',
  WIN1255: 'windows-1255',
  WIN1256: 'windows-1256',
  WIN1257: 'windows-1257',
  WIN1258: 'windows-1258',
  WIN866: 'ibm866',
  WIN874: 'windows-874',
  KOI8R: 'koi8-r',
  KOI8U: 'koi8-u',
};

/** An encoding's characters by byte (index 0x80..0xff; '' where the byte has none), built when first used. */
const tables = new Map<string, string[]>();
function tableOf(enc: string): string[] {
  let t = tables.get(enc);
  if (!t) {
    const label = SINGLE_BYTE[enc];
    if (enc !== 'LATIN1' && !label) throw unsupported(enc);
    let decoder: InstanceType<typeof TextDecoder> | undefined;
    try {
      decoder = label ? new TextDecoder(label, { fatal: true }) : undefined;
    } catch {
      throw unsupported(enc);
    }
    t = Array.from({ length: 256 }, (_, b) => {
      if (!decoder) return String.fromCharCode(b);
      try {
        return decoder.decode(Uint8Array.of(b));
      } catch {
        return '';
      }
    });
    tables.set(enc, t);
  }
  return t;
}

const unsupported = (enc: string) =>
  sqlStateError('0A000', `conversion between UTF8 and ${enc} is not supported by Patina's PostgreSQL front end`);

/** The encoding PostgreSQL knows by this name (any case, punctuation ignored), or undefined. */
export function encodingNamed(name: string): string | undefined {
  return ENCODING_NAMES[name.toLowerCase().replace(/[^a-z0-9]/g, '')];
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
  const table = tableOf(enc);
  let out = '';
  for (const c of b) {
    if (c === 0) throw sqlStateError('22021', `invalid byte sequence for encoding "${enc}": 0x00`);
    const ch = table[c];
    if (!ch)
      throw sqlStateError(
        '22P05',
        `character with byte sequence ${hexBytes(Uint8Array.of(c))} in encoding "${enc}" has no equivalent in encoding "UTF8"`,
      );
    out += ch;
  }
  return out;
}

/** Text (UTF-8) as bytes in `enc`: 22P05 for a character `enc` has not. */
function encodeTo(s: string, enc: string): Buffer {
  if (enc === 'UTF8' || enc === 'SQL_ASCII') return Buffer.from(s, 'utf8');
  const table = tableOf(enc);
  const byChar = new Map<string, number>();
  for (let c = 0; c < 256; c++) if (table[c] && !byChar.has(table[c])) byChar.set(table[c], c);
  const out: number[] = [];
  for (const ch of s) {
    const c = byChar.get(ch);
    if (c === undefined)
      throw sqlStateError(
        '22P05',
        `character with byte sequence ${hexBytes(Buffer.from(ch, 'utf8'))} in encoding "UTF8" has no equivalent in encoding "${enc}"`,
      );
    out.push(c);
  }
  return Buffer.from(out);
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
