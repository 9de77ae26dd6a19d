// The client encodings (client_encoding) as PostgreSQL names them, and the ones Patina converts:
// UTF8 and SQL_ASCII need nothing (the server encoding is UTF8; PostgreSQL converts nothing for a
// SQL_ASCII client and checks its text as UTF8), the single-byte encodings are converted through a
// table of their 128 upper bytes, the multi-byte ones (SJIS, EUC_JP, BIG5, GBK...) in multibyte.ts.
// EUC_TW, JOHAB, EUC_JIS_2004 and SHIFT_JIS_2004 are refused: iconv-lite has no tables of them.
import iconv from 'iconv-lite';
import { type PatinaError, sqlStateError } from '../../errors';
import { hex, MULTI_BYTE, MultiByteCharset, noEquivalent } from './multibyte';
import { lookup } from '../../lookup';

/** A client encoding that is not UTF-8: text from the client decoded by it, text to the client encoded in it. */
export interface Charset {
  readonly name: string;
  /** `b` (bytes of this encoding) as text; PostgreSQL's 22021 or 22P05 (with `at`, where) for bytes it cannot read. */
  decode(b: Uint8Array): string;
  /** `b` as text but for a character cut off at its end, and how many bytes that is (COPY data's pieces). */
  decodeStream(b: Uint8Array): [string, number];
  /** `s` in this encoding, or PostgreSQL's 22P05 naming the UTF-8 bytes of a character it has none for. */
  encode(s: string): Buffer;
  /** A single-byte encoding's: writes `s` into `buf` at `at` (a byte a character: room for s.length bytes made); the bytes written. */
  encodeInto?(s: string, buf: Buffer, at: number): number;
}

/** PostgreSQL's spellings of each encoding, cleaned as it cleans them (letters and digits, lower case), to its name. */
const NAMES: Record<string, string> = lookup({
  abc: 'WIN1258',
  alt: 'WIN866',
  big5: 'BIG5',
  euccn: 'EUC_CN',
  eucjis2004: 'EUC_JIS_2004',
  eucjp: 'EUC_JP',
  euckr: 'EUC_KR',
  euctw: 'EUC_TW',
  gb18030: 'GB18030',
  gbk: 'GBK',
  iso88591: 'LATIN1',
  iso88592: 'LATIN2',
  iso88593: 'LATIN3',
  iso88594: 'LATIN4',
  iso88595: 'ISO_8859_5',
  iso88596: 'ISO_8859_6',
  iso88597: 'ISO_8859_7',
  iso88598: 'ISO_8859_8',
  iso88599: 'LATIN5',
  iso885910: 'LATIN6',
  iso885913: 'LATIN7',
  iso885914: 'LATIN8',
  iso885915: 'LATIN9',
  iso885916: 'LATIN10',
  johab: 'JOHAB',
  koi8: 'KOI8R',
  koi8r: 'KOI8R',
  koi8u: 'KOI8U',
  mskanji: 'SJIS',
  muleinternal: 'MULE_INTERNAL',
  shiftjis: 'SJIS',
  shiftjis2004: 'SHIFT_JIS_2004',
  sjis: 'SJIS',
  sqlascii: 'SQL_ASCII',
  tcvn: 'WIN1258',
  tcvn5712: 'WIN1258',
  uhc: 'UHC',
  unicode: 'UTF8',
  utf8: 'UTF8',
  vscii: 'WIN1258',
  win: 'WIN1251',
  win932: 'SJIS',
  win936: 'GBK',
  win949: 'UHC',
  win950: 'BIG5',
  windows932: 'SJIS',
  windows936: 'GBK',
  windows949: 'UHC',
  windows950: 'BIG5',
});
for (let n = 1; n <= 10; n++) NAMES[`latin${n}`] = `LATIN${n}`;
for (const n of ['866', '874', '1250', '1251', '1252', '1253', '1254', '1255', '1256', '1257', '1258'])
  NAMES[`win${n}`] = NAMES[`windows${n}`] = `WIN${n}`;

/**
 * The single-byte encodings Patina converts, with the WHATWG label Node's TextDecoder decodes their
 * upper half by (null: made here). A byte PostgreSQL has no character for (22P05) is one decoded to
 * a C1 control (U+0080-U+009F) by a windows-* label (WIN1252's 0x81), to a private-use character
 * (WIN874's 0xDB), or one of UNDEFINED. LATIN10 is iconv-lite's ISO-8859-16 (Node has no decoder
 * of it), the same as PostgreSQL's byte for byte.
 */
