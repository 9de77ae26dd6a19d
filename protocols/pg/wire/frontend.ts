// Frontend messages of the PostgreSQL v3 wire format, as data: a reader over one message body where
// it lies in the bytes read, and a table of decoders keyed by type byte (a malformed message is a
// ProtocolError, which ends the connection with 08P01); the startup packet's codes and parameters.

import { badUtf8 } from '../../../src/engine/utf8';
import type { Charset } from '../../../src/engine/encodings/client-encodings';
import { inParameter, invalidUtf8 } from './utf8';
import { lookup } from '../../../src/lookup';

/** Largest frontend message accepted; bigger lengths are garbage or abuse and end the connection. */
export const MAX_MESSAGE = 64 * 1024 * 1024;
/** Largest startup packet (PostgreSQL's own limit). */
export const MAX_STARTUP = 10000;

export const PROTOCOL_3 = 196608;
export const SSL_REQUEST = 80877103;
export const GSSENC_REQUEST = 80877104;
export const CANCEL_REQUEST = 80877102;

/** Reads fields out of one frontend message body: buf from pos to end (the body lies in the bytes read, uncopied). */
export class Reader {
  buf: Buffer;
  pos: number;
  end: number;
  #lastName = '';
  /** The client's encoding when it is not UTF-8 (client_encoding): text is decoded by it. */
  charset: Charset | null = null;

  constructor(buf: Buffer, start = 0, end = buf.length) {
    this.buf = buf;
    this.pos = start;
    this.end = end;
  }

  /** Reads another body. */
  reset(buf: Buffer, start: number, end: number): void {
    this.buf = buf;
    this.pos = start;
    this.end = end;
    this.textError = null;
  }

  #need(n: number) {
    if (this.pos + n > this.end) throw new ProtocolError('message is shorter than its contents');
  }

  u8(): number {
    this.#need(1);
    return this.buf[this.pos++];
  }

  i16(): number {
    this.#need(2);
    const v = this.buf.readInt16BE(this.pos);
    this.pos += 2;
    return v;
  }

  i32(): number {
    this.#need(4);
    const v = this.buf.readInt32BE(this.pos);
    this.pos += 4;
    return v;
  }

  /** Where the string at pos ends (its NUL). */
  #nul(): number {
    const b = this.buf;
    // short strings are the rule (names, tags): a loop is cheaper than a call to indexOf
    for (let i = this.pos, stop = Math.min(this.end, this.pos + 64); i < stop; i++) if (b[i] === 0) return i;
    const end = b.indexOf(0, this.pos);
    if (end < 0 || end >= this.end) throw new ProtocolError('string is not terminated');
    return end;
  }

  cstr(): string {
    const end = this.#nul();
    const start = this.pos;
    this.pos = end + 1;
    if (end === start) return '';
    if (this.charset !== null) return this.decoded(this.buf.subarray(start, end));
    const s = this.buf.toString('utf8', start, end);
    // (a replacement character in the text: its bytes may be no UTF-8, which the message's handler refuses)
    if (this.textError === null && s.includes('\uFFFD')) {
      const bad = badUtf8(this.buf.subarray(start, end));
      if (bad !== null) this.textError = invalidUtf8(bad);
    }
    return s;
  }

  /**
   * Text in the client's encoding (not UTF-8) as a string; bytes it has no character for read as a
   * replacement character and set textError, which the message's handler refuses.
   */
  decoded(b: Buffer): string {
    try {
      return this.charset!.decode(b);
    } catch (err) {
      this.textError ??= err as Error;
      return '\uFFFD';
    }
  }

  /** PostgreSQL's error for the first text read since reset that is not text in the client's encoding (22021, 22P05), or null. */
  textError: Error | null = null;

  /**
   * A name (of a prepared statement or portal): a cstr, but the same string as the last name read
   * when its bytes are the same, so that looking it up in a Map does not hash it again.
   */
  name(): string {
    const end = this.#nul();
    const n = end - this.pos;
    if (n === 0) {
      this.pos = end + 1;
      return '';
    }
    const last = this.#lastName;
    if (last.length === n && n <= 64) {
      let same = true;
      for (let i = 0; i < n; i++) {
        if (this.buf[this.pos + i] !== last.charCodeAt(i)) {
          same = false;
          break;
        }
      }
      if (same) {
        this.pos = end + 1;
        return last;
      }
    }
    const s =
      this.charset === null ? this.buf.toString('utf8', this.pos, end) : this.decoded(this.buf.subarray(this.pos, end));
    // only an ASCII name compares byte for character (in UTF-8, one character a byte is ASCII; a
    // single-byte encoding's upper half reads otherwise in another one, after a SET client_encoding)
    if (s.length === n && (this.charset === null || /^[\x00-\x7f]*$/.test(s))) this.#lastName = s;
    this.pos = end + 1;
    return s;
  }

  bytes(n: number): Buffer {
    if (n < 0) throw new ProtocolError('negative length');
    this.#need(n);
    const b = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return b;
  }

  rest(): Buffer {
    return this.bytes(this.end - this.pos);
  }
}

/** A malformed message: the connection ends with error 08P01. */
export class ProtocolError extends Error {}

