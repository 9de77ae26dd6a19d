import http from 'node:http';
import { StringDecoder } from 'node:string_decoder';
import { parseJsonExact } from '../../src/engine/json';

/**
 * How a subscription client reads: `fast` as fast as it can, `slow` one socket read (at most 16 KiB)
 * every `everyMs`, `stalled` never after the headers.
 */
export type ReadMode = { kind: 'fast' } | { kind: 'slow'; everyMs: number } | { kind: 'stalled' };

/**
 * A streaming HTTP client of one subscription that keeps counts, not events: change ids must be
 * contiguous, the change count and the last error line are kept, and so is whether the stream ended
 * and whether the connection was closed. Light enough to read tens of MiB of changes.
 */
export class LineClient {
  readonly req: http.ClientRequest;
  res!: http.IncomingMessage;
  status = 0;
  queryId = '';
  rows = 0;
  changes = 0;
  lastChange = 0;
  eoq = false;
  error: string | null = null;
  ended = false;
  closed = false;
  /** A problem the client saw (a gap in change ids, an unparsable line). */
  fault: string | null = null;
  #buf = '';
  /**
   * Bytes to text, a character split between two reads kept for the next: the stream itself has no
   * encoding set, because Node's read(n) on a stream with setEncoding() can over-consume its buffer
   * and then throw "Cannot read properties of undefined (reading 'length')" from a later read
   * (nodejs/node#61884): in the slow client's timer, an uncaught error that failed every test after
   * it in the run (test/live/load.test.ts and the live/ files after it, on a loaded machine).
   */
  readonly #decoder = new StringDecoder('utf8');
  #timer: NodeJS.Timeout | null = null;
  #waiters: (() => void)[] = [];

  private constructor(req: http.ClientRequest) {
    this.req = req;
  }

  /** `after`: the change id the client resumes after (GET with from=). */
  static open(
    base: string,
    method: string,
    path: string,
    body: string | undefined,
    mode: ReadMode,
    after = 0,
  ): Promise<LineClient> {
    const url = new URL(path, base);
    return new Promise((resolve, reject) => {
      const req = http.request(
        url,
        { method, headers: body !== undefined ? { 'content-type': 'application/json' } : {}, agent: false },
        (res) => {
          c.res = res;
          c.status = res.statusCode ?? 0;
          c.queryId = String(res.headers['patina-query-id'] ?? '');
          c.#read(mode);
          resolve(c);
        },
      );
      const c = new LineClient(req);
      c.lastChange = after;
      req.on('error', (err) => {
        c.closed = true;
        c.#wake();
        reject(err);
      });
      if (body !== undefined) req.write(body);
      req.end();
    });
  }

  #read(mode: ReadMode) {
    const res = this.res;
    const end = () => {
      this.ended = true;
      this.#wake();
    };
    res.on('end', end);
    res.on('error', () => undefined);
    res.on('close', () => {
      this.closed = true;
      if (this.#timer) clearInterval(this.#timer);
      end();
    });
    if (mode.kind === 'fast') {
      res.on('data', (d: Buffer) => this.#take(d));
    } else if (mode.kind === 'slow') {
      res.pause();
      this.#timer = setInterval(() => {
        // at most 16 KiB a tick (read() alone returns all that is buffered, which can be far more,
        // and a slow client then kept up on a slow machine)
        const d = (res.read(16384) ?? res.read()) as Buffer | null;
        if (d !== null) this.#take(d);
      }, mode.everyMs);
    } else {
      res.pause();
    }
  }

  #take(d: Buffer) {
    this.#buf += this.#decoder.write(d);
    let nl;
    let from = 0;
    while ((nl = this.#buf.indexOf('\n', from)) >= 0) {
      this.#line(this.#buf.slice(from, nl));
      from = nl + 1;
    }
    this.#buf = this.#buf.slice(from);
    this.#wake();
  }

  #line(l: string) {
    if (l.startsWith('{"change":')) {
      // Only the change id is needed: the last number of the line.
      const id = Number(/,(\d+)\]\}$/.exec(l)?.[1]);
      if (id !== this.lastChange + 1 && this.fault === null) this.fault = `change id ${id} after ${this.lastChange}`;
      this.lastChange = id;
      this.changes++;
      return;
    }
    if (l.startsWith('{"row":')) {
      this.rows++;
      return;
    }
    let e: Record<string, unknown>;
    try {
      e = parseJsonExact(l) as Record<string, unknown>;
    } catch {
      this.fault ??= `unparsable line ${l.slice(0, 80)}`;
      return;
    }
    if ('eoq' in e) {
      this.eoq = true;
      this.lastChange = Number((e.eoq as { change_id: number }).change_id);
    } else if ('error' in e) {
      this.error = String(e.error);
    }
  }

  #wake() {
    for (const w of this.#waiters.splice(0)) w();
  }

  /** Waits until `pred()` holds, or fails after timeoutMs saying `what`. */
  async until(pred: () => boolean, timeoutMs: number, what: string): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!pred()) {
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(
          `timed out waiting for ${what}: rows ${this.rows}, changes ${this.changes}, error ${this.error}, ended ${this.ended}, closed ${this.closed}`,
        );
      await new Promise<void>((r) => {
        const t = setTimeout(r, Math.min(left, 200));
        this.#waiters.push(() => {
          clearTimeout(t);
          r();
        });
      });
    }
  }

  close(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.req.destroy();
    this.res?.destroy();
  }
}
