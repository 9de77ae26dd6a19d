// char(n) (bpchar) values where PostgreSQL prints them with their padding, beyond a plain column
// (typmods-oracle.test.ts has those): an expression that hands a char(n) value on (max(ch),
// coalesce(ch, ch), lag(ch), a scalar subquery) read by concat, format, to_json, array_agg; a row
// with a char(n) column made JSON (row_to_json, to_json, json_agg of the row); array_agg as a
// window function; a parameter or literal cast to bpchar, which keeps its trailing spaces where it is
// printed; char(n) results in binary format; a literal or parameter cast to char(n) printed padded;
// a parameter declared varchar (pgjdbc's setString) compared with a char(n) column. Compared with
// PostgreSQL 15.
import assert from 'node:assert/strict';
import { type OracleClients, oracleSuite } from '../helpers/catalog-pair';
import { WireClient } from '../helpers/pg-wire';

const SCHEMA = 'CREATE TABLE cx (id BIGINT NOT NULL PRIMARY KEY, ch CHAR(4), c1 CHAR, vc VARCHAR(6), t TEXT);';
const ROWS = [
  `INSERT INTO cx VALUES (1, 'ab', 'x', 'ab', 'ab'), (2, 'abc ', 'y', 'ab  ', 'ab  '), (3, NULL, NULL, NULL, NULL), (4, 'b', ' ', 'b ', 'b')`,
];

