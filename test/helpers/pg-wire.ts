// A byte-exact PostgreSQL wire client for the binary-format tests: pg-protocol's serializer builds
// the frontend messages; backend messages are kept as their raw bodies, so cells are compared byte
// for byte (pg-protocol's parser would decode them to strings).
import net from 'node:net';
import { serialize } from 'pg-protocol';

/** A backend message: its type byte and body. */
export interface WireMessage {
  type: string;
  body: Buffer;
}

/** A RowDescription field: name, type OID and format code. */
export interface WireField {
  name: string;
  typeOid: number;
  format: number;
}

/** What one exchange up to ReadyForQuery returned. */
export interface WireResult {
  fields: WireField[];
  rows: (Buffer | null)[][];
  errors: { code: string; message: string }[];
  messages: WireMessage[];
}

export class WireClient {
  readonly #socket: net.Socket;
  #input = Buffer.alloc(0);
  #waiter: (() => void) | null = null;
  #closed = false;

  private constructor(socket: net.Socket) {
    this.#socket = socket;
    socket.on('data', (d) => {
      this.#input = Buffer.concat([this.#input, d]);
      this.#waiter?.();
    });
    socket.on('close', () => {
      this.#closed = true;
      this.#waiter?.();
    });
    socket.on('error', () => undefined);
  }

  /** Connects and completes a trust startup; `params` go in the startup packet (user, database, TimeZone...). */
  static async open(port: number, params: Record<string, string>): Promise<WireClient> {
    const socket = await new Promise<net.Socket>((resolve, reject) => {
      const s = net.connect(port, '127.0.0.1', () => resolve(s));
      s.once('error', reject);
    });
    const c = new WireClient(socket);
    socket.write(serialize.startup(params));
    const r = await c.#untilReady();
    if (r.errors.length) throw new Error(`startup failed: ${r.errors[0].message}`);
    return c;
  }

  /** Sends `messages` (ending with Sync or a Query) and collects the answers up to ReadyForQuery. */
  async exchange(...messages: Buffer[]): Promise<WireResult> {
    this.#socket.write(Buffer.concat(messages));
    return this.#untilReady();
  }

  /** Parse, Bind (parameters with their format codes, results in `resultFormat`), Describe portal, Execute, Sync. */
  extended(
    sql: string,
    params: { types?: number[]; values?: (Buffer | null)[]; formats?: number[]; resultFormats?: number[] } = {},
  ): Promise<WireResult> {
    return this.exchange(
      serialize.parse({ text: sql, types: params.types ?? [] }),
      bindMessage(params.values ?? [], params.formats ?? [], params.resultFormats ?? [1]),
      serialize.describe({ type: 'P' }),
      serialize.execute({}),
      serialize.sync(),
    );
  }

  /** Sends `messages` and waits for no answer (a client that goes away before its Sync). */
  send(...messages: Buffer[]): void {
    this.#socket.write(Buffer.concat(messages));
  }

