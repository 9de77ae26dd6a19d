#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { Agent } from '../agent';
import { type Config, defaultConfig, loadConfigFile, parseAddr } from '../config/config';
import { type Cell, type ParamValue, parseExact, real } from '../client';
import { apiClient } from './client';
import path from 'node:path';
import v8 from 'node:v8';
import { LOG_LEVELS, type LogLevel, errorFields, log, setupLogging } from '../observability/log';
import { restoreDatabase } from '../ops/restore';
import { PARAM_HELP, PARAM_OPTIONS, joinParamValues, paramsJson } from './params';
import { lookup } from '../lookup';

const HELP: Record<string, string> = lookup({
  main: `patina: a replicated SQL database agent

Usage: patina <command> [options]

Commands:
  agent     start an agent
  query     run a read query through an agent's HTTP API
  exec      run a write statement through an agent's HTTP API
  reload    make a running agent re-read its schema files, tokens, passwords and certificates
  cluster   cluster members: list peers with their state and round-trip time; cluster forget ADDR
  sync      sync status: per origin agent, the highest version merged, the gaps and the lag
  backup    ask a running agent for an online copy of its database
  restore   put a backup in place as an agent's database (agent stopped; new actor id)

Run 'patina <command> --help' for a command's options.`,
  agent: `Usage: patina agent [-c FILE] [--api-addr HOST:PORT] [--db-path PATH] [--schema PATH]...

Starts an agent. Without a config file it uses a SQLite file under ./data, the example schema,
and the HTTP API on 127.0.0.1:8080. Flags override the config file.

Options:
  -c, --config FILE        TOML config file
      --api-addr HOST:PORT HTTP API address (port 0 picks a free port)
      --db-path PATH       SQLite database file
      --schema PATH        schema file or folder of .sql files (repeatable; replaces the config's)
      --gossip-addr HOST:PORT  where peers reach this agent (port 0 picks a free port);
                           without it the agent runs alone
      --bootstrap HOST:PORT,...  peers to join the cluster through
      --pg-addr HOST:PORT  a PostgreSQL wire-protocol listener (repeatable; port 0 picks a free port)
      --pg-socket-dir DIR  the PG listeners also listen on DIR/.s.PGSQL.<port>, a Unix-domain
                           socket (psql -h DIR -p <port>)
      --gossip-advertise HOST:PORT  the address peers dial, when not --gossip-addr
                           (behind a proxy)
      --log-level LEVEL    fatal, error, warn, info (default), debug, trace or silent
      --log-format FORMAT  text (default) or json: one JSON object per line on stderr
  -h, --help               show this help

Only one agent may open a database: a second one on the same --db-path stops at once, naming
the running agent's pid.

Signals: SIGTERM and SIGINT stop the agent cleanly within a few seconds (a second one stops it at
once); SIGHUP re-reads the schema files, tokens, passwords and certificates.`,
  query: `Usage: patina query SQL [--param V]... [--columns] [--timer] [--api-addr HOST:PORT]

Runs one read statement and prints rows tab-separated.

Options:
${PARAM_HELP}
      --columns            print the column names first
      --timer              print the query time last
      --api-addr HOST:PORT agent to ask (default 127.0.0.1:8080; https://HOST:PORT for HTTPS,
                           a private CA through NODE_EXTRA_CA_CERTS=ca.crt)
      --api-token TOKEN    bearer token when the agent has [api.auth] (default: $PATINA_API_TOKEN)
  -h, --help               show this help`,
  exec: `Usage: patina exec SQL [--param V]... [--api-addr HOST:PORT]

Runs one write statement in its own transaction and prints rows affected.

Options:
${PARAM_HELP}
      --api-addr HOST:PORT agent to ask (default 127.0.0.1:8080; https://HOST:PORT for HTTPS,
                           a private CA through NODE_EXTRA_CA_CERTS=ca.crt)
      --api-token TOKEN    bearer token when the agent has [api.auth] (default: $PATINA_API_TOKEN)
  -h, --help               show this help`,
  cluster: `Usage: patina cluster members [--json] [--api-addr HOST:PORT]
       patina cluster forget ADDR [--api-addr HOST:PORT]

members: the agent's peers: gossip address, actor id, state (alive, suspect, down, joining, left)
and round-trip time of the last probe.
forget: drops a member that will not return (admin role); the other agents hear it left. Members
down or departed for gossip.forget_after (72 h) are dropped by themselves.

Options:
      --json               print the agent's JSON answer
      --api-addr HOST:PORT agent to ask (default 127.0.0.1:8080; https://HOST:PORT for HTTPS,
                           a private CA through NODE_EXTRA_CA_CERTS=ca.crt)
      --api-token TOKEN    bearer token when the agent has [api.auth] (default: $PATINA_API_TOKEN)
  -h, --help               show this help`,
  sync: `Usage: patina sync status [--json] [--api-addr HOST:PORT]

Shows, per origin agent, the highest version merged here, the gaps below it, how far this agent
is behind what its peers reported, and the lag in seconds (how long it has known of the oldest
version it still lacks).

Options:
      --json               print the agent's JSON answer
      --api-addr HOST:PORT agent to ask (default 127.0.0.1:8080; https://HOST:PORT for HTTPS,
                           a private CA through NODE_EXTRA_CA_CERTS=ca.crt)
      --api-token TOKEN    bearer token when the agent has [api.auth] (default: $PATINA_API_TOKEN)
  -h, --help               show this help`,
  backup: `Usage: patina backup FILE [--api-addr HOST:PORT] [--api-token TOKEN]

Asks the running agent for a consistent online copy of its database, written to FILE on the
agent's machine (a new file; writes go on meanwhile). Progress goes to stderr. Put the copy in
place with 'patina restore'. With [api.auth] on, the token needs the admin role.

Options:
      --api-addr HOST:PORT agent to ask (default 127.0.0.1:8080)
      --api-token TOKEN    bearer token (default: PATINA_API_TOKEN)
  -h, --help               show this help`,
  restore: `Usage: patina restore FILE (--db-path PATH | -c CONFIG)

Puts a backup made by 'patina backup' in place as the database at PATH, with the agent stopped
(refused while an agent has PATH open). The restored database gets a new actor id; the backup's
actor id is kept as an origin whose versions it holds, so peers send only what came after.
The subscriptions kept beside the old database are removed (clients subscribe again).

Options:
      --db-path PATH       the database to replace or create
  -c, --config FILE        take the database path from this agent config
  -h, --help               show this help`,
  reload: `Usage: patina reload [--api-addr HOST:PORT]

Makes a running agent re-read its schema files and apply what is new, and re-read its API tokens,
PostgreSQL users and TLS certificates (also done on SIGHUP). Needs the admin role with [api.auth].

Options:
      --api-addr HOST:PORT agent to ask (default 127.0.0.1:8080; https://HOST:PORT for HTTPS,
                           a private CA through NODE_EXTRA_CA_CERTS=ca.crt)
      --api-token TOKEN    bearer token when the agent has [api.auth] (default: $PATINA_API_TOKEN)
  -h, --help               show this help`,
});

