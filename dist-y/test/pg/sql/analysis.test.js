"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// The pure parts of statement analysis (protocols/pg/sql/): parameter types from where each $n
// stands, result column names and types from a select list's tokens, and the commands analysed
// without SQLite (TRUNCATE, FETCH/MOVE, SELECT pg_notify); bad input gets PostgreSQL's SQLSTATE.
const strict_1 = __importDefault(require("node:assert/strict"));
const better_sqlite3_1 = __importDefault(require("better-sqlite3"));
const introspect_1 = require("../../../src/engine/schema/introspect");
const analyze_1 = require("../../../protocols/pg/sql/analyze");
const analyze_commands_1 = require("../../../protocols/pg/sql/analyze-commands");
const lexer_1 = require("../../../protocols/pg/sql/lexer");
const param_types_1 = require("../../../protocols/pg/sql/param-types");
const result_columns_1 = require("../../../protocols/pg/sql/result-columns");
const select_list_1 = require("../../../protocols/pg/sql/select-list");
const oids_1 = require("../../../protocols/pg/types/oids");
const db = new better_sqlite3_1.default(':memory:');
db.exec('CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT NOT NULL, born DATE, score REAL);' +
    'CREATE TABLE orders (id INTEGER PRIMARY KEY, user_id BIGINT, amount NUMERIC, at TIMESTAMPTZ)');
