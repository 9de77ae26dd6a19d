import type http from 'node:http';
import type Koa from 'koa';
import type { TableUpdate, UpdateSink } from '../../../src/live/table-updates';
import { rowToJson } from '../../../src/engine/values';
import { errorLine, line } from '../ndjson';

/** What POST /v1/updates/{table} needs: a source of a table's changed keys. */
export interface UpdateService {
  /** Throws a not-found PatinaError for an unknown table or one without a primary key. */
  watch(table: string, sink: UpdateSink): () => void;
}

export interface UpdateStreamOptions {
  /** Bytes a client may leave unread in the agent before it is cut off with an error. */
  maxBufferedBytes: number;
}

// One update reaches many streams: render its line once.
const rendered = new WeakMap<TableUpdate, string>();
function render(u: TableUpdate): string {
  let s = rendered.get(u);
  if (s === undefined) {
    s = line('notify', `[${JSON.stringify(u.kind)},${rowToJson(u.pk)}]`);
    rendered.set(u, s);
  }
  return s;
}

/**
 * POST /v1/updates/{table}: an NDJSON stream of `{"notify":[kind,[pk...]]}` for changes committed
 * after the request, open while the connection lives. The table name is only looked up in the
 * schema, never put into SQL. A client that leaves too much unread gets an error line and is cut off.
 */
export function handleUpdates(svc: UpdateService, opts: UpdateStreamOptions): Koa.Middleware {
  return (ctx) => {
    const res = ctx.res;
    const stream = new UpdateStream(res, opts.maxBufferedBytes);
    stream.stop = svc.watch(ctx.params.table, stream); // before any header: an unknown table is a plain 404
    ctx.status = 200;
    ctx.set('content-type', 'application/x-ndjson');
    ctx.set('cache-control', 'no-store');
    ctx.respond = false;
    res.flushHeaders();
    res.on('close', () => stream.stop());
  };
}

class UpdateStream implements UpdateSink {
  readonly #res: http.ServerResponse;
  readonly #max: number;
  #done = false;
  stop: () => void = () => {};

  constructor(res: http.ServerResponse, max: number) {
    this.#res = res;
    this.#max = max;
  }

  update(u: TableUpdate): void {
    if (this.#done) return;
    const s = render(u);
    // The socket's own buffer is the queue; it may not grow past the limit.
    if (this.#res.writableLength + s.length > this.#max) {
      this.stop();
      this.fail(`update stream closed: the client left more than ${this.#max} bytes unread; read faster or reconnect`);
      return;
    }
    this.#res.write(s);
  }

  fail(message: string): void {
    if (this.#done) return;
    this.#done = true;
    this.#res.end(errorLine(message));
    this.#cutOffLater();
  }

  end(): void {
    if (this.#done) return;
    this.#done = true;
    this.#res.end();
    this.#cutOffLater();
  }

  // A client that does not read never lets the end through: cut it shortly after.
  #cutOffLater() {
    setTimeout(() => {
      if (!this.#res.writableFinished) this.#res.destroy();
    }, 1000).unref();
  }
}
