// Rows inserted, updated and deleted per table since the agent started, counted from the change feed
// (every committed change: HTTP, the PG front end, merges from peers), for pg_stat_user_tables'
// n_tup_ins, n_tup_upd and n_tup_del (pgAdmin's table statistics, Grafana's PostgreSQL dashboards).
import type { ChangeFeed } from '../bus/changeset';

export interface TableTupleCounts {
  inserted: number;
  updated: number;
  deleted: number;
}

export class TableCounts {
  readonly #byTable = new Map<string, TableTupleCounts>();

  /** Counts every changeset the feed publishes (at commit, a few increments per changed row). */
  constructor(feed: ChangeFeed) {
    feed.observe((cs) => {
      for (const c of cs.changes) {
        let t = this.#byTable.get(c.table);
        if (!t) this.#byTable.set(c.table, (t = { inserted: 0, updated: 0, deleted: 0 }));
        if (c.kind === 'insert') t.inserted++;
        else if (c.kind === 'update') t.updated++;
        else t.deleted++;
      }
    });
  }

  /** A table's counts; undefined for a table with no change since the agent started. */
  of(table: string): TableTupleCounts | undefined {
    return this.#byTable.get(table);
  }
}
