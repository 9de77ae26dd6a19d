import { PatinaError } from './errors.js';
import { type FetchFn, Transport, statementBody } from './http.js';
import { type IntegerMode, toJson } from './json.js';
import { ndjsonLines } from './ndjson.js';
import { QueryResult } from './query.js';
import { type SubscribeOptions, Subscription } from './subscription.js';
import type { CallOptions, Params, Statement, TransactionResult } from './types.js';
import { type UpdateEvent, type UpdatesOptions, tableUpdates } from './updates.js';

export interface ClientOptions {
  /** The agent's HTTP API, e.g. http://127.0.0.1:8080. */
  url: string;
  /** Sent as `Authorization: Bearer <token>` on every request. */
  token?: string;
  /** The fetch to use (default: the global one). */
  fetch?: FetchFn;
  /** Integers of result cells: 'auto' (numbers, bigint beyond ±2^53; the default) or 'bigint' (always). */
  integers?: IntegerMode;
}

export interface QueryOptions extends CallOptions {
  /** Seconds after which the agent interrupts the query (its `?timeout`). */
  timeout?: number;
}

/** A client of one Patina agent's HTTP API. Uses only fetch and web streams. */
export class PatinaClient {
  readonly #t: Transport;

  constructor(opts: ClientOptions) {
    if (!opts || typeof opts.url !== 'string')
      throw new PatinaError('request', 'PatinaClient needs { url }, e.g. { url: "http://127.0.0.1:8080" }');
    const ints = opts.integers ?? 'auto';
    if (ints !== 'auto' && ints !== 'bigint')
      throw new PatinaError('request', `integers must be 'auto' or 'bigint', got ${JSON.stringify(ints)}`);
    this.#t = new Transport(opts.url, opts.token, opts.fetch, ints);
  }

  /** The base URL requests go to. */
  get url(): string {
    return this.#t.base;
  }

  /** One read statement; iterate the result for its rows (see QueryResult). */
  query(sql: string, params?: Params, opts: QueryOptions = {}): QueryResult {
    let path = '/v1/queries';
    if (opts.timeout !== undefined) path += `?timeout=${encodeURIComponent(String(opts.timeout))}`;
    return new QueryResult(this.#t, path, statementBody(sql, params, toJson), opts.signal);
  }

  /** Statements in one all-or-nothing transaction; a refusal is a PatinaError naming the statement (`statement`, from 1). */
  async transaction(statements: Statement[], opts: CallOptions = {}): Promise<TransactionResult> {
    if (!Array.isArray(statements) || statements.length === 0)
      throw new PatinaError('request', 'a transaction needs a non-empty array of statements');
    const body = '[' + statements.map((s, i) => statementJson(s, i + 1)).join(',') + ']';
    return (await this.#t.json('POST', '/v1/transactions', body, opts.signal)) as TransactionResult;
  }

  /** A live query kept up to date by the client, resuming by itself (see Subscription). */
  subscribe(sql: string, params?: Params, opts: SubscribeOptions = {}): Subscription {
    return new Subscription(this.#t, sql, statementBody(sql, params, toJson), opts);
  }

  /** Which primary keys of a table change, from now on, reconnecting after drops. */
  updates(table: string, opts: UpdatesOptions = {}): AsyncGenerator<UpdateEvent> {
    return tableUpdates(this.#t, table, opts);
  }

  /** GET /v1/health. */
  async health(opts: CallOptions = {}): Promise<Record<string, unknown>> {
    return (await this.#t.json('GET', '/v1/health', undefined, opts.signal)) as Record<string, unknown>;
  }

  /** GET /v1/cluster/members: the peers, their state and round-trip time. */
  async members(opts: CallOptions = {}): Promise<{ clustered: boolean; members: Member[] }> {
    return (await this.#t.json('GET', '/v1/cluster/members', undefined, opts.signal)) as {
      clustered: boolean;
      members: Member[];
    };
  }

  /** POST /v1/admin/cluster/forget: drops a member that will not return (admin role). */
  async forgetMember(addr: string, opts: CallOptions = {}): Promise<{ forgotten: string }> {
    return (await this.#t.json('POST', '/v1/admin/cluster/forget', JSON.stringify({ addr }), opts.signal)) as {
      forgotten: string;
    };
  }

  /** GET /v1/sync/status: per origin agent, the highest version merged here and the gaps. */
  async syncStatus(opts: CallOptions = {}): Promise<SyncStatus> {
    return (await this.#t.json('GET', '/v1/sync/status', undefined, opts.signal)) as SyncStatus;
  }

  /**
   * POST /v1/admin/backup: the agent writes a consistent copy of its database to `path` (a path on
   * the agent's machine) while writes go on; yields its progress and done events (admin role).
   */
  async *backup(path: string, opts: CallOptions = {}): AsyncGenerator<BackupEvent> {
    const res = await this.#t.send('POST', '/v1/admin/backup', JSON.stringify({ path }), opts.signal);
    for await (const line of ndjsonLines(res.body)) {
      const ev = JSON.parse(line) as BackupEvent & { error?: string };
      if (typeof ev.error === 'string') throw new PatinaError('server', ev.error, res.status);
      yield ev;
    }
  }

  /** POST /v1/admin/reload: the agent re-reads its schema files. */
  async reloadSchema(opts: CallOptions = {}): Promise<Record<string, unknown>> {
    return (await this.#t.json('POST', '/v1/admin/reload', undefined, opts.signal)) as Record<string, unknown>;
  }
}

export interface Member {
  addr: string;
  actor_id: string | null;
  state: string;
  rtt_ms: number | null;
}

export interface SyncStatus {
  clustered?: boolean;
  origins: {
    actor_id: string;
    self: boolean;
    head: number;
    gaps: [number, number][];
    missing: number;
    behind: number;
    lag_seconds: number;
  }[];
  gaps?: number;
  lag_versions?: number;
  lag_seconds?: number;
}

/** An event of a backup: how far it is, then where it was written. */
export type BackupEvent =
  | { progress: { bytes_done: number; bytes_total: number } }
  | { done: { path: string; bytes: number; seconds: number; actor_id: string } };

function statementJson(s: Statement, n: number): string {
  if (typeof s === 'string') return JSON.stringify(s);
  if (Array.isArray(s)) return statementBody(s[0], s[1], (v, w) => toJson(v, `statement ${n} ${w}`));
  if (s && typeof s === 'object' && typeof s.sql === 'string')
    return statementBody(s.sql, s.params, (v, w) => toJson(v, `statement ${n} ${w}`));
  throw new PatinaError('request', `statement ${n}: expected a SQL string, [sql, params] or { sql, params }`);
}
