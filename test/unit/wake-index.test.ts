import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import type { RowChange } from '../../src/bus/changeset';
import { introspect } from '../../src/engine/schema/introspect';
import type { SqlParams } from '../../src/engine/values';
import { planQuery } from '../../src/live/query-plan';
import type { Subscription } from '../../src/live/subscription';
import { WakeIndex } from '../../src/live/wake-index';
import { LIVE_SCHEMA } from '../helpers/subscriptions';

const db = new Database(':memory:');
db.exec(LIVE_SCHEMA + 'CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT COLLATE NOCASE, kind);');
const schema = introspect(db);

const plan = (sql: string, params?: SqlParams) => planQuery(db, schema, sql, params);
const pins = (sql: string, params?: SqlParams) => plan(sql, params).equalities.map((e) => [e.occ, e.column, e.value]);

/** A stand-in with what the index reads of a subscription. */
function sub(sql: string, params?: SqlParams): Subscription {
  const p = plan(sql, params);
  return {
    plan: p,
    identityParts: (key: string) => (p.occurrences.length === 1 ? [key] : (JSON.parse(key) as string[])),
  } as unknown as Subscription;
}

const change = (table: string, pk: unknown[], values: Record<string, unknown> | null): RowChange =>
  ({ table, pk, kind: values ? 'update' : 'delete', values }) as RowChange;

