"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
const strict_1 = __importDefault(require("node:assert/strict"));
const node_fs_1 = __importDefault(require("node:fs"));
const node_os_1 = __importDefault(require("node:os"));
const node_path_1 = __importDefault(require("node:path"));
const change_feed_1 = require("../../src/bus/change-feed");
const capture_1 = require("../../src/crdt/capture");
const merge_1 = require("../../src/crdt/merge");
const pk_1 = require("../../src/crdt/pk");
const engine_1 = require("../../src/engine/engine");
const bookkeeping_1 = require("../../src/cluster/bookkeeping");
describe('merge order of values', () => {
    it('puts INTEGER > REAL > TEXT > BLOB > NULL, then orders by value', () => {
        const order = [null, Buffer.from([1]), Buffer.from([2]), 'a', 'b', 'é', -1.5, 2.5, -5n, 3n, 9223372036854775807n];
        for (let i = 0; i < order.length; i++) {
            for (let j = 0; j < order.length; j++)
                strict_1.default.equal((0, merge_1.compareValues)(order[i], order[j]), Math.sign(i - j), `${String(order[i])} vs ${String(order[j])}`);
        }
        strict_1.default.equal((0, merge_1.compareValues)(1n, 100.5), 1, 'an INTEGER beats any REAL');
    });
});
describe('version bookkeeping', () => {
    it('adds versions, opening and closing gaps', () => {
        let o = (0, bookkeeping_1.markRange)({ head: 0, gaps: [] }, 1, 3);
        strict_1.default.deepEqual(o, { head: 3, gaps: [] });
        o = (0, bookkeeping_1.markRange)(o, 7, 7);
        strict_1.default.deepEqual(o, { head: 7, gaps: [[4, 6]] });
        o = (0, bookkeeping_1.markRange)(o, 5, 5);
        strict_1.default.deepEqual(o, {
            head: 7,
            gaps: [
                [4, 4],
                [6, 6],
            ],
        });
        o = (0, bookkeeping_1.markRange)(o, 4, 6);
        strict_1.default.deepEqual(o, { head: 7, gaps: [] });
    });
    it('finds what one side has and the other lacks', () => {
        strict_1.default.deepEqual((0, bookkeeping_1.missingRanges)({ head: 10, gaps: [[3, 4]] }, { head: 5, gaps: [[1, 2]] }), [
            [1, 2],
            [6, 10],
        ]);
        strict_1.default.deepEqual((0, bookkeeping_1.missingRanges)({ head: 10, gaps: [] }, { head: 10, gaps: [] }), []);
        strict_1.default.deepEqual((0, bookkeeping_1.missingRanges)({ head: 100, gaps: [] }, { head: 0, gaps: [] }, 30), [[1, 30]]);
    });
});
describe('ChangeMerger', function () {
    this.timeout(20_000);
    let dir;
    let engine;
    let merger;
    let book;
    const feed = new change_feed_1.InProcessChangeFeed();
    const seen = [];
    const other = 'ff'.repeat(16);
    before(async () => {
        dir = node_fs_1.default.mkdtempSync(node_path_1.default.join(node_os_1.default.tmpdir(), 'patina-merge-'));
        node_fs_1.default.writeFileSync(node_path_1.default.join(dir, 'schema.sql'), 'CREATE TABLE kv (k INTEGER NOT NULL PRIMARY KEY, v TEXT, n INTEGER);');
        engine = await engine_1.Engine.open({
            path: node_path_1.default.join(dir, 'db'),
            schemaPaths: [node_path_1.default.join(dir, 'schema.sql')],
            readWorkers: { min: 0, max: 1 },
        });
        const capture = capture_1.ChangeCapture.install(engine, feed);
        merger = new merge_1.ChangeMerger(engine, capture, feed);
        const lease = await engine.lease();
        book = bookkeeping_1.VersionBook.open(lease.db, capture.actor, () => capture.version);
        lease.release();
        feed.observe((cs) => seen.push(cs));
    });
    after(async () => {
        await engine.close();
        node_fs_1.default.rmSync(dir, { recursive: true, force: true });
    });
    const row = (k, cl, cols) => ({
        table: 'kv',
        pk: (0, pk_1.encodePk)([BigInt(k)]),
        cl,
        sentinelSeq: 0,
        cols: cols.map(([cid, val, colVersion], i) => ({ cid, val: val, colVersion, seq: i + 1 })),
    });
    const merge = (cs) => merger.merge(cs, [], () => book.begin());
    const table = () => engine.writer.db.prepare('SELECT k, v, n FROM kv ORDER BY k').raw().all();
    it('applies a remote changeset, records it, publishes it as remote, and leaves capture quiet', async () => {
        const r = await merge([
            {
                actor: other,
                version: 1,
                rows: [
                    row(1, 1, [
                        ['v', 'one', 1],
                        ['n', 10n, 1],
                    ]),
                ],
            },
        ]);
        strict_1.default.equal(r.applied, 1);
        strict_1.default.deepEqual(table(), [[1n, 'one', 10n]]);
        strict_1.default.equal(book.has(other, 1), true);
        strict_1.default.equal(seen.at(-1)?.origin, 'remote');
        strict_1.default.deepEqual(seen.at(-1)?.changes, [
            { table: 'kv', pk: [1], kind: 'insert', values: { k: 1, v: 'one', n: 10 } },
        ]);
        const clocks = engine.writer.db
            .prepare('SELECT cid, hex(site_id) AS s, db_version FROM __patina_clock_kv ORDER BY cid')
            .all();
        strict_1.default.ok(clocks.every((c) => c.s.toLowerCase() === other && c.db_version === 1n), JSON.stringify(clocks, (_k, v) => (typeof v === 'bigint' ? String(v) : v)));
    });
    it('changes nothing when the same changeset comes twice', async () => {
        const before = seen.length;
        const r = await merge([{ actor: other, version: 1, rows: [row(1, 1, [['v', 'changed?', 1]])] }]);
        strict_1.default.equal(r.duplicate, 1);
        strict_1.default.deepEqual(table(), [[1n, 'one', 10n]]);
        strict_1.default.equal(seen.length, before);
    });
    it('keeps the higher col_version, and at equal versions the greater value', async () => {
        await merge([{ actor: other, version: 2, rows: [row(1, 1, [['v', 'aaa', 1]])] }]);
        strict_1.default.deepEqual(table(), [[1n, 'one', 10n]], "'aaa' < 'one' at equal col_version: the local value stays");
        await merge([{ actor: other, version: 3, rows: [row(1, 1, [['v', 'zzz', 1]])] }]);
        strict_1.default.deepEqual(table(), [[1n, 'zzz', 10n]]);
        await merge([{ actor: other, version: 4, rows: [row(1, 1, [['n', 1n, 2]])] }]);
        strict_1.default.deepEqual(table(), [[1n, 'zzz', 1n]]);
    });
    it('deletes on a higher even causal length and ignores older lives', async () => {
        await merge([{ actor: other, version: 5, rows: [{ ...row(1, 2, []), sentinelSeq: 0 }] }]);
        strict_1.default.deepEqual(table(), []);
        await merge([{ actor: other, version: 6, rows: [row(1, 1, [['v', 'late update', 9]])] }]);
        strict_1.default.deepEqual(table(), [], 'an update of the previous life does not bring the row back');
        strict_1.default.equal(seen.at(-1)?.changes[0]?.kind, 'delete');
    });
    it('defers a changeset naming an unknown column: nothing applied, nothing recorded', async () => {
        const r = await merge([
            {
                actor: other,
                version: 8,
                rows: [
                    row(2, 1, [
                        ['v', 'x', 1],
                        ['nope', 'y', 1],
                    ]),
                ],
            },
        ]);
        strict_1.default.equal(r.deferred.length, 1);
        strict_1.default.match(r.deferred[0].reason, /unknown column "nope"/);
        strict_1.default.deepEqual(table(), []);
        strict_1.default.equal(book.has(other, 8), false);
        strict_1.default.equal(book.get(other).head, 6);
    });
    it('does not move local db_version when merging', async () => {
        const r = await engine.transaction([{ sql: 'INSERT INTO kv (k, v) VALUES (3, ?)', params: ['local'] }]);
        strict_1.default.equal(r.change?.version, 1);
    });
});
//# sourceMappingURL=merge-order.test.js.map