// A catalog worker (catalog-workers.ts): a process with its own catalog connection (local-db.ts),
// built from the schema and OIDs the agent sends, that runs the catalog statements the agent hands
// it, one at a time, for the session facts each carries. A process, so that a long one can be
// stopped (killed) at a timeout or cancel; the agent's thread stays free meanwhile.
import { dieWithParent } from '../../../src/engine/orphan-watchdog';
import { pinClock } from '../../../src/engine/micro-clock';
import type { ActivityRow } from '../connection/listener-options';
import { postmasterStart } from './catalog-functions';
import { type FromCatalog, type ToCatalog, asBuffer, carryError } from './catalog-workers';
import { LocalDb } from './local-db';

dieWithParent();
const local = new LocalDb(process.argv[2]);
let activity: ActivityRow[] = [];
local.sessions = { activity: () => activity, signal: () => false };

const post = (m: FromCatalog) => process.send!(m);

process.on('message', (m: ToCatalog) => {
  if (m.type === 'schema') {
    postmasterStart(m.started);
    local.adoptOids(m.oids, m.nextOid);
    local.refresh(m.schema);
    post({ type: 'ready' });
    return;
  }
  activity = m.activity ?? [];
  const prepared = m.prepared;
  pinClock(m.clock ?? null);
  try {
    const params = m.params && Object.fromEntries(Object.entries(m.params).map(([k, v]) => [k, asBuffer(v)]));
    const rows = local.run(local.prepare(m.sql), params, {
      ...m.facts,
      settings: new Map(m.facts.settings),
      ...(prepared ? { prepared: () => prepared } : {}),
    });
    post({ type: 'rows', id: m.id, rows });
  } catch (err) {
    post({ type: 'error', id: m.id, error: carryError(err) });
  } finally {
    pinClock(null);
    activity = [];
  }
});
