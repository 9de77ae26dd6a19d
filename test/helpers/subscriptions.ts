import assert from 'node:assert/strict';
import { type NdjsonStream, openStream, postJson } from './http';

/** A schema of a few tables for the subscription tests. */
export const LIVE_SCHEMA = `
CREATE TABLE users (id INTEGER NOT NULL PRIMARY KEY, name TEXT, team INTEGER, score INTEGER);
CREATE TABLE teams (id INTEGER NOT NULL PRIMARY KEY, title TEXT);
CREATE TABLE tags (user_id INTEGER NOT NULL, tag TEXT NOT NULL, weight INTEGER, PRIMARY KEY (user_id, tag));
`;

export type Event = Record<string, unknown>;

export { write } from './http';

/** Opens POST /v1/subscriptions and waits for its eoq. */
export async function subscribe(
  base: string,
  body: unknown,
  query = '',
): Promise<{ stream: NdjsonStream; id: string }> {
  const stream = await openStream(base, 'POST', `/v1/subscriptions${query}`, JSON.stringify(body));
  assert.equal(stream.status, 200);
  await stream.until((e) => e.some((x) => 'eoq' in (x as Event)));
  return { stream, id: String(stream.res.headers['patina-query-id']) };
}

/**
 * Rows asked for after acknowledged writes: POST /v1/subscriptions of `body` (GET
 * /v1/subscriptions/{uuid} without from, given `uuid`), until its eoq. When the stored result cannot
 * catch up with those writes in time (a machine under load), the agent says so with an error line
 * instead of sending rows that may lack them, and the request is to be retried: retried here, up to
 * `tries` times in all. Any other error line fails.
 */
export async function subscribeCaughtUp(
  base: string,
  body: unknown,
  uuid?: string,
  tries = 5,
): Promise<{ stream: NdjsonStream; id: string; retries: number }> {
  for (let attempt = 1; ; attempt++) {
    const stream =
      uuid === undefined
        ? await openStream(base, 'POST', '/v1/subscriptions', JSON.stringify(body))
        : await openStream(base, 'GET', `/v1/subscriptions/${uuid}`);
    assert.equal(stream.status, 200);
    await stream.until((e) => e.some((x) => 'eoq' in (x as Event) || 'error' in (x as Event)), 30000);
    const error = stream.events.find((x) => 'error' in (x as Event)) as { error: string } | undefined;
    if (!error) return { stream, id: String(stream.res.headers['patina-query-id']), retries: attempt - 1 };
    stream.close();
    assert.match(error.error, /could not be brought up to date/, 'the only error is a catch-up that took too long');
    assert.ok(attempt < tries, `${tries} requests could not catch up: ${error.error}`);
    await sleep(500);
  }
}

/** The change events of a stream. */
export function changes(events: unknown[]): [string, number, unknown[], number][] {
  return events
    .filter((e) => 'change' in (e as Event))
    .map((e) => (e as { change: [string, number, unknown[], number] }).change);
}

/** Waits until the stream has seen the change with this id. */
export function untilChange(stream: NdjsonStream, changeId: number, timeoutMs?: number): Promise<unknown[]> {
  return stream.until((e) => changes(e).some((c) => c[3] >= changeId), timeoutMs);
}

/** A client-side view of a subscription: rowid -> cells, fed by row and change events. */
export class ResultMap {
  readonly rows = new Map<number, unknown[]>();
  lastChange = 0;
  readonly #seen = new WeakMap<unknown[], number>();

  /** Applies the events of a stream not applied yet; checks that change ids are contiguous. */
  apply(events: unknown[]): void {
    for (let i = this.#seen.get(events) ?? 0; i < events.length; this.#seen.set(events, ++i)) {
      const e = events[i] as Event;
      if ('row' in e) {
        const [id, cells] = e.row as [number, unknown[]];
        assert.ok(!this.rows.has(id), `row id ${id} sent twice`);
        this.rows.set(id, cells);
      } else if ('eoq' in e) {
        this.lastChange = Number((e.eoq as { change_id: number }).change_id);
      } else if ('change' in e) {
        const [kind, id, cells, changeId] = e.change as [string, number, unknown[], number];
        assert.equal(changeId, this.lastChange + 1, `change ids are contiguous: ${changeId} after ${this.lastChange}`);
        this.lastChange = changeId;
        if (kind === 'insert') {
          assert.ok(!this.rows.has(id), `insert of row id ${id}, which exists`);
          this.rows.set(id, cells);
        } else if (kind === 'update') {
          assert.ok(this.rows.has(id), `update of row id ${id}, which does not exist`);
          this.rows.set(id, cells);
        } else if (kind === 'delete') {
          assert.ok(this.rows.has(id), `delete of row id ${id}, which does not exist`);
          assert.deepEqual(cells, this.rows.get(id), "a delete carries the row's last values");
          this.rows.delete(id);
        } else {
          assert.fail(`unknown change kind ${kind}`);
        }
      } else if ('error' in e) {
        assert.fail(`error event: ${JSON.stringify(e.error)}`);
      }
    }
  }

  /** The rows as a sorted multiset of JSON texts. */
  multiset(): string[] {
    return [...this.rows.values()].map((c) => stringify(c)).sort();
  }
}

/** The rows of a fresh POST /v1/queries, as a sorted multiset of JSON texts. */
export async function queryMultiset(base: string, body: unknown): Promise<string[]> {
  const sql = Array.isArray(body)
    ? Array.isArray(body[1])
      ? { query: body[0], params: body[1] }
      : { query: body[0], named_params: body[1] }
    : body;
  const r = await postJson(base, '/v1/queries', sql);
  assert.equal(r.status, 200, r.text);
  const out: string[] = [];
  for (const l of r.lines as Event[]) {
    if ('error' in l) assert.fail(`query failed: ${String(l.error)}`);
    if ('row' in l) out.push(stringify((l.row as [number, unknown[]])[1]));
  }
  return out.sort();
}

export function stringify(v: unknown): string {
  return JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? x.toString() : x));
}

import { sleep } from './wait';

export { sleep };

/** Waits until a stream has had at least one event and then none for `quietMs`. */
export async function settle(stream: NdjsonStream, quietMs = 300): Promise<void> {
  await stream.count(1);
  let n;
  do {
    n = stream.events.length;
    await sleep(quietMs);
  } while (stream.events.length !== n);
}

/** Waits until the client-side map of a subscription equals a fresh run of its query (5 s at most). */
export async function converge(base: string, body: unknown, stream: NdjsonStream, view: ResultMap): Promise<void> {
  const expected = await queryMultiset(base, body);
  const deadline = Date.now() + 5000;
  for (;;) {
    view.apply(stream.events);
    if (JSON.stringify(view.multiset()) === JSON.stringify(expected)) return;
    if (Date.now() > deadline || stream.ended) {
      assert.deepEqual(view.multiset(), expected, `subscription ${JSON.stringify(body)} differs from a fresh query`);
    }
    await sleep(10);
  }
}
