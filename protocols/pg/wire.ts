// The PostgreSQL v3 wire format, as data: a tiny byte writer for backend messages and a table of
// frontend message decoders keyed by type byte. The connection state machine is in connection.ts.

/** Largest frontend message accepted; bigger lengths are garbage or abuse and end the connection. */
export const MAX_MESSAGE = 64 * 1024 * 1024;
/** Largest startup packet (PostgreSQL's own limit). */
export const MAX_STARTUP = 10000;

export const PROTOCOL_3 = 196608;
export const SSL_REQUEST = 80877103;
export const GSSENC_REQUEST = 80877104;
export const CANCEL_REQUEST = 80877102;

/** Accumulates backend messages into one buffer that the connection flushes. */
export class ByteWriter {
  #buf: Buffer;
  #pos = 0;
  #start = -1;

  constructor(size = 16384) {
    this.#buf = Buffer.allocUnsafe(size);
  }

  get length(): number {
    return this.#pos;
  }

  #room(n: number) {
    if (this.#pos + n <= this.#buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.#buf.length * 2, this.#pos + n + 1024));
    this.#buf.copy(next, 0, 0, this.#pos);
    this.#buf = next;
  }

  /** Starts a message of type `type`; end() fills in its length. */
  begin(type: string): this {
    this.#room(5);
    this.#buf[this.#pos] = type.charCodeAt(0);
    this.#start = this.#pos + 1;
    this.#pos += 5;
    return this;
  }

  end(): this {
    this.#buf.writeInt32BE(this.#pos - this.#start, this.#start);
    return this;
  }

  byte(b: number): this {
    this.#room(1);
    this.#buf[this.#pos++] = b;
    return this;
  }

  i16(n: number): this {
    this.#room(2);
    this.#buf.writeInt16BE(n, this.#pos);
    this.#pos += 2;
    return this;
  }

  i32(n: number): this {
    this.#room(4);
    this.#buf.writeInt32BE(n, this.#pos);
    this.#pos += 4;
    return this;
  }

  cstr(s: string): this {
    const n = Buffer.byteLength(s);
    this.#room(n + 1);
    this.#buf.write(s, this.#pos);
    this.#pos += n;
    this.#buf[this.#pos++] = 0;
    return this;
  }

  /** A length-prefixed value (Int32 length, -1 for null). */
  value(v: string | Buffer | null): this {
    if (v === null) return this.i32(-1);
    if (typeof v === 'string') {
      const n = Buffer.byteLength(v);
      this.#room(n + 4);
      this.#buf.writeInt32BE(n, this.#pos);
      this.#buf.write(v, this.#pos + 4);
      this.#pos += n + 4;
      return this;
    }
    this.#room(v.length + 4);
    this.#buf.writeInt32BE(v.length, this.#pos);
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

  /** Takes what was written and starts over. */
  take(): Buffer {
    const out = Buffer.from(this.#buf.subarray(0, this.#pos));
    this.#pos = 0;
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
}

/** ErrorResponse and NoticeResponse field codes. */
export const ERROR_FIELDS = { severity: 'S', severityV: 'V', code: 'C', message: 'M', detail: 'D', hint: 'H', position: 'P', where: 'W' } as const;

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
    for (const f of fields) w.cstr(f.name).i32(f.tableOid).i16(f.column).i32(f.typeOid).i16(f.typeSize).i32(f.typeMod).i16(f.format);
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
  notification: (w: ByteWriter, pid: number, channel: string, payload: string) => w.begin('A').i32(pid).cstr(channel).cstr(payload).end(),
  /** CopyInResponse ('G') or CopyOutResponse ('H'): overall format 0 (text), every column text. */
  copyResponse: (w: ByteWriter, type: 'G' | 'H', columns: number) => {
    w.begin(type).byte(0).i16(columns);
    for (let i = 0; i < columns; i++) w.i16(0);
    return w.end();
  },
  copyData: (w: ByteWriter, data: Buffer) => w.begin('d').bytes(data).end(),
  copyDone: (w: ByteWriter) => w.begin('c').end(),
  error: (w: ByteWriter, fields: Partial<Record<keyof typeof ERROR_FIELDS, string>>, type: 'E' | 'N' = 'E') => {
    w.begin(type);
    for (const [k, v] of Object.entries(fields)) if (v !== undefined) w.byte(ERROR_FIELDS[k as keyof typeof ERROR_FIELDS].charCodeAt(0)).cstr(v);
    return w.byte(0).end();
  },
};

/** Reads fields out of one frontend message body; throws ProtocolError when it runs short. */
export class Reader {
  readonly buf: Buffer;
  pos = 0;

  constructor(buf: Buffer) {
    this.buf = buf;
  }

  #need(n: number) {
    if (this.pos + n > this.buf.length) throw new ProtocolError('message is shorter than its contents');
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

  cstr(): string {
    const end = this.buf.indexOf(0, this.pos);
    if (end < 0) throw new ProtocolError('string is not terminated');
    const s = this.buf.toString('utf8', this.pos, end);
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
    return this.bytes(this.buf.length - this.pos);
  }
}

/** A malformed message: the connection ends with error 08P01. */
export class ProtocolError extends Error {}

export type Frontend =
  | { type: 'query'; sql: string }
  | { type: 'parse'; name: string; sql: string; paramTypes: number[] }
  | { type: 'bind'; portal: string; statement: string; paramFormats: number[]; params: (Buffer | null)[]; resultFormats: number[] }
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

/** Frontend message decoders, keyed by type byte. */
export const frontend: Record<string, (r: Reader) => Frontend> = {
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
    const portal = r.cstr();
    const statement = r.cstr();
    const paramFormats: number[] = [];
    for (let i = count(r, 65535, 'format'); i > 0; i--) paramFormats.push(r.i16());
    const params: (Buffer | null)[] = [];
    for (let i = count(r, 65535, 'parameter'); i > 0; i--) {
      const len = r.i32();
      params.push(len === -1 ? null : r.bytes(len));
    }
    const resultFormats: number[] = [];
    for (let i = count(r, 65535, 'result format'); i > 0; i--) resultFormats.push(r.i16());
    return { type: 'bind', portal, statement, paramFormats, params, resultFormats };
  },
  D: (r) => {
    const kind = String.fromCharCode(r.bytes(1)[0]);
    if (kind !== 'S' && kind !== 'P') throw new ProtocolError(`bad Describe kind ${JSON.stringify(kind)}`);
    return { type: 'describe', kind, name: r.cstr() };
  },
  E: (r) => ({ type: 'execute', portal: r.cstr(), maxRows: r.i32() }),
  C: (r) => {
    const kind = String.fromCharCode(r.bytes(1)[0]);
    if (kind !== 'S' && kind !== 'P') throw new ProtocolError(`bad Close kind ${JSON.stringify(kind)}`);
    return { type: 'close', kind, name: r.cstr() };
  },
  H: () => ({ type: 'flush' }),
  S: () => ({ type: 'sync' }),
  X: () => ({ type: 'terminate' }),
  p: (r) => ({ type: 'password', data: r.rest() }),
  F: () => ({ type: 'unsupported', what: 'function calls (FunctionCall messages)' }),
  d: (r) => ({ type: 'copyData', data: r.rest() }),
  c: () => ({ type: 'copyDone' }),
  f: (r) => ({ type: 'copyFail', message: r.cstr() }),
};

/** The startup packet's parameters (user, database, application_name, options, ...). */
export function parseStartupParams(r: Reader): Record<string, string> {
  const out: Record<string, string> = {};
  for (;;) {
    const k = r.cstr();
    if (k === '') return out;
    out[k] = r.cstr();
  }
}
