import type { Security } from '../auth/security';
import type { Cluster } from '../cluster/cluster';
import type { Config } from '../config/config';
import type { ChangeCapture } from '../crdt/capture';
import { ClusterIds } from '../crdt/cluster-ids';
import type { Engine } from '../engine/engine';
import type { Changeset } from '../bus/changeset';
import type { Subscriptions } from '../live/subscriptions';
import type { TableUpdates } from '../live/table-updates';

/** The parts of an agent that GET /v1/health reports on. */
export interface HealthParts {
  started: number;
  engine: Engine<Changeset>;
  cluster: Cluster | null;
  updates: TableUpdates | undefined;
  subscriptions: Subscriptions | null;
  security: Security;
  capture: ChangeCapture | null;
}

/** The document of GET /v1/health (and `patina status`). */
export function healthDocument(p: HealthParts): Record<string, unknown> {
  return {
    status: 'ok',
    uptime_seconds: Math.round((Date.now() - p.started) / 1000),
    tables: [...p.engine.schema.tables.keys()],
    reads: p.engine.readStats(),
    ...(p.cluster ? p.cluster.health() : {}),
    update_streams: p.updates?.streams ?? 0,
    subscriptions: p.subscriptions?.stats(true) ?? null,
    security: p.security.describe(),
    ...(p.capture ? { patina_id: idTag(p.capture, p.cluster) } : {}),
  };
}

/** What an agent says of itself when it has started (the 'agent started' log line). */
export interface StartedParts {
  apiAddr: string;
  pgAddrs: string[];
  cluster: Cluster | null;
  config: Config;
  capture: ChangeCapture | null;
  engine: Engine<Changeset>;
}

/** The fields of the 'agent started' log line: where it listens, its database, actor and tables. */
export function startedFields(p: StartedParts): Record<string, unknown> {
  return {
    http: p.apiAddr,
    pg: p.pgAddrs,
    gossip: p.cluster?.addr ?? null,
    db: p.config.db.path,
    actor_id: p.capture?.actor ?? null,
    version: p.capture?.version ?? null,
    tables: [...p.engine.schema.tables.keys()],
  };
}

/** patina_id()'s tag, and the peers whose site id gives the same one (their ids could equal ours). */
function idTag(capture: ChangeCapture, cluster: Cluster | null): Record<string, unknown> {
  const peers = (cluster?.members() ?? [])
    .map((m) => m.actor_id)
    .filter((a): a is string => typeof a === 'string' && a !== capture.actor);
  const shared = peers.filter((a) => ClusterIds.tagOf(Buffer.from(a, 'hex')) === capture.ids.tag);
  return { tag: Number(capture.ids.tag), shared_with: shared };
}
