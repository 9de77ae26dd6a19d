"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// Writes with their values in the SQL text run as one statement per shape (src/engine/literals.ts).
// SQLite is the oracle: each write runs as written on one database and as shape + values on another,
// and both databases must then hold the same rows, with the same storage classes.
const strict_1 = __importDefault(require("node:assert/strict"));
const better_sqlite3_1 = __importDefault(require("better-sqlite3"));
const literals_1 = require("../../src/engine/literals");
const SCHEMA = `
  CREATE TABLE t (pk INTEGER PRIMARY KEY, s TEXT, n NUMERIC, r REAL, b BLOB, any_ ANY, u TEXT UNIQUE);
  CREATE TABLE p (pk INTEGER PRIMARY KEY, v INTEGER, flag INTEGER);
  CREATE UNIQUE INDEX p_partial ON p (v) WHERE flag = 1;
`;
function dump(db, table) {
    const cols = db.prepare(`SELECT name FROM pragma_table_info('${table}')`).pluck().all()
        .map((c) => `${c}, typeof(${c}), hex(${c})`)
        .join(', ');
    return db.prepare(`SELECT ${cols} FROM ${table} ORDER BY pk`).raw(true).all();
}
describe('writes with their values in the text share one statement per shape', () => {
    it('takes strings, blobs, integers and short decimals out, and keeps what gives the text its meaning', () => {
        strict_1.default.deepEqual((0, literals_1.shareLiterals)("UPDATE t SET s = 'it''s' WHERE pk = 17"), {
            sql: 'UPDATE t SET s = ? WHERE pk = ?',
            values: ["it's", 17n],
        });
        strict_1.default.deepEqual((0, literals_1.shareLiterals)("INSERT INTO t (pk, b, r) VALUES (-3, X'00ff', 1.5e3)"), {
            sql: 'INSERT INTO t (pk, b, r) VALUES (-?, ?, ?)',
            values: [3n, Buffer.from([0, 255]), 1500],
        });
        // the RETURNING list names the result columns: kept as written
        strict_1.default.deepEqual((0, literals_1.shareLiterals)("DELETE FROM t WHERE pk = 5 RETURNING pk, 'gone' AS what, 1"), {
            sql: "DELETE FROM t WHERE pk = ? RETURNING pk, 'gone' AS what, 1",
            values: [5n],
        });
        // type arguments are syntax, not values
        strict_1.default.deepEqual((0, literals_1.shareLiterals)("UPDATE t SET n = CAST('2.5' AS NUMERIC(10, 2)) WHERE pk = 1"), {
            sql: 'UPDATE t SET n = CAST(? AS NUMERIC(10, 2)) WHERE pk = ?',
            values: ['2.5', 1n],
        });
        // beyond 64 bits, past 15 digits, hex: SQLite reads these its own way, so they stay in the text
        strict_1.default.deepEqual((0, literals_1.shareLiterals)('UPDATE t SET n = 9223372036854775808, r = 0.1234567890123456 WHERE pk = 0x10'), null);
        strict_1.default.equal((0, literals_1.shareLiterals)('UPDATE t SET n = -9223372036854775808 WHERE pk = 1')?.sql, 'UPDATE t SET n = -9223372036854775808 WHERE pk = ?');
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
            strict_1.default.equal((0, literals_1.shareLiterals)(sql), null, sql);
    });
    it('gives the same rows as the text itself, checked against SQLite', () => {
        const plain = new better_sqlite3_1.default(':memory:');
        const shared = new better_sqlite3_1.default(':memory:');
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
            const shape = (0, literals_1.shareLiterals)(sql);
            strict_1.default.ok(shape, `shared: ${sql}`);
            shared.prepare(shape.sql).run(...shape.values);
        }
        strict_1.default.deepEqual(dump(shared, 't'), dump(plain, 't'));
        strict_1.default.deepEqual(dump(shared, 'p'), dump(plain, 'p'));
        const ret = "UPDATE t SET s = 'r' WHERE pk = 1 RETURNING pk, s, 'lit', 2 + 2";
        const shape = (0, literals_1.shareLiterals)(ret);
        const a = plain.prepare(ret);
        const b = shared.prepare(shape.sql);
        strict_1.default.deepEqual(b.columns().map((c) => c.name), a.columns().map((c) => c.name));
        strict_1.default.deepEqual(b.raw(true).all(...shape.values), a.raw(true).all());
    });
});
//# sourceMappingURL=literals.test.js.map