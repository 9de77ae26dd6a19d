import http from 'node:http';
import https from 'node:https';
import { parseJsonExact } from '../../src/engine/json';

export interface HttpResult {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** The body parsed as JSON with 64-bit integers exact (bigint), or undefined. */
  json: unknown;
  /** The body's NDJSON lines, parsed. */
  lines: unknown[];
}

/** TLS options of an https request: the CA to trust, a client certificate. */
export interface ClientTls {
  ca?: Buffer;
  cert?: Buffer;
  key?: Buffer;
}

/** One request over a real socket (https for an https base, with `tls`); the whole response body is read. */
export function request(
  base: string,
  method: string,
  path: string,
  body?: string | Buffer,
  headers: Record<string, string> = {},
  tls: ClientTls = {},
): Promise<HttpResult> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const h =
      body !== undefined && !('content-type' in headers) ? { 'content-type': 'application/json', ...headers } : headers;
    const onResponse = (res: http.IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = parseJsonExact(text);
        } catch {
          json = undefined;
        }
        const lines = text
          .split('\n')
          .filter((l) => l.trim() !== '')
          .map((l) => {
            try {
              return parseJsonExact(l);
            } catch {
              return l;
            }
          });
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json, lines });
      });
      res.on('error', reject);
    };
    const req =
      url.protocol === 'https:'
        ? https.request(url, { method, headers: h, agent: false, ...tls }, onResponse)
        : http.request(url, { method, headers: h, agent: false }, onResponse);
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

/** POST a JSON value (or raw text) with content-type application/json. */
export function postJson(
  base: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<HttpResult> {
  return request(
    base,
    'POST',
    path,
    typeof body === 'string' && headers.raw === '1' ? body : JSON.stringify(body),
    headers,
  );
}

/**
 * Opens a streaming request and hands back its NDJSON events as they arrive. `close()` ends it.
 */
export function openStream(
  base: string,
  method: string,
  path: string,
  body?: string,
  headers: Record<string, string> = {},
): Promise<NdjsonStream> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method,
        headers: body !== undefined ? { 'content-type': 'application/json', ...headers } : headers,
        agent: false,
      },
      (res) => {
        resolve(new NdjsonStream(req, res));
      },
    );
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

export class NdjsonStream {
  readonly req: http.ClientRequest;
  readonly res: http.IncomingMessage;
  readonly events: unknown[] = [];
  ended = false;
  #buf = '';
  #waiters: (() => void)[] = [];

  constructor(req: http.ClientRequest, res: http.IncomingMessage) {
    this.req = req;
    this.res = res;
    res.setEncoding('utf8');
    res.on('data', (d: string) => {
      this.#buf += d;
      let nl;
      while ((nl = this.#buf.indexOf('\n')) >= 0) {
        const l = this.#buf.slice(0, nl);
        this.#buf = this.#buf.slice(nl + 1);
        if (l.trim() !== '') this.events.push(parseJsonExact(l));
      }
      this.#wake();
    });
    const end = () => {
      this.ended = true;
      this.#wake();
    };
    res.on('end', end);
    res.on('close', end);
    res.on('error', end);
  }

  get status(): number {
    return this.res.statusCode ?? 0;
  }

  #wake() {
    for (const w of this.#waiters.splice(0)) w();
  }

  /** Waits until `pred(events)` holds, or fails after timeoutMs with what arrived. */
  async until(pred: (events: unknown[]) => boolean, timeoutMs = 10000): Promise<unknown[]> {
    const deadline = Date.now() + timeoutMs;
    while (!pred(this.events)) {
      if (this.ended)
        throw new Error(
          `stream ended before the condition held; events: ${JSON.stringify(this.events, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))}`,
        );
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(
          `timed out; events so far: ${JSON.stringify(this.events, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))}`,
        );
      await new Promise<void>((r) => {
        const t = setTimeout(r, left);
        this.#waiters.push(() => {
          clearTimeout(t);
          r();
        });
      });
    }
    return this.events;
  }

  /** Waits for at least n events. */
  count(n: number, timeoutMs?: number): Promise<unknown[]> {
    return this.until((e) => e.length >= n, timeoutMs);
  }

  close(): void {
    this.req.destroy();
    this.res.destroy();
  }
}

/** Writes statements in one transaction over HTTP; fails the test unless every statement succeeded. */
export async function write(
  base: string,
  statements: unknown[],
): Promise<{ version: number | null; actor_id: string; results: unknown[] }> {
  const r = await postJson(base, '/v1/transactions', statements);
  if (r.status !== 200) throw new Error(`write answered ${r.status}: ${r.text}`);
  const body = r.json as { version: number | null; actor_id: string; results: { error?: string }[] };
  for (const x of body.results) if (x.error !== undefined) throw new Error(`write failed: ${r.text}`);
  return body;
}

/** The agent's health document (GET /v1/health), typed by the caller. */
export async function health<T = Record<string, unknown>>(base: string): Promise<T> {
  const r = await request(base, 'GET', '/v1/health');
  if (r.status !== 200) throw new Error(`health answered ${r.status}: ${r.text}`);
  return r.json as T;
}
