// The multi-byte client encodings (SJIS, EUC_JP, EUC_CN, EUC_KR, UHC, GBK, BIG5, GB18030), converted
// as PostgreSQL 15 converts them. Two steps, as in its LocalToUtf: a character's bytes are first
// checked for the encoding's shape, by PostgreSQL's own rules (src/common/wchar.c: its
// pg_*_verifychar; a bad shape is 22021 `invalid byte sequence for encoding "SJIS": 0x82 0x20`),
// then looked up (none: 22P05 `character with byte sequence 0x85 0x40 in encoding "SJIS" has no
// equivalent in encoding "UTF8"`). The lookup tables are made from iconv-lite's at first use, then
// corrected where PostgreSQL's differ from them (multibyte-differences.ts, made by
// scripts/pg-encoding-differences.js against a PostgreSQL 15: SJIS's user-defined area, BIG5's ETEN
// kana and Cyrillic, UHC's user-defined area...). Bytes below 0x80 are ASCII in every one of them,
// as in PostgreSQL: SJIS's 0x5C is a backslash, 0x7E a tilde.
import iconv from 'iconv-lite';
import { type PatinaError, sqlStateError } from '../../errors';
import { DIFFERENCES } from './multibyte-differences';
import { lookup } from '../../lookup';

/** The encodings converted here, with the iconv-lite codec their tables are made from. */
export const MULTI_BYTE: Record<string, string> = lookup({
  SJIS: 'shiftjis',
  EUC_JP: 'eucjp',
  EUC_CN: 'cp936',
  EUC_KR: 'cp949',
  UHC: 'cp949',
  GBK: 'cp936',
  BIG5: 'cp950',
  GB18030: 'gb18030',
});

const euc = (c: number) => c >= 0xa1 && c <= 0xfe;

/**
 * PostgreSQL's length of the character whose first byte (0x80 or more) is at `b[i]`, `len` bytes
 * left: -1 when its bytes are not of the encoding's shape or are cut off (pg_*_verifychar).
 */
type Verify = (b: Uint8Array, i: number, len: number) => number;

const VERIFY: Record<string, Verify> = lookup({
  SJIS: (b, i, len) => {
    const c = b[i];
    if (c >= 0xa1 && c <= 0xdf) return 1; // (half-width katakana)
    if (len < 2) return -1;
    const t = b[i + 1];
    const head = (c >= 0x81 && c <= 0x9f) || (c >= 0xe0 && c <= 0xfc);
    return head && ((t >= 0x40 && t <= 0x7e) || (t >= 0x80 && t <= 0xfc)) ? 2 : -1;
  },
  EUC_JP: (b, i, len) => {
    const c = b[i];
    if (c === 0x8e) return len >= 2 && b[i + 1] >= 0xa1 && b[i + 1] <= 0xdf ? 2 : -1;
    if (c === 0x8f) return len >= 3 && euc(b[i + 1]) && euc(b[i + 2]) ? 3 : -1;
    return len >= 2 && euc(c) && euc(b[i + 1]) ? 2 : -1;
  },
  EUC_CN: (b, i, len) => (len >= 2 && euc(b[i]) && euc(b[i + 1]) ? 2 : -1),
  EUC_KR: (b, i, len) => (len >= 2 && euc(b[i]) && euc(b[i + 1]) ? 2 : -1),
  // (BIG5, GBK and UHC check only that a second byte is there and is no NUL)
  UHC: (b, i, len) => (len >= 2 && b[i + 1] !== 0 ? 2 : -1),
  GBK: (b, i, len) => (len >= 2 && b[i + 1] !== 0 ? 2 : -1),
  BIG5: (b, i, len) => (len >= 2 && b[i + 1] !== 0 ? 2 : -1),
  GB18030: (b, i, len) => {
    const c = b[i];
    const digit = (x: number) => x >= 0x30 && x <= 0x39;
    if (len >= 4 && digit(b[i + 1]))
      return c >= 0x81 && c <= 0xfe && b[i + 2] >= 0x81 && b[i + 2] <= 0xfe && digit(b[i + 3]) ? 4 : -1;
    if (len >= 2 && c >= 0x81 && c <= 0xfe) {
      const t = b[i + 1];
      return (t >= 0x40 && t <= 0x7e) || (t >= 0x80 && t <= 0xfe) ? 2 : -1;
    }
    return -1;
  },
});

