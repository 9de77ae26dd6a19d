"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
const strict_1 = __importDefault(require("node:assert/strict"));
const better_sqlite3_1 = __importDefault(require("better-sqlite3"));
const introspect_1 = require("../../src/engine/schema/introspect");
const query_plan_1 = require("../../src/live/query-plan");
const store_1 = require("../../src/live/store");
// A restricted subscription's cost must follow the changed rows: the SQL it runs per batch must
// look rows up by the changed keys, never walk a range or an index of the result. SQLite's own
// query planner decides, so these tests ask it (EXPLAIN QUERY PLAN) on a real database whose
// indexes tempt it the other way. Like the agent's data file, it has no statistics (ANALYZE is
// refused by the agent).
const db = new better_sqlite3_1.default(':memory:');
db.exec(`
CREATE TABLE users (id INTEGER NOT NULL PRIMARY KEY, name TEXT, team INTEGER, score INTEGER);
CREATE INDEX users_team ON users (team);
CREATE INDEX users_score ON users (score);
CREATE INDEX users_name ON users (name);
CREATE TABLE teams (id INTEGER NOT NULL PRIMARY KEY, title TEXT);
CREATE INDEX teams_title ON teams (title);
CREATE TABLE tags (user_id INTEGER NOT NULL, tag TEXT NOT NULL, weight INTEGER, PRIMARY KEY (user_id, tag));
CREATE INDEX tags_weight ON tags (weight);
CREATE TABLE codes (code TEXT NOT NULL PRIMARY KEY, label TEXT);
CREATE INDEX codes_label ON codes (label);
CREATE TABLE pairs (a TEXT NOT NULL, b INTEGER NOT NULL, v INTEGER, PRIMARY KEY (a, b)) WITHOUT ROWID;
CREATE INDEX pairs_v ON pairs (v);
`);
const ins = db.prepare('INSERT INTO users VALUES (?, ?, ?, ?)');
const tag = db.prepare('INSERT INTO tags VALUES (?, ?, ?)');
db.transaction(() => {
    for (let i = 0; i < 5000; i++) {
        ins.run(i, `n${i}`, i % 3, i);
        tag.run(i, `t${i % 7}`, i % 2);
    }
    for (let i = 0; i < 50; i++)
        db.prepare('INSERT INTO teams VALUES (?, ?)').run(i, `team ${i % 2}`);
    for (let i = 0; i < 2000; i++)
        db.prepare('INSERT INTO codes VALUES (?, ?)').run(`c${i}`, `l${i % 2}`);
    for (let i = 0; i < 2000; i++)
        db.prepare('INSERT INTO pairs VALUES (?, ?, ?)').run(`p${i % 40}`, i, i % 2);
})();
const schema = (0, introspect_1.introspect)(db);
/** The query plan lines of occurrence `occ`'s restricted SQL for `n` keys. */
function restrictedPlan(sql, params, occ, n) {
    const plan = (0, query_plan_1.planQuery)(db, schema, sql, params);
    strict_1.default.equal(plan.mode, 'restricted', sql);
    const keys = {};
    for (let k = 0; k < n; k++)
        plan.occurrences[occ].pk.forEach((_c, j) => (keys[(0, query_plan_1.keyParam)(k, j)] = j === 0 && plan.occurrences[occ].pk.length > 1 ? `p${k}` : k));
    const args = params === undefined ? [keys] : Array.isArray(params) ? [...params, keys] : [{ ...params, ...keys }];
    return db.prepare(`EXPLAIN QUERY PLAN ${plan.restrictedSql(occ, n)}`).all(...args).map((r) => r.detail);
}
/** The outermost loop reads the restricted occurrence by its key, and nothing scans it. */
function assertKeyed(sql, params, occ, alias) {
    for (const n of [1, 4, 256]) {
        const lines = restrictedPlan(sql, params, occ, n);
        const first = lines.find((l) => /^(SEARCH|SCAN) /.test(l) && !/VALUES CLAUSE/.test(l));
        const text = `${sql} (occurrence ${occ}, ${n} keys):\n  ${lines.join('\n  ')}`;
        strict_1.default.match(first, new RegExp(`^SEARCH ${alias} USING (INTEGER PRIMARY KEY \\(rowid=\\?\\)|PRIMARY KEY \\(|INDEX sqlite_autoindex_)`), text);
        strict_1.default.ok(!lines.some((l) => new RegExp(`^SCAN ${alias}\\b`).test(l)), text);
    }
}
describe('restricted subscription SQL is driven by the changed keys (EXPLAIN QUERY PLAN)', () => {
    const single = [
        ['SELECT id, name FROM users WHERE id >= 10'],
        ['SELECT id, name FROM users WHERE score > ?', [5]],
        ['SELECT id FROM users WHERE score BETWEEN 1 AND 4000'],
        ['SELECT id FROM users WHERE team IN (0, 1)'],
        ['SELECT id FROM users WHERE team = 1 OR name = ?', ['n3']],
        ["SELECT id FROM users WHERE name LIKE 'n1%'"],
        ["SELECT id FROM users WHERE name >= 'a' AND name < 'z'"],
        ['SELECT id, name FROM users WHERE team = ?', [1]],
        ['SELECT id FROM users WHERE id % 1000 = ?', [7]],
        ['SELECT id FROM users WHERE score > :min AND team = :t', { min: 3, t: 2 }],
    ];
    for (const [sql, params] of single) {
        it(`single table: ${sql}`, () => assertKeyed(sql, params, 0, 'users'));
    }
    it('a text primary key (its own index) and a WITHOUT ROWID table', () => {
        assertKeyed("SELECT code FROM codes WHERE label = 'l1'", undefined, 0, 'codes');
        assertKeyed('SELECT a, b FROM pairs WHERE v = 1', undefined, 0, 'pairs');
        assertKeyed('SELECT a, b FROM pairs p WHERE p.v >= ?', [0], 0, 'p');
    });
    it('joins: each occurrence, when it is the changed one, is read by its keys first', () => {
        const join = 'SELECT u.name, t.title FROM users u JOIN teams t ON t.id = u.team WHERE u.score > ?';
        assertKeyed(join, [10], 0, 'u');
        assertKeyed(join, [10], 1, 't');
        const comma = "SELECT u.name, t.title FROM users u, teams t WHERE t.id = u.team AND t.title >= 'team'";
        assertKeyed(comma, undefined, 0, 'u');
        assertKeyed(comma, undefined, 1, 't');
        const composite = 'SELECT g.tag, u.name FROM tags g JOIN users u ON u.id = g.user_id WHERE g.weight = 1';
        assertKeyed(composite, undefined, 0, 'g');
        assertKeyed(composite, undefined, 1, 'u');
    });
    it('the other side of a join is looked up through its index, not scanned', () => {
        const lines = restrictedPlan('SELECT u.name, t.title FROM users u JOIN teams t ON t.id = u.team', undefined, 1, 4);
        strict_1.default.ok(lines.some((l) => /^SEARCH u USING INDEX users_team \(team=\?\)/.test(l)), lines.join('\n'));
    });
    it('leaves an index choice the query makes itself alone', () => {
        const lines = restrictedPlan('SELECT id FROM users INDEXED BY users_score WHERE score > 3', undefined, 0, 4);
        strict_1.default.ok(lines.some((l) => /USING (COVERING )?INDEX users_score/.test(l)), lines.join('\n'));
    });
    it("the store's lookups by source key use their index, never the subscription's whole result", () => {
        const store = new store_1.SubscriptionStore(':memory:');
        try {
            strict_1.default.deepEqual(store.explain('rowsByKey', 1, 'k'), [
                'SEARCH rows USING INDEX rows_by_source (key=? AND sub=?)',
            ]);
            strict_1.default.deepEqual(store.explain('refs', 1, 0, 'k'), [
                'SEARCH refs USING PRIMARY KEY (sub=? AND occ=? AND part=?)',
            ]);
            strict_1.default.deepEqual(store.explain('row', 1, 2), ['SEARCH rows USING PRIMARY KEY (sub=? AND row_id=?)']);
        }
        finally {
            store.close();
        }
    });
});
/** The plan lines of occurrence `occ`'s shared statement (same-SQL subscriptions) for `n` pairs. */
function sharedPlanLines(sql, params, occ, n) {
    const plan = (0, query_plan_1.planQuery)(db, schema, sql, params);
    strict_1.default.equal(plan.mode, 'restricted', sql);
    strict_1.default.ok(plan.shared, `${sql} is evaluated together with its other parameters`);
    const o = plan.occurrences[occ];
    const args = [];
    for (let k = 0; k < n; k++)
        args.push(k % 3, ...o.pk.map((_c, j) => (j === 0 && o.pk.length > 1 ? `p${k}` : k)), ...plan.shared.values(params));
    return db.prepare(`EXPLAIN QUERY PLAN ${plan.shared.sql(occ, n)}`).all(...args).map((r) => r.detail);
}
/** The pairs are the outer loop, each reads the changed occurrence by its key, and nothing scans it. */
function assertSharedKeyed(sql, params, occ, alias) {
    for (const n of [1, 4, 256]) {
        const lines = sharedPlanLines(sql, params, occ, n);
        const loops = lines.filter((l) => /^(SEARCH|SCAN) /.test(l) && !/CONSTANT ROWS?$/.test(l));
        const text = `${sql} (occurrence ${occ}, ${n} pairs):\n  ${lines.join('\n  ')}`;
        strict_1.default.equal(loops[0], 'SCAN __patina_p', text);
        strict_1.default.match(loops[1], new RegExp(`^SEARCH ${alias} USING (INTEGER PRIMARY KEY \\(rowid=\\?\\)|PRIMARY KEY \\(|INDEX sqlite_autoindex_)`), text);
        strict_1.default.ok(!lines.some((l) => new RegExp(`^SCAN ${alias}\\b`).test(l)), text);
    }
}
describe('shared statements of same-SQL subscriptions are driven by the (subscription, changed key) pairs', () => {
    const single = [
        ['SELECT id, name FROM users WHERE team = ?', [1]],
        ['SELECT * FROM users WHERE team = ?', [1]],
        ['SELECT id FROM users WHERE id % 1000 = ?', [7]],
        ['SELECT id, name FROM users WHERE score > ?', [5]],
        ['SELECT id FROM users WHERE score BETWEEN ? AND ?', [1, 4000]],
        ['SELECT id FROM users WHERE team IN (?, ?) OR name LIKE ?', [0, 1, 'n1%']],
        ['SELECT id, ? || name FROM users WHERE name >= ? ORDER BY score', ['x', 'a']],
        ['SELECT id FROM users WHERE score > :min AND team = :t', { min: 3, t: 2 }],
    ];
    for (const [sql, params] of single) {
        it(`single table: ${sql}`, () => assertSharedKeyed(sql, params, 0, 'users'));
    }
    it('a text primary key, a WITHOUT ROWID table, joins (each occurrence) and composite keys', () => {
        assertSharedKeyed('SELECT code FROM codes WHERE label = ?', ['l1'], 0, 'codes');
        assertSharedKeyed('SELECT a, b FROM pairs p WHERE p.v >= ?', [0], 0, 'p');
        const join = 'SELECT u.name, t.title FROM users u JOIN teams t ON t.id = u.team WHERE u.score > ?';
        assertSharedKeyed(join, [10], 0, 'u');
        assertSharedKeyed(join, [10], 1, 't');
        const star = 'SELECT * FROM users u, teams t WHERE t.id = u.team AND t.title = ?';
        assertSharedKeyed(star, ['team 1'], 0, 'u');
        assertSharedKeyed(star, ['team 1'], 1, 't');
        const composite = 'SELECT g.tag, u.name FROM tags g JOIN users u ON u.id = g.user_id WHERE g.weight = ?';
        assertSharedKeyed(composite, [1], 0, 'g');
        assertSharedKeyed(composite, [1], 1, 'u');
    });
    it('evaluates one by one what a shared statement could not evaluate the same way', () => {
        const one = (sql, params) => (0, query_plan_1.planQuery)(db, schema, sql, params).shared;
        strict_1.default.equal(one('SELECT id FROM users WHERE name = ? COLLATE NOCASE', ['a']), null, 'COLLATE');
        strict_1.default.equal(one('SELECT id FROM users WHERE team = ?1', { 1: 2 }), null, '?NNN');
        strict_1.default.equal(one('SELECT * FROM tags JOIN users ON users.id = tags.user_id JOIN teams USING (id) WHERE weight = ?', [1]), null, 'bare * with USING');
        strict_1.default.equal(one('SELECT id FROM users WHERE team = 1'), null, 'no parameters');
        strict_1.default.ok(one('SELECT users.* FROM tags JOIN users ON users.id = tags.user_id JOIN teams USING (id) WHERE weight = ?', [1]), 'USING without a bare *');
    });
    it("the store's lookups for many keys (any subscription) and (subscription, key) pairs use their indexes", () => {
        const store = new store_1.SubscriptionStore(':memory:');
        try {
            for (const n of [1, 16]) {
                const rows = store
                    .explainListed('rows', n)
                    .filter((l) => /^(SEARCH|SCAN) /.test(l) && !/CONSTANT ROWS?$/.test(l));
                strict_1.default.deepEqual(rows, ['SCAN v', 'SEARCH r USING INDEX rows_by_source (key=?)']);
                const refs = store
                    .explainListed('refs', n)
                    .filter((l) => /^(SEARCH|SCAN) /.test(l) && !/CONSTANT ROWS?$/.test(l));
                strict_1.default.deepEqual(refs, [
                    'SCAN v',
                    'SEARCH f USING PRIMARY KEY (sub=? AND occ=? AND part=?)',
                    'SEARCH r USING PRIMARY KEY (sub=? AND row_id=?)',
                ]);
            }
        }
        finally {
            store.close();
        }
    });
    it('subscriptions of one SQL text share its plan; their parameters, and what those pin, stay their own', () => {
        const sql = 'SELECT id, name FROM users WHERE team = ? AND score > 0';
        const a = (0, query_plan_1.planQuery)(db, schema, sql, [1]);
        const b = (0, query_plan_1.planQuery)(db, schema, sql, [2]);
        strict_1.default.equal(a.fullSql, b.fullSql);
        strict_1.default.equal(a.restrictedSql, b.restrictedSql, 'the same statement builder, not a copy');
        strict_1.default.equal(a.shared, b.shared);
        strict_1.default.deepEqual([a.params, b.params], [[1], [2]]);
        strict_1.default.deepEqual([a, b].map((p) => p.equalities.map((e) => e.values)), [[[1]], [[2]]]);
        strict_1.default.deepEqual((0, query_plan_1.planQuery)(db, schema, sql, ['1']).equalities, [], 'a text the column converts pins nothing');
        strict_1.default.throws(() => (0, query_plan_1.planQuery)(db, schema, sql, [1, 2]), /the parameters do not bind/);
        const named = (0, query_plan_1.planQuery)(db, schema, 'SELECT id, name FROM users WHERE team = :t AND score > 0', { t: 3 });
        strict_1.default.deepEqual(named.params, { t: 3 });
        // a schema reloaded is a new Schema: its plans are made again
        const other = (0, query_plan_1.planQuery)(db, (0, introspect_1.introspect)(db), sql, [1]);
        strict_1.default.notEqual(other.restrictedSql, a.restrictedSql);
        strict_1.default.equal(other.fullSql, a.fullSql);
    });
});
//# sourceMappingURL=query-plan.test.js.map