describe('which subscriptions a change wakes', () => {
  it('finds `col = value` conjuncts of WHERE whose comparison is a plain equality', () => {
    assert.deepEqual(pins('SELECT id FROM users WHERE team = ?', [3]), [[0, 'team', 3]]);
    assert.deepEqual(pins('SELECT id FROM users WHERE score > ? AND team = ?', [1, 4]), [[0, 'team', 4]]);
    assert.deepEqual(pins('SELECT id FROM users u WHERE 7 = u.team AND name = :n', { n: 'ann' }), [[0, 'team', 7]]);
    assert.deepEqual(pins("SELECT * FROM tags WHERE tag = 'a'"), [[0, 'tag', 'a']]);
    assert.deepEqual(
      pins('SELECT u.id FROM users u JOIN teams t ON t.id = u.team WHERE t.id = ? AND u.score = 2', [5]),
      [
        [1, 'id', 5],
        [0, 'score', 2],
      ],
    );
  });

  it('leaves out what SQLite would not compare as stored values are', () => {
    assert.deepEqual(
      pins('SELECT id FROM users WHERE team = ?', ['3']),
      [],
      'text against an INTEGER column is converted',
    );
    assert.deepEqual(pins('SELECT id FROM users WHERE name = 3'), [], 'a number against a TEXT column is converted');
    assert.deepEqual(pins("SELECT id FROM notes WHERE body = 'x'"), [], 'NOCASE collation');
    assert.deepEqual(pins('SELECT id FROM users WHERE team = 1 OR score = 2'), []);
    assert.deepEqual(pins('SELECT id FROM users WHERE score BETWEEN 1 AND 5 AND team = 2'), []);
    assert.deepEqual(pins('SELECT count(*) FROM users WHERE team = 2'), [], 'only restricted plans');
    assert.deepEqual(
      pins("SELECT id FROM notes WHERE kind = '2'"),
      [[0, 'kind', '2']],
      'no affinity: compared as stored',
    );
  });

  it('finds `expression of the row = value`: operators and deterministic functions of one occurrence', () => {
    const exprs = (sql: string, params?: SqlParams) =>
      plan(sql, params ?? (sql.includes('?') ? [2] : undefined)).equalities.map((e) => [
        e.occ,
        e.expr ?? null,
        e.columns ?? null,
        e.value,
      ]);
    assert.deepEqual(exprs('SELECT id FROM users WHERE id % 1000 = ?', [7]), [[0, '@c1 % 1000', ['id'], 7]]);
    assert.deepEqual(exprs('SELECT id FROM users WHERE lower(name) = ?', ['ann']), [
      [0, 'lower( @c1 )', ['name'], 'ann'],
    ]);
    assert.deepEqual(exprs("SELECT u.id FROM users u WHERE u.name || '/' || u.team = ?", ['a/1']), [
      [0, "@c1 || '/' || @c2", ['name', 'team'], 'a/1'],
    ]);
    assert.deepEqual(exprs('SELECT id FROM users WHERE team + 0 = 2'), [[0, '@c1 + 0', ['team'], 2]]);
    for (const sql of [
      'SELECT id FROM users WHERE random() % 2 = 1', // not deterministic
      'SELECT id FROM users WHERE (team) = ?', // still the column, with its affinity
      'SELECT id FROM users WHERE id % ? = 1', // a parameter inside
      'SELECT id FROM users WHERE (team = 1) = 1', // a comparison inside
      'SELECT u.id FROM users u JOIN teams t ON t.id = u.team WHERE u.team + t.id = 3', // two occurrences
      "SELECT id FROM notes WHERE body || '' = 'x'", // a column with a collation
      'SELECT id FROM users WHERE id % 1000 = NULL',
    ])
      assert.deepEqual(exprs(sql), [], sql);
  });

  it('wakes an expression subscription only for rows whose expression gives its value, whatever their number', () => {
    const index = new WakeIndex();
    const subs = Array.from({ length: 1000 }, (_, k) => sub('SELECT id FROM users WHERE id % 1000 = ?', [k]));
    for (const s of subs) index.add(s, () => []);
    const lower = sub('SELECT id FROM users WHERE lower(name) = ?', ['ann']);
    index.add(lower, () => ['i5']);
    const woken = (changes: RowChange[]) => [...index.wake(changes).keys()];
    assert.deepEqual(woken([change('users', [2017], { id: 2017, name: 'Bob', team: 1, score: 0 })]), [subs[17]]);
    assert.deepEqual(woken([change('users', [3], { id: 3, name: 'ANN', team: 1, score: 0 })]), [subs[3], lower]);
    assert.deepEqual(
      woken([change('users', [5], { id: 5, name: 'bob', team: 1, score: 0 })]),
      [subs[5], lower],
      'the result holds the row: its old value matched',
    );
    assert.deepEqual(woken([change('users', [6], { id: 6, name: null, team: 1, score: 0 })]), [subs[6]], 'NULL');
    assert.deepEqual(woken([change('users', [9007199254740993n], { id: 9007199254740993n, name: 'x' })]), [subs[993]]);
    // a column without affinity: 1 may have been INTEGER 1 or REAL 1.0 ('1' and '1.0' here), so such a row wakes them all
    const kind = sub("SELECT id FROM notes WHERE kind || '' = ?", ['1']);
    index.add(kind, () => []);
    assert.deepEqual(woken([change('notes', [1], { id: 1, body: 'b', kind: 1 })]), [kind]);
    assert.deepEqual(woken([change('notes', [1], { id: 1, body: 'b', kind: 'x' })]), []);
    assert.deepEqual(woken([change('notes', [1], { id: 1, body: 'b', kind: '1' })]), [kind]);
    index.remove(kind);
    for (const s of subs) index.remove(s);
    index.remove(lower);
    assert.equal(index.reads('users'), false);
  });

  it('finds `col IN (values)` and `expression IN (values)` conjuncts, each value as `=` would take it', () => {
    const lists = (sql: string, params?: SqlParams) =>
      plan(sql, params).equalities.map((e) => [e.occ, e.column, e.values]);
    assert.deepEqual(lists('SELECT id FROM users WHERE team IN (?, ?, 5)', [1, 2]), [[0, 'team', [1, 2, 5]]]);
    assert.deepEqual(lists('SELECT id FROM users WHERE score > :s AND team IN (:a, :b)', { s: 0, a: 7, b: 8 }), [
      [0, 'team', [7, 8]],
    ]);
    assert.deepEqual(lists('SELECT id FROM users WHERE score > 1 AND team IN (7)'), [[0, 'team', [7]]]);
    assert.deepEqual(lists('SELECT id FROM users WHERE id % 1000 IN (?, ?)', [3, 4]), [[0, '@c1 % 1000', [3, 4]]]);
    for (const sql of [
      'SELECT id FROM users WHERE team NOT IN (1, 2)',
      'SELECT id FROM users WHERE team IN (SELECT id FROM teams)',
      "SELECT id FROM users WHERE team IN (1, '2')", // text against an INTEGER column is converted
      'SELECT id FROM users WHERE team IN (1, score)',
      'SELECT id FROM users WHERE team IN (1) OR score = 2',
      "SELECT id FROM notes WHERE body IN ('x')", // NOCASE collation
    ])
      assert.deepEqual(lists(sql), [], sql);
  });

  it('wakes an IN-list subscription for rows whose value is one of its values, or that its result holds', () => {
    const index = new WakeIndex();
    const list = sub('SELECT id FROM users WHERE team IN (?, ?)', [2, 3]);
    const mod = sub('SELECT id FROM users WHERE id % 10 IN (1, 2)');
    index.add(list, () => ['i10']); // holds user 10
    index.add(mod, () => []);
    const woken = (changes: RowChange[]) => [...index.wake(changes).keys()];
    assert.deepEqual(woken([change('users', [5], { id: 5, team: 3 })]), [list]);
    assert.deepEqual(woken([change('users', [5], { id: 5, team: 4 })]), []);
    assert.deepEqual(woken([change('users', [21], { id: 21, team: 2 })]), [list, mod]);
    assert.deepEqual(woken([change('users', [10], { id: 10, team: 9 })]), [list], 'the old value matched');
    index.remove(list);
    assert.deepEqual(woken([change('users', [5], { id: 5, team: 3 })]), []);
    index.remove(mod);
    assert.equal(index.reads('users'), false);
  });

  it('wakes a pinned subscription for a row whose new value matches or that its result holds, and others for every change', () => {
    const index = new WakeIndex();
    const two = sub('SELECT id FROM users WHERE team = ?', [2]);
    const three = sub('SELECT id FROM users WHERE team = ?', [3]);
    const all = sub('SELECT id FROM users WHERE score > 1');
    index.add(two, () => ['i10']); // holds user 10
    index.add(three, () => []);
    index.add(all, () => []);
    const woken = (changes: RowChange[]) => [...index.wake(changes).keys()];
    assert.deepEqual(woken([change('users', [1], { id: 1, team: 4 })]), [all]);
    assert.deepEqual(woken([change('users', [1], { id: 1, team: 3 })]), [three, all]);
    assert.deepEqual(woken([change('users', [10], { id: 10, team: 4 })]), [two, all], 'the old value matched');
    assert.deepEqual(woken([change('users', [10], null)]), [two, all]);
    assert.deepEqual(woken([change('users', [1], { id: 1, team: null })]), [all], 'NULL equals nothing');
    assert.deepEqual(woken([change('teams', [1], { id: 1 })]), []);
    const keys = index.wake([change('users', [1], { id: 1, team: 3 }), change('users', [2], { id: 2, team: 5 })]);
    assert.deepEqual([...keys.get(three)!.get('users')!.keys()], ['i1'], 'only the rows that concern it');
    assert.deepEqual([...keys.get(all)!.get('users')!.keys()], ['i1', 'i2']);
    index.rowRemoved(two, 'i10');
    index.rowAdded(three, 'i10');
    assert.deepEqual(woken([change('users', [10], { id: 10, team: 4 })]), [three, all]);
    index.remove(three);
    index.remove(all);
    assert.deepEqual(woken([change('users', [10], { id: 10, team: 3 })]), []);
    assert.equal(index.reads('users'), true);
    index.remove(two);
    assert.equal(index.reads('users'), false);
  });
});