/** PostgreSQL's length of the character starting with byte `c` (0x80 or more), for its error messages (pg_*_mblen). */
function mblen(name: string, b: Uint8Array, i: number): number {
  const c = b[i];
  switch (name) {
    case 'SJIS':
      return c >= 0xa1 && c <= 0xdf ? 1 : 2;
    case 'EUC_JP':
    case 'EUC_KR':
      return c === 0x8f ? 3 : 2;
    case 'GB18030':
      return b[i + 1] >= 0x30 && b[i + 1] <= 0x39 ? 4 : 2;
    default:
      return 2;
  }
}

export const hex = (b: number) => `0x${b.toString(16).padStart(2, '0')}`;

/** PostgreSQL's 22P05 for a character `encoding` has no bytes for. */
export function noEquivalent(ch: string, encoding: string): PatinaError {
  const bytes = [...Buffer.from(ch, 'utf8')].map(hex).join(' ');
  return sqlStateError(
    '22P05',
    `character with byte sequence ${bytes} in encoding "UTF8" has no equivalent in encoding "${encoding}"`,
  ) as PatinaError;
}

/** Differences from iconv-lite's tables: runs of [first code, first character or 0 for none, length]. */

/** A multi-byte client encoding: text from the client decoded by it, text to the client encoded in it. */
export class MultiByteCharset {
  readonly name: string;
  readonly #verify: Verify;
  readonly #codec: string;
  /** The character (0: none) of each two-byte code (first byte << 8 | second). */
  readonly #decode2 = new Uint32Array(65536);
  /** EUC_JP's three-byte codes (0x8F, then these two). */
  readonly #decode3: Uint32Array | null;
  /** GB18030's four-byte codes PostgreSQL reads otherwise than iconv-lite. */
  readonly #decode4 = new Map<number, number>();
  /** The bytes (as one number, big-endian; 0: none) of each character below U+10000. */
  readonly #encode = new Uint32Array(65536);
  /** The bytes of characters above U+FFFF where they differ from iconv-lite's. */
  readonly #encodeAbove = new Map<number, number>();

