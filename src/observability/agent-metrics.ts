import fs from 'node:fs';
import type { Changeset, ChangeFeed } from '../bus/changeset';
import type { Metrics } from './metrics';
import { noteQueryTime } from './log';

/** The parts of the agent whose figures are exported, each through the stats it already keeps. */
export interface MeteredAgent {
  dbPath: string;
  actor: string | null;
  feed: ChangeFeed;
  engine: {
    readStats(): { workers: number; busy: number; waiting: number; in_process_total: number; on_workers_total: number };
    statementStats(): { writer: number; bounded_reads: number; shared_writes_total: number };
    onWrite: ((seconds: number, ok: boolean, firstSql: string) => void) | null;
    onWorkerRead: ((sql: string, seconds: number) => void) | null;
  };
  subscriptions(): {
    subscriptions: number;
    clients: number;
    queued_changesets: number;
    matcher_lag_seconds: number;
    behind_unlistened: number;
    changes_sent_total: number;
    clients_cut_off_total: number;
  } | null;
  updates(): { streams: number; cutOffs: number } | null;
  pg(): {
    accepted: number;
    open: number;
    authTimeouts: number;
    tooMany: number;
    statements: Map<string, number>;
    errors: Map<string, number>;
    analyses: { hits: number; misses: number };
    parses: number;
    blocks: { direct: number; replayed: number; preempted: number };
    catalogWorkers(): { idle: number; busy: number; starting: number };
  } | null;
  cluster(): {
    members: { addr: string; state: string; rtt_ms: number | null }[];
    stats: {
      pushed: number;
      pushReceived: number;
      merged: number;
      syncRounds: number;
      synced: number;
      syncSkipped: number;
      deferred: number;
    };
    membership: { sent: number; bytes: number };
    peerBytesSent: number;
    gaps: number;
    lagVersions: number;
    lagSeconds: number;
    lastSyncSecondsAgo: number | null;
  } | null;
}

const PEER_STATES = ['alive', 'suspect', 'down', 'joining', 'left'];

