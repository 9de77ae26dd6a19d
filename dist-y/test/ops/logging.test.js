"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
const strict_1 = __importDefault(require("node:assert/strict"));
const node_fs_1 = __importDefault(require("node:fs"));
const node_path_1 = __importDefault(require("node:path"));
const agent_1 = require("../helpers/agent");
const cli_1 = require("../helpers/cli");
const http_1 = require("../helpers/http");
const pg_1 = require("../helpers/pg");
const cluster_1 = require("../helpers/cluster");
const subscriptions_1 = require("../helpers/subscriptions");
const metrics_1 = require("../helpers/metrics");
const PG_PASSWORD = 'pg-password-that-must-not-leak';
const PARAM_SECRET = 'param-value-that-must-not-leak';
/** Every stderr line of the agent parsed as JSON (the test fails on a line that is not). */
function jsonLines(agent) {
    return agent.output
        .split('\n')
        .filter((l) => l.trim() !== '' && !l.startsWith('patina: agent ready'))
        .map((l) => {
        try {
            return JSON.parse(l);
        }
        catch {
            throw new Error(`a log line that is not JSON: ${l}`);
        }
    });
}
describe('logging: [log] format = "json"', function () {
    this.timeout(120_000);
    let a;
    let b = null;
    before(async () => {
        a = await (0, agent_1.startAgent)({
            schema: subscriptions_1.LIVE_SCHEMA,
            config: [
                '[log]',
                'format = "json"',
                'level = "info"',
                'slow_query_seconds = 0.05',
                '[api.pg]',
                'addr = "127.0.0.1:0"',
                `password = "${PG_PASSWORD}"`,
                '[subscriptions]',
                'client_buffer = 20',
                '[gossip]',
                'addr = "127.0.0.1:0"',
                'ping_interval = 0.2',
                'down_after = 2',
                'down_ping_interval = 0.5',
                'sync_interval = 0.5',
            ].join('\n'),
        });
    });
    after(async () => {
        await b?.dispose();
        await a?.dispose();
    });
    it('logs start-up as JSON lines with level, time, pid and message', async () => {
        const lines = jsonLines(a);
        const started = lines.find((l) => l.msg === 'agent started');
        strict_1.default.ok(started, JSON.stringify(lines));
        strict_1.default.equal(started.level, 'info');
        strict_1.default.equal(started.pid, a.proc.pid);
        strict_1.default.ok(!Number.isNaN(Date.parse(started.time)));
        strict_1.default.equal(started.db, a.dbPath);
        strict_1.default.match(String(started.actor_id), /^[0-9a-f]{32}$/);
        strict_1.default.ok(lines.some((l) => l.msg === 'schema applied at start' && l.created_tables.includes('users')));
    });
    it('writes no line per request at the default level, but logs slow queries without their parameters', async () => {
        const before = jsonLines(a).length;
        for (let i = 0; i < 50; i++) {
            await (0, subscriptions_1.write)(a.http, [['INSERT INTO users (id, name) VALUES (?, ?)', [i, `u${i}`]]]);
            strict_1.default.equal((await (0, http_1.postJson)(a.http, '/v1/queries', ['SELECT name FROM users WHERE id = ?', [i]])).status, 200);
        }
        strict_1.default.equal((await (0, http_1.request)(a.http, 'GET', '/v1/health')).status, 200);
        strict_1.default.equal((await (0, http_1.request)(a.http, 'GET', '/no/such/route')).status, 404);
        await (0, cluster_1.sleep)(200);
        // On a loaded machine one of these may pass slow_query_seconds (0.05 s here) and be logged as slow; nothing else may be.
        strict_1.default.deepEqual(jsonLines(a)
            .slice(before)
            .filter((l) => !/^slow (read|write)$/.test(l.msg)), [], 'no log line for ordinary requests');
        const slow = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 2000000) SELECT count(*) FROM c WHERE ? IS NOT NULL';
        const r = await (0, http_1.postJson)(a.http, '/v1/queries', [slow, [PARAM_SECRET]]);
        strict_1.default.equal(r.status, 200, r.text);
        await (0, cluster_1.eventually)('the slow read is logged', 5000, async () => jsonLines(a).some((l) => l.msg === 'slow read') || 'not yet');
        const line = jsonLines(a).find((l) => l.msg === 'slow read');
        strict_1.default.equal(line.level, 'warn');
        strict_1.default.equal(line.sql, slow);
        strict_1.default.ok(Number(line.seconds) >= 0.05);
        strict_1.default.ok(!a.output.includes(PARAM_SECRET), 'parameters are never logged');
    });
    it('logs schema changes, and a refused reload with its reason', async () => {
        const schemaFile = node_path_1.default.join(a.dir, 'schema.sql');
        node_fs_1.default.writeFileSync(schemaFile, subscriptions_1.LIVE_SCHEMA + '\nCREATE TABLE notes (id INTEGER NOT NULL PRIMARY KEY, body TEXT);\n');
        strict_1.default.equal((await (0, http_1.request)(a.http, 'POST', '/v1/admin/reload')).status, 200);
        await (0, cluster_1.eventually)('the reload is logged', 5000, async () => jsonLines(a).some((l) => l.msg === 'schema reloaded' && l.created_tables.includes('notes')) ||
            'not yet');
        node_fs_1.default.writeFileSync(schemaFile, subscriptions_1.LIVE_SCHEMA); // dropping notes is refused
        strict_1.default.equal((await (0, http_1.request)(a.http, 'POST', '/v1/admin/reload')).status, 409);
        await (0, cluster_1.eventually)('the refusal is logged', 5000, async () => jsonLines(a).some((l) => l.msg === 'schema reload refused' && l.level === 'warn' && /notes/.test(JSON.stringify(l.err))) || 'not yet');
        node_fs_1.default.writeFileSync(schemaFile, subscriptions_1.LIVE_SCHEMA + '\nCREATE TABLE notes (id INTEGER NOT NULL PRIMARY KEY, body TEXT);\n');
    });
    it('never logs the PostgreSQL password, even when a client gets it wrong', async () => {
        const port = Number(/PostgreSQL on [^\s,]+:(\d+)/.exec(a.output)[1]);
        const wrong = (0, pg_1.pgClient)(port, { password: 'wrong-' + PG_PASSWORD });
        await strict_1.default.rejects(wrong.connect(), /password authentication failed/);
        const right = (0, pg_1.pgClient)(port, { password: PG_PASSWORD });
        await right.connect();
        await right.query('SELECT 1');
        await right.end();
        await (0, cluster_1.sleep)(200);
        strict_1.default.ok(!a.output.includes(PG_PASSWORD));
    });
    it('logs a subscription client cut off for falling behind', async () => {
        const body = 'SELECT id, name FROM users WHERE id >= 600';
        const slow = await (0, subscriptions_1.subscribe)(a.http, body);
        slow.stream.res.pause();
        const big = 'x'.repeat(200000);
        for (let i = 0; i < 60; i++)
            await (0, subscriptions_1.write)(a.http, [['INSERT INTO users VALUES (?, ?, 6, 0)', [600 + i, big + i]]]);
        slow.stream.res.resume();
        await slow.stream.until(() => slow.stream.ended, 15000);
        strict_1.default.ok((0, subscriptions_1.changes)(slow.stream.events).length < 60);
        await (0, cluster_1.eventually)('the cut-off is logged', 5000, async () => jsonLines(a).some((l) => l.msg === 'subscription client cut off: it fell behind' && l.level === 'warn' && l.client_buffer === 20) || 'not yet');
        strict_1.default.equal((0, metrics_1.value)(await (0, metrics_1.scrape)(a.http), 'patina_clients_cut_off_total{stream="subscription"}'), 1);
        void subscriptions_1.untilChange;
    });
    it('logs peers coming up, leaving (SIGTERM) and going down (SIGKILL), with their address', async () => {
        const gossip = /gossip on ([^\s,]+)/.exec(a.output)[1];
        const join = async () => {
            const agent = await (0, agent_1.startAgent)({
                schema: subscriptions_1.LIVE_SCHEMA,
                args: ['--gossip-addr', '127.0.0.1:0', '--bootstrap', gossip, '--log-format', 'json'],
            });
            const addr = /gossip on ([^\s,]+)/.exec(agent.output)[1];
            await (0, cluster_1.eventually)('A logs the new agent up', 15_000, async () => jsonLines(a).some((l) => l.msg === 'peer up' && l.peer === addr) || 'not yet');
            return { agent, addr };
        };
        const left = await join();
        b = left.agent;
        await b.stop();
        await (0, cluster_1.eventually)('A logs B left', 15_000, async () => jsonLines(a).some((l) => l.msg === 'peer left' && l.peer === left.addr && l.level === 'info') || 'not yet');
        strict_1.default.ok(!jsonLines(a).some((l) => l.msg === 'peer down' && l.peer === left.addr), 'a departure is not a failure');
        const bLines = jsonLines(b);
        strict_1.default.ok(bLines.some((l) => l.msg === 'SIGTERM, stopping'));
        strict_1.default.ok(bLines.some((l) => l.msg === 'agent stopped'));
        await b.dispose();
        const killed = await join();
        b = killed.agent;
        await b.kill();
        await (0, cluster_1.eventually)('A logs C down', 30_000, async () => jsonLines(a).some((l) => l.msg === 'peer down' &&
            l.peer === killed.addr &&
            l.level === 'warn' &&
            typeof l.failed_probes === 'number') || 'not yet');
    });
    it("reads the [gossip] timings from the config (today's values by default)", async () => {
        const tuning = (await (0, http_1.request)(a.http, 'GET', '/v1/sync/status')).json
            .tuning;
        strict_1.default.equal(tuning.pingIntervalMs, 200);
        strict_1.default.equal(tuning.downAfter, 2);
        strict_1.default.equal(tuning.downPingIntervalMs, 500);
        strict_1.default.equal(tuning.syncIntervalMs, 500);
        strict_1.default.equal(tuning.fanout, 3);
        strict_1.default.equal(tuning.pushDirect, 32);
        strict_1.default.equal(tuning.frames, true);
        strict_1.default.equal(tuning.chunkRows, 2000);
    });
});
describe('logging: text format and bad settings', function () {
    this.timeout(60_000);
    it('logs text lines by default', async () => {
        const agent = await (0, agent_1.startAgent)({ schema: subscriptions_1.LIVE_SCHEMA });
        try {
            strict_1.default.match(agent.output, /^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}\] INFO \(\d+\): agent started \{/m);
        }
        finally {
            await agent.dispose();
        }
    });
    const invalid = [
        { toml: '[log]\nformat = "xml"\n', key: /log\.format.*"text" or "json"/ },
        { toml: '[log]\nlevel = "loud"\n', key: /log\.level/ },
        { toml: '[log]\nslow_query_seconds = -1\n', key: /log\.slow_query_seconds/ },
        { toml: '[log]\ncolour = true\n', key: /log\.colour.*unknown key/ },
        { toml: '[gossip]\nping_interval = 0\n', key: /gossip\.ping_interval/ },
        { toml: '[gossip]\nfanout = -1\n', key: /gossip\.fanout/ },
        { toml: '[gossip]\npush_direct = -1\n', key: /gossip\.push_direct/ },
        { toml: '[gossip]\nframes = "yes"\n', key: /gossip\.frames/ },
        { toml: '[gossip]\ndown_after = 1.5\n', key: /gossip\.down_after/ },
        { toml: '[gossip]\nchunk_rows = "many"\n', key: /gossip\.chunk_rows/ },
        { toml: '[gossip]\nbootstrap = ["127.0.0.1:1"]\n', key: /gossip\.addr.*missing/ },
    ];
    for (const c of invalid) {
        it(`refuses ${c.toml.trim().replace(/\n/g, ' ')}, naming the key`, async () => {
            const dir = node_fs_1.default.mkdtempSync(node_path_1.default.join(require('node:os').tmpdir(), 'patina-logcfg-'));
            try {
                node_fs_1.default.writeFileSync(node_path_1.default.join(dir, 'c.toml'), c.toml);
                const r = await (0, cli_1.runCli)(['agent', '-c', node_path_1.default.join(dir, 'c.toml'), '--db-path', node_path_1.default.join(dir, 'x.db'), '--api-addr', '127.0.0.1:0'], { cwd: dir });
                strict_1.default.notEqual(r.code, 0, r.stdout);
                strict_1.default.match(r.stderr, c.key);
            }
            finally {
                node_fs_1.default.rmSync(dir, { recursive: true, force: true });
            }
        });
    }
    it('refuses a bad --log-level or --log-format flag', async () => {
        const level = await (0, cli_1.runCli)(['agent', '--log-level', 'loud', '--db-path', '/tmp/never.db']);
        strict_1.default.equal(level.code, 2);
        strict_1.default.match(level.stderr, /--log-level must be one of/);
        const format = await (0, cli_1.runCli)(['agent', '--log-format', 'xml', '--db-path', '/tmp/never.db']);
        strict_1.default.equal(format.code, 2);
        strict_1.default.match(format.stderr, /--log-format must be text or json/);
    });
    it('takes [gossip] tunables without an address (the agent runs alone)', async () => {
        const agent = await (0, agent_1.startAgent)({ schema: subscriptions_1.LIVE_SCHEMA, config: '[gossip]\nsync_interval = 5\nfanout = 1\n' });
        try {
            const m = (await (0, http_1.request)(agent.http, 'GET', '/v1/cluster/members')).json;
            strict_1.default.equal(m.clustered, false);
        }
        finally {
            await agent.dispose();
        }
    });
});
//# sourceMappingURL=logging.test.js.map