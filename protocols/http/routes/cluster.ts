import type Router from '@koa/router';

/** What the cluster routes need: the member list and the per-origin replication state. */
export interface ClusterService {
  members(): Record<string, unknown>[];
  syncStatus(): Record<string, unknown>;
}

/** GET /v1/cluster/members and GET /v1/sync/status (what `patina cluster members` and `patina sync status` show). */
export function clusterRoutes(svc: ClusterService | null): (router: Router) => void {
  return (router) => {
    router.get('/v1/cluster/members', (ctx) => {
      ctx.body = { members: svc ? svc.members() : [], clustered: svc !== null };
    });
    router.get('/v1/sync/status', (ctx) => {
      ctx.body = svc ? svc.syncStatus() : { clustered: false, origins: [] };
    });
  };
}
