// The pure parts of statement analysis (protocols/pg/sql/): parameter types from where each $n
// stands, result column names and types from a select list's tokens, and the commands analysed
// without SQLite (TRUNCATE, FETCH/MOVE, SELECT pg_notify); bad input gets PostgreSQL's SQLSTATE.
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { introspect } from '../../../src/engine/schema/introspect';
import { positionalSql } from '../../../protocols/pg/sql/analyze';
import { analyzeFetch, analyzeTruncate, pgNotifyCall } from '../../../protocols/pg/sql/analyze-commands';
import { type PgToken, lexPg } from '../../../protocols/pg/sql/lexer';
import { inferParamTypes } from '../../../protocols/pg/sql/param-types';
import { columnOid, expressionOid, pgColumnName, selectListNames } from '../../../protocols/pg/sql/result-columns';
import { selectListTypes } from '../../../protocols/pg/sql/select-list';
import { OID } from '../../../protocols/pg/types/oids';

const db = new Database(':memory:');
db.exec(
  'CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT NOT NULL, born DATE, score REAL);' +
    'CREATE TABLE orders (id INTEGER PRIMARY KEY, user_id BIGINT, amount NUMERIC, at TIMESTAMPTZ)',
);
const schema = introspect(db);
db.close();
const toks = (sql: string): PgToken[] => lexPg(sql).filter((t) => t.type !== 'space' && t.type !== 'comment');
const sqlstate = (code: string) => (e: unknown) => (e as { sqlstate?: string }).sqlstate === code;

