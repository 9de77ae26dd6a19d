"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
const strict_1 = __importDefault(require("node:assert/strict"));
const node_fs_1 = __importDefault(require("node:fs"));
const node_os_1 = __importDefault(require("node:os"));
const node_path_1 = __importDefault(require("node:path"));
const agent_1 = require("../helpers/agent");
const cli_1 = require("../helpers/cli");
const http_1 = require("../helpers/http");
const cluster_1 = require("../helpers/cluster");
const http_2 = require("../helpers/http");
const SCHEMA = `
CREATE TABLE items (id INTEGER NOT NULL PRIMARY KEY, grp INTEGER, payload TEXT);
CREATE TABLE counter (id INTEGER NOT NULL PRIMARY KEY, n INTEGER NOT NULL DEFAULT 0);
`;
describe('online backup and restore', function () {
    this.timeout(180_000);
    let agent;
    let dir;
    let addr;
    before(async () => {
        dir = node_fs_1.default.mkdtempSync(node_path_1.default.join(node_os_1.default.tmpdir(), 'patina-backup-'));
        agent = await (0, agent_1.startAgent)({ schema: SCHEMA });
        addr = agent.http.replace('http://', '');
        // About 15 MB, so that the copy takes a while and shows progress.
        for (let b = 0; b < 2; b++) {
            await (0, http_2.write)(agent.http, [
                `INSERT INTO items (id, grp, payload) WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 10000) SELECT ${b * 10000} + x, x % 7, hex(randomblob(300)) FROM c`,
            ]);
        }
        await (0, http_2.write)(agent.http, ['INSERT INTO counter (id, n) VALUES (1, 0)']);
    });
    after(async () => {
        await agent?.dispose();
        node_fs_1.default.rmSync(dir, { recursive: true, force: true });
    });
    it('copies the database while writes go on, and the restored copy matches the source row by row', async () => {
        const file = node_path_1.default.join(dir, 'during-writes.db');
        // Each transaction adds two rows and bumps the counter: a consistent copy holds all three or none.
        let i = 0;
        let stop = false;
        let ackedBeforeBackup = -1;
        const ackedDuring = [];
        let backupRunning = false;
        const writer = (async () => {
            while (!stop) {
                await (0, http_2.write)(agent.http, [
                    [
                        'INSERT INTO items (id, grp, payload) VALUES (?, 100, ?), (?, 100, ?)',
                        [100000 + 2 * i, `w${i}a`, 100001 + 2 * i, `w${i}b`],
                    ],
                    'UPDATE counter SET n = n + 1 WHERE id = 1',
                ]);
                if (backupRunning)
                    ackedDuring.push(i);
                i++;
            }
        })();
        while (i < 20)
            await new Promise((r) => setTimeout(r, 20));
        ackedBeforeBackup = i - 1;
        backupRunning = true;
        let slowestPointRead = 0;
        const reader = (async () => {
            while (backupRunning) {
                const t0 = Date.now();
                const r = await (0, http_1.postJson)(agent.http, '/v1/queries', ['SELECT n FROM counter WHERE id = ?', [1]]);
                strict_1.default.equal(r.status, 200);
                slowestPointRead = Math.max(slowestPointRead, Date.now() - t0);
                await new Promise((res) => setTimeout(res, 20));
            }
        })();
        const backup = await (0, cli_1.runCli)(['backup', file, '--api-addr', addr], { timeoutMs: 120_000 });
        backupRunning = false;
        await reader;
        // a few more writes after the backup, which the copy must not have
        const target = i + 5;
        while (i < target)
            await new Promise((r) => setTimeout(r, 20));
        stop = true;
        await writer;
        strict_1.default.equal(backup.code, 0, backup.stderr);
        strict_1.default.match(backup.stdout, new RegExp(`backup written to ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
        strict_1.default.match(backup.stderr, /backup: \d+% \(/, 'progress is shown');
        strict_1.default.match(backup.stderr, /backup: 100%/);
        strict_1.default.ok(ackedDuring.length > 0, 'writes were acknowledged while the backup ran');
        strict_1.default.ok(slowestPointRead < 1000, `point reads stay answered during the backup (slowest ${slowestPointRead} ms)`);
        // A folder that does not exist yet, two levels deep: restore makes it, as `patina agent --db-path` does.
        const restoredPath = node_path_1.default.join(dir, 'restored', 'new', 'patina.db');
        strict_1.default.equal(node_fs_1.default.existsSync(node_path_1.default.dirname(restoredPath)), false);
        const restore = await (0, cli_1.runCli)(['restore', file, '--db-path', restoredPath]);
        strict_1.default.equal(restore.code, 0, restore.stderr);
        strict_1.default.match(restore.stdout, /new actor id [0-9a-f]{32}/);
        const restored = await (0, agent_1.startAgent)({ schema: SCHEMA, dir: node_path_1.default.dirname(restoredPath) });
        try {
            const copy = await (0, cluster_1.rows)(restored.http, 'SELECT id, grp, payload FROM items ORDER BY id');
            const source = await (0, cluster_1.rows)(agent.http, 'SELECT id, grp, payload FROM items ORDER BY id');
            const byId = new Map(source.map((r) => [String(r[0]), JSON.stringify(r)]));
            for (const r of copy)
                strict_1.default.equal(JSON.stringify(r), byId.get(String(r[0])), `row ${r[0]} of the copy is the source's`);
            const n = Number((await (0, cluster_1.rows)(restored.http, 'SELECT n FROM counter WHERE id = 1'))[0][0]);
            const written = copy.filter((r) => Number(r[0]) >= 100000).map((r) => Number(r[0]));
            // The copy is one committed state: transactions 0..n-1 whole, none after.
            strict_1.default.deepEqual(written, Array.from({ length: 2 * n }, (_, k) => 100000 + k));
            strict_1.default.equal(copy.length, 20000 + 2 * n);
            strict_1.default.ok(n - 1 >= ackedBeforeBackup, `writes acknowledged before the backup began are in it (${n} >= ${ackedBeforeBackup + 1})`);
            strict_1.default.ok(n < i, 'writes made after the backup ended are not');
            // The restored agent writes under a new actor id, from version 1.
            const w = await (0, http_2.write)(restored.http, [
                "INSERT INTO items (id, grp, payload) VALUES (1, 1, 'x') ON CONFLICT (id) DO UPDATE SET payload = 'restored'",
            ]);
            const src = await (0, http_2.write)(agent.http, ['UPDATE counter SET n = n WHERE id = 1']);
            strict_1.default.notEqual(w.actor_id, src.actor_id);
            strict_1.default.equal(w.version, 1);
        }
        finally {
            await restored.dispose();
        }
    });
    it('refuses bad targets and sources with clear errors, and the agent lives on', async () => {
        const existing = node_path_1.default.join(dir, 'exists.db');
        node_fs_1.default.writeFileSync(existing, 'x');
        const over = await (0, cli_1.runCli)(['backup', existing, '--api-addr', addr]);
        strict_1.default.notEqual(over.code, 0);
        strict_1.default.match(over.stderr, /exists already/);
        const noFolder = await (0, cli_1.runCli)(['backup', node_path_1.default.join(dir, 'nope', 'b.db'), '--api-addr', addr]);
        strict_1.default.notEqual(noFolder.code, 0);
        strict_1.default.match(noFolder.stderr, /folder .*nope does not exist/);
        const relative = await (0, http_1.postJson)(agent.http, '/v1/admin/backup', { path: 'rel.db' });
        strict_1.default.equal(relative.status, 400);
        strict_1.default.match(String(relative.json.error), /must be absolute/);
        const noPath = await (0, http_1.postJson)(agent.http, '/v1/admin/backup', { file: '/tmp/x.db' });
        strict_1.default.equal(noPath.status, 400);
        strict_1.default.equal((await (0, http_1.request)(agent.http, 'GET', '/v1/admin/backup')).status, 405);
        const missing = await (0, cli_1.runCli)(['restore', node_path_1.default.join(dir, 'missing.db'), '--db-path', node_path_1.default.join(dir, 'r1.db')]);
        strict_1.default.notEqual(missing.code, 0);
        strict_1.default.match(missing.stderr, /does not exist/);
        const notBackup = await (0, cli_1.runCli)(['restore', existing, '--db-path', node_path_1.default.join(dir, 'r2.db')]);
        strict_1.default.notEqual(notBackup.code, 0);
        strict_1.default.match(notBackup.stderr, /not .*(backup|SQLite|database)/);
        // The agent's own live file is not a backup either.
        const live = await (0, cli_1.runCli)(['restore', agent.dbPath, '--db-path', node_path_1.default.join(dir, 'r3.db')]);
        strict_1.default.notEqual(live.code, 0);
        strict_1.default.match(live.stderr, /not a backup made by patina backup/);
        const noDb = await (0, cli_1.runCli)(['restore', existing]);
        strict_1.default.equal(noDb.code, 2);
        strict_1.default.match(noDb.stderr, /--db-path/);
        const good = node_path_1.default.join(dir, 'good.db');
        const b = await (0, cli_1.runCli)(['backup', good, '--api-addr', addr], { timeoutMs: 120_000 });
        strict_1.default.equal(b.code, 0, b.stderr);
        // Over the database of a running agent: refused, naming its pid.
        const busy = await (0, cli_1.runCli)(['restore', good, '--db-path', agent.dbPath]);
        strict_1.default.notEqual(busy.code, 0);
        strict_1.default.match(busy.stderr, new RegExp(`in use by a running agent \\(pid ${agent.proc.pid}\\)`));
        // A backup file used as a database directly: refused (it would write under the backup's actor id).
        const direct = await (0, cli_1.runCli)([
            'agent',
            '--db-path',
            good,
            '--api-addr',
            '127.0.0.1:0',
            '--schema',
            node_path_1.default.join(agent.dir, 'schema.sql'),
        ]);
        strict_1.default.notEqual(direct.code, 0);
        strict_1.default.match(direct.stderr, /is a backup made by patina backup; put it in place with `patina restore`/);
        const still = await (0, http_1.postJson)(agent.http, '/v1/queries', 'SELECT count(*) FROM counter');
        strict_1.default.equal(still.status, 200);
    });
});
//# sourceMappingURL=backup-restore.test.js.map