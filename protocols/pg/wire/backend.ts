// Backend messages of the PostgreSQL v3 wire format, as data: a tiny byte writer that accumulates
// them into one buffer the connection flushes, and one builder per message type (the error and
// notice fields by their codes). The connection state machine is in connection/connection.ts.
import type { Charset } from '../../../src/engine/encodings/client-encodings';

/** Strings up to this many characters are written by hand when ASCII (cheaper than a call into Buffer's UTF-8 encoder). */
const SHORT_STRING = 48;

/**
 * Accumulates backend messages into one buffer that the connection flushes. What take() hands out is
 * never written again (the socket may still hold it): writing goes on after it, in a new buffer once
 * this one is nearly full, so flushing copies nothing.
 */
export class ByteWriter {
  #buf: Buffer;
  /** Where the part not yet taken starts. */
  #from = 0;
  #pos = 0;
  #start = -1;
  readonly #size: number;
  /**
   * The client's encoding when it is not UTF-8 (client_encoding): strings are written in it. A
   * character it has none for is PostgreSQL's 22P05, and the message being written is dropped.
   */
  charset: Charset | null = null;

  constructor(size = 16384) {
    this.#size = size;
    this.#buf = Buffer.allocUnsafe(size);
  }

  /** Bytes written and not yet taken. */
  get length(): number {
    return this.#pos - this.#from;
  }