/** Registers every figure of the agent with the registry (once, at start). */
export function registerAgentMetrics(m: Metrics, a: MeteredAgent): void {
  m.gauge('patina_agent_info', 'Always 1; the labels name this agent.', () => [[{ actor_id: a.actor ?? '' }, 1]], [
    'actor_id',
  ]);

  // Writes: counted from the change feed (every committed changeset, local or merged), timed by the engine.
  const committed = m.counter(
    'patina_writes_committed_total',
    'Transactions committed that changed rows, by origin (local, or merged from a peer).',
    ['origin'],
  );
  const rows = m.histogram(
    'patina_changeset_rows',
    'Rows changed per committed changeset, by origin.',
    [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 5000, 20000, 100000],
    ['origin'],
  );
  // Children looked up once: a commit then costs two additions and a bucket search.
  const byOrigin = {
    local: { committed: committed.labels('local'), rows: rows.labels('local') },
    remote: { committed: committed.labels('remote'), rows: rows.labels('remote') },
  };
  a.feed.observe((cs: Changeset) => {
    const o = byOrigin[cs.origin];
    o.committed.inc();
    o.rows.observe(cs.changes.length);
  });
  const writes = m.histogram(
    'patina_write_duration_seconds',
    'Write transactions (HTTP and PostgreSQL autocommit): time from request to commit, by result.',
    [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    ['result'],
  );
  const writeOk = writes.labels('ok');
  const writeError = writes.labels('error');
  a.engine.onWrite = (seconds, ok, sql) => {
    (ok ? writeOk : writeError).observe(seconds);
    noteQueryTime('write', sql, seconds);
  };
  a.engine.onWorkerRead = (sql, seconds) => noteQueryTime('read', sql, seconds);

  // Reads.
  m.total(
    'patina_reads_total',
    'Reads started, by where they ran: in_process (provably bounded point reads) or worker.',
    () => {
      const r = a.engine.readStats();
      return [
        [{ where: 'in_process' }, r.in_process_total],
        [{ where: 'worker' }, r.on_workers_total],
      ];
    },
    ['where'],
  );
  m.gauge(
    'patina_statement_cache_entries',
    'Prepared statements kept by the writer and by in-process reads (each cache is bounded).',
    () => {
      const s = a.engine.statementStats();
      return [
        [{ cache: 'writer' }, s.writer],
        [{ cache: 'bounded_reads' }, s.bounded_reads],
      ];
    },
    ['cache'],
  );
  m.total(
    'patina_writes_shared_statement_total',
    'Statements with their values written into the SQL text that ran as the one prepared statement of their shape.',
    () => a.engine.statementStats().shared_writes_total,
  );
  m.gauge('patina_read_workers', 'Read worker processes alive.', () => a.engine.readStats().workers);
  m.gauge('patina_read_workers_busy', 'Read worker processes running a read.', () => a.engine.readStats().busy);
  m.gauge('patina_reads_waiting', 'Reads waiting for a free worker.', () => a.engine.readStats().waiting);

  // Live queries and update streams.
  const subs = () => a.subscriptions();
  m.gauge('patina_subscriptions', 'Live subscriptions kept.', () => subs()?.subscriptions ?? 0);
  m.gauge('patina_subscription_clients', 'Clients listening to subscriptions.', () => subs()?.clients ?? 0);
  m.total(
    'patina_subscription_changes_sent_total',
    'Change events sent live to subscription clients.',
    () => subs()?.changes_sent_total ?? 0,
  );
  m.gauge(
    'patina_matcher_queue_length',
    'Committed changesets waiting for the subscription matcher.',
    () => subs()?.queued_changesets ?? 0,
  );
  m.gauge(
    'patina_matcher_lag_seconds',
    'How long the oldest changeset waiting for the matcher has waited.',
    () => subs()?.matcher_lag_seconds ?? 0,
  );
  m.gauge(
    'patina_subscriptions_behind',
    'Subscriptions nobody listens to whose changes wait for a listener (not kept up write by write).',
    () => subs()?.behind_unlistened ?? 0,
  );
  m.gauge(
    'patina_update_streams',
    'Open table update streams (POST /v1/updates/{table}).',
    () => a.updates()?.streams ?? 0,
  );
  m.total(
    'patina_clients_cut_off_total',
    'Streaming clients cut off for falling behind, by kind of stream.',
    () => [
      [{ stream: 'subscription' }, subs()?.clients_cut_off_total ?? 0],
      [{ stream: 'update' }, a.updates()?.cutOffs ?? 0],
    ],
    ['stream'],
  );

  // PostgreSQL front end.
  m.gauge('patina_pg_connections', 'PostgreSQL connections open.', () => a.pg()?.open ?? 0);
  m.total('patina_pg_connections_accepted_total', 'PostgreSQL connections accepted.', () => a.pg()?.accepted ?? 0);
  m.total(
    'patina_pg_authentication_timeouts_total',
    'PostgreSQL connections closed for not logging in within authentication_timeout.',
    () => a.pg()?.authTimeouts ?? 0,
  );
  m.total(
    'patina_pg_connections_refused_total',
    'PostgreSQL startups refused with 53300 past max_connections.',
    () => a.pg()?.tooMany ?? 0,
  );
  m.total(
    'patina_pg_analysis_cache_total',
    "PostgreSQL statements whose analysis (parse, types, translation) was found in the session's cache (hit) or made (miss).",
    () => [
      [{ result: 'hit' }, a.pg()?.analyses.hits ?? 0],
      [{ result: 'miss' }, a.pg()?.analyses.misses ?? 0],
    ],
    ['result'],
  );
  m.total(
    'patina_pg_parses_total',
    "PostgreSQL statement texts parsed by PostgreSQL's parser (libpg-query): an analysis (a cache miss) parses its statement once, and its shape with literals replaced once more when that differs.",
    () => a.pg()?.parses ?? 0,
  );
  m.total(
    'patina_pg_block_commits_total',
    'PostgreSQL transaction blocks committed: on the transaction they held, each statement run once (direct), or run again at COMMIT after being tried out (replayed).',
    () => [
      [{ path: 'direct' }, a.pg()?.blocks.direct ?? 0],
      [{ path: 'replayed' }, a.pg()?.blocks.replayed ?? 0],
    ],
    ['path'],
  );
  m.total(
    'patina_pg_block_holds_preempted_total',
    'PostgreSQL blocks whose held transaction was rolled back before COMMIT so that other writes would not wait for it (the block went on by try-out and replay).',
    () => a.pg()?.blocks.preempted ?? 0,
  );
  m.gauge(
    'patina_pg_catalog_workers',
    'PostgreSQL catalog worker processes (catalog queries run there, off the agent thread), by state: idle, busy or starting.',
    () => {
      const w = a.pg()?.catalogWorkers() ?? { idle: 0, busy: 0, starting: 0 };
      return [
        [{ state: 'idle' }, w.idle],
        [{ state: 'busy' }, w.busy],
        [{ state: 'starting' }, w.starting],
      ];
    },
    ['state'],
  );
  m.total(
    'patina_pg_statements_total',
    'PostgreSQL statements completed, by kind (command tag).',
    () => byLabel('kind', a.pg()?.statements),
    ['kind'],
  );
  m.total(
    'patina_pg_errors_total',
    'PostgreSQL errors sent, by SQLSTATE class (its first two characters).',
    () => byLabel('sqlstate_class', a.pg()?.errors),
    ['sqlstate_class'],
  );

  // Replication.
  const cl = () => a.cluster();
  m.gauge(
    'patina_peer_up',
    '1 when the peer answers pings (alive or suspect), else 0.',
    () =>
      (cl()?.members ?? []).map(
        (p) =>
          [{ peer: p.addr }, p.state === 'alive' || p.state === 'suspect' ? 1 : 0] as [Record<string, string>, number],
      ),
    ['peer'],
  );
  m.gauge(
    'patina_peer_state',
    '1 for the state each peer is in (alive, suspect, down, joining).',
    () =>
      (cl()?.members ?? []).flatMap((p) =>
        PEER_STATES.map((s) => [{ peer: p.addr, state: s }, p.state === s ? 1 : 0] as [Record<string, string>, number]),
      ),
    ['peer', 'state'],
  );
  m.gauge(
    'patina_peer_rtt_seconds',
    "Round-trip time of the peer's last answered ping.",
    () =>
      (cl()?.members ?? [])
        .filter((p) => p.rtt_ms !== null)
        .map((p) => [{ peer: p.addr }, p.rtt_ms! / 1000] as [Record<string, string>, number]),
    ['peer'],
  );
  m.total(
    'patina_membership_messages_sent_total',
    'SWIM membership messages this agent sent (probes, indirect probes, joins, departures).',
    () => cl()?.membership.sent ?? 0,
  );
  m.total(
    'patina_membership_bytes_sent_total',
    'Bytes of the SWIM membership messages this agent sent, as JSON (approximate).',
    () => cl()?.membership.bytes ?? 0,
  );
  m.total(
    'patina_peer_bytes_sent_total',
    'Bytes of peer request and answer bodies this agent sent (membership, push and sync; headers not counted).',
    () => cl()?.peerBytesSent ?? 0,
  );
  m.total(
    'patina_replication_changesets_pushed_total',
    'Changesets sent to peers by push (best effort).',
    () => cl()?.stats.pushed ?? 0,
  );
  m.total(
    'patina_replication_changesets_received_total',
    'Changesets received from peers by push.',
    () => cl()?.stats.pushReceived ?? 0,
  );
  m.total(
    'patina_replication_changesets_merged_total',
    'Changesets from peers merged here (push and sync).',
    () => cl()?.stats.merged ?? 0,
  );
  m.total('patina_replication_sync_rounds_total', 'Anti-entropy sync rounds run.', () => cl()?.stats.syncRounds ?? 0);
  m.total('patina_replication_syncs_total', 'Sync exchanges with one peer completed.', () => cl()?.stats.synced ?? 0);
  m.total(
    'patina_replication_syncs_skipped_total',
    'Syncs a round left out because the peers, as last heard, held what this agent holds.',
    () => cl()?.stats.syncSkipped ?? 0,
  );
  m.total(
    'patina_replication_deferred_total',
    "Changesets deferred because this agent's schema lacks their table or column.",
    () => cl()?.stats.deferred ?? 0,
  );
  m.gauge(
    'patina_replication_gaps',
    'Versions of other agents missing below their highest version merged here.',
    () => cl()?.gaps ?? 0,
  );
  m.gauge(
    'patina_replication_lag_versions',
    'Versions this agent lacks: gaps plus how far behind what peers reported.',
    () => cl()?.lagVersions ?? 0,
  );
  m.gauge(
    'patina_replication_lag_seconds',
    'Age of the oldest version this agent knows of and lacks (0 when it lacks none).',
    () => cl()?.lagSeconds ?? 0,
  );
  m.gauge(
    'patina_replication_last_sync_age_seconds',
    'Seconds since the last completed sync exchange (-1 before the first).',
    () => {
      const c = cl();
      return c?.lastSyncSecondsAgo ?? -1;
    },
  );

  // Files.
  m.gauge('patina_database_size_bytes', 'Size of the SQLite data file.', () => fileSize(a.dbPath));
  m.gauge('patina_database_wal_size_bytes', "Size of the data file's write-ahead log.", () =>
    fileSize(`${a.dbPath}-wal`),
  );
  m.gauge(
    'patina_subscription_store_size_bytes',
    'Size of the subscription store file and its write-ahead log.',
    () => fileSize(`${a.dbPath}.subscriptions`) + fileSize(`${a.dbPath}.subscriptions-wal`),
  );
}

function byLabel(label: string, counts: Map<string, number> | undefined): [Record<string, string>, number][] {
  return [...(counts ?? [])].map(([value, n]) => [{ [label]: value }, n]);
}

function fileSize(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}
