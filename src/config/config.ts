import fs from 'node:fs';
import path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { SWIM_DEFAULTS } from '../cluster/swim';
import { PatinaError } from '../errors';
import { DEFAULT_LOG, LOG_LEVELS, type LogConfig, type LogFormat, type LogLevel } from '../observability/log';
import { lookup } from '../lookup';

/** A host and port to listen on or connect to. */
export interface Addr {
  host: string;
  port: number;
}

/** The roles of the HTTP API and PostgreSQL users, each allowing what the one before allows. */
export type Role = 'read' | 'write' | 'admin';
export const ROLES: readonly Role[] = ['read', 'write', 'admin'];

/** Where a secret comes from: inline in the config, a file, or an environment variable (exactly one). */
export type SecretSource = { value: string } | { file: string } | { env: string };

/** Certificate files; `caFile` verifies the other side (clients of HTTPS, peers of gossip). */
export interface TlsFiles {
  certFile: string;
  keyFile: string;
  caFile: string | null;
}

export interface ApiTokenConfig {
  source: SecretSource;
  role: Role;
}

/** `[api.auth]`: bearer tokens; the routes in `openRoutes` need none. */
export interface ApiAuthConfig {
  tokens: ApiTokenConfig[];
  openRoutes: string[];
}

export interface PgUserConfig {
  name: string;
  password: SecretSource;
  role: Role;
}

export interface PgListenerConfig {
  addr: Addr;
  /** Refuse writes with SQLSTATE 25006. */
  readonly: boolean;
  /** When set, clients authenticate with SCRAM-SHA-256 against this password (any user name, role write). */
  password: string | null;
  /** `[[api.pg.users]]`: named users with their own passwords and roles (SCRAM-SHA-256). */
  users?: PgUserConfig[];
  /** `[api.pg.tls]`: answer SSLRequest with S and upgrade. */
  tls?: TlsFiles | null;
  /** Refuse connections that did not upgrade to TLS. */
  requireTls?: boolean;
  /** `authentication_timeout`: seconds a connection has to finish its startup and login (PostgreSQL's 60). */
  authenticationTimeoutSeconds?: number;
  /** `max_connections`: open connections of this listener past which a new one gets 53300 (PostgreSQL's 100). */
  maxConnections?: number;
  /**
   * `socket_dir`: also listen on the Unix-domain socket `<dir>/.s.PGSQL.<port>`, where libpq looks for
   * it (`psql -h <dir> -p <port>`), as PostgreSQL's unix_socket_directories.
   */
  socketDir?: string | null;
}

/** PostgreSQL's defaults for the limits of a listener that says nothing. */
/** Silence on an agent's HTTP or PG socket before TCP keepalive probes start (docs/operations.md). */
export const TCP_KEEPALIVE_IDLE_MS = 10_000;

export const PG_LISTENER_DEFAULTS = { authenticationTimeoutSeconds: 60, maxConnections: 100 };

export interface GossipConfig {
  addr: Addr;
  /** The address peers dial, when not `addr` (behind a proxy or NAT); null: `addr`. */
  advertise?: Addr | null;
  bootstrap: Addr[];
  clusterId: number;
  /** `[gossip.tls]`: mutual TLS between agents; null: plaintext. */
  tls?: TlsFiles | null;
  /** Allows plaintext gossip on a non-loopback address. */
  plaintext?: boolean;
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
  /** Seconds such a write waits for the backlog to shrink before the 503. */
  admitWaitSeconds: number;
}

/** Replication's timings and sizes (`[gossip]`); the defaults suit a handful of agents on a LAN. */
export interface GossipTuning {
  /** The SWIM protocol period: one probe of one member each, ms. */
  pingIntervalMs: number;
  /** A probe without an answer in this long fails (then others are asked to probe), ms. */
  pingTimeoutMs: number;
  /** The shortest suspicion before a suspect peer is down, in periods times log10 of the cluster size. */
  downAfter: number;
  /** How often a down peer is pinged, ms. */
  downPingIntervalMs: number;
  /** Anti-entropy round every this many ms. */
  syncIntervalMs: number;
  /** Peers synced with per round. */
  syncPeers: number;
  /** Branches of the push tree at each agent (at least; ln(N) + 1 in larger clusters). */
  fanout: number;
  /**
   * An agent sends a changeset straight to this many of its peers, when it has no more: a cluster of
   * up to this many + 1 agents gets a write in one hop, a larger one through a tree of this many
   * branches (0: the tree of `fanout` branches alone).
   */
  pushDirect: number;
  /** Larger local changesets are not pushed; sync carries them in chunks. */
  pushMaxRows: number;
  /** Rows per chunk on the wire. */
  chunkRows: number;
  /** Rows a peer sends per sync answer before saying "more". */
  syncMaxRows: number;
  /** Rows merged per transaction on the receiving side (changesets are never split). */
  mergeBatchRows: number;
  /** A member down (or departed) this long is dropped from the member list, ms. */
  forgetAfterMs: number;
  /** Pings and pushes over one framed connection per peer (false: an HTTP request each, as older agents). */
  frames: boolean;
}

