"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// PostgreSQL's authentication_timeout and max_connections on a listener, driven with raw sockets
// while ordinary clients go on working.
const strict_1 = __importDefault(require("node:assert/strict"));
const node_net_1 = __importDefault(require("node:net"));
const pg_protocol_1 = require("pg-protocol");
const agent_1 = require("../helpers/agent");
const http_1 = require("../helpers/http");
const pg_1 = require("../helpers/pg");
const wait_1 = require("../helpers/wait");
const SCHEMA = 'CREATE TABLE items (id INTEGER NOT NULL PRIMARY KEY, name TEXT);';
/** A raw socket to the listener, kept as the test leaves it. */
function rawSocket(port) {
    return new Promise((resolve, reject) => {
        const s = node_net_1.default.connect(port, '127.0.0.1', () => resolve(s));
        s.once('error', reject);
    });
}
const closed = (s) => new Promise((r) => (s.destroyed ? r() : s.once('close', () => r())));
async function metric(agent, name) {
    const r = await (0, http_1.request)(agent.http, 'GET', '/metrics');
    const m = new RegExp(`^${name} (\\d+)$`, 'm').exec(r.text);
    return m ? Number(m[1]) : Number.NaN;
}
describe('PostgreSQL connection limits', function () {
    this.timeout(60_000);
    it('closes connections that do not log in within authentication_timeout: silent, mid-startup and mid-SCRAM; clients that log in stay', async () => {
        const agent = await (0, agent_1.startAgent)({
            schema: SCHEMA,
            config: '[api.pg]\naddr = "127.0.0.1:0"\nauthentication_timeout = 1\npassword = "pw-1"\n',
        });
        try {
            const port = agent.pg.port;
            const silent = await Promise.all(Array.from({ length: 50 }, () => rawSocket(port)));
            // Half a startup packet: a length of 40 and 4 bytes.
            const partial = await rawSocket(port);
            partial.write(Buffer.from([0, 0, 0, 40, 0, 3, 0, 0]));
            // A SCRAM exchange left after its first step.
            const sasl = await pg_1.RawPg.connect(port);
            sasl.listen();
            sasl.send(pg_protocol_1.serialize.startup({ user: 'app', database: 'db' }));
            await sasl.until('authenticationSASL');
            // An ordinary client logs in meanwhile, and stays past the timeout.
            const good = (0, pg_1.pgClient)(port, { password: 'pw-1' });
            await good.connect();
            const started = Date.now();
            await Promise.all([...silent, partial].map(closed));
            await sasl.closedBy(5000);
            strict_1.default.ok(Date.now() - started < 5000, 'closed within a few seconds of the 1 s timeout');
            await (0, wait_1.sleep)(1200);
            strict_1.default.equal((await good.query('SELECT 1 AS one')).rows[0].one, 1, 'a logged-in session is not timed out');
            await good.end();
            strict_1.default.ok((await metric(agent, 'patina_pg_authentication_timeouts_total')) >= 52);
            await (0, wait_1.eventually)('the sockets are released', 5000, async () => (await metric(agent, 'patina_pg_connections')) === 0);
        }
        finally {
            await agent.dispose();
        }
    });
    it('answers startups past max_connections with FATAL 53300, and takes new ones once others left', async () => {
        const agent = await (0, agent_1.startAgent)({
            schema: SCHEMA,
            config: '[api.pg]\naddr = "127.0.0.1:0"\nmax_connections = 5\n',
        });
        try {
            const port = agent.pg.port;
            const five = Array.from({ length: 5 }, () => (0, pg_1.pgClient)(port));
            await Promise.all(five.map((c) => c.connect()));
            const extra = (0, pg_1.pgClient)(port);
            await strict_1.default.rejects(extra.connect(), (e) => e.code === '53300' && /sorry, too many clients already/.test(e.message));
            // Raw: the refusal is a FATAL ErrorResponse after the startup packet, then the close.
            const raw = await pg_1.RawPg.connect(port);
            raw.listen();
            raw.send(pg_protocol_1.serialize.startup({ user: 'tester', database: 'db' }));
            const err = (await raw.until('error')).pop();
            strict_1.default.equal(err.code, '53300');
            strict_1.default.equal(err.severity, 'FATAL');
            await raw.closedBy();
            // The five work on; when two leave, two more get in.
            for (const c of five)
                strict_1.default.equal((await c.query('SELECT 2 AS two')).rows[0].two, 2);
            await five[0].end();
            await five[1].end();
            await (0, wait_1.eventually)('two more connect', 5000, async () => {
                const more = [(0, pg_1.pgClient)(port), (0, pg_1.pgClient)(port)];
                try {
                    await Promise.all(more.map((c) => c.connect()));
                    await Promise.all(more.map((c) => c.end()));
                    return true;
                }
                catch (e) {
                    return e.message;
                }
            });
            for (const c of five.slice(2))
                await c.end();
            strict_1.default.ok((await metric(agent, 'patina_pg_connections_refused_total')) >= 2);
        }
        finally {
            await agent.dispose();
        }
    });
    it('refuses bad limit settings with a message naming the key', async () => {
        await strict_1.default.rejects((0, agent_1.startAgent)({ schema: SCHEMA, config: '[api.pg]\naddr = "127.0.0.1:0"\nmax_connections = 0\n' }), /api\.pg\.max_connections.*at least 1/);
        await strict_1.default.rejects((0, agent_1.startAgent)({ schema: SCHEMA, config: '[api.pg]\naddr = "127.0.0.1:0"\nauthentication_timeout = "soon"\n' }), /api\.pg\.authentication_timeout/);
    });
});
//# sourceMappingURL=connection-limits.test.js.map