// Writes with their values in the SQL text run as one statement per shape (src/engine/literals.ts).
// SQLite is the oracle: each write runs as written on one database and as shape + values on another,
// and both databases must then hold the same rows, with the same storage classes.
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { shareLiterals } from '../../src/engine/literals';

const SCHEMA = `
  CREATE TABLE t (pk INTEGER PRIMARY KEY, s TEXT, n NUMERIC, r REAL, b BLOB, any_ ANY, u TEXT UNIQUE);
  CREATE TABLE p (pk INTEGER PRIMARY KEY, v INTEGER, flag INTEGER);
  CREATE UNIQUE INDEX p_partial ON p (v) WHERE flag = 1;
`;

function dump(db: Database.Database, table: string): unknown[] {
  const cols = (db.prepare(`SELECT name FROM pragma_table_info('${table}')`).pluck().all() as string[])
    .map((c) => `${c}, typeof(${c}), hex(${c})`)
    .join(', ');
  return db.prepare(`SELECT ${cols} FROM ${table} ORDER BY pk`).raw(true).all();
}

describe('writes with their values in the text share one statement per shape', () => {
  it('takes strings, blobs, integers and short decimals out, and keeps what gives the text its meaning', () => {
    assert.deepEqual(shareLiterals("UPDATE t SET s = 'it''s' WHERE pk = 17"), {
      sql: 'UPDATE t SET s = ? WHERE pk = ?',
      values: ["it's", 17n],
    });
    assert.deepEqual(shareLiterals("INSERT INTO t (pk, b, r) VALUES (-3, X'00ff', 1.5e3)"), {
      sql: 'INSERT INTO t (pk, b, r) VALUES (-?, ?, ?)',
      values: [3n, Buffer.from([0, 255]), 1500],
    });
    // the RETURNING list names the result columns: kept as written
    assert.deepEqual(shareLiterals("DELETE FROM t WHERE pk = 5 RETURNING pk, 'gone' AS what, 1"), {
      sql: "DELETE FROM t WHERE pk = ? RETURNING pk, 'gone' AS what, 1",
      values: [5n],
    });
    // type arguments are syntax, not values
    assert.deepEqual(shareLiterals("UPDATE t SET n = CAST('2.5' AS NUMERIC(10, 2)) WHERE pk = 1"), {
      sql: 'UPDATE t SET n = CAST(? AS NUMERIC(10, 2)) WHERE pk = ?',
      values: ['2.5', 1n],
    });
    // beyond 64 bits, past 15 digits, hex: SQLite reads these its own way, so they stay in the text
    assert.deepEqual(
      shareLiterals('UPDATE t SET n = 9223372036854775808, r = 0.1234567890123456 WHERE pk = 0x10'),
      null,
    );
    assert.equal(
      shareLiterals('UPDATE t SET n = -9223372036854775808 WHERE pk = 1')?.sql,
      'UPDATE t SET n = -9223372036854775808 WHERE pk = ?',
    );
  });

  it('leaves alone what is not a plain write or would change its meaning', () => {
    for (const sql of [
      'SELECT 1',
      "CREATE TABLE x (a TEXT DEFAULT 'y')",
      'UPDATE t SET s = ? WHERE pk = 1', // parameters of its own
      'UPDATE t SET s = :s WHERE pk = 1',
      'UPDATE t SET s = $s WHERE pk = 1',
      'UPDATE t SET s = @s WHERE pk = 1',
      'INSERT INTO t (pk, s) SELECT pk + 100, s FROM t ORDER BY 1', // 1 names a column
      'INSERT INTO p (v, flag) VALUES (1, 1) ON CONFLICT (v) WHERE flag = 1 DO NOTHING', // partial index target
      "UPDATE t SET s = 'a' WHERE pk = 1; DELETE FROM t", // two statements
      "UPDATE t SET s = 'unterminated",
      'UPDATE t SET n = 1abc',
      'UPDATE t SET s = s', // no literal at all
      "WITH x AS (SELECT 1) UPDATE t SET s = 'a'",
    ])
      assert.equal(shareLiterals(sql), null, sql);
  });

  it('gives the same rows as the text itself, checked against SQLite', () => {
    const plain = new Database(':memory:');
    const shared = new Database(':memory:');
    plain.exec(SCHEMA);
    shared.exec(SCHEMA);
    const writes = [
      "INSERT INTO t VALUES (1, 'one', 1, 1.0, X'01', 1, 'u1')",
      "INSERT INTO t VALUES (2, '02', '2.50', '3', X'', '7', 'u2')", // affinity turns these as it turns literals
      "INSERT INTO t VALUES (3, 3, 3.25, 4, 'text in blob', 4.5, 3)",
      "INSERT INTO t (pk, s, n) VALUES (9223372036854775807, 'max', -9223372036854775808)",
      "INSERT INTO t (pk, s) VALUES (4, 'a' || 'b' || 'it''s'), (5, 'five')",
      'INSERT INTO t (pk, n, r) VALUES (6, 1e3, .5), (7, 12345678901234.5, -0.0)',
      "INSERT INTO t (pk, s) VALUES (8, 'x') ON CONFLICT (pk) DO UPDATE SET s = 'y' WHERE excluded.pk > 1",
      "INSERT INTO t (pk, s) VALUES (8, 'x') ON CONFLICT (pk) DO UPDATE SET s = 'y' WHERE excluded.pk > 1",
      "UPDATE t SET n = n * 2 + 1, s = upper(s) WHERE pk IN (1, 2, 3) AND s LIKE '%n%'",
      "UPDATE t SET r = CAST('7.125' AS REAL), any_ = json_object('k', 5, 'z', 'w') WHERE pk BETWEEN 4 AND 6",
      "UPDATE t SET s = CASE WHEN pk % 2 = 0 THEN 'even' ELSE 'odd' END WHERE pk > 0",
      "REPLACE INTO t (pk, s, u) VALUES (2, 'replaced', 'u2')",
      "INSERT OR IGNORE INTO t (pk, s) VALUES (1, 'ignored')",
      'INSERT INTO p VALUES (1, 10, 1), (2, 10, 0), (3, 11, 1)',
      'UPDATE p SET v = v + 100 WHERE flag = 1 AND v >= 10',
      "DELETE FROM t WHERE pk = 3 OR s = 'five'",
      'DELETE FROM p WHERE pk IN (SELECT pk FROM p WHERE v > 100 LIMIT 1)',
    ];
    for (const sql of writes) {
      plain.prepare(sql).run();
      const shape = shareLiterals(sql);
      assert.ok(shape, `shared: ${sql}`);
      shared.prepare(shape.sql).run(...shape.values);
    }
    assert.deepEqual(dump(shared, 't'), dump(plain, 't'));
    assert.deepEqual(dump(shared, 'p'), dump(plain, 'p'));
    const ret = "UPDATE t SET s = 'r' WHERE pk = 1 RETURNING pk, s, 'lit', 2 + 2";
    const shape = shareLiterals(ret)!;
    const a = plain.prepare(ret);
    const b = shared.prepare(shape.sql);
    assert.deepEqual(
      b.columns().map((c) => c.name),
      a.columns().map((c) => c.name),
    );
    assert.deepEqual(b.raw(true).all(...shape.values), a.raw(true).all());
  });

  it("keeps the PG front end's own $n and shares the literals it left in the text", () => {
    // (protocols/pg lifts `aid = 5678` to $1 and leaves an arithmetic operand as written)
    assert.deepEqual(shareLiterals('UPDATE p SET v = __f(v + - 1234) WHERE pk = $1', true), {
      sql: 'UPDATE p SET v = __f(v + - ?) WHERE pk = $1',
      values: [1234n],
    });
    for (const sql of [
      'UPDATE p SET v = v + 5 WHERE pk = $1', // $n refused unless numbered
      'UPDATE p SET v = v + 5 WHERE pk = $1abc',
    ])
      assert.equal(shareLiterals(sql), null, sql);
    assert.equal(shareLiterals('UPDATE p SET v = v + 5 WHERE pk = $k', true), null); // a named one
    assert.equal(shareLiterals('UPDATE p SET v = v + 5 WHERE pk = 1', true), null); // no $n: the plain path's
    assert.equal(shareLiterals('UPDATE p SET v = $1 WHERE pk = $2', true), null); // nothing left to share
    const plain = new Database(':memory:');
    const shared = new Database(':memory:');
    plain.exec(SCHEMA);
    shared.exec(SCHEMA);
    plain.function('__f', (x: unknown) => x);
    shared.function('__f', (x: unknown) => x);
    const writes: [string, Record<string, unknown>][] = [
      ["INSERT INTO t (pk, s, n) VALUES ($1, 'a' || $2, 2.5), ($3, $2, -7)", { 1: 1, 2: 'x', 3: 2 }],
      ['UPDATE t SET n = __f(n + - 1234) * 2, r = 0.5 WHERE pk = $1 OR s = $2', { 1: 1, 2: 'x' }],
      ["UPDATE t SET s = s || '!' || $12 WHERE pk = $3 RETURNING s, 'lit'", { 3: 2, 12: 'z' }],
    ];
    for (const [sql, params] of writes) {
      plain.prepare(sql).run(params);
      const shape = shareLiterals(sql, true);
      assert.ok(shape, `shared: ${sql}`);
      // bound as the writer binds them: the record by name, the shape's values in order beside it
      shared.prepare(shape.sql).run(params, ...shape.values);
    }
    assert.deepEqual(dump(shared, 't'), dump(plain, 't'));
  });
});
