// A named portal of the extended query protocol as a cursor: PostgreSQL keeps Bind's portals and
// DECLARE's cursors in one namespace, so FETCH and MOVE (and Describe) reach a portal by its name.
// asyncpg's Cursor.forward() sends `MOVE FORWARD n "__asyncpg_portal_1__"` on the portal its cursor
// Bound and Executed; that was 34000 `cursor "__asyncpg_portal_1__" does not exist`. The rows FETCH
// takes or MOVE skips are the portal's: the next Execute goes on after them.
import type { Session } from '../session/session';
import { type PortalCursor, forwardOnly } from '../session/cursors';
import type { ColumnDesc } from '../sql/analyzed';
import { type Portal, portalColumns } from './portal';
import { describedFields } from './results';
import { pgError } from '../sqlstate';

/**
 * The portal `name` as FETCH and MOVE read it. One that answers no rows (an INSERT's, a SET's) has
 * no columns, and FETCH of it fails as PostgreSQL's: XX000 `unsupported portal strategy` before an
 * Execute ran it, 55000 `portal "name" cannot be run` after (it was 34000 `cursor does not exist`).
 */
export function portalCursor(session: Session, p: Portal, name: string): PortalCursor<ColumnDesc[] | null> {
  const answers = session.resultColumns(p.an);
  if (!answers)
    return {
      columns: null,
      async fetch() {
        if (p.outcome) throw pgError('55000', `portal "${name}" cannot be run`);
        throw pgError('XX000', 'unsupported portal strategy');
      },
    };
  const columns = portalColumns(p, answers);
  return {
    columns,
    async fetch(count, move, dir, run) {
      // (a portal of Bind is not SCROLL: it goes forward only, as PostgreSQL's)
      if (dir !== 'forward') throw forwardOnly();
      if (!p.outcome) {
        // no Execute has run it: FETCH does, and a later Execute sends what it left
        const out = await run(p.an, p.params);
        p.outcome = out;
        p.pending = out.all ?? [];
        p.at = 0;
        p.fields ??= describedFields(columns, p.formats, p.pending).fields;
      }
      const rows: unknown[][] = [];
      let moved = 0;
      while (moved < count && !p.done) {
        if (p.at >= p.pending.length) {
          const next = p.outcome.rows ? await p.outcome.rows.next() : null;
          if (next === null) {
            p.done = true;
            break;
          }
          p.pending = next;
          p.at = 0;
          continue;
        }
        const take = Math.min(p.pending.length - p.at, count - moved);
        if (!move) for (let k = 0; k < take; k++) rows.push(p.pending[p.at + k]);
        p.at += take;
        moved += take;
      }
      return { rows, moved };
    },
  };
}
