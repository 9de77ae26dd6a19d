"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.clusterRoutes = clusterRoutes;
const errors_1 = require("../../../src/errors");
/** GET /v1/cluster/members and GET /v1/sync/status (what `patina cluster members` and `patina sync status` show). */
function clusterRoutes(svc) {
    return (router, json) => {
        // POST /v1/admin/cluster/forget {"addr": "host:port"}: `patina cluster forget ADDR` (admin role)
        router.post('/v1/admin/cluster/forget', json, (ctx) => {
            const body = ctx.state.body;
            const addr = body && typeof body === 'object' ? body.addr : undefined;
            if (typeof addr !== 'string' || addr === '')
                throw new errors_1.PatinaError('user', 'the body must be {"addr": "host:port"}: the gossip address of the member to forget');
            if (!svc)
                throw new errors_1.PatinaError('user', 'this agent runs alone (no gossip address): it has no members');
            if (!svc.forget(addr))
                throw new errors_1.PatinaError('not-found', `no member ${addr} (see patina cluster members)`);
            ctx.body = { forgotten: addr };
        });
        router.get('/v1/cluster/members', (ctx) => {
            ctx.body = { members: svc ? svc.members() : [], clustered: svc !== null };
        });
        router.get('/v1/sync/status', (ctx) => {
            ctx.body = svc ? svc.syncStatus() : { clustered: false, origins: [] };
        });
    };
}
//# sourceMappingURL=cluster.js.map