import fs from 'node:fs';
import path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { PatinaError } from '../errors';

/** A host and port to listen on or connect to. */
export interface Addr {
  host: string;
  port: number;
}

export interface PgListenerConfig {
  addr: Addr;
  /** Refuse writes with SQLSTATE 25006. */
  readonly: boolean;
  /** When set, clients authenticate with SCRAM-SHA-256 against this password. */
  password: string | null;
}

export interface GossipConfig {
  addr: Addr;
  /** The address peers dial, when not `addr` (behind a proxy or NAT); null: `addr`. */
  advertise?: Addr | null;
  bootstrap: Addr[];
  clusterId: number;
}

export interface SubscriptionConfig {
  /** Changes kept per subscription at the least. */
  retainChanges: number;
  /** Seconds a change is kept at the least. */
  retainSeconds: number;
  /** Seconds a subscription nobody listens to lives on. */
  idleSeconds: number;
  /** Events buffered per client before it is cut off as too slow. */
  clientBuffer: number;
  /** Bytes of change lines buffered per client before it is cut off as too slow. */
  clientBufferBytes: number;
  /** Changed rows waiting to be matched past which HTTP writes wait, then get 503 with Retry-After. */
  maxBacklogRows: number;
}

/** The whole validated configuration of one agent. */
export interface Config {
  db: { path: string; schemaPaths: string[]; readWorkersMin: number; readWorkersMax: number };
  api: { addr: Addr; bodyLimit: number; queryTimeoutSeconds: number; pg: PgListenerConfig[] };
  subscriptions: SubscriptionConfig;
  gossip: GossipConfig | null;
}

/** The folder of the installed package, for the embedded defaults. */
export const PACKAGE_ROOT = path.resolve(__dirname, '..', '..', '..');

/** The embedded default: a file under ./data, the example schema, HTTP on 127.0.0.1:8080. */
export function defaultConfig(): Config {
  return {
    db: {
      path: path.resolve('data', 'patina.db'),
      schemaPaths: [path.join(PACKAGE_ROOT, 'examples', 'schema')],
      readWorkersMin: 2,
      readWorkersMax: 16,
    },
    api: { addr: { host: '127.0.0.1', port: 8080 }, bodyLimit: 16 * 1024 * 1024, queryTimeoutSeconds: 60, pg: [] },
    subscriptions: { retainChanges: 10000, retainSeconds: 3600, idleSeconds: 600, clientBuffer: 10000, clientBufferBytes: 4 * 1024 * 1024, maxBacklogRows: 100000 },
    gossip: null,
  };
}

const bad = (key: string, what: string) => new PatinaError('user', `config: ${key}: ${what}`);

/** Parses "HOST:PORT" (IPv6 as "[::1]:PORT"). */
export function parseAddr(text: unknown, key: string): Addr {
  if (typeof text !== 'string') throw bad(key, 'expected a string "HOST:PORT"');
  const m = /^(?:\[([^\]]+)\]|([^:]+)):(\d{1,5})$/.exec(text.trim());
  if (!m) throw bad(key, `${JSON.stringify(text)} is not HOST:PORT`);
  const port = Number(m[3]);
  if (port > 65535) throw bad(key, `port ${port} is out of range`);
  return { host: m[1] ?? m[2], port };
}

export function formatAddr(a: Addr): string {
  return a.host.includes(':') ? `[${a.host}]:${a.port}` : `${a.host}:${a.port}`;
}

const SIZE_UNITS: Record<string, number> = { '': 1, b: 1, k: 1024, kb: 1024, kib: 1024, m: 1024 ** 2, mb: 1024 ** 2, mib: 1024 ** 2, g: 1024 ** 3, gb: 1024 ** 3, gib: 1024 ** 3 };

function parseSize(v: unknown, key: string): number {
  if (typeof v === 'number' && Number.isInteger(v) && v > 0) return v;
  if (typeof v === 'bigint' && v > 0n) return Number(v);
  if (typeof v === 'string') {
    const m = /^(\d+)\s*([a-z]*)$/i.exec(v.trim());
    if (m && SIZE_UNITS[m[2].toLowerCase()] !== undefined) return Number(m[1]) * SIZE_UNITS[m[2].toLowerCase()];
  }
  throw bad(key, `${JSON.stringify(String(v))} is not a size (bytes, or a number with KiB, MiB or GiB)`);
}

function num(v: unknown, key: string, min: number, integer = true): number {
  const n = typeof v === 'bigint' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isFinite(n) || n < min || (integer && !Number.isInteger(n))) {
    throw bad(key, `expected ${integer ? 'an integer' : 'a number'} of at least ${min}`);
  }
  return n;
}

function str(v: unknown, key: string): string {
  if (typeof v !== 'string' || v === '') throw bad(key, 'expected a non-empty string');
  return v;
}

function bool(v: unknown, key: string): boolean {
  if (typeof v !== 'boolean') throw bad(key, 'expected true or false');
  return v;
}

function table(v: unknown, key: string, allowed: string[]): Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw bad(key, 'expected a table');
  for (const k of Object.keys(v)) if (!allowed.includes(k)) throw bad(key ? `${key}.${k}` : k, 'unknown key');
  return v as Record<string, unknown>;
}