class UsageError extends Error {}

/** The longest a clean stop may take before the agent exits anyway. */
const STOP_LIMIT_MS = 8000;

function fail(message: string, code = 1): never {
  process.stderr.write(`patina: ${message}\n`);
  process.exit(code);
}

/** The library's value of each parameter's JSON text: integers as bigint (INTEGER, exact), other numbers as REAL. */
function paramValues(texts: string[]): ParamValue[] {
  return texts.map((t) => {
    const v = parseExact(t, 'bigint') as ParamValue;
    return typeof v === 'number' ? real(v) : v;
  });
}

/** A cell as the query command prints it: NULL, BLOBs as their byte array, integers exact. */
function cellText(c: Cell): string {
  return c === null ? 'NULL' : Array.isArray(c) ? `[${c.join(',')}]` : String(c);
}

/** The effective config of `patina agent`: defaults, then the file, then the flags. */
export function agentConfig(argv: string[]): Config {
  const { values } = parseArgs({
    args: argv,
    options: {
      config: { type: 'string', short: 'c' },
      'api-addr': { type: 'string' },
      'db-path': { type: 'string' },
      schema: { type: 'string', multiple: true },
      'pg-addr': { type: 'string', multiple: true },
      'pg-socket-dir': { type: 'string' },
      'gossip-addr': { type: 'string' },
      bootstrap: { type: 'string' },
      'gossip-advertise': { type: 'string' },
      'log-level': { type: 'string' },
      'log-format': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) {
    process.stdout.write(HELP.agent + '\n');
    process.exit(0);
  }
  const cfg = values.config ? loadConfigFile(values.config) : defaultConfig();
  if (values['api-addr']) cfg.api.addr = parseAddr(values['api-addr'], '--api-addr');
  if (values['db-path']) cfg.db.path = path.resolve(values['db-path']);
  if (values.schema) cfg.db.schemaPaths = values.schema.map((p) => path.resolve(p));
  if (values['pg-addr'])
    cfg.api.pg = values['pg-addr'].map((a) => ({ addr: parseAddr(a, '--pg-addr'), readonly: false, password: null }));
  if (values['pg-socket-dir'] !== undefined) {
    if (cfg.api.pg.length === 0) throw new UsageError('--pg-socket-dir needs a PG listener (--pg-addr or [api.pg])');
    const dir = path.resolve(values['pg-socket-dir']);
    for (const l of cfg.api.pg) l.socketDir = dir;
  }
  if (values['gossip-addr']) {
    cfg.gossip = {
      ...cfg.gossip,
      addr: parseAddr(values['gossip-addr'], '--gossip-addr'),
      bootstrap: cfg.gossip?.bootstrap ?? [],
      clusterId: cfg.gossip?.clusterId ?? 0,
    };
  }
  if (values['log-level'] !== undefined) {
    if (!LOG_LEVELS.includes(values['log-level'] as LogLevel))
      throw new UsageError(`--log-level must be one of ${LOG_LEVELS.join(', ')}`);
    cfg.log.level = values['log-level'] as LogLevel;
  }
  if (values['log-format'] !== undefined) {
    if (values['log-format'] !== 'text' && values['log-format'] !== 'json')
      throw new UsageError('--log-format must be text or json');
    cfg.log.format = values['log-format'];
  }
  if (values['gossip-advertise']) {
    if (!cfg.gossip) throw new UsageError('--gossip-advertise needs a gossip address (--gossip-addr or [gossip] addr)');
    cfg.gossip.advertise = parseAddr(values['gossip-advertise'], '--gossip-advertise');
  }
  if (values.bootstrap !== undefined) {
    if (!cfg.gossip) throw new UsageError('--bootstrap needs a gossip address (--gossip-addr or [gossip] addr)');
    cfg.gossip.bootstrap = values.bootstrap
      .split(',')
      .map((b) => b.trim())
      .filter((b) => b !== '')
      .map((b) => parseAddr(b, '--bootstrap'));
  }
  return cfg;
}

async function runAgent(argv: string[]) {
  // V8's allocation-site pretenuring learns from the objects that lived long at a site (say the
  // requests of 10,000 subscription streams) and then makes every later object of that site in the
  // old generation: the short-lived objects of each later write went there too, about 3.4 KB a
  // write, and the agent's collections cost three times as much (docs/subscriptions.md, "Writes/s
  // with 10,000"). The agent's long-lived objects are few and made once; its per-request ones die young.
  v8.setFlagsFromString('--no-allocation-site-pretenuring');
  const cfg = agentConfig(argv);
  setupLogging(cfg.log);
  const agent = await Agent.start(cfg);
  const advertised =
    agent.cluster && agent.cluster.addr !== agent.gossipAddr ? ` (advertised as ${agent.cluster.addr})` : '';
  const gossip = agent.gossipAddr ? `, gossip on ${agent.gossipAddr}${advertised}` : '';
  const pg = [...agent.pgAddrs, ...agent.pgSocketPaths].map((a) => `, PostgreSQL on ${a}`).join('');
  let stopping = false;
  const stop = async (sig: string) => {
    if (stopping) {
      // A second signal: stop at once. Nothing acknowledged is lost (every commit is durable); the
      // subscriptions catch up at the next start.
      log.warn({ signal: sig }, `${sig} again, stopping now`);
      process.exit(1);
    }
    stopping = true;
    log.info({ signal: sig, hint: 'send it again to stop at once' }, `${sig}, stopping`);
    // However stuck a part is, the process ends within STOP_LIMIT_MS.
    setTimeout(() => {
      log.warn({ signal: sig }, `still stopping after ${STOP_LIMIT_MS / 1000} s, stopping now`);
      process.exit(1);
    }, STOP_LIMIT_MS).unref();
    await agent.stop();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGHUP', () => {
    // The schema's outcome is logged by the agent (schema reloaded, or refused with the reason).
    agent.reload().then(
      (r) => log.info({ security: r.security }, 'tokens, passwords and certificates re-read'),
      (err) => log.warn(errorFields(err), 'reload refused'),
    );
  });
  // Ready only once the signals are handled: a supervisor that sends SIGTERM as soon as it reads this
  // line gets a clean stop (the line printed before the handlers let such a SIGTERM kill the process
  // outright when the reader ran before the agent's next statement).
  process.stdout.write(
    `patina: agent ready, HTTP API on ${agent.apiScheme}://${agent.apiAddr}${pg}${gossip}, database ${cfg.db.path}\n`,
  );
}

const CLIENT_OPTIONS = {
  'api-addr': { type: 'string', default: '127.0.0.1:8080' },
  'api-token': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;
const QUERY_OPTIONS = {
  ...CLIENT_OPTIONS,
  ...PARAM_OPTIONS,
  columns: { type: 'boolean' },
  timer: { type: 'boolean' },
} as const;
const EXEC_OPTIONS = { ...CLIENT_OPTIONS, ...PARAM_OPTIONS } as const;

function clientArgs(argv: string[]) {
  return parseArgs({ args: argv, options: CLIENT_OPTIONS, strict: true, allowPositionals: true });
}

/** The parameters of a query or exec command; a bad --param-json is a usage error. */
function paramsOf(tokens: Parameters<typeof paramsJson>[0]): string[] {
  try {
    return paramsJson(tokens);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

async function runQuery(argv: string[]) {
  const { values, positionals, tokens } = parseArgs({
    args: joinParamValues(argv),
    options: QUERY_OPTIONS,
    strict: true,
    allowPositionals: true,
    tokens: true,
  });
  if (values.help) return void process.stdout.write(HELP.query + '\n');
  if (positionals.length !== 1) throw new UsageError('query takes exactly one SQL statement');
  const q = apiClient(values).query(positionals[0], paramValues(paramsOf(tokens)));
  let first = true;
  for await (const row of q) {
    if (first && values.columns) process.stdout.write(q.columns!.join('\t') + '\n');
    first = false;
    process.stdout.write(row.map(cellText).join('\t') + '\n');
  }
  if (first && values.columns) process.stdout.write((q.columns ?? []).join('\t') + '\n');
  if (values.timer) process.stdout.write(`Time: ${(q.time ?? 0).toFixed(6)} s\n`);
}

async function runExec(argv: string[]) {
  const { values, positionals, tokens } = parseArgs({
    args: joinParamValues(argv),
    options: EXEC_OPTIONS,
    strict: true,
    allowPositionals: true,
    tokens: true,
  });
  if (values.help) return void process.stdout.write(HELP.exec + '\n');
  if (positionals.length !== 1) throw new UsageError('exec takes exactly one SQL statement');
  const r = await apiClient(values).transaction([[positionals[0], paramValues(paramsOf(tokens))]]);
  process.stdout.write(
    `rows affected: ${r.results[0]?.rows_affected}${r.version != null ? `, version ${r.version}` : ''}\n`,
  );
}

async function runReload(argv: string[]) {
  const { values } = clientArgs(argv);
  if (values.help) return void process.stdout.write(HELP.reload + '\n');
  const body = await apiClient(values).reloadSchema();
  process.stdout.write(`schema reloaded: ${JSON.stringify(body)}\n`);
}

const STATUS_OPTIONS = {
  'api-addr': CLIENT_OPTIONS['api-addr'],
  'api-token': CLIENT_OPTIONS['api-token'],
  json: { type: 'boolean' },
  help: CLIENT_OPTIONS.help,
} as const;

function table(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return (
    rows
      .map((r) =>
        r
          .map((c, i) => c.padEnd(widths[i]))
          .join('  ')
          .trimEnd(),
      )
      .join('\n') + '\n'
  );
}

async function runCluster(argv: string[]) {
  const { values, positionals } = parseArgs({
    args: argv,
    options: STATUS_OPTIONS,
    strict: true,
    allowPositionals: true,
  });
  if (values.help) return void process.stdout.write(HELP.cluster + '\n');
  if (positionals[0] === 'forget') {
    if (positionals.length !== 2)
      throw new UsageError('`patina cluster forget ADDR`: the gossip address of one member');
    const r = await apiClient(values).forgetMember(positionals[1]);
    return void process.stdout.write(`forgot ${r.forgotten}\n`);
  }
  if (positionals.length !== 1 || positionals[0] !== 'members')
    throw new UsageError('the cluster commands are `patina cluster members` and `patina cluster forget ADDR`');
  const body = await apiClient(values).members();
  if (values.json) return void process.stdout.write(JSON.stringify(body) + '\n');
  if (!body.clustered) return void process.stdout.write('this agent runs alone (no gossip address)\n');
  const members = body.members;
  const rows = [
    ['ADDR', 'ACTOR', 'STATE', 'RTT'],
    ...members.map((m) => [m.addr, m.actor_id ?? '-', m.state, m.rtt_ms === null ? '-' : `${m.rtt_ms.toFixed(2)} ms`]),
  ];
  process.stdout.write(table(rows));
}

async function runSync(argv: string[]) {
  const { values, positionals } = parseArgs({
    args: argv,
    options: STATUS_OPTIONS,
    strict: true,
    allowPositionals: true,
  });
  if (values.help) return void process.stdout.write(HELP.sync + '\n');
  if (positionals.length !== 1 || positionals[0] !== 'status')
    throw new UsageError('the sync command is `patina sync status`');
  const body = await apiClient(values).syncStatus();
  if (values.json) return void process.stdout.write(JSON.stringify(body) + '\n');
  if (body.clustered === false) return void process.stdout.write('this agent runs alone (no gossip address)\n');
  const origins = body.origins;
  const rows = [
    ['ORIGIN', 'HEAD', 'MISSING', 'BEHIND', 'LAG', 'GAPS'],
    ...origins.map((o) => [
      o.actor_id + (o.self ? ' (self)' : ''),
      String(o.head),
      String(o.missing),
      String(o.behind),
      `${o.lag_seconds.toFixed(1)} s`,
      o.gaps.map(([a, b]) => (a === b ? `${a}` : `${a}-${b}`)).join(',') || '-',
    ]),
  ];
  process.stdout.write(table(rows));
  process.stdout.write(
    `gaps: ${body.gaps}, behind peers: ${body.lag_versions} versions, lag: ${Number(body.lag_seconds).toFixed(1)} s\n`,
  );
}

async function runBackup(argv: string[]) {
  const { values, positionals } = parseArgs({
    args: argv,
    options: CLIENT_OPTIONS,
    strict: true,
    allowPositionals: true,
  });
  if (values.help) return void process.stdout.write(HELP.backup + '\n');
  if (positionals.length !== 1) throw new UsageError('backup takes exactly one FILE to write');
  let lastShown = -1;
  for await (const ev of apiClient(values).backup(path.resolve(positionals[0]))) {
    if ('progress' in ev) {
      const pct =
        ev.progress.bytes_total > 0
          ? Math.min(100, Math.floor((100 * ev.progress.bytes_done) / ev.progress.bytes_total))
          : 0;
      if (pct !== lastShown)
        process.stderr.write(`backup: ${pct}% (${mib(ev.progress.bytes_done)} of ${mib(ev.progress.bytes_total)})\n`);
      lastShown = pct;
    } else {
      process.stdout.write(
        `backup written to ${ev.done.path}: ${mib(ev.done.bytes)} in ${ev.done.seconds} s; put it in place with: patina restore ${ev.done.path} --db-path PATH\n`,
      );
    }
  }
}

const mib = (n: number) => `${(n / 1048576).toFixed(1)} MiB`;

async function runRestore(argv: string[]) {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { 'db-path': { type: 'string' }, config: { type: 'string', short: 'c' }, help: CLIENT_OPTIONS.help },
    strict: true,
    allowPositionals: true,
  });
  if (values.help) return void process.stdout.write(HELP.restore + '\n');
  if (positionals.length !== 1) throw new UsageError('restore takes exactly one backup FILE');
  let dbPath = values['db-path'] ? path.resolve(values['db-path']) : null;
  if (!dbPath && values.config) dbPath = loadConfigFile(values.config).db.path;
  if (!dbPath)
    throw new UsageError('restore needs the database to put the backup in place of: --db-path PATH or -c CONFIG');
  const r = restoreDatabase(positionals[0], dbPath);
  process.stdout.write(
    `restored ${path.resolve(positionals[0])} to ${r.path}\n` +
      `new actor id ${r.actor}; the backup's actor ${r.previousActor || '-'} (versions 1..${r.previousVersion}) is kept as a remote origin\n`,
  );
}

const COMMANDS: Record<string, (argv: string[]) => Promise<void>> = lookup({
  agent: runAgent,
  query: runQuery,
  exec: runExec,
  reload: runReload,
  cluster: runCluster,
  sync: runSync,
  backup: runBackup,
  restore: runRestore,
});

async function main() {
  const [cmd, ...rest] = process.argv.slice(2);
  if (cmd === undefined || cmd === '--help' || cmd === '-h' || cmd === 'help') {
    process.stdout.write(HELP.main + '\n');
    return;
  }
  const run = COMMANDS[cmd];
  if (!run) fail(`unknown command ${JSON.stringify(cmd)}\n\n${HELP.main}`, 2);
  try {
    await run(rest);
  } catch (err) {
    const e = err as Error & { code?: string };
    if (err instanceof UsageError || e.code?.startsWith('ERR_PARSE_ARGS')) fail(`${e.message}\n\n${HELP[cmd]}`, 2);
    fail(e.message);
  }
}

if (require.main === module) void main();