export type Frontend =
  | { type: 'query'; sql: string }
  | { type: 'parse'; name: string; sql: string; paramTypes: number[] }
  | {
      type: 'bind';
      portal: string;
      statement: string;
      paramFormats: number[];
      params: (Buffer | null)[];
      resultFormats: number[];
    }
  | { type: 'describe'; kind: 'S' | 'P'; name: string }
  | { type: 'execute'; portal: string; maxRows: number }
  | { type: 'close'; kind: 'S' | 'P'; name: string }
  | { type: 'flush' }
  | { type: 'sync' }
  | { type: 'terminate' }
  | { type: 'password'; data: Buffer }
  | { type: 'copyData'; data: Buffer }
  | { type: 'copyDone' }
  | { type: 'copyFail'; message: string }
  | { type: 'unsupported'; what: string };

function count(r: Reader, max: number, what: string): number {
  const n = r.i16();
  if (n < 0 || n > max) throw new ProtocolError(`bad ${what} count ${n}`);
  return n;
}

// the messages without a body, decoded to the same object each time
const FLUSH: Frontend = { type: 'flush' };
const SYNC: Frontend = { type: 'sync' };
const TERMINATE: Frontend = { type: 'terminate' };
const COPY_DONE: Frontend = { type: 'copyDone' };

// the usual lists of format codes (none: all text; one text or one binary code for all), shared: no one changes them
const NO_CODES: number[] = [];
const TEXT_CODES: number[] = [0];
const BINARY_CODES: number[] = [1];

/** Bind's format codes. */
function formatCodes(r: Reader, what: string): number[] {
  const n = count(r, 65535, what);
  if (n === 0) return NO_CODES;
  if (n === 1) {
    const code = r.i16();
    return code === 0 ? TEXT_CODES : code === 1 ? BINARY_CODES : [code];
  }
  const codes: number[] = [];
  for (let i = 0; i < n; i++) codes.push(r.i16());
  return codes;
}

type Decoder = (r: Reader) => Frontend;

/**
 * Bind's text-format parameters of a client whose encoding is not UTF-8, as UTF-8 (as PostgreSQL
 * converts them); an error's CONTEXT names the parameter, as PostgreSQL's.
 */
function inUtf8(r: Reader, portal: string, params: (Buffer | null)[], formats: number[]): void {
  for (let i = 0; i < params.length; i++) {
    const p = params[i];
    const format = formats.length === 1 ? formats[0] : (formats[i] ?? 0);
    if (p === null || format !== 0) continue;
    const before = r.textError;
    params[i] = Buffer.from(r.decoded(p), 'utf8');
    if (before === null && r.textError !== null) inParameter(r.textError, portal, i);
  }
}

/** Frontend message decoders, keyed by type byte. */
const frontend: Record<string, Decoder> = lookup({
  Q: (r) => ({ type: 'query', sql: r.cstr() }),
  P: (r) => {
    const name = r.cstr();
    const sql = r.cstr();
    const n = count(r, 65535, 'parameter type');
    const paramTypes: number[] = [];
    for (let i = 0; i < n; i++) paramTypes.push(r.i32() >>> 0);
    return { type: 'parse', name, sql, paramTypes };
  },
  B: (r) => {
    const portal = r.name();
    const statement = r.name();
    const paramFormats = formatCodes(r, 'format');
    const params: (Buffer | null)[] = [];
    for (let i = count(r, 65535, 'parameter'); i > 0; i--) {
      const len = r.i32();
      params.push(len === -1 ? null : r.bytes(len));
    }
    if (r.charset !== null) inUtf8(r, portal, params, paramFormats);
    const resultFormats = formatCodes(r, 'result format');
    return { type: 'bind', portal, statement, paramFormats, params, resultFormats };
  },
  D: (r) => {
    const kind = String.fromCharCode(r.u8());
    if (kind !== 'S' && kind !== 'P') throw new ProtocolError(`bad Describe kind ${JSON.stringify(kind)}`);
    return { type: 'describe', kind, name: r.name() };
  },
  E: (r) => ({ type: 'execute', portal: r.name(), maxRows: r.i32() }),
  C: (r) => {
    const kind = String.fromCharCode(r.u8());
    if (kind !== 'S' && kind !== 'P') throw new ProtocolError(`bad Close kind ${JSON.stringify(kind)}`);
    return { type: 'close', kind, name: r.cstr() };
  },
  H: () => FLUSH,
  S: () => SYNC,
  X: () => TERMINATE,
  p: (r) => ({ type: 'password', data: r.rest() }),
  F: () => ({ type: 'unsupported', what: 'function calls (FunctionCall messages)' }),
  d: (r) => ({ type: 'copyData', data: r.rest() }),
  c: () => COPY_DONE,
  f: (r) => ({ type: 'copyFail', message: r.cstr() }),
});

/** The startup packet's parameters (user, database, application_name, options, ...). */
export function parseStartupParams(r: Reader): Record<string, string> {
  const out: Record<string, string> = {};
  for (;;) {
    const k = r.cstr();
    if (k === '') return out;
    out[k] = r.cstr();
  }
}

/** The decoders by the type byte's code (a message's first byte indexes this: no string per message). */
export const decoders: readonly (Decoder | undefined)[] = Array.from({ length: 256 }, (_, code) =>
  Object.hasOwn(frontend, String.fromCharCode(code)) ? frontend[String.fromCharCode(code)] : undefined,
);