  #room(n: number) {
    if (this.#pos + n <= this.#buf.length) return;
    const used = this.#pos - this.#from;
    const next = Buffer.allocUnsafe(Math.max(this.#size, (used + n) * 2));
    this.#buf.copy(next, 0, this.#from, this.#pos);
    if (this.#start >= 0) this.#start -= this.#from;
    this.#buf = next;
    this.#from = 0;
    this.#pos = used;
  }

  #int32(n: number, at: number) {
    const b = this.#buf;
    b[at] = n >>> 24;
    b[at + 1] = n >>> 16;
    b[at + 2] = n >>> 8;
    b[at + 3] = n;
  }

  /** Starts a message of type `type`; end() fills in its length. */
  begin(type: string): this {
    this.#room(5);
    this.#buf[this.#pos] = type.charCodeAt(0);
    this.#start = this.#pos + 1;
    this.#pos += 5;
    return this;
  }

  /** Drops the message begun and not ended (a row whose cell could not be encoded). */
  abandon(): void {
    if (this.#start < 0) return;
    this.#pos = this.#start - 1;
    this.#start = -1;
  }

  end(): this {
    this.#int32(this.#pos - this.#start, this.#start);
    this.#start = -1;
    return this;
  }

  byte(b: number): this {
    this.#room(1);
    this.#buf[this.#pos++] = b;
    return this;
  }

  i16(n: number): this {
    this.#room(2);
    this.#buf[this.#pos] = n >>> 8;
    this.#buf[this.#pos + 1] = n;
    this.#pos += 2;
    return this;
  }

  i32(n: number): this {
    this.#room(4);
    this.#int32(n, this.#pos);
    this.#pos += 4;
    return this;
  }

  /**
   * Writes `s` at #pos as UTF-8 or in the client's encoding (room for its UTF-8 made: a multi-byte
   * encoding makes more when it needs it, and #pos may then be in a new buffer); returns its byte length.
   */
  #text(s: string): number {
    const at = this.#pos;
    if (s.length <= SHORT_STRING) {
      const b = this.#buf;
      let i = 0;
      for (; i < s.length; i++) {
        const c = s.charCodeAt(i);
        if (c >= 0x80) break;
        b[at + i] = c;
      }
      if (i === s.length) return i;
    }
    if (this.charset === null) return this.#buf.write(s, at);
    try {
      if (this.charset.encodeInto) return this.charset.encodeInto(s, this.#buf, at); // (a byte a character: UTF-8's room is enough)
      // (a multi-byte encoding may take more bytes than UTF-8: GB18030's four for U+0080)
      const b = this.charset.encode(s);
      this.#room(b.length + 1); // (and cstr's NUL)
      b.copy(this.#buf, this.#pos);
      return b.length;
    } catch (err) {
      this.abandon();
      throw err;
    }
  }

  cstr(s: string): this {
    this.#room(s.length <= SHORT_STRING ? s.length * 3 + 1 : Buffer.byteLength(s) + 1);
    this.#pos += this.#text(s);
    this.#buf[this.#pos++] = 0;
    return this;
  }

  /** A length-prefixed value (Int32 length, -1 for null). */
  value(v: string | Buffer | null): this {
    if (v === null) return this.i32(-1);
    if (typeof v === 'string') {
      this.#room(4 + (v.length <= SHORT_STRING ? v.length * 3 : Buffer.byteLength(v)));
      this.#pos += 4;
      const n = this.#text(v);
      this.#int32(n, this.#pos - 4); // (after #text: it may have moved the buffer)
      this.#pos += n;
      return this;
    }
    this.#room(v.length + 4);
    this.#int32(v.length, this.#pos);
    v.copy(this.#buf, this.#pos + 4);
    this.#pos += v.length + 4;
    return this;
  }

  bytes(b: Buffer): this {
    this.#room(b.length);
    b.copy(this.#buf, this.#pos);
    this.#pos += b.length;
    return this;
  }

  /** Takes what was written (the bytes stay as they are) and starts over after it. */
  take(): Buffer {
    const out = this.#buf.subarray(this.#from, this.#pos);
    // a nearly full buffer is left to what was taken from it; the next message starts a new one
    if (this.#buf.length - this.#pos < this.#size / 4) {
      this.#buf = Buffer.allocUnsafe(this.#size);
      this.#pos = 0;
    }
    this.#from = this.#pos;
    return out;
  }
}

/** A field of RowDescription. */
export interface Field {
  name: string;
  tableOid: number;
  column: number;
  typeOid: number;
  typeSize: number;
  typeMod: number;
  format: number;
  /** The modifier the values are printed by when it is not the one announced (a numeric's display scale); absent: typeMod. */
  valueMod?: number;
}

/** ErrorResponse and NoticeResponse field codes. */
export const ERROR_FIELDS = {
  severity: 'S',
  severityV: 'V',
  code: 'C',
  message: 'M',
  detail: 'D',
  hint: 'H',
  position: 'P',
  where: 'W',
  schema: 's',
  table: 't',
  column: 'c',
  constraint: 'n',
} as const;

/** Backend messages: one builder per message type. */
export const backend = {
  authOk: (w: ByteWriter) => w.begin('R').i32(0).end(),
  authSasl: (w: ByteWriter, mechanisms: string[]) => {
    w.begin('R').i32(10);
    for (const m of mechanisms) w.cstr(m);
    return w.byte(0).end();
  },
  authSaslContinue: (w: ByteWriter, data: string) => w.begin('R').i32(11).bytes(Buffer.from(data)).end(),
  authSaslFinal: (w: ByteWriter, data: string) => w.begin('R').i32(12).bytes(Buffer.from(data)).end(),
  parameterStatus: (w: ByteWriter, name: string, value: string) => w.begin('S').cstr(name).cstr(value).end(),
  backendKeyData: (w: ByteWriter, pid: number, key: number) => w.begin('K').i32(pid).i32(key).end(),
  readyForQuery: (w: ByteWriter, status: 'I' | 'T' | 'E') => w.begin('Z').byte(status.charCodeAt(0)).end(),
  rowDescription: (w: ByteWriter, fields: Field[]) => {
    w.begin('T').i16(fields.length);
    for (const f of fields)
      w.cstr(f.name).i32(f.tableOid).i16(f.column).i32(f.typeOid).i16(f.typeSize).i32(f.typeMod).i16(f.format);
    return w.end();
  },
  dataRow: (w: ByteWriter, cells: (string | Buffer | null)[]) => {
    w.begin('D').i16(cells.length);
    for (const c of cells) w.value(c);
    return w.end();
  },
  commandComplete: (w: ByteWriter, tag: string) => w.begin('C').cstr(tag).end(),
  emptyQuery: (w: ByteWriter) => w.begin('I').end(),
  parseComplete: (w: ByteWriter) => w.begin('1').end(),
  bindComplete: (w: ByteWriter) => w.begin('2').end(),
  closeComplete: (w: ByteWriter) => w.begin('3').end(),
  noData: (w: ByteWriter) => w.begin('n').end(),
  portalSuspended: (w: ByteWriter) => w.begin('s').end(),
  parameterDescription: (w: ByteWriter, oids: number[]) => {
    w.begin('t').i16(oids.length);
    for (const o of oids) w.i32(o);
    return w.end();
  },
  notification: (w: ByteWriter, pid: number, channel: string, payload: string) =>
    w.begin('A').i32(pid).cstr(channel).cstr(payload).end(),
  /** CopyInResponse ('G') or CopyOutResponse ('H'): every column text (format 0), or binary (1). */
  copyResponse: (w: ByteWriter, type: 'G' | 'H', columns: number, binary = false) => {
    w.begin(type)
      .byte(binary ? 1 : 0)
      .i16(columns);
    for (let i = 0; i < columns; i++) w.i16(binary ? 1 : 0);
    return w.end();
  },
  copyData: (w: ByteWriter, data: Buffer) => w.begin('d').bytes(data).end(),
  copyDone: (w: ByteWriter) => w.begin('c').end(),
  error: (w: ByteWriter, fields: Partial<Record<keyof typeof ERROR_FIELDS, string>>, type: 'E' | 'N' = 'E') => {
    w.begin(type);
    for (const [k, v] of Object.entries(fields))
      if (v !== undefined) w.byte(ERROR_FIELDS[k as keyof typeof ERROR_FIELDS].charCodeAt(0)).cstr(v);
    return w.byte(0).end();
  },
};
