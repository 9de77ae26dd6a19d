"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
const strict_1 = __importDefault(require("node:assert/strict"));
const better_sqlite3_1 = __importDefault(require("better-sqlite3"));
const introspect_1 = require("../../src/engine/schema/introspect");
const query_plan_1 = require("../../src/live/query-plan");
const wake_index_1 = require("../../src/live/wake-index");
const subscriptions_1 = require("../helpers/subscriptions");
const db = new better_sqlite3_1.default(':memory:');
db.exec(subscriptions_1.LIVE_SCHEMA + 'CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT COLLATE NOCASE, kind);');
const schema = (0, introspect_1.introspect)(db);
const plan = (sql, params) => (0, query_plan_1.planQuery)(db, schema, sql, params);
const pins = (sql, params) => plan(sql, params).equalities.map((e) => [e.occ, e.column, e.value]);
/** A stand-in with what the index reads of a subscription. */
function sub(sql, params) {
    const p = plan(sql, params);
    return {
        plan: p,
        identityParts: (key) => (p.occurrences.length === 1 ? [key] : JSON.parse(key)),
    };
}
const change = (table, pk, values) => ({ table, pk, kind: values ? 'update' : 'delete', values });
describe('which subscriptions a change wakes', () => {
    it('finds `col = value` conjuncts of WHERE whose comparison is a plain equality', () => {
        strict_1.default.deepEqual(pins('SELECT id FROM users WHERE team = ?', [3]), [[0, 'team', 3]]);
        strict_1.default.deepEqual(pins('SELECT id FROM users WHERE score > ? AND team = ?', [1, 4]), [[0, 'team', 4]]);
        strict_1.default.deepEqual(pins('SELECT id FROM users u WHERE 7 = u.team AND name = :n', { n: 'ann' }), [[0, 'team', 7]]);
        strict_1.default.deepEqual(pins("SELECT * FROM tags WHERE tag = 'a'"), [[0, 'tag', 'a']]);
        strict_1.default.deepEqual(pins('SELECT u.id FROM users u JOIN teams t ON t.id = u.team WHERE t.id = ? AND u.score = 2', [5]), [
            [1, 'id', 5],
            [0, 'score', 2],
        ]);
    });
    it('leaves out what SQLite would not compare as stored values are', () => {
        strict_1.default.deepEqual(pins('SELECT id FROM users WHERE team = ?', ['3']), [], 'text against an INTEGER column is converted');
        strict_1.default.deepEqual(pins('SELECT id FROM users WHERE name = 3'), [], 'a number against a TEXT column is converted');
        strict_1.default.deepEqual(pins("SELECT id FROM notes WHERE body = 'x'"), [], 'NOCASE collation');
        strict_1.default.deepEqual(pins('SELECT id FROM users WHERE team = 1 OR score = 2'), []);
        strict_1.default.deepEqual(pins('SELECT id FROM users WHERE score BETWEEN 1 AND 5 AND team = 2'), []);
        strict_1.default.deepEqual(pins('SELECT count(*) FROM users WHERE team = 2'), [], 'only restricted plans');
        strict_1.default.deepEqual(pins("SELECT id FROM notes WHERE kind = '2'"), [[0, 'kind', '2']], 'no affinity: compared as stored');
    });
    it('finds `expression of the row = value`: operators and deterministic functions of one occurrence', () => {
        const exprs = (sql, params) => plan(sql, params ?? (sql.includes('?') ? [2] : undefined)).equalities.map((e) => [
            e.occ,
            e.expr ?? null,
            e.columns ?? null,
            e.value,
        ]);
        strict_1.default.deepEqual(exprs('SELECT id FROM users WHERE id % 1000 = ?', [7]), [[0, '@c1 % 1000', ['id'], 7]]);
        strict_1.default.deepEqual(exprs('SELECT id FROM users WHERE lower(name) = ?', ['ann']), [
            [0, 'lower( @c1 )', ['name'], 'ann'],
        ]);
        strict_1.default.deepEqual(exprs("SELECT u.id FROM users u WHERE u.name || '/' || u.team = ?", ['a/1']), [
            [0, "@c1 || '/' || @c2", ['name', 'team'], 'a/1'],
        ]);
        strict_1.default.deepEqual(exprs('SELECT id FROM users WHERE team + 0 = 2'), [[0, '@c1 + 0', ['team'], 2]]);
        for (const sql of [
            'SELECT id FROM users WHERE random() % 2 = 1', // not deterministic
            'SELECT id FROM users WHERE (team) = ?', // still the column, with its affinity
            'SELECT id FROM users WHERE id % ? = 1', // a parameter inside
            'SELECT id FROM users WHERE (team = 1) = 1', // a comparison inside
            'SELECT u.id FROM users u JOIN teams t ON t.id = u.team WHERE u.team + t.id = 3', // two occurrences
            "SELECT id FROM notes WHERE body || '' = 'x'", // a column with a collation
            'SELECT id FROM users WHERE id % 1000 = NULL',
        ])
            strict_1.default.deepEqual(exprs(sql), [], sql);
    });
    it('wakes an expression subscription only for rows whose expression gives its value, whatever their number', () => {
        const index = new wake_index_1.WakeIndex();
        const subs = Array.from({ length: 1000 }, (_, k) => sub('SELECT id FROM users WHERE id % 1000 = ?', [k]));
        for (const s of subs)
            index.add(s, () => []);
        const lower = sub('SELECT id FROM users WHERE lower(name) = ?', ['ann']);
        index.add(lower, () => ['i5']);
        const woken = (changes) => [...index.wake(changes).keys()];
        strict_1.default.deepEqual(woken([change('users', [2017], { id: 2017, name: 'Bob', team: 1, score: 0 })]), [subs[17]]);
        strict_1.default.deepEqual(woken([change('users', [3], { id: 3, name: 'ANN', team: 1, score: 0 })]), [subs[3], lower]);
        strict_1.default.deepEqual(woken([change('users', [5], { id: 5, name: 'bob', team: 1, score: 0 })]), [subs[5], lower], 'the result holds the row: its old value matched');
        strict_1.default.deepEqual(woken([change('users', [6], { id: 6, name: null, team: 1, score: 0 })]), [subs[6]], 'NULL');
        strict_1.default.deepEqual(woken([change('users', [9007199254740993n], { id: 9007199254740993n, name: 'x' })]), [subs[993]]);
        // a column without affinity: 1 may have been INTEGER 1 or REAL 1.0 ('1' and '1.0' here), so such a row wakes them all
        const kind = sub("SELECT id FROM notes WHERE kind || '' = ?", ['1']);
        index.add(kind, () => []);
        strict_1.default.deepEqual(woken([change('notes', [1], { id: 1, body: 'b', kind: 1 })]), [kind]);
        strict_1.default.deepEqual(woken([change('notes', [1], { id: 1, body: 'b', kind: 'x' })]), []);
        strict_1.default.deepEqual(woken([change('notes', [1], { id: 1, body: 'b', kind: '1' })]), [kind]);
        index.remove(kind);
        for (const s of subs)
            index.remove(s);
        index.remove(lower);
        strict_1.default.equal(index.reads('users'), false);
    });
    it('finds `col IN (values)` and `expression IN (values)` conjuncts, each value as `=` would take it', () => {
        const lists = (sql, params) => plan(sql, params).equalities.map((e) => [e.occ, e.column, e.values]);
        strict_1.default.deepEqual(lists('SELECT id FROM users WHERE team IN (?, ?, 5)', [1, 2]), [[0, 'team', [1, 2, 5]]]);
        strict_1.default.deepEqual(lists('SELECT id FROM users WHERE score > :s AND team IN (:a, :b)', { s: 0, a: 7, b: 8 }), [
            [0, 'team', [7, 8]],
        ]);
        strict_1.default.deepEqual(lists('SELECT id FROM users WHERE score > 1 AND team IN (7)'), [[0, 'team', [7]]]);
        strict_1.default.deepEqual(lists('SELECT id FROM users WHERE id % 1000 IN (?, ?)', [3, 4]), [[0, '@c1 % 1000', [3, 4]]]);
        for (const sql of [
            'SELECT id FROM users WHERE team NOT IN (1, 2)',
            'SELECT id FROM users WHERE team IN (SELECT id FROM teams)',
            "SELECT id FROM users WHERE team IN (1, '2')", // text against an INTEGER column is converted
            'SELECT id FROM users WHERE team IN (1, score)',
            'SELECT id FROM users WHERE team IN (1) OR score = 2',
            "SELECT id FROM notes WHERE body IN ('x')", // NOCASE collation
        ])
            strict_1.default.deepEqual(lists(sql), [], sql);
    });
    it('wakes an IN-list subscription for rows whose value is one of its values, or that its result holds', () => {
        const index = new wake_index_1.WakeIndex();
        const list = sub('SELECT id FROM users WHERE team IN (?, ?)', [2, 3]);
        const mod = sub('SELECT id FROM users WHERE id % 10 IN (1, 2)');
        index.add(list, () => ['i10']); // holds user 10
        index.add(mod, () => []);
        const woken = (changes) => [...index.wake(changes).keys()];
        strict_1.default.deepEqual(woken([change('users', [5], { id: 5, team: 3 })]), [list]);
        strict_1.default.deepEqual(woken([change('users', [5], { id: 5, team: 4 })]), []);
        strict_1.default.deepEqual(woken([change('users', [21], { id: 21, team: 2 })]), [list, mod]);
        strict_1.default.deepEqual(woken([change('users', [10], { id: 10, team: 9 })]), [list], 'the old value matched');
        index.remove(list);
        strict_1.default.deepEqual(woken([change('users', [5], { id: 5, team: 3 })]), []);
        index.remove(mod);
        strict_1.default.equal(index.reads('users'), false);
    });
    it('wakes a pinned subscription for a row whose new value matches or that its result holds, and others for every change', () => {
        const index = new wake_index_1.WakeIndex();
        const two = sub('SELECT id FROM users WHERE team = ?', [2]);
        const three = sub('SELECT id FROM users WHERE team = ?', [3]);
        const all = sub('SELECT id FROM users WHERE score > 1');
        index.add(two, () => ['i10']); // holds user 10
        index.add(three, () => []);
        index.add(all, () => []);
        const woken = (changes) => [...index.wake(changes).keys()];
        strict_1.default.deepEqual(woken([change('users', [1], { id: 1, team: 4 })]), [all]);
        strict_1.default.deepEqual(woken([change('users', [1], { id: 1, team: 3 })]), [three, all]);
        strict_1.default.deepEqual(woken([change('users', [10], { id: 10, team: 4 })]), [two, all], 'the old value matched');
        strict_1.default.deepEqual(woken([change('users', [10], null)]), [two, all]);
        strict_1.default.deepEqual(woken([change('users', [1], { id: 1, team: null })]), [all], 'NULL equals nothing');
        strict_1.default.deepEqual(woken([change('teams', [1], { id: 1 })]), []);
        const keys = index.wake([change('users', [1], { id: 1, team: 3 }), change('users', [2], { id: 2, team: 5 })]);
        strict_1.default.deepEqual([...keys.get(three).get('users').keys()], ['i1'], 'only the rows that concern it');
        strict_1.default.deepEqual([...keys.get(all).get('users').keys()], ['i1', 'i2']);
        index.rowRemoved(two, 'i10');
        index.rowAdded(three, 'i10');
        strict_1.default.deepEqual(woken([change('users', [10], { id: 10, team: 4 })]), [three, all]);
        index.remove(three);
        index.remove(all);
        strict_1.default.deepEqual(woken([change('users', [10], { id: 10, team: 3 })]), []);
        strict_1.default.equal(index.reads('users'), true);
        index.remove(two);
        strict_1.default.equal(index.reads('users'), false);
    });
});
//# sourceMappingURL=wake-index.test.js.map