  end(): void {
    if (!this.#closed) this.#socket.end(serialize.end());
  }

  /** The whole messages that came within `waitMs` (after a `send`: what the server sent before any Sync). */
  async arrived(waitMs: number): Promise<WireMessage[]> {
    await new Promise((resolve) => setTimeout(resolve, waitMs));
    const out: WireMessage[] = [];
    while (this.#input.length >= 5) {
      const len = this.#input.readInt32BE(1);
      if (this.#input.length < 1 + len) break;
      out.push({ type: String.fromCharCode(this.#input[0]), body: this.#input.subarray(5, 1 + len) });
      this.#input = this.#input.subarray(1 + len);
    }
    return out;
  }

  async #untilReady(timeoutMs = 15000): Promise<WireResult> {
    const out: WireResult = { fields: [], rows: [], errors: [], messages: [] };
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      while (this.#input.length >= 5) {
        const len = this.#input.readInt32BE(1);
        if (this.#input.length < 1 + len) break;
        const m = { type: String.fromCharCode(this.#input[0]), body: this.#input.subarray(5, 1 + len) };
        this.#input = this.#input.subarray(1 + len);
        out.messages.push(m);
        if (m.type === 'T') out.fields = rowDescription(m.body);
        else if (m.type === 'D') out.rows.push(dataRow(m.body));
        else if (m.type === 'E') out.errors.push(errorFields(m.body));
        else if (m.type === 'Z') return out;
      }
      if (this.#closed) throw new Error(`connection closed; got ${out.messages.map((m) => m.type).join('')}`);
      if (Date.now() > deadline) throw new Error(`no ReadyForQuery in ${timeoutMs} ms`);
      await new Promise<void>((r) => {
        this.#waiter = r;
        setTimeout(r, 50);
      });
      this.#waiter = null;
    }
  }
}

/** A backend message as the comparison shows it: type, and a command tag, error, notice, row or status. */
export function shownMessage(m: WireMessage): string {
  if (m.type === 'C') return `C ${m.body.toString('utf8', 0, m.body.length - 1)}`;
  if (m.type === 'Z') return `Z ${String.fromCharCode(m.body[0])}`;
  if (m.type === 'S') return `S ${m.body.toString('utf8', 0, m.body.length - 1).replace('\0', '=')}`;
  if (m.type === 'E' || m.type === 'N') {
    const f: Record<string, string> = {};
    for (let at = 0; at < m.body.length && m.body[at] !== 0; ) {
      const end = m.body.indexOf(0, at + 1);
      f[String.fromCharCode(m.body[at])] = m.body.toString('utf8', at + 1, end);
      at = end + 1;
    }
    return `${m.type} ${f.C} ${f.M}`;
  }
  if (m.type === 'D') {
    const cells: string[] = [];
    let at = 2;
    for (let i = 0; i < m.body.readInt16BE(0); i++) {
      const len = m.body.readInt32BE(at);
      at += 4;
      cells.push(len < 0 ? 'NULL' : m.body.toString('utf8', at, at + len));
      if (len > 0) at += len;
    }
    return `D ${cells.join('|')}`;
  }
  return m.type;
}

/** A Bind message built by hand: any format codes, including ones pg-protocol cannot express. */
export function bindMessage(values: (Buffer | null)[], formats: number[], resultFormats: number[]): Buffer {
  const parts: Buffer[] = [Buffer.from([0, 0])]; // unnamed portal and statement
  const i16 = (n: number) => {
    const b = Buffer.alloc(2);
    b.writeInt16BE(n);
    return b;
  };
  const i32 = (n: number) => {
    const b = Buffer.alloc(4);
    b.writeInt32BE(n);
    return b;
  };
  parts.push(i16(formats.length), ...formats.map(i16), i16(values.length));
  for (const v of values) parts.push(i32(v === null ? -1 : v.length), ...(v ? [v] : []));
  parts.push(i16(resultFormats.length), ...resultFormats.map(i16));
  const body = Buffer.concat(parts);
  return Buffer.concat([Buffer.from('B'), i32(body.length + 4), body]);
}

function cstr(b: Buffer, at: number): [string, number] {
  const end = b.indexOf(0, at);
  return [b.toString('utf8', at, end), end + 1];
}

function rowDescription(b: Buffer): WireField[] {
  const n = b.readInt16BE(0);
  const out: WireField[] = [];
  let at = 2;
  for (let i = 0; i < n; i++) {
    const [name, next] = cstr(b, at);
    out.push({ name, typeOid: b.readUInt32BE(next + 6), format: b.readInt16BE(next + 16) });
    at = next + 18;
  }
  return out;
}

function dataRow(b: Buffer): (Buffer | null)[] {
  const n = b.readInt16BE(0);
  const out: (Buffer | null)[] = [];
  let at = 2;
  for (let i = 0; i < n; i++) {
    const len = b.readInt32BE(at);
    at += 4;
    out.push(len < 0 ? null : Buffer.from(b.subarray(at, at + len)));
    if (len > 0) at += len;
  }
  return out;
}

function errorFields(b: Buffer): { code: string; message: string } {
  const f: Record<string, string> = {};
  let at = 0;
  while (at < b.length && b[at] !== 0) {
    const k = String.fromCharCode(b[at]);
    const [v, next] = cstr(b, at + 1);
    f[k] = v;
    at = next;
  }
  return { code: f.C ?? '', message: f.M ?? '' };
}