const SINGLE_BYTE: Record<string, string | null> = lookup({
  LATIN1: null,
  LATIN2: 'iso-8859-2',
  LATIN3: 'iso-8859-3',
  LATIN4: 'iso-8859-4',
  LATIN5: null,
  LATIN6: 'iso-8859-10',
  LATIN7: 'iso-8859-13',
  LATIN8: 'iso-8859-14',
  LATIN9: 'iso-8859-15',
  LATIN10: null,
  ISO_8859_5: 'iso-8859-5',
  ISO_8859_6: 'iso-8859-6',
  ISO_8859_7: 'iso-8859-7',
  ISO_8859_8: 'iso-8859-8',
  KOI8R: 'koi8-r',
  KOI8U: 'koi8-u',
  WIN866: 'ibm866',
  WIN874: 'windows-874',
  WIN1250: 'windows-1250',
  WIN1251: 'windows-1251',
  WIN1252: null,
  WIN1253: 'windows-1253',
  WIN1254: 'windows-1254',
  WIN1255: 'windows-1255',
  WIN1256: 'windows-1256',
  WIN1257: 'windows-1257',
  WIN1258: 'windows-1258',
});

/** Where a byte has no character. */
const NONE = 0xffff;

/** Bytes WHATWG's tables decode and PostgreSQL's do not. */
const UNDEFINED: Record<string, number[]> = lookup({ WIN1253: [0xaa] });

/** Whether PostgreSQL has no character for what TextDecoder(label) decodes byte `b` to (`c`). */
function undefinedIn(name: string, label: string, b: number, c: number): boolean {
  if (c === 0xfffd || (c >= 0xe000 && c <= 0xf8ff)) return true;
  if (label.startsWith('windows-') && c >= 0x80 && c < 0xa0) return true;
  return UNDEFINED[name]?.includes(b) ?? false;
}

/**
 * The characters of bytes 0x80-0xFF of the encodings made here. Node decodes `windows-1252` as
 * Latin-1 (and WHATWG's `iso-8859-9` is windows-1254), so these are written out: WIN1252 is Latin-1
 * with its own 0x80-0x9F, LATIN5 Latin-1 with six Turkish letters.
 */
function upperHalf(name: string): number[] {
  if (name === 'LATIN10')
    return Array.from(iconv.decode(Buffer.from(Array.from({ length: 128 }, (_, i) => 0x80 + i)), 'iso-8859-16'), (ch) =>
      ch.charCodeAt(0),
    );
  const latin1 = Array.from({ length: 128 }, (_, i) => 0x80 + i);
  if (name === 'WIN1252') {
    const c1 = [
      0x20ac,
      NONE,
      0x201a,
      0x0192,
      0x201e,
      0x2026,
      0x2020,
      0x2021,
      0x02c6,
      0x2030,
      0x0160,
      0x2039,
      0x0152,
      NONE,
      0x017d,
      NONE,
      NONE,
      0x2018,
      0x2019,
      0x201c,
      0x201d,
      0x2022,
      0x2013,
      0x2014,
      0x02dc,
      0x2122,
      0x0161,
      0x203a,
      0x0153,
      NONE,
      0x017e,
      0x0178,
    ];
    return [...c1, ...latin1.slice(32)];
  }
  if (name === 'LATIN5')
    for (const [b, c] of [
      [0xd0, 0x011e],
      [0xdd, 0x0130],
      [0xde, 0x015e],
      [0xf0, 0x011f],
      [0xfd, 0x0131],
      [0xfe, 0x015f],
    ])
      latin1[b - 0x80] = c;
  return latin1;
}

/** A single-byte client encoding. */
export class SingleByteCharset implements Charset {
  readonly name: string;
  /** The character of each byte (NONE: none). */
  readonly #decode = new Uint16Array(256);
  /** The byte of each character below U+10000 (0: none, but for U+0000). */
  readonly #encode = new Uint8Array(65536);

  constructor(name: string, label: string | null) {
    this.name = name;
    const upper =
      label === null
        ? upperHalf(name)
        : Array.from(new TextDecoder(label).decode(Uint8Array.from({ length: 128 }, (_, i) => 0x80 + i)), (ch, i) => {
            const c = ch.charCodeAt(0);
            return undefinedIn(name, label, 0x80 + i, c) ? NONE : c;
          });
    for (let b = 0; b < 256; b++) {
      const c = b < 0x80 ? b : upper[b - 0x80];
      this.#decode[b] = c;
      if (c !== NONE) this.#encode[c] = b;
    }
  }

