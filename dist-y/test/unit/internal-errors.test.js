"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// An internal fault's message never reaches a client: PG and HTTP send an id, the log line carries
// the id with the message. Run in a child process so its log lines (on stderr) can be read.
const strict_1 = __importDefault(require("node:assert/strict"));
const node_child_process_1 = require("node:child_process");
const node_path_1 = __importDefault(require("node:path"));
const DIST = node_path_1.default.resolve(__dirname, '..', '..');
/** Runs `body` in a fresh Node with the agent's JSON logger; returns what it printed and logged. */
function run(body) {
    const script = `
const { setupLogging } = require(${JSON.stringify(node_path_1.default.join(DIST, 'src/observability/log.js'))});
setupLogging({ level: 'info', format: 'json', slowQuerySeconds: 1 });
const { sqlstateOf } = require(${JSON.stringify(node_path_1.default.join(DIST, 'protocols/pg/sqlstate.js'))});
const { PatinaError } = require(${JSON.stringify(node_path_1.default.join(DIST, 'src/errors.js'))});
const { errorBody } = require(${JSON.stringify(node_path_1.default.join(DIST, 'protocols/http/errors.js'))});
(async () => { ${body} })().catch((e) => { console.error(e); process.exit(1); });
`;
    const r = (0, node_child_process_1.spawnSync)(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 20_000 });
    strict_1.default.equal(r.status, 0, r.stderr);
    const log = r.stderr
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l));
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
            strict_1.default.equal(x.code, 'XX000');
            strict_1.default.match(x.message, /^internal error \(id [0-9a-f]{8}\)/);
            strict_1.default.doesNotMatch(x.message, /secret|nonce|SELECT/);
        }
        strict_1.default.equal(user.message, 'no such table: nope', 'a user error keeps its message');
        const ids = [a, b].map((x) => /id ([0-9a-f]{8})/.exec(x.message)[1]);
        for (const [i, id] of ids.entries()) {
            const line = log.find((l) => l.error_id === id);
            strict_1.default.ok(line, `a log line carries ${id}`);
            strict_1.default.match(String(line.err.message), /secret-7f/);
            strict_1.default.equal(line.level, 'error', `line ${i}`);
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
        strict_1.default.equal(internal.status, 500);
        strict_1.default.match(internal.body.error, /^internal error \(id [0-9a-f]{8}\)/);
        strict_1.default.doesNotMatch(internal.body.error, /tok-secret/);
        const id = /id ([0-9a-f]{8})/.exec(internal.body.error)[1];
        strict_1.default.ok(log.some((l) => l.error_id === id && /GET \/v1\/x/.test(String(l.where))));
        strict_1.default.deepEqual(conflict, { status: 409, body: { error: 'UNIQUE constraint failed: items.id' } });
    });
});
//# sourceMappingURL=internal-errors.test.js.map