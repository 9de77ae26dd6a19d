import type Router from '@koa/router';
import { PatinaError } from '../../../src/errors';

/** What the cluster routes need: the member list and the per-origin replication state. */
export interface ClusterService {
  members(): Record<string, unknown>[];
  syncStatus(): Record<string, unknown>;
  /** Drops a member that will not return; false when it is not a member. */
  forget(addr: string): boolean;
}

/** GET /v1/cluster/members and GET /v1/sync/status (what `patina cluster members` and `patina sync status` show). */
export function clusterRoutes(svc: ClusterService | null): (router: Router, json: import('koa').Middleware) => void {
  return (router, json) => {
    // POST /v1/admin/cluster/forget {"addr": "host:port"}: `patina cluster forget ADDR` (admin role)
    router.post('/v1/admin/cluster/forget', json, (ctx) => {
      const body = ctx.state.body as { addr?: unknown } | null;
      const addr = body && typeof body === 'object' ? body.addr : undefined;
      if (typeof addr !== 'string' || addr === '')
        throw new PatinaError(
          'user',
          'the body must be {"addr": "host:port"}: the gossip address of the member to forget',
        );
      if (!svc) throw new PatinaError('user', 'this agent runs alone (no gossip address): it has no members');
      if (!svc.forget(addr)) throw new PatinaError('not-found', `no member ${addr} (see patina cluster members)`);
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
