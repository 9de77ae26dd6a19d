// An internal fault's message never reaches a client: PG and HTTP send an id, the log line carries
// the id with the message. Run in a child process so its log lines (on stderr) can be read.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const DIST = path.resolve(__dirname, '..', '..');

/** Runs `body` in a fresh Node with the agent's JSON logger; returns what it printed and logged. */
function run(body: string): { out: string; log: Record<string, unknown>[] } {
  const script = `
const { setupLogging } = require(${JSON.stringify(path.join(DIST, 'src/observability/log.js'))});
setupLogging({ level: 'info', format: 'json', slowQuerySeconds: 1 });
const { sqlstateOf } = require(${JSON.stringify(path.join(DIST, 'protocols/pg/sqlstate.js'))});
const { PatinaError } = require(${JSON.stringify(path.join(DIST, 'src/errors.js'))});
const { errorBody } = require(${JSON.stringify(path.join(DIST, 'protocols/http/errors.js'))});
(async () => { ${body} })().catch((e) => { console.error(e); process.exit(1); });
`;
  const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 20_000 });
  assert.equal(r.status, 0, r.stderr);
  const log = r.stderr
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { out: r.stdout, log };
}

describe('internal errors reach clients as an id only', () => {
  it('PG: a fault of the agent is XX000 with an id; the log line has the id and the message', () => {
    const { out, log } = run(`
      for (const e of [new Error('nonce r=ab(c)[d secret-7f'), new PatinaError('internal', 'SELECT secret-7f FROM other_session')])
        console.log(JSON.stringify(sqlstateOf(e)));
      console.log(JSON.stringify(sqlstateOf(new PatinaError('user', 'no such table: nope'))));
    `);
    const [a, b, user] = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    for (const x of [a, b]) {
      assert.equal(x.code, 'XX000');
      assert.match(x.message, /^internal error \(id [0-9a-f]{8}\)/);
      assert.doesNotMatch(x.message, /secret|nonce|SELECT/);
    }
    // a user error keeps its message (SQLite's words made PostgreSQL's)
    assert.equal(user.message, 'relation "nope" does not exist', 'a user error keeps its message');
    const ids = [a, b].map((x) => /id ([0-9a-f]{8})/.exec(x.message)![1]);
    for (const [i, id] of ids.entries()) {
      const line = log.find((l) => l.error_id === id);
      assert.ok(line, `a log line carries ${id}`);
      assert.match(String((line.err as { message: string }).message), /secret-7f/);
      assert.equal(line.level, 'error', `line ${i}`);
    }
  });

  it('HTTP: a fault of the agent is a 500 whose body has the id only', () => {
    const { out, log } = run(`
      const ctx = { method: 'GET', path: '/v1/x', status: 200, body: undefined, app: { emit() {} } };
      await errorBody(ctx, async () => { throw new Error('token tok-secret-91 leaked') });
      console.log(JSON.stringify({ status: ctx.status, body: ctx.body }));
      const ctx2 = { method: 'POST', path: '/v1/transactions', status: 200, body: undefined, app: { emit() {} } };
      await errorBody(ctx2, async () => { throw new PatinaError('conflict', 'UNIQUE constraint failed: items.id') });
      console.log(JSON.stringify({ status: ctx2.status, body: ctx2.body }));
    `);
    const [internal, conflict] = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.equal(internal.status, 500);
    assert.match(internal.body.error, /^internal error \(id [0-9a-f]{8}\)/);
    assert.doesNotMatch(internal.body.error, /tok-secret/);
    const id = /id ([0-9a-f]{8})/.exec(internal.body.error)![1];
    assert.ok(log.some((l) => l.error_id === id && /GET \/v1\/x/.test(String(l.where))));
    assert.deepEqual(conflict, { status: 409, body: { error: 'UNIQUE constraint failed: items.id' } });
  });
});