  /** `b` (bytes of this encoding) as text; PostgreSQL's 22P05 for a byte it has no character for, with `at`, where it is. */
  decode(b: Uint8Array): string {
    const table = this.#decode;
    const units = new Uint16Array(b.length);
    for (let i = 0; i < b.length; i++) {
      const c = table[b[i]];
      if (c === NONE) throw Object.assign(this.#noCharacter(b[i]), { at: i });
      units[i] = c;
    }
    let s = '';
    for (let i = 0; i < units.length; i += 8192)
      s += String.fromCharCode.apply(null, units.subarray(i, i + 8192) as unknown as number[]);
    return s;
  }

  decodeStream(b: Uint8Array): [string, number] {
    return [this.decode(b), 0]; // (a byte is a character: none is cut)
  }

  /** `s` in this encoding, or PostgreSQL's 22P05 naming the UTF-8 bytes of a character it has none for. */
  encode(s: string): Buffer {
    const out = Buffer.allocUnsafe(s.length);
    return out.subarray(0, this.encodeInto(s, out, 0));
  }

  /** Writes `s` into `buf` at `at` (room for s.length bytes made); the bytes written. */
  encodeInto(s: string, buf: Buffer, at: number): number {
    const table = this.#encode;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      const b = c < 0x80 ? c : table[c];
      if (b === 0 && c !== 0) throw noEquivalent(String.fromCodePoint(s.codePointAt(i)!), this.name);
      buf[at + i] = b;
    }
    return s.length;
  }

  #noCharacter(byte: number): PatinaError {
    return sqlStateError(
      '22P05',
      `character with byte sequence ${hex(byte)} in encoding "${this.name}" has no equivalent in encoding "UTF8"`,
    ) as PatinaError;
  }
}

/** The charsets made so far (a table is made once, at its first client). */
const CHARSETS = new Map<string, Charset>();

/** The conversion of client encoding `name` (as clientEncodingName gives it); null for UTF8 and SQL_ASCII, which need none. */
export function charsetOf(name: string): Charset | null {
  const label = SINGLE_BYTE[name];
  if (label === undefined && !(name in MULTI_BYTE)) return null;
  let c = CHARSETS.get(name);
  if (!c)
    CHARSETS.set(name, (c = label === undefined ? new MultiByteCharset(name) : new SingleByteCharset(name, label)));
  return c;
}

/** The encoding PostgreSQL knows by this name (any case, punctuation ignored: `Latin-1`, `iso88591`), or undefined. */
export function encodingNamed(value: string): string | undefined {
  return NAMES[value.toLowerCase().replace(/[^a-z0-9]/g, '')];
}

/**
 * client_encoding's value as PostgreSQL names it (`latin1`, `ISO-8859-1` and `'Latin 1'` are LATIN1),
 * or its error: 22023 for a name it has no encoding of, 0A000 for MULE_INTERNAL (PostgreSQL has no
 * conversion from UTF8) and for EUC_TW, JOHAB, EUC_JIS_2004 and SHIFT_JIS_2004, which Patina does not convert.
 */
export function clientEncodingName(value: string): string {
  const name = encodingNamed(value);
  const invalid = () => sqlStateError('22023', `invalid value for parameter "client_encoding": "${value}"`);
  if (name === undefined) throw invalid();
  if (name === 'MULE_INTERNAL')
    throw Object.assign(sqlStateError('0A000', `invalid value for parameter "client_encoding": "${value}"`), {
      detail: 'Conversion between MULE_INTERNAL and UTF8 is not supported.',
    });
  if (name !== 'UTF8' && name !== 'SQL_ASCII' && !(name in SINGLE_BYTE) && !(name in MULTI_BYTE))
    throw sqlStateError(
      '0A000',
      `client_encoding "${name}" is not supported by Patina: it converts UTF8, SQL_ASCII, the single-byte encodings (LATIN1 to LATIN10, ISO_8859_5 to ISO_8859_8, WIN866, WIN874, WIN1250 to WIN1258, KOI8R, KOI8U) and SJIS, EUC_JP, EUC_CN, EUC_KR, UHC, GBK, BIG5, GB18030`,
    );
  return name;
}
