// A subscription client on patina/client: the library keeps the map rowid -> cells, resumes after
// a disconnect or an agent restart with the query id and the last change id (backoff with jitter),
// re-reads the result when the agent no longer keeps the missed changes, and gives up after a minute.
//   node examples/clients/subscribe.js 'SELECT id, title, done FROM todos WHERE done = ?' 0
// In a checkout run `npm install` first (it builds dist/); outside, `require('patina/client')`.
const { PatinaClient } = require('patina/client');

const [sql, ...args] = process.argv.slice(2);
if (!sql) {
  console.error('usage: node subscribe.js SQL [PARAM...]');
  process.exit(2);
}
// Integers stay exact: past 2^53 they are sent and received as bigint.
const params = args.map((p) =>
  /^-?\d+$/.test(p)
    ? Number.isSafeInteger(Number(p))
      ? Number(p)
      : BigInt(p)
    : /^-?\d+\.\d+$/.test(p)
      ? Number(p)
      : p,
);
const show = (v) => JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? x.toString() : x));

const client = new PatinaClient({
  url: process.env.PATINA_URL ?? 'http://127.0.0.1:8080',
  token: process.env.PATINA_API_TOKEN,
});
const sub = client.subscribe(sql, params.length ? params : undefined, { retry: { giveUpAfterMs: 60_000 } });
process.on('SIGINT', () => sub.close());

(async () => {
  try {
    for await (const ev of sub) {
      if (ev.type === 'ready')
        console.log(`initial result: ${ev.rows.size} rows (query id ${sub.queryId}, change id ${ev.changeId})`);
      else if (ev.type === 'change')
        console.log(`${ev.kind} row ${ev.rowId}: ${show(ev.cells)} (change ${ev.changeId}, ${sub.rows.size} rows)`);
      else if (ev.type === 'reset')
        console.log(`result read again (${ev.reason}): ${ev.rows.size} rows, change id ${ev.changeId}`);
      else if (ev.type === 'disconnected')
        console.error(`disconnected: ${ev.error.message}; retrying in ${ev.retryInMs} ms`);
      else if (ev.type === 'resumed') console.error(`resumed after change ${ev.changeId}`);
    }
  } catch (err) {
    // err.kind is 'gave-up' (agent gone too long), 'request' (bad SQL: err.status 400), ...
    console.error(`subscription ended (${err.kind}): ${err.message}`);
    process.exit(1);
  }
})();