export const DEFAULT_GOSSIP_TUNING: Readonly<GossipTuning> = Object.freeze({
  pingIntervalMs: SWIM_DEFAULTS.periodMs,
  pingTimeoutMs: SWIM_DEFAULTS.timeoutMs,
  downAfter: SWIM_DEFAULTS.suspicionMult,
  downPingIntervalMs: 2000,
  syncIntervalMs: 2000,
  syncPeers: 2,
  fanout: 3,
  pushDirect: 32,
  pushMaxRows: 1000,
  chunkRows: 2000,
  syncMaxRows: 100_000,
  mergeBatchRows: 5000,
  forgetAfterMs: 72 * 3600_000,
  frames: true,
});

/** The whole validated configuration of one agent. */
export interface Config {
  db: { path: string; schemaPaths: string[]; readWorkersMin: number; readWorkersMax: number };
  api: {
    addr: Addr;
    bodyLimit: number;
    queryTimeoutSeconds: number;
    pg: PgListenerConfig[];
    /** `[api.auth]`: bearer tokens; null: every request is allowed. */
    auth?: ApiAuthConfig | null;
    /** Allows an HTTP API without auth on a non-loopback address. */
    allowUnauthenticated?: boolean;
    /** `[api.tls]`: HTTPS; `caFile` (client_ca_file) asks clients for certificates. */
    tls?: TlsFiles | null;
  };
  subscriptions: SubscriptionConfig;
  gossip: GossipConfig | null;
  /** Replication's timings; used when `gossip` is set. */
  gossipTuning: GossipTuning;
  log: LogConfig;
  /** The config file this came from, re-read for secrets and certificates on reload; null: none. */
  source?: string | null;
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
    subscriptions: {
      retainChanges: 10000,
      retainSeconds: 3600,
      idleSeconds: 600,
      clientBuffer: 10000,
      clientBufferBytes: 4 * 1024 * 1024,
      maxBacklogRows: 100000,
      admitWaitSeconds: 1,
    },
    gossip: null,
    gossipTuning: { ...DEFAULT_GOSSIP_TUNING },
    log: { ...DEFAULT_LOG },
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

const SIZE_UNITS: Record<string, number> = lookup({
  '': 1,
  b: 1,
  k: 1024,
  kb: 1024,
  kib: 1024,
  m: 1024 ** 2,
  mb: 1024 ** 2,
  mib: 1024 ** 2,
  g: 1024 ** 3,
  gb: 1024 ** 3,
  gib: 1024 ** 3,
});

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

function role(v: unknown, key: string): Role {
  if (typeof v !== 'string' || !ROLES.includes(v as Role))
    throw bad(key, `expected one of ${ROLES.map((r) => `"${r}"`).join(', ')}`);
  return v as Role;
}

/** A secret given as `NAME`, `NAME_file` or `NAME_env`; the value itself never appears in an error. */
function secretSource(
  t: Record<string, unknown>,
  name: string,
  key: string,
  rel: (p: string) => string,
): SecretSource | null {
  const given = [name, `${name}_file`, `${name}_env`].filter((k) => t[k] !== undefined);
  if (given.length > 1) throw bad(key, `give one of ${given.join(', ')}, not several`);
  if (t[name] !== undefined) {
    if (typeof t[name] !== 'string' || t[name] === '') throw bad(`${key}.${name}`, 'expected a non-empty string');
    return { value: t[name] as string };
  }
  if (t[`${name}_file`] !== undefined) return { file: rel(str(t[`${name}_file`], `${key}.${name}_file`)) };
  if (t[`${name}_env`] !== undefined) return { env: str(t[`${name}_env`], `${key}.${name}_env`) };
  return null;
}

function tlsFiles(v: unknown, key: string, rel: (p: string) => string, caKey: string | null): TlsFiles {
  const t = table(v, key, ['cert_file', 'key_file', ...(caKey ? [caKey] : [])]);
  for (const k of ['cert_file', 'key_file']) if (t[k] === undefined) throw bad(`${key}.${k}`, 'missing');
  return {
    certFile: rel(str(t.cert_file, `${key}.cert_file`)),
    keyFile: rel(str(t.key_file, `${key}.key_file`)),
    caFile: caKey && t[caKey] !== undefined ? rel(str(t[caKey], `${key}.${caKey}`)) : null,
  };
}

function pgListener(v: unknown, key: string, rel: (p: string) => string): PgListenerConfig {
  const t = table(v, key, [
    'addr',
    'readonly',
    'password',
    'users',
    'tls',
    'require_tls',
    'authentication_timeout',
    'max_connections',
    'socket_dir',
  ]);
  if (t.addr === undefined) throw bad(`${key}.addr`, 'missing');
  const users = t.users === undefined ? [] : t.users;
  if (!Array.isArray(users)) throw bad(`${key}.users`, 'expected [[api.pg.users]] entries');
  const names = new Set<string>();
  const l: PgListenerConfig = {
    addr: parseAddr(t.addr, `${key}.addr`),
    readonly: t.readonly === undefined ? false : bool(t.readonly, `${key}.readonly`),
    password: t.password === undefined ? null : str(t.password, `${key}.password`),
    users: users.map((u, i) => {
      const k = `${key}.users[${i}]`;
      const ut = table(u, k, ['name', 'password', 'password_file', 'password_env', 'role']);
      const name = str(ut.name, `${k}.name`);
      if (names.has(name)) throw bad(`${k}.name`, `user ${JSON.stringify(name)} is listed twice`);
      names.add(name);
      const password = secretSource(ut, 'password', k, rel);
      if (!password) throw bad(`${k}.password`, 'missing (password, password_file or password_env)');
      return { name, password, role: ut.role === undefined ? 'write' : role(ut.role, `${k}.role`) };
    }),
    tls: t.tls === undefined ? null : tlsFiles(t.tls, `${key}.tls`, rel, null),
    requireTls: t.require_tls === undefined ? false : bool(t.require_tls, `${key}.require_tls`),
    authenticationTimeoutSeconds:
      t.authentication_timeout === undefined
        ? PG_LISTENER_DEFAULTS.authenticationTimeoutSeconds
        : num(t.authentication_timeout, `${key}.authentication_timeout`, 0.1, false),
    maxConnections:
      t.max_connections === undefined
        ? PG_LISTENER_DEFAULTS.maxConnections
        : num(t.max_connections, `${key}.max_connections`, 1),
    socketDir: t.socket_dir === undefined ? null : rel(str(t.socket_dir, `${key}.socket_dir`)),
  };
  if (l.requireTls && !l.tls)
    throw bad(`${key}.require_tls`, `needs [${key.replace(/\[\d+\]$/, '')}.tls] with cert_file and key_file`);
  return l;
}

function apiAuth(v: unknown, rel: (p: string) => string): ApiAuthConfig {
  const t = table(v, 'api.auth', ['tokens', 'open_routes']);
  const tokens = t.tokens === undefined ? [] : t.tokens;
  if (!Array.isArray(tokens) || tokens.length === 0)
    throw bad('api.auth.tokens', 'expected a list of { token | token_file | token_env, role }');
  const open = t.open_routes === undefined ? ['/v1/health', '/metrics'] : t.open_routes;
  if (!Array.isArray(open)) throw bad('api.auth.open_routes', 'expected a list of paths');
  return {
    tokens: tokens.map((e, i) => {
      const k = `api.auth.tokens[${i}]`;
      const et = table(e, k, ['token', 'token_file', 'token_env', 'role']);
      const source = secretSource(et, 'token', k, rel);
      if (!source) throw bad(k, 'needs token, token_file or token_env');
      if (et.role === undefined) throw bad(`${k}.role`, 'missing');
      return { source, role: role(et.role, `${k}.role`) };
    }),
    openRoutes: open.map((p, i) => str(p, `api.auth.open_routes[${i}]`)),
  };
}

/** Applies a parsed TOML document to a config; relative paths are taken from `baseDir`. */
export function applyToml(cfg: Config, doc: unknown, baseDir: string): Config {
  const root = table(doc, '', ['db', 'api', 'subscriptions', 'gossip', 'log']);
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
    const api = table(root.api, 'api', [
      'addr',
      'body_limit',
      'query_timeout',
      'pg',
      'auth',
      'allow_unauthenticated',
      'tls',
    ]);
    if (api.addr !== undefined) cfg.api.addr = parseAddr(api.addr, 'api.addr');
    if (api.body_limit !== undefined) cfg.api.bodyLimit = parseSize(api.body_limit, 'api.body_limit');
    if (api.query_timeout !== undefined)
      cfg.api.queryTimeoutSeconds = num(api.query_timeout, 'api.query_timeout', 0.001, false);
    if (api.pg !== undefined) {
      // [api.pg] for one listener, [[api.pg]] for several
      cfg.api.pg = Array.isArray(api.pg)
        ? api.pg.map((l, i) => pgListener(l, `api.pg[${i}]`, rel))
        : [pgListener(api.pg, 'api.pg', rel)];
    }
    if (api.auth !== undefined) cfg.api.auth = apiAuth(api.auth, rel);
    if (api.allow_unauthenticated !== undefined)
      cfg.api.allowUnauthenticated = bool(api.allow_unauthenticated, 'api.allow_unauthenticated');
    if (api.tls !== undefined) cfg.api.tls = tlsFiles(api.tls, 'api.tls', rel, 'client_ca_file');
  }
  if (root.subscriptions !== undefined) {
    const s = table(root.subscriptions, 'subscriptions', [
      'retain_changes',
      'retain_seconds',
      'idle_seconds',
      'client_buffer',
      'client_buffer_bytes',
      'max_backlog_rows',
      'admit_wait_seconds',
    ]);
    if (s.retain_changes !== undefined)
      cfg.subscriptions.retainChanges = num(s.retain_changes, 'subscriptions.retain_changes', 1);
    if (s.retain_seconds !== undefined)
      cfg.subscriptions.retainSeconds = num(s.retain_seconds, 'subscriptions.retain_seconds', 0, false);
    if (s.idle_seconds !== undefined)
      cfg.subscriptions.idleSeconds = num(s.idle_seconds, 'subscriptions.idle_seconds', 0, false);
    if (s.client_buffer !== undefined)
      cfg.subscriptions.clientBuffer = num(s.client_buffer, 'subscriptions.client_buffer', 1);
    if (s.client_buffer_bytes !== undefined)
      cfg.subscriptions.clientBufferBytes = parseSize(s.client_buffer_bytes, 'subscriptions.client_buffer_bytes');
    if (s.max_backlog_rows !== undefined)
      cfg.subscriptions.maxBacklogRows = num(s.max_backlog_rows, 'subscriptions.max_backlog_rows', 1);
    if (s.admit_wait_seconds !== undefined)
      cfg.subscriptions.admitWaitSeconds = num(s.admit_wait_seconds, 'subscriptions.admit_wait_seconds', 0, false);
  }
  if (root.gossip !== undefined) {
    const retired = RETIRED_GOSSIP_KEYS.find((k) => (root.gossip as Record<string, unknown>)[k] !== undefined);
    if (retired) throw bad(`gossip.${retired}`, RETIRED_WHY[retired]);
    const g = table(root.gossip, 'gossip', [
      'addr',
      'advertise_addr',
      'bootstrap',
      'cluster_id',
      'tls',
      'plaintext',
      'frames',
      ...Object.keys(TUNING_KEYS),
    ]);
    if (g.frames !== undefined) cfg.gossipTuning.frames = bool(g.frames, 'gossip.frames');
    for (const [key, [field, min, unit]] of Object.entries(TUNING_KEYS)) {
      if (g[key] === undefined) continue;
      cfg.gossipTuning[field] =
        unit === 'seconds'
          ? Math.round(num(g[key], `gossip.${key}`, min, false) * 1000)
          : num(g[key], `gossip.${key}`, min);
    }
    // Without addr, [gossip] only tunes: the agent runs alone unless --gossip-addr is given.
    const boot = g.bootstrap === undefined ? [] : g.bootstrap;
    if (!Array.isArray(boot)) throw bad('gossip.bootstrap', 'expected a list of "HOST:PORT"');
    const rest = {
      advertise: g.advertise_addr === undefined ? null : parseAddr(g.advertise_addr, 'gossip.advertise_addr'),
      bootstrap: boot.map((b, i) => parseAddr(b, `gossip.bootstrap[${i}]`)),
      clusterId: g.cluster_id === undefined ? 0 : num(g.cluster_id, 'gossip.cluster_id', 0),
      tls: g.tls === undefined ? null : tlsFiles(g.tls, 'gossip.tls', rel, 'ca_file'),
      plaintext: g.plaintext === undefined ? false : bool(g.plaintext, 'gossip.plaintext'),
    };
    if (g.addr !== undefined) cfg.gossip = { addr: parseAddr(g.addr, 'gossip.addr'), ...rest };
    else if (
      g.advertise_addr !== undefined ||
      g.bootstrap !== undefined ||
      g.cluster_id !== undefined ||
      g.tls !== undefined ||
      g.plaintext !== undefined
    ) {
      throw bad('gossip.addr', 'missing');
    }
    if (cfg.gossip?.tls && !cfg.gossip.tls.caFile)
      throw bad('gossip.tls.ca_file', "missing: peers are verified against the cluster's CA");
  }
  if (root.log !== undefined) {
    const l = table(root.log, 'log', ['level', 'format', 'slow_query_seconds']);
    if (l.level !== undefined) {
      if (!LOG_LEVELS.includes(l.level as LogLevel))
        throw bad('log.level', `expected one of ${LOG_LEVELS.map((x) => `"${x}"`).join(', ')}`);
      cfg.log.level = l.level as LogLevel;
    }
    if (l.format !== undefined) {
      if (l.format !== 'text' && l.format !== 'json') throw bad('log.format', 'expected "text" or "json"');
      cfg.log.format = l.format as LogFormat;
    }
    if (l.slow_query_seconds !== undefined)
      cfg.log.slowQuerySeconds = num(l.slow_query_seconds, 'log.slow_query_seconds', 0, false);
  }
  if (
    cfg.gossipTuning.pingTimeoutMs < 1 ||
    cfg.gossipTuning.pingIntervalMs < 1 ||
    cfg.gossipTuning.syncIntervalMs < 1 ||
    cfg.gossipTuning.downPingIntervalMs < 1
  ) {
    throw bad('gossip', 'intervals and timeouts must be at least 0.001 seconds');
  }
  if (cfg.db.readWorkersMin > cfg.db.readWorkersMax)
    throw bad('db.read_workers_min', 'is larger than db.read_workers_max');
  return cfg;
}