const schema = (0, introspect_1.introspect)(db);
db.close();
const toks = (sql) => (0, lexer_1.lexPg)(sql).filter((t) => t.type !== 'space' && t.type !== 'comment');
const sqlstate = (code) => (e) => e.sqlstate === code;
describe('PG statement analysis', () => {
    it('parameter types: compared or inserted columns, casts, LIMIT/OFFSET, declared ones first', () => {
        const params = (sql, n, declared = []) => (0, param_types_1.inferParamTypes)(toks(sql), schema, n, declared);
        strict_1.default.deepEqual(params('SELECT * FROM users WHERE id = $1 AND name LIKE $2 LIMIT $3 OFFSET $4', 4), [
            oids_1.OID.int8,
            oids_1.OID.text,
            oids_1.OID.int8,
            oids_1.OID.int8,
        ]);
        strict_1.default.deepEqual(params('INSERT INTO orders (user_id, amount, at) VALUES ($1, $2, $3), ($4, $5, $6)', 6), [
            oids_1.OID.int8,
            oids_1.OID.numeric,
            oids_1.OID.timestamptz,
            oids_1.OID.int8,
            oids_1.OID.numeric,
            oids_1.OID.timestamptz,
        ]);
        strict_1.default.deepEqual(params('UPDATE users SET score = $1 WHERE $2 = id', 2), [oids_1.OID.float8, oids_1.OID.int8]);
        strict_1.default.deepEqual(params('SELECT $1::int8, $2::pg_catalog.text, $3::oid[], $4', 4), [oids_1.OID.int8, oids_1.OID.text, 1028, 0]);
        strict_1.default.deepEqual(params('SELECT $1', 1, [oids_1.OID.text]), [oids_1.OID.text]);
        // nothing tells: 0, the value decides; no table, no columns, no type after ::
        strict_1.default.deepEqual(params('SELECT $9 FROM nosuch WHERE x = $1', 2), [0, 0]);
        strict_1.default.deepEqual(params('SELECT $1::', 1), [0]);
        strict_1.default.deepEqual(params('INSERT INTO users (id VALUES ($1', 1), [0]);
        strict_1.default.deepEqual(params('INSERT INTO', 0), []);
    });
    it('select list types: literals, comparisons, casts, typed literals, functions whose values do not tell', () => {
        strict_1.default.deepEqual((0, select_list_1.selectListTypes)(toks("SELECT TRUE, 1, 3000000000, 1.5, a = b, EXISTS (SELECT 1), x::int, CAST(y AS text), DATE '2026-01-01', count(*), avg(z), a - b::interval, f(x) AS g, CASE WHEN a THEN 1 END")), [
            { name: '?column?', oid: oids_1.OID.bool },
            { name: null, oid: oids_1.OID.int4 },
            { name: null, oid: oids_1.OID.int8 },
            { name: null, oid: oids_1.OID.numeric },
            { name: '?column?', oid: oids_1.OID.bool },
            { name: 'exists', oid: oids_1.OID.bool },
            { name: 'x', oid: oids_1.OID.int8 },
            { name: 'y', oid: oids_1.OID.text },
            { name: 'date', oid: oids_1.OID.date },
            { name: 'count', oid: oids_1.OID.int8 },
            { name: 'avg', oid: oids_1.OID.numeric },
            { name: '?column?', oid: 0 },
            { name: null, oid: 0 },
            { name: 'case', oid: 0 },
        ]);
        // a * does not match the columns one to one; no SELECT, nothing to say
        strict_1.default.equal((0, select_list_1.selectListTypes)(toks('SELECT * FROM t')), null);
        strict_1.default.equal((0, select_list_1.selectListTypes)(toks('SELECT t.* FROM t')), null);
        strict_1.default.equal((0, select_list_1.selectListTypes)(toks('VALUES (1)')), null);
        strict_1.default.equal((0, select_list_1.selectListTypes)(toks('SELECT')), null);
        strict_1.default.equal((0, select_list_1.selectListTypes)(toks('SELECT a,')), null);
        strict_1.default.deepEqual((0, select_list_1.selectListTypes)(toks('SELECT CAST(x AS')), [{ name: null, oid: 0 }]);
        strict_1.default.deepEqual((0, select_list_1.selectListTypes)(toks('SELECT x::int[]')), [{ name: null, oid: 0 }]);
        strict_1.default.deepEqual((0, select_list_1.selectListTypes)(toks('SELECT DISTINCT id FROM t')), [{ name: 'id', oid: 0 }]);
    });
    it('result columns: declared type, else the expression, else the value', () => {
        strict_1.default.equal((0, result_columns_1.columnOid)({ name: 'a', declType: 'INTEGER' }, 'x'), oids_1.OID.int8);
        strict_1.default.equal((0, result_columns_1.columnOid)({ name: 'a', declType: null, oid: oids_1.OID.bool }, 1), oids_1.OID.bool);
        strict_1.default.equal((0, result_columns_1.columnOid)({ name: 'a', declType: null }, 5n), oids_1.OID.int8);
        strict_1.default.equal((0, result_columns_1.columnOid)({ name: 'a', declType: null }, 2.5), oids_1.OID.float8);
        strict_1.default.equal((0, result_columns_1.columnOid)({ name: 'a', declType: null }, new Uint8Array(1)), oids_1.OID.bytea);
        strict_1.default.equal((0, result_columns_1.columnOid)({ name: 'a', declType: null }, 'x'), oids_1.OID.text);
        strict_1.default.equal((0, result_columns_1.columnOid)({ name: 'count(*)', declType: null }, null), oids_1.OID.int8);
        strict_1.default.equal((0, result_columns_1.columnOid)({ name: 'a', declType: null }, undefined), oids_1.OID.text);
        strict_1.default.equal((0, result_columns_1.expressionOid)('$2', [oids_1.OID.int4, oids_1.OID.text]), oids_1.OID.text);
        strict_1.default.equal((0, result_columns_1.expressionOid)('$3', [oids_1.OID.int4]), 0);
        strict_1.default.equal((0, result_columns_1.expressionOid)('__pg_bool(x)', []), oids_1.OID.bool);
        strict_1.default.equal((0, result_columns_1.expressionOid)('x', []), 0);
        strict_1.default.deepEqual([
            'a',
            'count(*)',
            'main.lower(x)',
            "__pg_int(x, 'integer')",
            '__pg_zzz(x)',
            '__pg_bool(x)',
            'CAST(x AS TEXT)',
            '1 + 2',
            'weird name',
        ].map((n) => (0, result_columns_1.pgColumnName)(n, 'SELECT "weird name"')), ['a', 'count', 'lower', 'int4', '?column?', 'bool', 'text', '?column?', 'weird name']);
        strict_1.default.deepEqual((0, result_columns_1.selectListNames)((0, lexer_1.lexPg)('SELECT a, t.b, c AS d, f(x), 1, "Q" FROM pg_class')), [
            'a',
            'b',
            'd',
            'f',
            '?column?',
            'Q',
        ]);
        strict_1.default.deepEqual((0, result_columns_1.selectListNames)((0, lexer_1.lexPg)('DELETE FROM t')), []);
    });
    it('TRUNCATE: a DELETE per table in one batch; CASCADE, unknown tables and bad names refused', () => {
        const an = (0, analyze_commands_1.analyzeTruncate)(toks('TRUNCATE TABLE ONLY public.users, orders RESTART IDENTITY'), schema);
        strict_1.default.equal(an.command, 'TRUNCATE TABLE');
        strict_1.default.deepEqual(an.batch, ['DELETE FROM "users"', 'DELETE FROM "orders"']);
        strict_1.default.equal(an.sql, 'DELETE FROM "users"');
        strict_1.default.equal(an.readonly, false);
        strict_1.default.throws(() => (0, analyze_commands_1.analyzeTruncate)(toks('TRUNCATE nosuch'), schema), sqlstate('42P01'));
        strict_1.default.throws(() => (0, analyze_commands_1.analyzeTruncate)(toks('TRUNCATE users CASCADE'), schema), sqlstate('0A000'));
        strict_1.default.throws(() => (0, analyze_commands_1.analyzeTruncate)(toks('TRUNCATE'), schema), sqlstate('42601'));
        strict_1.default.throws(() => (0, analyze_commands_1.analyzeTruncate)(toks("TRUNCATE 'x'"), schema), sqlstate('42601'));
    });
    it('FETCH and MOVE: forward only, a count or ALL, a cursor name required', () => {
        strict_1.default.deepEqual((0, analyze_commands_1.analyzeFetch)(toks('FETCH 5 FROM c'), false).cursor, { name: 'c', count: 5, move: false });
        strict_1.default.deepEqual((0, analyze_commands_1.analyzeFetch)(toks('FETCH ALL c'), false).cursor, { name: 'c', count: Infinity, move: false });
        const move = (0, analyze_commands_1.analyzeFetch)(toks('MOVE FORWARD 2 IN c'), true);
        strict_1.default.equal(move.command, 'MOVE');
        strict_1.default.deepEqual(move.cursor, { name: 'c', count: 2, move: true });
        strict_1.default.throws(() => (0, analyze_commands_1.analyzeFetch)(toks('FETCH BACKWARD 1 FROM c'), false), sqlstate('55000'));
        strict_1.default.throws(() => (0, analyze_commands_1.analyzeFetch)(toks('FETCH'), false), sqlstate('42601'));
    });
    it('SELECT pg_notify(channel, payload): literals or parameters, anything else is plain SQL', () => {
        strict_1.default.deepEqual((0, analyze_commands_1.pgNotifyCall)(toks("SELECT pg_notify('ch', 'it''s')")), {
            name: 'ch',
            payload: "it's",
            params: [null, null],
        });
        strict_1.default.deepEqual((0, analyze_commands_1.pgNotifyCall)(toks('SELECT pg_notify($1, $2);')), { name: '', payload: '', params: [0, 1] });
        strict_1.default.equal((0, analyze_commands_1.pgNotifyCall)(toks("SELECT pg_notify('a')")), null);
        strict_1.default.equal((0, analyze_commands_1.pgNotifyCall)(toks("SELECT pg_notify(x, 'y')")), null);
    });
    it('binds by position only when $1..$n appear once each, in order, and are all the parameters', () => {
        strict_1.default.equal((0, analyze_1.positionalSql)('SELECT v FROM t WHERE k = $1 AND j = $2', 2), 'SELECT v FROM t WHERE k = ? AND j = ?');
        strict_1.default.equal((0, analyze_1.positionalSql)("SELECT '$2', v FROM t WHERE k = $1 -- $3", 1), "SELECT '$2', v FROM t WHERE k = ? -- $3");
        strict_1.default.equal((0, analyze_1.positionalSql)('SELECT v FROM t WHERE k = $2 AND j = $1', 2), undefined);
        strict_1.default.equal((0, analyze_1.positionalSql)('SELECT v FROM t WHERE k = $1 OR j = $1', 1), undefined);
        strict_1.default.equal((0, analyze_1.positionalSql)('SELECT v FROM t WHERE k = $1', 2), undefined); // a declared type with no use
        strict_1.default.equal((0, analyze_1.positionalSql)('SELECT v FROM t', 0), undefined);
    });
});
//# sourceMappingURL=analysis.test.js.map