"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.healthDocument = healthDocument;
exports.startedFields = startedFields;
const cluster_ids_1 = require("../crdt/cluster-ids");
/** The document of GET /v1/health (and `patina status`). */
function healthDocument(p) {
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
/** The fields of the 'agent started' log line: where it listens, its database, actor and tables. */
function startedFields(p) {
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
function idTag(capture, cluster) {
    const peers = (cluster?.members() ?? [])
        .map((m) => m.actor_id)
        .filter((a) => typeof a === 'string' && a !== capture.actor);
    const shared = peers.filter((a) => cluster_ids_1.ClusterIds.tagOf(Buffer.from(a, 'hex')) === capture.ids.tag);
    return { tag: Number(capture.ids.tag), shared_with: shared };
}
//# sourceMappingURL=health.js.map