/** `[gossip]` keys the replication protocol no longer reads, and what took their place. */
const RETIRED_WHY: Record<string, string> = lookup({
  push_ttl:
    'is no longer used: a pushed changeset goes down a tree of the alive peers (fanout branches at each agent) and reaches every agent without a hop count; remove the line',
});
const RETIRED_GOSSIP_KEYS = Object.keys(RETIRED_WHY);

/** `[gossip]` keys of the tunables: field, minimum, and whether the file gives seconds (kept as ms). */
const TUNING_KEYS: Record<string, [Exclude<keyof GossipTuning, 'frames'>, number, 'seconds' | 'count']> = lookup({
  ping_interval: ['pingIntervalMs', 0.001, 'seconds'],
  ping_timeout: ['pingTimeoutMs', 0.001, 'seconds'],
  down_after: ['downAfter', 1, 'count'],
  down_ping_interval: ['downPingIntervalMs', 0.001, 'seconds'],
  sync_interval: ['syncIntervalMs', 0.001, 'seconds'],
  sync_peers: ['syncPeers', 1, 'count'],
  fanout: ['fanout', 0, 'count'],
  push_direct: ['pushDirect', 0, 'count'],
  push_max_rows: ['pushMaxRows', 0, 'count'],
  chunk_rows: ['chunkRows', 1, 'count'],
  sync_max_rows: ['syncMaxRows', 1, 'count'],
  merge_batch_rows: ['mergeBatchRows', 1, 'count'],
  forget_after: ['forgetAfterMs', 0.001, 'seconds'],
});

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
    const out = applyToml(cfg, doc, path.dirname(path.resolve(file)));
    out.source = path.resolve(file);
    return out;
  } catch (err) {
    throw new PatinaError('user', `${(err as Error).message.replace(/^config: /, `config: ${file}: `)}`);
  }
}
