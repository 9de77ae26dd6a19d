"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// What the agreed CRDT model (DESIGN.md: a clock row per changed column, found by sync through its
// origin and version) costs a one-row write on SQLite itself, whoever writes the code: plain
// better-sqlite3 in this process, no agent, no triggers, no changeset. Each shape runs the same
// one-row `UPDATE pgbench_accounts SET abalance = abalance + 1 WHERE aid = ?` on 100,000 rows in
// WAL with synchronous = NORMAL and a 64 MiB page cache, in groups of 1, 4 and 16 writes per commit
// (group commit), and prints the CPU per write against the bare UPDATE of the same group size:
//   - bare: the UPDATE alone (what the writes bench's "capture off" anchor pays at its core);
//   - clock + (site_id, db_version) index: the UPDATE, the upsert of the column's clock row with the
//     write's own version, and the last version kept with the data (Patina's storage today);
//   - clock, no index: the same without the index sync reads (the b-tree write of the clock alone);
//   - clock + append-only log: no index, a rowid log of (db_version, pk, cid) appended instead.
// The ratio against bare is the least that capture off / on can be with that storage. Then the same
// for pgbench's TPC-B-like transaction (three one-row UPDATEs, a SELECT, an INSERT into
// pgbench_history), four per commit: bare, and with its ten clock rows (one per updated column, and
// the inserted row's six columns and sentinel) under the (site_id, db_version) index; its CPU per
// transaction is comparable with PostgreSQL's server CPU per TPC-B-like transaction that the writes
// bench prints.
// `CLOCK_BENCH_WRITES` (default 20,000) writes per run, 3 runs after one warm-up run; medians.
const node_fs_1 = __importDefault(require("node:fs"));
const node_os_1 = __importDefault(require("node:os"));
const node_path_1 = __importDefault(require("node:path"));
const better_sqlite3_1 = __importDefault(require("better-sqlite3"));
const util_1 = require("./util");
const WRITES = Number(process.env.CLOCK_BENCH_WRITES ?? 20000);
const ACCOUNTS = 100_000;
const SHAPES = ['bare', 'clock + (site_id, db_version) index', 'clock, no index', 'clock + append-only log'];
/** CPU µs of this process per operation of `run` (`ops` of them): the median of 3 runs after a warm-up run. */
function cpuPerOperation(run, ops) {
    run();
    const per = [];
    for (let r = 0; r < 3; r++) {
        const c0 = process.cpuUsage();
        run();
        const c = process.cpuUsage(c0);
        per.push((c.user + c.system) / ops);
    }
    return (0, util_1.median)(per);
}
/** CPU µs per write (medians of 3 runs) of one storage shape in groups of `group` writes per commit. */
function measure(dir, shape, group) {
    const file = node_path_1.default.join(dir, `${SHAPES.indexOf(shape)}-${group}.db`);
    const db = new better_sqlite3_1.default(file);
    try {
        db.pragma('journal_mode = WAL');
        db.pragma('synchronous = NORMAL');
        db.pragma('cache_size = -65536');
        db.exec(`
      CREATE TABLE pgbench_accounts (aid INTEGER NOT NULL PRIMARY KEY, bid INTEGER, abalance INTEGER, filler TEXT);
      WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < ${ACCOUNTS}) INSERT INTO pgbench_accounts SELECT x, 1, 0, '' FROM n;
      CREATE TABLE clock (pk BLOB NOT NULL, cid TEXT NOT NULL, col_version INTEGER NOT NULL, db_version INTEGER NOT NULL,
        site_id BLOB NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY (pk, cid)) WITHOUT ROWID;
      INSERT INTO clock SELECT unhex('0101' || printf('%016x', aid)), c.cid, 1, 1, zeroblob(16), c.seq
        FROM pgbench_accounts, (SELECT '-1' AS cid, 0 AS seq UNION ALL SELECT 'bid', 1 UNION ALL SELECT 'abalance', 2 UNION ALL SELECT 'filler', 3) AS c;
      CREATE TABLE meta (key TEXT NOT NULL PRIMARY KEY, value);
      INSERT INTO meta VALUES ('db_version', 1);
      CREATE TABLE log (db_version INTEGER NOT NULL, pk BLOB NOT NULL, cid TEXT NOT NULL);`);
        if (shape === 'clock + (site_id, db_version) index')
            db.exec('CREATE INDEX clock_site_version ON clock (site_id, db_version)');
        db.pragma('wal_checkpoint(TRUNCATE)');
        const update = db.prepare('UPDATE pgbench_accounts SET abalance = abalance + 1 WHERE aid = ?');
        const clock = db.prepare(`INSERT INTO clock (pk, cid, col_version, db_version, site_id, seq) VALUES (?, 'abalance', 1, ?, ?, 0)
       ON CONFLICT (pk, cid) DO UPDATE SET col_version = col_version + 1, db_version = excluded.db_version, site_id = excluded.site_id, seq = 0`);
        const log = db.prepare('INSERT INTO log (db_version, pk, cid) VALUES (?, ?, ?)');
        const setVersion = db.prepare("UPDATE meta SET value = ? WHERE key = 'db_version'");
        const begin = db.prepare('BEGIN IMMEDIATE');
        const commit = db.prepare('COMMIT');
        const site = Buffer.alloc(16, 7);
        let version = 1;
        const run = () => {
            for (let i = 0; i < WRITES; i += group) {
                begin.run();
                for (let j = 0; j < group; j++) {
                    const aid = 1 + Math.floor(Math.random() * ACCOUNTS);
                    update.run(aid);
                    if (shape === 'bare')
                        continue;
                    const pk = Buffer.allocUnsafe(10); // pk.ts's encoding: column count, type tag, the integer
                    pk[0] = 1;
                    pk[1] = 1;
                    pk.writeBigInt64BE(BigInt(aid), 2);
                    clock.run(pk, ++version, site);
                    if (shape === 'clock + append-only log')
                        log.run(version, pk, 'abalance');
                }
                if (shape !== 'bare')
                    setVersion.run(version);
                commit.run();
                // The agent checkpoints on a thread of its own; here, inline and counted, every ~1000 writes.
                if (i % 1000 < group)
                    db.pragma('wal_checkpoint(PASSIVE)');
            }
        };
        return cpuPerOperation(run, WRITES);
    }
    finally {
        db.close();
        for (const s of ['', '-wal', '-shm'])
            node_fs_1.default.rmSync(file + s, { force: true });
    }
}
/** CPU µs per TPC-B-like transaction (medians of 3 runs), four per commit, bare or with its clock rows. */
function measureTpcb(dir, clocked) {
    const file = node_path_1.default.join(dir, `tpcb-${clocked}.db`);
    const db = new better_sqlite3_1.default(file);
    try {
        db.pragma('journal_mode = WAL');
        db.pragma('synchronous = NORMAL');
        db.pragma('cache_size = -65536');
        const tables = [
            ['pgbench_accounts', 'aid', ACCOUNTS],
            ['pgbench_tellers', 'tid', 10],
            ['pgbench_branches', 'bid', 1],
        ];
        for (const [t, k, n] of tables) {
            db.exec(`CREATE TABLE ${t} (${k} INTEGER NOT NULL PRIMARY KEY, ref INTEGER, balance INTEGER, filler TEXT);
        WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < ${n}) INSERT INTO ${t} SELECT x, 1, 0, '' FROM n;`);
        }
        db.exec(`CREATE TABLE pgbench_history (hid INTEGER NOT NULL PRIMARY KEY, tid INTEGER, bid INTEGER, aid INTEGER, delta INTEGER, mtime TIMESTAMP, filler TEXT);
      CREATE TABLE clock (tbl TEXT NOT NULL, pk BLOB NOT NULL, cid TEXT NOT NULL, col_version INTEGER NOT NULL, db_version INTEGER NOT NULL,
        site_id BLOB NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY (tbl, pk, cid)) WITHOUT ROWID;
      INSERT INTO clock SELECT 'pgbench_accounts', unhex('0101' || printf('%016x', aid)), c.cid, 1, 1, zeroblob(16), c.seq
        FROM pgbench_accounts, (SELECT '-1' AS cid, 0 AS seq UNION ALL SELECT 'ref', 1 UNION ALL SELECT 'balance', 2 UNION ALL SELECT 'filler', 3) AS c;
      CREATE INDEX clock_site_version ON clock (site_id, db_version);
      CREATE TABLE meta (key TEXT NOT NULL PRIMARY KEY, value);
      INSERT INTO meta VALUES ('db_version', 1);`);
        db.pragma('wal_checkpoint(TRUNCATE)');
        const [updA, updT, updB] = tables.map(([t, k]) => db.prepare(`UPDATE ${t} SET balance = balance + ? WHERE ${k} = ?`));
        const select = db.prepare('SELECT balance FROM pgbench_accounts WHERE aid = ?').pluck();
        const insert = db.prepare('INSERT INTO pgbench_history (hid, tid, bid, aid, delta, mtime, filler) VALUES (?, ?, ?, ?, ?, CURRENT_TIMESTAMP, NULL)');
        const clock = db.prepare(`INSERT INTO clock (tbl, pk, cid, col_version, db_version, site_id, seq) VALUES (?, ?, ?, 1, ?, ?, ?)
       ON CONFLICT (tbl, pk, cid) DO UPDATE SET col_version = col_version + 1, db_version = excluded.db_version, site_id = excluded.site_id, seq = excluded.seq`);
        const setVersion = db.prepare("UPDATE meta SET value = ? WHERE key = 'db_version'");
        const begin = db.prepare('BEGIN IMMEDIATE');
        const commit = db.prepare('COMMIT');
        const site = Buffer.alloc(16, 7);
        const key = (n) => {
            const pk = Buffer.allocUnsafe(10);
            pk[0] = 1;
            pk[1] = 1;
            pk.writeBigInt64BE(BigInt(n), 2);
            return pk;
        };
        let version = 1;
        let hid = 0;
        const txns = WRITES / 4;
        const run = () => {
            for (let i = 0; i < txns; i += 4) {
                begin.run();
                for (let j = 0; j < 4; j++) {
                    const aid = 1 + Math.floor(Math.random() * ACCOUNTS);
                    const tid = 1 + Math.floor(Math.random() * 10);
                    const delta = Math.floor(Math.random() * 10001) - 5000;
                    updA.run(delta, aid);
                    select.get(aid);
                    updT.run(delta, tid);
                    updB.run(delta, 1);
                    insert.run(++hid, tid, 1, aid, delta);
                    if (!clocked)
                        continue;
                    version++;
                    let seq = 0;
                    clock.run('pgbench_accounts', key(aid), 'balance', version, site, seq++);
                    clock.run('pgbench_tellers', key(tid), 'balance', version, site, seq++);
                    clock.run('pgbench_branches', key(1), 'balance', version, site, seq++);
                    const h = key(hid);
                    for (const c of ['-1', 'tid', 'bid', 'aid', 'delta', 'mtime', 'filler'])
                        clock.run('pgbench_history', h, c, version, site, seq++);
                }
                if (clocked)
                    setVersion.run(version);
                commit.run();
                if (i % 400 < 4)
                    db.pragma('wal_checkpoint(PASSIVE)');
            }
        };
        return cpuPerOperation(run, txns);
    }
    finally {
        db.close();
        for (const s of ['', '-wal', '-shm'])
            node_fs_1.default.rmSync(file + s, { force: true });
    }
}
function main() {
    const dir = node_fs_1.default.mkdtempSync(node_path_1.default.join(node_os_1.default.tmpdir(), 'patina-clock-bench-'));
    try {
        process.stdout.write(`clock storage: one-row UPDATE on ${ACCOUNTS} rows, plain SQLite in this process, ${WRITES} writes x 3 runs, CPU per write (medians)\n`);
        for (const group of [1, 4, 16]) {
            const bare = measure(dir, 'bare', group);
            for (const shape of SHAPES.slice(1))
                (0, util_1.report)(`  ${group} write(s) per commit, ${shape}`, measure(dir, shape, group), 'µs', 'bare', bare);
        }
        (0, util_1.report)('  TPC-B-like transaction, 4 per commit, with its 10 clock rows', measureTpcb(dir, true), 'µs', 'bare', measureTpcb(dir, false));
    }
    finally {
        node_fs_1.default.rmSync(dir, { recursive: true, force: true });
    }
}
main();
//# sourceMappingURL=clock-storage.bench.js.map