describe('char(n) values printed with their padding, against PostgreSQL 15', function () {
  this.timeout(60_000);
  const { same, clients } = oracleSuite(SCHEMA, ROWS);
  /** Rows and column types in binary format (node-postgres asks for it in the extended protocol only: a parameter). */
  const binary = async (c: OracleClients['patina'], text: string, values: unknown[]) => {
    const r = (await c.query({ text, values, binary: true, rowMode: 'array' } as never)) as unknown as {
      rows: unknown[][];
      fields: { dataTypeID: number }[];
    };
    return [r.rows, r.fields.map((f) => f.dataTypeID)];
  };
  const sameInBinary = async (text: string, values: unknown[]) => {
    const o = clients();
    assert.deepEqual(await binary(o.patina, text, values), await binary(o.postgres, text, values), text);
  };

  it('an aggregate, window or choice of a char(n) column read by concat, format, to_json keeps its padding (was unpadded)', async () => {
    for (const sql of [
      `SELECT concat(max(ch)), concat(max(ch), '|'), to_json(max(ch)), format('%s|', min(ch)), octet_length(max(ch)),
         to_jsonb(min(ch)), concat_ws(',', max(ch), min(c1)) FROM cx`,
      `SELECT id, concat(coalesce(ch, ch), '|'), to_json(lag(ch) OVER (ORDER BY id)), concat((SELECT max(ch) FROM cx), '|'),
         concat(CASE WHEN id > 1 THEN ch END, '|'), concat(nullif(ch, 'b'), '|'),
         json_build_array(first_value(ch) OVER (ORDER BY id)) FROM cx ORDER BY id`,
      `SELECT id % 2 AS k, concat(max(ch), '|'), format('%s|', max(ch) FILTER (WHERE id > 1)) FROM cx GROUP BY id % 2 ORDER BY k`,
      // a choice of a char(n) column and another value: the column's values padded
      `SELECT id, concat(coalesce(ch, 'z'), '|'), to_json(CASE WHEN id = 1 THEN 'q' ELSE ch END) FROM cx ORDER BY id`,
      // what takes bpchar's text drops the padding, as before
      `SELECT max(ch) || '|', length(max(ch)), upper(min(ch)), string_agg(max(ch), ',') OVER () FROM cx`,
    ])
      await same(sql);
  });

  it('row_to_json, to_json, to_jsonb and json_agg of a row with a char(n) column pad it (were unpadded)', async () => {
    for (const sql of [
      'SELECT id, row_to_json(cx), to_json(cx), to_jsonb(cx) FROM cx ORDER BY id',
      'SELECT json_agg(cx ORDER BY id), jsonb_agg(cx ORDER BY id) FROM cx',
      'SELECT row_to_json(s) FROM (SELECT id, ch, c1 FROM cx) s ORDER BY s.id',
      `SELECT json_build_object('r', row_to_json(cx), 'c', to_json(c1)) FROM cx ORDER BY id`,
    ])
      await same(sql);
  });

  it('array_agg runs as a window function (was 42000), a char(n) aggregate in it padded', async () => {
    for (const sql of [
      'SELECT array_agg(max(ch)) OVER (), json_agg(max(ch)) OVER (), ARRAY[max(ch)] FROM cx',
      'SELECT id % 2 AS k, array_agg(max(ch)) OVER (ORDER BY id % 2), array_agg(max(id)) OVER () FROM cx GROUP BY id % 2 ORDER BY k',
      `SELECT id, array_agg(id) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW),
         array_agg(t) OVER (ORDER BY id ROWS BETWEEN CURRENT ROW AND 1 FOLLOWING), array_agg(ch) OVER (ORDER BY id) FROM cx ORDER BY id`,
      // (a frame with no rows: NULL, as over no rows)
      'SELECT id, array_agg(id) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND 1 PRECEDING) FROM cx ORDER BY id',
    ])
      await same(sql);
  });

  it('a parameter cast to bpchar keeps its trailing spaces where it is printed, in text and binary (were dropped)', async () => {
    const sql = `SELECT $1::bpchar, $1::char(4), $1::char(2), CAST($1 AS bpchar) AS c, concat($1::bpchar, '|'), to_json($1::bpchar),
      octet_length($1::bpchar), $1::bpchar || '|', length($1::bpchar), $1::bpchar = 'ab'`;
    await same(sql, ['ab  ']);
    await same(sql, ['ab']);
    await sameInBinary('SELECT $1::bpchar, $1::char(4), $1::char(6), $1::char(2), CAST($1 AS bpchar) AS c', ['ab  ']);
    // compared, it finds the row as before
    await same('SELECT id, ch = $1::bpchar, t = $1::bpchar, vc = $1::bpchar FROM cx ORDER BY id', ['ab  ']);
    await same('SELECT id FROM cx WHERE ch = $1::bpchar OR ch = $2::char(4) ORDER BY id', ['ab  ', 'abc ']);
  });

  it("a literal cast to bpchar or char(n) drops its trailing spaces where PostgreSQL's bpchar does (length, =, ||; were kept)", async () => {
    await same(
      `SELECT 'ab  '::bpchar, length('ab  '::bpchar), 'ab  '::bpchar = 'ab', 'ab  '::bpchar || '|', concat('ab  '::bpchar, '|'),
         'ab  '::char(4), length('ab  '::char(4)), 'ab  '::char(4) || '|', CAST('ab ' AS char(3)) = 'ab'`,
    );
    await same(`SELECT id FROM cx WHERE ch = 'ab  '::bpchar OR t = 'ab  '::bpchar ORDER BY id`);
    // written into a text column, as bpchar's cast to text (was `ab `)
    await same(`INSERT INTO cx (id, t) VALUES (90, 'ab '::char(3)), (91, $1::bpchar) RETURNING t || '|'`, ['cd  ']);
  });

  it('a char(n) result in binary format is padded to n, as in text (was unpadded)', async () => {
    await sameInBinary('SELECT ch, c1, max(ch) OVER () FROM cx WHERE id = $1', [1]);
    await sameInBinary('SELECT ch, c1 FROM cx WHERE id = $1', [4]);
  });

  it('a bpchar parameter used bare beside its cast, or declared bpchar (EXECUTE), keeps its trailing spaces where printed (were dropped)', async () => {
    await same(`SELECT $1::bpchar, $1, concat($1, '|'), $1 LIKE 'ab  '`, ['ab  ']);
    await same(`PREPARE bp_bare(bpchar) AS SELECT $1, concat($1, '|'), format('%s|', $1)`);
    await same(`EXECUTE bp_bare('ab  ')`);
    await same('PREPARE bp_cast AS SELECT $1::bpchar, $1, $1::char(4), to_json($1::bpchar)');
    await same(`EXECUTE bp_cast('ab  ')`);
    // (where bpchar ignores them, as before)
    await same(`SELECT length($1), $1 || '|', $1 = 'ab', $1::bpchar = 'ab'`, ['ab  ']);
  });

  it('a parameter cast to bpchar also used bare where bpchar ignores its trailing spaces keeps them where printed (were dropped everywhere)', async () => {
    for (const sql of [
      `SELECT $1::bpchar, $1 || '|', $2::text`,
      `SELECT $1::bpchar, length($1), $1 = 'ab', upper($1), concat($1, '|'), $1 LIKE 'ab %', $2::text`,
      `SELECT $1::char(4), $1 || '|', $2::text || $1`,
      `SELECT id, $1::bpchar, $2::text FROM cx WHERE ch = $1 OR t = $1 ORDER BY id`,
    ])
      await same(sql, ['ab  ', 'x']);
    await same(`PREPARE bp_both(bpchar) AS SELECT $1, $1 || '|', length($1)`);
    await same(`EXECUTE bp_both('ab  ')`);
  });

  it('a literal or parameter cast to char(n) is printed padded to n (concat, format, LIKE; was unpadded), a plain char is char(1)', async () => {
    await same(
      `SELECT concat('ab'::char(4), '|'), format('%s|', 'ab'::char(4)), concat(CAST('ab' AS char(3)), '|'), to_json('ab'::char(4)),
         'ab'::char(4) LIKE 'ab  ', 'ab  '::bpchar LIKE 'ab  ', 'ab'::char(4) LIKE 'ab', ('ab'::char(4))::text || '|', length('ab'::char(4))`,
    );
    await same(
      `SELECT 'ab'::char, CAST('ab' AS character), concat('ab'::char, '|'), 'ab'::char || '|', '{ab,cd}'::char[]`,
    );
    await same(
      `SELECT concat($1::char(4), '|'), $1::char(4) LIKE 'ab  ', length($1::char(4)), $1::char(4) || '|', array_agg($1::char(3)),
         octet_length($1::char(5))`,
      ['ab'],
    );
    await same(`SELECT id, concat(ch, 'x'::char(2)), ch = 'ab'::char(4) FROM cx ORDER BY id`);
  });

  it("a regular expression reads a char(n) column or cast padded, as LIKE does (bpcharregexeq; `ch ~ 'b '` was false)", async () => {
    await same(`SELECT id, ch ~ 'b $', ch !~ 'b ', ch ~* 'B  ', ch !~* '^AB$', c1 ~ '^ $' FROM cx ORDER BY id`);
    await same(`SELECT id FROM cx WHERE ch ~ ' $' ORDER BY id`);
    await same(`SELECT 'ab'::char(4) ~ 'b  $', $1::char(3) ~ 'b $', $1::bpchar ~ 'b$'`, ['ab']);
  });

  it('a cast to "char" is its first character, of type "char" (OID 18), an integer the character of that code (was bpchar, the whole text)', async () => {
    for (const sql of [
      `SELECT 'ab'::"char", CAST('xyz' AS "char"), ''::"char", NULL::"char", 'ab'::pg_catalog."char"`,
      `SELECT id, t::"char", ch::"char", (t::"char")::text, length(t::"char") FROM cx ORDER BY id`,
      `SELECT id FROM cx WHERE t::"char" = 'a' ORDER BY id`,
      `SELECT 'ab'::"char" = 'a', pg_typeof('ab'::"char")::text, 65::"char", 0::"char"`,
      // (plain char is char(1), bpchar, as before)
      `SELECT 'ab'::char, CAST('ab' AS character)`,
    ])
      await same(sql);
    const refused = async (c: OracleClients['patina']) =>
      c.query('SELECT 300::"char"').then(
        () => 'ran',
        (e: { code?: string; message: string }) => `${e.code} ${e.message}`,
      );
    assert.equal(await refused(clients().patina), await refused(clients().postgres));
  });

  it('a VALUES column of char(n) casts of one n is printed padded to n (was unpadded)', async () => {
    for (const sql of [
      "VALUES ('ab'::char(4))",
      "VALUES ('ab'::char(4)), ('c'::char(4)), (NULL)",
      "SELECT x, concat(x, '|'), length(x) FROM (VALUES ('ab'::char(4)), ('c'::char(4))) v(x) ORDER BY x",
      "SELECT * FROM (VALUES (NULL, 1), ('ab'::char(4), 2)) v(x, y) ORDER BY y",
    ])
      await same(sql);
  });

  it('a UNION of char(n) columns of two widths pads each to its own (were unpadded)', async () => {
    await same('SELECT ch FROM cx UNION SELECT c1 FROM cx ORDER BY 1');
    await same('SELECT id, ch FROM cx UNION ALL SELECT id, c1 FROM cx ORDER BY 1, 2');
    await same('SELECT ch FROM cx INTERSECT SELECT c1 FROM cx');
  });

  it('a schema-qualified aggregate of a char(n) column read by concat keeps its padding (was unpadded)', async () => {
    await same(
      `SELECT concat(pg_catalog.max(ch)), format('%s|', pg_catalog.min(ch)), to_json(pg_catalog.max(ch)) FROM cx`,
    );
  });

  it('a parameter declared varchar (pgjdbc setString) compared with a char(n) column ignores trailing spaces (matched none)', async () => {
    const o = clients();
    const rows = async (port: number, sql: string, values: string[]) => {
      const c = await WireClient.open(port, { user: 'tester', database: 'db' });
      try {
        const r = await c.extended(sql, {
          types: values.map(() => 1043),
          values: values.map((v) => Buffer.from(v)),
          resultFormats: [0],
        });
        return { rows: r.rows.map((row) => row.map((b) => b?.toString() ?? null)), errors: r.errors };
      } finally {
        c.end();
      }
    };
    for (const [sql, values] of [
      ['SELECT id, ch FROM cx WHERE ch = $1 ORDER BY id', ['ab  ']],
      ['SELECT id FROM cx WHERE $1 = ch OR ch = $2 ORDER BY id', ['b   ', 'abc ']],
      ['SELECT id FROM cx WHERE ch IN ($1, $2) ORDER BY id', ['ab ', 'abc  ']],
      ['SELECT id FROM cx WHERE ch <> $1 ORDER BY id', ['ab  ']],
      ['SELECT id, $1 FROM cx WHERE ch = $1', ['b ']],
    ] as [string, string[]][]) {
      const patina = await rows(o.pair.patinaPort, sql, values);
      assert.ok(patina.rows.length > 0, sql);
      assert.deepEqual(patina, await rows(o.pair.postgresPort, sql, values), sql);
    }
    await same('PREPARE vc_key(varchar) AS SELECT id FROM cx WHERE ch = $1');
    await same(`EXECUTE vc_key('ab  ')`);
  });
});
