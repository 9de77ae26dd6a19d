// A subscription client that keeps a map rowid -> cells, and resumes after a disconnect or an
// agent restart with the query id and the last change id it saw, retrying with backoff.
//   node examples/clients/subscribe.js 'SELECT id, title, done FROM todos WHERE done = ?' 0
// Uses only Node's built-in fetch (Node 20). 64-bit integers beyond 2^53 would need an exact JSON
// parser (Patina writes them exactly); this example uses JSON.parse for brevity.
const base = process.env.PATINA_URL ?? 'http://127.0.0.1:8080';
const [sql, ...params] = process.argv.slice(2);
if (!sql) {
  console.error('usage: node subscribe.js SQL [PARAM...]');
  process.exit(2);
}
const rows = new Map();
let queryId = null;
let lastChange = 0;

async function* lines(body) {
  const decoder = new TextDecoder();
  let buf = '';
  for await (const chunk of body) {
    buf += decoder.decode(chunk, { stream: true });
    let nl;
    while ((nl = buf.indexOf('\n')) >= 0) {
      yield JSON.parse(buf.slice(0, nl));
      buf = buf.slice(nl + 1);
    }
  }
}

async function once() {
  const res = queryId
    ? await fetch(`${base}/v1/subscriptions/${queryId}?from=${lastChange}`)
    : await fetch(`${base}/v1/subscriptions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(params.length ? [sql, params.map((p) => (/^-?\d+(\.\d+)?$/.test(p) ? Number(p) : p))] : sql),
      });
  if (res.status === 404 && queryId) {
    // The subscription is gone (idle too long): start over from a fresh result.
    queryId = null;
    rows.clear();
    return;
  }
  if (!res.ok) throw new Error(`${res.status}: ${(await res.json()).error}`);
  queryId = res.headers.get('patina-query-id') ?? queryId;
  for await (const ev of lines(res.body)) {
    if (ev.row) rows.set(ev.row[0], ev.row[1]);
    else if (ev.eoq) {
      lastChange = ev.eoq.change_id;
      console.log(`initial result: ${rows.size} rows (query id ${queryId}, change id ${lastChange})`);
    } else if (ev.change) {
      const [kind, rowid, cells, changeId] = ev.change;
      if (kind === 'delete') rows.delete(rowid);
      else rows.set(rowid, cells);
      lastChange = changeId;
      console.log(`${kind} row ${rowid}: ${JSON.stringify(cells)} (change ${changeId}, ${rows.size} rows)`);
    } else if (ev.error) {
      // Too far behind, or changes no longer kept: start over from a fresh result.
      console.error(`agent says: ${ev.error}`);
      if (/min change id/.test(ev.error)) {
        queryId = null;
        rows.clear();
      }
      return;
    }
  }
}

(async () => {
  let delay = 100;
  for (let attempt = 0; attempt < 20; attempt++) {
    try {
      await once();
      delay = 100;
    } catch (err) {
      console.error(`subscription failed: ${err.message}; retrying in ${delay} ms`);
    }
    await new Promise((r) => setTimeout(r, delay));
    delay = Math.min(delay * 2, 10000);
  }
  console.error('giving up after 20 attempts');
  process.exit(1);
})();