describe('PG statement analysis', () => {
  it('parameter types: compared or inserted columns, casts, LIMIT/OFFSET, declared ones first', () => {
    const params = (sql: string, n: number, declared: number[] = []) => inferParamTypes(toks(sql), schema, n, declared);
    assert.deepEqual(params('SELECT * FROM users WHERE id = $1 AND name LIKE $2 LIMIT $3 OFFSET $4', 4), [
      OID.int8,
      OID.text,
      OID.int8,
      OID.int8,
    ]);
    assert.deepEqual(params('INSERT INTO orders (user_id, amount, at) VALUES ($1, $2, $3), ($4, $5, $6)', 6), [
      OID.int8,
      OID.numeric,
      OID.timestamptz,
      OID.int8,
      OID.numeric,
      OID.timestamptz,
    ]);
    assert.deepEqual(params('UPDATE users SET score = $1 WHERE $2 = id', 2), [OID.float8, OID.int8]);
    assert.deepEqual(params('SELECT $1::int8, $2::pg_catalog.text, $3::oid[], $4', 4), [OID.int8, OID.text, 1028, 0]);
    assert.deepEqual(params('SELECT $1', 1, [OID.text]), [OID.text]);
    // nothing tells: 0, the value decides; no table, no columns, no type after ::
    assert.deepEqual(params('SELECT $9 FROM nosuch WHERE x = $1', 2), [0, 0]);
    assert.deepEqual(params('SELECT $1::', 1), [0]);
    assert.deepEqual(params('INSERT INTO users (id VALUES ($1', 1), [0]);
    assert.deepEqual(params('INSERT INTO', 0), []);
  });

  it('select list types: literals, comparisons, casts, typed literals, functions whose values do not tell', () => {
    assert.deepEqual(
      selectListTypes(
        toks(
          "SELECT TRUE, 1, 3000000000, 1.5, a = b, EXISTS (SELECT 1), x::int, CAST(y AS text), DATE '2026-01-01', count(*), avg(z), a - b::interval, f(x) AS g, CASE WHEN a THEN 1 END",
        ),
      ),
      [
        { name: '?column?', oid: OID.bool },
        { name: null, oid: OID.int4 },
        { name: null, oid: OID.int8 },
        { name: null, oid: OID.numeric },
        { name: '?column?', oid: OID.bool },
        { name: 'exists', oid: OID.bool },
        { name: 'x', oid: OID.int8 },
        { name: 'y', oid: OID.text },
        { name: 'date', oid: OID.date },
        { name: 'count', oid: OID.int8 },
        { name: 'avg', oid: OID.numeric },
        { name: '?column?', oid: 0 },
        { name: null, oid: 0 },
        { name: 'case', oid: 0 },
      ],
    );
    // a * does not match the columns one to one; no SELECT, nothing to say
    assert.equal(selectListTypes(toks('SELECT * FROM t')), null);
    assert.equal(selectListTypes(toks('SELECT t.* FROM t')), null);
    assert.equal(selectListTypes(toks('VALUES (1)')), null);
    assert.equal(selectListTypes(toks('SELECT')), null);
    assert.equal(selectListTypes(toks('SELECT a,')), null);
    assert.deepEqual(selectListTypes(toks('SELECT CAST(x AS')), [{ name: null, oid: 0 }]);
    assert.deepEqual(selectListTypes(toks('SELECT x::int[]')), [{ name: null, oid: 0 }]);
    assert.deepEqual(selectListTypes(toks('SELECT DISTINCT id FROM t')), [{ name: 'id', oid: 0 }]);
  });

  it('result columns: declared type, else the expression, else the value', () => {
    assert.equal(columnOid({ name: 'a', declType: 'INTEGER' }, 'x'), OID.int8);
    assert.equal(columnOid({ name: 'a', declType: null, oid: OID.bool }, 1), OID.bool);
    assert.equal(columnOid({ name: 'a', declType: null }, 5n), OID.int8);
    assert.equal(columnOid({ name: 'a', declType: null }, 2.5), OID.float8);
    assert.equal(columnOid({ name: 'a', declType: null }, new Uint8Array(1)), OID.bytea);
    assert.equal(columnOid({ name: 'a', declType: null }, 'x'), OID.text);
    assert.equal(columnOid({ name: 'count(*)', declType: null }, null), OID.int8);
    assert.equal(columnOid({ name: 'a', declType: null }, undefined), OID.text);
    assert.equal(expressionOid('$2', [OID.int4, OID.text]), OID.text);
    // a parameter the statement leaves open is text, as PostgreSQL resolves it
    assert.equal(expressionOid('$3', [OID.int4]), OID.text);
    assert.equal(expressionOid('__pg_bool(x)', []), OID.bool);
    assert.equal(expressionOid('x', []), 0);
    assert.deepEqual(
      [
        'a',
        'count(*)',
        'main.lower(x)',
        "__pg_int(x, 'integer')",
        '__pg_zzz(x)',
        '__pg_bool(x)',
        'CAST(x AS TEXT)',
        '1 + 2',
        'weird name',
      ].map((n) => pgColumnName(n, 'SELECT "weird name"')),
      ['a', 'count', 'lower', 'int4', '?column?', 'bool', 'text', '?column?', 'weird name'],
    );
    assert.deepEqual(selectListNames(lexPg('SELECT a, t.b, c AS d, f(x), 1, "Q" FROM pg_class')), [
      'a',
      'b',
      'd',
      'f',
      '?column?',
      'Q',
    ]);
    assert.deepEqual(selectListNames(lexPg('DELETE FROM t')), []);
  });

  it('TRUNCATE: a DELETE per table in one batch; CASCADE, unknown tables and bad names refused', () => {
    const an = analyzeTruncate(toks('TRUNCATE TABLE ONLY public.users, orders RESTART IDENTITY'), schema);
    assert.equal(an.command, 'TRUNCATE TABLE');
    assert.deepEqual(an.batch, ['DELETE FROM "users"', 'DELETE FROM "orders"']);
    assert.equal(an.sql, 'DELETE FROM "users"');
    assert.equal(an.readonly, false);
    assert.throws(() => analyzeTruncate(toks('TRUNCATE nosuch'), schema), sqlstate('42P01'));
    assert.throws(() => analyzeTruncate(toks('TRUNCATE users CASCADE'), schema), sqlstate('0A000'));
    assert.throws(() => analyzeTruncate(toks('TRUNCATE'), schema), sqlstate('42601'));
    assert.throws(() => analyzeTruncate(toks("TRUNCATE 'x'"), schema), sqlstate('42601'));
  });

  it('FETCH and MOVE: a direction and a count (ALL: Infinity, a negative count the other way), a cursor name required', () => {
    const fetch = (sql: string) => analyzeFetch(toks(sql), false).cursor;
    assert.deepEqual(fetch('FETCH 5 FROM c'), { name: 'c', count: 5, move: false, dir: 'forward' });
    assert.deepEqual(fetch('FETCH ALL c'), { name: 'c', count: Infinity, move: false, dir: 'forward' });
    const move = analyzeFetch(toks('MOVE FORWARD 2 IN c'), true);
    assert.equal(move.command, 'MOVE');
    assert.deepEqual(move.cursor, { name: 'c', count: 2, move: true, dir: 'forward' });
    assert.deepEqual(fetch('FETCH BACKWARD 1 FROM c'), { name: 'c', count: 1, move: false, dir: 'backward' });
    assert.deepEqual(fetch('FETCH -2 FROM c'), { name: 'c', count: 2, move: false, dir: 'backward' });
    assert.deepEqual(fetch('FETCH PRIOR c'), { name: 'c', count: 1, move: false, dir: 'backward' });
    assert.deepEqual(fetch('FETCH LAST c'), { name: 'c', count: -1, move: false, dir: 'absolute' });
    assert.deepEqual(fetch('FETCH RELATIVE -3 c'), { name: 'c', count: -3, move: false, dir: 'relative' });
    assert.deepEqual(fetch('FETCH BACKWARD ALL c'), { name: 'c', count: Infinity, move: false, dir: 'backward' });
    assert.throws(() => analyzeFetch(toks('FETCH ABSOLUTE FROM c'), false), sqlstate('42601'));
    assert.throws(() => analyzeFetch(toks('FETCH'), false), sqlstate('42601'));
  });

  it('SELECT pg_notify(channel, payload): literals or parameters, anything else is plain SQL', () => {
    assert.deepEqual(pgNotifyCall(toks("SELECT pg_notify('ch', 'it''s')")), {
      name: 'ch',
      payload: "it's",
      params: [null, null],
    });
    assert.deepEqual(pgNotifyCall(toks('SELECT pg_notify($1, $2);')), { name: '', payload: '', params: [0, 1] });
    assert.equal(pgNotifyCall(toks("SELECT pg_notify('a')")), null);
    assert.equal(pgNotifyCall(toks("SELECT pg_notify(x, 'y')")), null);
  });

  it('binds by position only when $1..$n appear once each, in order, and are all the parameters', () => {
    assert.equal(positionalSql('SELECT v FROM t WHERE k = $1 AND j = $2', 2), 'SELECT v FROM t WHERE k = ? AND j = ?');
    assert.equal(
      positionalSql("SELECT '$2', v FROM t WHERE k = $1 -- $3", 1),
      "SELECT '$2', v FROM t WHERE k = ? -- $3",
    );
    assert.equal(positionalSql('SELECT v FROM t WHERE k = $2 AND j = $1', 2), undefined);
    assert.equal(positionalSql('SELECT v FROM t WHERE k = $1 OR j = $1', 1), undefined);
    assert.equal(positionalSql('SELECT v FROM t WHERE k = $1', 2), undefined); // a declared type with no use
    assert.equal(positionalSql('SELECT v FROM t', 0), undefined);
  });
});