  /** `corrected`: with PostgreSQL's differences from iconv-lite's tables (false: iconv-lite's alone, to compare). */
  constructor(name: string, corrected = true) {
    this.name = name;
    this.#verify = VERIFY[name];
    this.#codec = MULTI_BYTE[name];
    this.#decode3 = name === 'EUC_JP' ? new Uint32Array(65536) : null;
    // (iconv-lite is called once for all the codes, each followed by a newline, a byte no character
    // of these encodings has in it: a call per code would take a second, the agent's thread stalled)
    const pairs: number[] = [];
    const pair = Buffer.alloc(2);
    for (let lead = 0x81; lead <= 0xfe; lead++)
      for (let trail = 0x40; trail <= 0xfe; trail++) {
        pair[0] = lead;
        pair[1] = trail;
        if (this.#verify(pair, 0, 2) === 2) pairs.push((lead << 8) | trail);
      }
    this.#decodeAll(pairs, 2, this.#decode2);
    if (this.#decode3) {
      const triples: number[] = [];
      for (let k = 0xa1a1; k <= 0xfefe; k++) if (euc(k >> 8) && euc(k & 0xff)) triples.push(0x8f0000 | k);
      this.#decodeAll(triples, 3, this.#decode3);
    }
    const units = new Uint16Array(2 * (0x10000 - 0x80));
    for (let c = 0x80, i = 0; c < 0x10000; c++, i += 2) {
      units[i] = c >= 0xd800 && c < 0xe000 ? 0x3f : c; // (a surrogate alone: `?`, as none)
      units[i + 1] = 10;
    }
    const encoded = iconv.encode(Buffer.from(units.buffer).toString('utf16le'), this.#codec);
    for (let c = 0x80, from = 0; c < 0x10000; c++) {
      const to = encoded.indexOf(10, from);
      const n = to - from;
      // (iconv-lite writes `?` for a character it has none for; PostgreSQL writes only whole characters)
      if (encoded[from] >= 0x80 && this.#verify(encoded, from, n) === n) {
        let v = 0;
        for (let j = from; j < to; j++) v = v * 256 + encoded[j];
        this.#encode[c] = v;
      }
      from = to + 1;
    }
    const diff = corrected ? DIFFERENCES[name] : { decode: [], encode: [] };
    for (const [code, ch, n] of diff.decode)
      for (let i = 0; i < n; i++) {
        const k = code + i;
        const v = ch === 0 ? 0 : ch + i;
        if (k > 0xffffff) this.#decode4.set(k, v);
        else if (k > 0xffff) this.#decode3![k & 0xffff] = v;
        else this.#decode2[k] = v;
      }
    for (const [ch, code, n] of diff.encode)
      for (let i = 0; i < n; i++) {
        const v = code === 0 ? 0 : code + i;
        if (ch + i > 0xffff) this.#encodeAbove.set(ch + i, v);
        else this.#encode[ch + i] = v;
      }
  }

  /** Fills `table` (by each code's last two bytes) with the characters iconv-lite reads `codes` (of `n` bytes each) as. */
  #decodeAll(codes: number[], n: number, table: Uint32Array): void {
    const bytes = Buffer.alloc(codes.length * (n + 1));
    codes.forEach((k, i) => {
      for (let j = 0; j < n; j++) bytes[i * (n + 1) + j] = (k >> (8 * (n - 1 - j))) & 0xff;
      bytes[i * (n + 1) + n] = 10;
    });
    const read = iconv.decode(bytes, this.#codec).split('\n');
    // (a code iconv-lite took for a first byte and its newline: the lines do not match the codes, read one by one)
    const one = read.length === codes.length + 1;
    codes.forEach((k, i) => {
      table[k & 0xffff] = this.#single(
        one ? read[i] : iconv.decode(bytes.subarray(i * (n + 1), i * (n + 1) + n), this.#codec),
      );
    });
  }

  /** The one character `s` is, or 0 (none: iconv-lite's replacement character, or more than one). */
  #single(s: string): number {
    const c = s.codePointAt(0) ?? 0;
    return c === 0xfffd || s.length !== (c > 0xffff ? 2 : 1) ? 0 : c;
  }

  /** `b` (bytes of this encoding) as text; PostgreSQL's 22021 or 22P05 (with `at`, where) for bytes it cannot read. */
  decode(b: Uint8Array): string {
    const [s, rest] = this.decodeStream(b);
    if (rest > 0) throw this.#invalid(b, b.length - rest);
    return s;
  }

  /**
   * `b` as text but for a character cut off at its end, and how many bytes that is (COPY data comes
   * in pieces that may cut a character: its bytes wait for the next one).
   */
  decodeStream(b: Uint8Array): [string, number] {
    const n = b.length;
    const units: number[] = [];
    let s = '';
    for (let i = 0; i < n; ) {
      const c = b[i];
      if (c < 0x80) {
        if (c === 0) throw this.#invalid(b, i);
        units.push(c);
        i++;
      } else {
        const l = this.#verify(b, i, n - i);
        if (l < 0) {
          // (cut off at the end: as PostgreSQL's COPY, the rest waits for more bytes)
          if (n - i < 4) {
            s += fromCodes(units);
            return [s, n - i];
          }
          throw this.#invalid(b, i);
        }
        const ch = this.#lookup(b, i, l);
        if (ch === 0) throw this.#untranslatable(b, i, l);
        if (ch > 0xffff) units.push(0xd800 + ((ch - 0x10000) >> 10), 0xdc00 + ((ch - 0x10000) & 0x3ff));
        else units.push(ch);
        i += l;
      }
      if (units.length >= 8192) {
        s += fromCodes(units);
        units.length = 0;
      }
    }
    return [s + fromCodes(units), 0];
  }

  #lookup(b: Uint8Array, i: number, l: number): number {
    if (l === 1) return b[i] + 0xfec0; // (SJIS's half-width katakana, U+FF61 on)
    if (l === 2) return this.#decode2[(b[i] << 8) | b[i + 1]];
    if (l === 3) return this.#decode3![(b[i + 1] << 8) | b[i + 2]];
    const k = ((b[i] << 24) | (b[i + 1] << 16) | (b[i + 2] << 8) | b[i + 3]) >>> 0;
    const known = this.#decode4.get(k);
    if (known !== undefined) return known;
    const c = this.#single(iconv.decode(Buffer.from(b.subarray(i, i + 4)), this.#codec));
    // (the four-byte codes before 0x90308130 are the BMP's; iconv-lite reads those after U+FFFF's above it, PostgreSQL as none)
    return b[i] < 0x90 && c > 0xffff ? 0 : c;
  }

