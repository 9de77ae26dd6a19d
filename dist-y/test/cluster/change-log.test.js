"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
const strict_1 = __importDefault(require("node:assert/strict"));
const better_sqlite3_1 = __importDefault(require("better-sqlite3"));
const cluster_1 = require("../helpers/cluster");
/** Reads the database file as another process sees it. */
function inFile(dbPath, read) {
    const db = new better_sqlite3_1.default(dbPath, { readonly: true });
    try {
        return read(db);
    }
    finally {
        db.close();
    }
}
const logEntries = (dbPath) => inFile(dbPath, (db) => db.prepare('SELECT count(*) FROM __patina_log').pluck().get());
// Sync finds what an origin wrote at given versions through the change log (src/crdt/clock-sql.ts),
// which replaced an index of the clock tables that moved an entry on every update.
describe('the change log that sync reads', function () {
    this.timeout(120_000);
    let c;
    afterEach(async () => {
        await c?.dispose();
    });
    it('stays about the size of the rows it names while the same rows are written again and again', async () => {
        c = await cluster_1.TestCluster.start(1, { schema: cluster_1.SCHEMA });
        const [a] = c.nodes;
        for (let round = 0; round < 200; round++) {
            const statements = Array.from({ length: 10 }, (_, k) => [
                `INSERT INTO kv (k, v, n) VALUES (?, 'round', ?) ON CONFLICT (k) DO UPDATE SET n = excluded.n`,
                [k, round],
            ]);
            await (0, cluster_1.exec)(a.http, statements);
        }
        // 200 transactions of 10 rows each wrote 2,000 entries; 10 rows' clocks name at most 10 x 2 of them
        // (the insert's version for v and the sentinel, the last update's for n).
        await (0, cluster_1.eventually)('the log compacted', 20_000, async () => {
            const n = logEntries(a.agent.dbPath);
            return n <= 20 || `${n} entries`;
        });
        // Compaction removed only what names nothing: a new agent still gets every row by sync.
        const b = await c.add();
        await (0, cluster_1.converged)([a, b], ['kv']);
        strict_1.default.deepEqual(await (0, cluster_1.rows)(b.http, 'SELECT k, v, n FROM kv ORDER BY k'), Array.from({ length: 10 }, (_, k) => [k, 'round', 199]));
    });
    it("opens an older agent's file, whose clock tables had the (site_id, db_version) index, and still sends all of it by sync", async () => {
        c = await cluster_1.TestCluster.start(1, { schema: cluster_1.SCHEMA });
        const [a] = c.nodes;
        for (let i = 1; i <= 20; i++)
            await (0, cluster_1.exec)(a.http, [[`INSERT INTO kv (k, v, n) VALUES (?, 'old file', ?)`, [i, i]]]);
        await (0, cluster_1.exec)(a.http, [
            ["INSERT INTO pairs (a, b, x) VALUES ('p', 1, 'old pair')"],
            ["UPDATE kv SET v = 'updated' WHERE k = 3"],
            ['DELETE FROM kv WHERE k = 4'],
        ]);
        await a.agent.stop();
        const file = new better_sqlite3_1.default(a.agent.dbPath);
        try {
            // The shape older agents left: no change log, an index on every clock table instead.
            file.exec('DROP TABLE __patina_log');
            for (const t of ['kv', 'pairs'])
                file.exec(`CREATE INDEX "__patina_clock_${t}_site_version" ON "__patina_clock_${t}" (site_id, db_version)`);
        }
        finally {
            file.close();
        }
        await a.start();
        const indexes = inFile(a.agent.dbPath, (db) => db.prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND name LIKE '%site_version'").pluck().all());
        strict_1.default.deepEqual(indexes, [], 'the old index is dropped');
        strict_1.default.ok(logEntries(a.agent.dbPath) >= 20, 'the log was made from the clocks');
        const b = await c.add();
        await (0, cluster_1.converged)([a, b], ['kv', 'pairs']);
        strict_1.default.equal((await (0, cluster_1.rows)(b.http, 'SELECT count(*) FROM kv'))[0][0], 19);
        strict_1.default.deepEqual(await (0, cluster_1.rows)(b.http, 'SELECT v FROM kv WHERE k = 3'), [['updated']]);
        strict_1.default.deepEqual(await (0, cluster_1.rows)(b.http, 'SELECT x FROM pairs'), [['old pair']]);
        // New writes on the migrated file go on to the peer as before.
        await (0, cluster_1.exec)(a.http, [["UPDATE kv SET v = 'after' WHERE k = 5"]]);
        await (0, cluster_1.converged)([a, b], ['kv', 'pairs']);
        strict_1.default.deepEqual(await (0, cluster_1.rows)(b.http, 'SELECT v FROM kv WHERE k = 5'), [['after']]);
    });
});
//# sourceMappingURL=change-log.test.js.map