function pgListener(v: unknown, key: string): PgListenerConfig {
  const t = table(v, key, ['addr', 'readonly', 'password']);
  if (t.addr === undefined) throw bad(`${key}.addr`, 'missing');
  return {
    addr: parseAddr(t.addr, `${key}.addr`),
    readonly: t.readonly === undefined ? false : bool(t.readonly, `${key}.readonly`),
    password: t.password === undefined ? null : str(t.password, `${key}.password`),
  };
}

/** Applies a parsed TOML document to a config; relative paths are taken from `baseDir`. */
export function applyToml(cfg: Config, doc: unknown, baseDir: string): Config {
  const root = table(doc, '', ['db', 'api', 'subscriptions', 'gossip']);
  const rel = (p: string) => path.resolve(baseDir, p);
  if (root.db !== undefined) {
    const db = table(root.db, 'db', ['path', 'schema_paths', 'read_workers_min', 'read_workers_max']);
    if (db.path !== undefined) cfg.db.path = rel(str(db.path, 'db.path'));
    if (db.schema_paths !== undefined) {
      const sp = typeof db.schema_paths === 'string' ? [db.schema_paths] : db.schema_paths;
      if (!Array.isArray(sp) || sp.length === 0) throw bad('db.schema_paths', 'expected a list of files or folders');
      cfg.db.schemaPaths = sp.map((p, i) => rel(str(p, `db.schema_paths[${i}]`)));
    }
    if (db.read_workers_min !== undefined) cfg.db.readWorkersMin = num(db.read_workers_min, 'db.read_workers_min', 0);
    if (db.read_workers_max !== undefined) cfg.db.readWorkersMax = num(db.read_workers_max, 'db.read_workers_max', 1);
  }
  if (root.api !== undefined) {
    const api = table(root.api, 'api', ['addr', 'body_limit', 'query_timeout', 'pg']);
    if (api.addr !== undefined) cfg.api.addr = parseAddr(api.addr, 'api.addr');
    if (api.body_limit !== undefined) cfg.api.bodyLimit = parseSize(api.body_limit, 'api.body_limit');
    if (api.query_timeout !== undefined) cfg.api.queryTimeoutSeconds = num(api.query_timeout, 'api.query_timeout', 0.001, false);
    if (api.pg !== undefined) {
      // [api.pg] for one listener, [[api.pg]] for several
      cfg.api.pg = Array.isArray(api.pg) ? api.pg.map((l, i) => pgListener(l, `api.pg[${i}]`)) : [pgListener(api.pg, 'api.pg')];
    }
  }
  if (root.subscriptions !== undefined) {
    const s = table(root.subscriptions, 'subscriptions', ['retain_changes', 'retain_seconds', 'idle_seconds', 'client_buffer', 'client_buffer_bytes', 'max_backlog_rows']);
    if (s.retain_changes !== undefined) cfg.subscriptions.retainChanges = num(s.retain_changes, 'subscriptions.retain_changes', 1);
    if (s.retain_seconds !== undefined) cfg.subscriptions.retainSeconds = num(s.retain_seconds, 'subscriptions.retain_seconds', 0, false);
    if (s.idle_seconds !== undefined) cfg.subscriptions.idleSeconds = num(s.idle_seconds, 'subscriptions.idle_seconds', 0, false);
    if (s.client_buffer !== undefined) cfg.subscriptions.clientBuffer = num(s.client_buffer, 'subscriptions.client_buffer', 1);
    if (s.client_buffer_bytes !== undefined) cfg.subscriptions.clientBufferBytes = parseSize(s.client_buffer_bytes, 'subscriptions.client_buffer_bytes');
    if (s.max_backlog_rows !== undefined) cfg.subscriptions.maxBacklogRows = num(s.max_backlog_rows, 'subscriptions.max_backlog_rows', 1);
  }
  if (root.gossip !== undefined) {
    const g = table(root.gossip, 'gossip', ['addr', 'advertise_addr', 'bootstrap', 'cluster_id']);
    if (g.addr === undefined) throw bad('gossip.addr', 'missing');
    const boot = g.bootstrap === undefined ? [] : g.bootstrap;
    if (!Array.isArray(boot)) throw bad('gossip.bootstrap', 'expected a list of "HOST:PORT"');
    cfg.gossip = {
      addr: parseAddr(g.addr, 'gossip.addr'),
      advertise: g.advertise_addr === undefined ? null : parseAddr(g.advertise_addr, 'gossip.advertise_addr'),
      bootstrap: boot.map((b, i) => parseAddr(b, `gossip.bootstrap[${i}]`)),
      clusterId: g.cluster_id === undefined ? 0 : num(g.cluster_id, 'gossip.cluster_id', 0),
    };
  }
  if (cfg.db.readWorkersMin > cfg.db.readWorkersMax) throw bad('db.read_workers_min', 'is larger than db.read_workers_max');
  return cfg;
}

/** Reads a TOML config file over the defaults; errors name the file and the key at fault. */
export function loadConfigFile(file: string, cfg: Config = defaultConfig()): Config {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new PatinaError('user', `config: cannot read ${file}: ${(err as Error).message}`);
  }
  let doc: unknown;
  try {
    doc = parseToml(text);
  } catch (err) {
    throw new PatinaError('user', `config: ${file}: ${(err as Error).message.split('\n')[0]}`);
  }
  try {
    return applyToml(cfg, doc, path.dirname(path.resolve(file)));
  } catch (err) {
    throw new PatinaError('user', `${(err as Error).message.replace(/^config: /, `config: ${file}: `)}`);
  }
}