  /** `s` in this encoding, or PostgreSQL's 22P05 naming the UTF-8 bytes of a character it has none for. */
  encode(s: string): Buffer {
    const out = Buffer.allocUnsafe(s.length * 4);
    let at = 0;
    for (let i = 0; i < s.length; i++) {
      let c = s.charCodeAt(i);
      if (c < 0x80) {
        out[at++] = c;
        continue;
      }
      let v: number;
      const next = s.charCodeAt(i + 1); // (NaN at the end)
      if (c >= 0xd800 && c < 0xdc00 && next >= 0xdc00 && next < 0xe000) {
        c = s.codePointAt(i)!;
        i++;
        v = this.#encodeAbove.get(c) ?? this.#above(c);
      } else v = this.#encode[c];
      if (v === 0) throw noEquivalent(String.fromCodePoint(c), this.name);
      if (v > 0xffffff) out[at++] = v >>> 24;
      if (v > 0xffff) out[at++] = (v >>> 16) & 0xff;
      if (v > 0xff) out[at++] = (v >>> 8) & 0xff;
      out[at++] = v & 0xff;
    }
    return out.subarray(0, at);
  }

  /** A character above U+FFFF: only GB18030 has them (four bytes, by iconv-lite's ranges). */
  #above(c: number): number {
    if (this.name !== 'GB18030') return 0;
    const b = iconv.encode(String.fromCodePoint(c), this.#codec);
    return b.length === 4 ? packed(b) : 0;
  }

  #invalid(b: Uint8Array, i: number): PatinaError {
    const shown = Math.min(mblen(this.name, b, i), b.length - i);
    const bytes = Array.from(b.subarray(i, i + shown), hex).join(' ');
    return Object.assign(
      sqlStateError('22021', `invalid byte sequence for encoding "${this.name}": ${bytes}`) as PatinaError,
      {
        at: i,
      },
    );
  }

  #untranslatable(b: Uint8Array, i: number, l: number): PatinaError {
    const bytes = Array.from(b.subarray(i, i + l), hex).join(' ');
    return Object.assign(
      sqlStateError(
        '22P05',
        `character with byte sequence ${bytes} in encoding "${this.name}" has no equivalent in encoding "UTF8"`,
      ) as PatinaError,
      { at: i },
    );
  }
}

/** Bytes as one big-endian number. */
function packed(b: Uint8Array): number {
  let v = 0;
  for (const x of b) v = v * 256 + x;
  return v;
}

function fromCodes(units: number[]): string {
  return units.length === 0 ? '' : String.fromCharCode.apply(null, units);
}
