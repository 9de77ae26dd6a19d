// Binary parameters the client sent without a type and without describing the statement first
// (libpq's PQexecParams with paramTypes NULL and paramFormats 1: Parse with type 0, Bind, Describe
// portal, Execute), against PostgreSQL 15: PostgreSQL types each parameter from where it stands and
// decodes the bytes as that type, or reads them as text where nothing types it. Patina read the
// fields of `SET (a, b) = ($1, $2)` as text and kept an int4's four bytes, zero bytes and all, in
// the table (and replicated them). Each case runs on both servers; the answer (rows, or SQLSTATE,
// message and CONTEXT) and what the table holds afterwards must be the same.
import assert from 'node:assert/strict';
import { type CatalogPair, startCatalogPair } from '../helpers/catalog-pair';
import { type WireResult, WireClient } from '../helpers/pg-wire';

const SCHEMA = `CREATE TABLE b (id INT8 NOT NULL PRIMARY KEY, i4 INT4, i8 INT8, bo BOOLEAN, f8 FLOAT8, n NUMERIC, ts TIMESTAMP, u UUID, tx TEXT);`;

const int4 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
};
const int8 = (n: bigint) => {
  const b = Buffer.alloc(8);
  b.writeBigInt64BE(n);
  return b;
};
const float8 = (n: number) => {
  const b = Buffer.alloc(8);
  b.writeDoubleBE(n);
  return b;
};
/** numeric 12.5 in PostgreSQL's binary form: 2 digits, weight 0, positive, scale 1, 12 and 5000. */
const NUMERIC_12_5 = Buffer.from([0, 2, 0, 0, 0, 0, 0, 1, 0, 12, 0x13, 0x88]);
/** 2001-01-01 00:00:00 less a day or so: microseconds since 2000-01-01. */
const TIMESTAMP = int8(365n * 86_400_000_000n);
const UUID = Buffer.from('a0eebc999c0b4ef8bb6d6bb9bd380a11', 'hex');
const TRUE = Buffer.from([1]);

/** The answer as the client sees it: rows as text, or the error's SQLSTATE, message, HINT, position and CONTEXT. */
function answer(r: WireResult): unknown {
  const errors = r.messages.filter((m) => m.type === 'E').map((m) => fields(m.body));
  if (errors.length > 0)
    return errors.map((f) => ({ code: f.C, message: f.M, hint: f.H, position: f.P, context: f.W }));
  return r.rows.map((row) => row.map((c) => c?.toString('utf8') ?? null));
}

function fields(b: Buffer): Record<string, string> {
  const f: Record<string, string> = {};
  for (let at = 0; at < b.length && b[at] !== 0; ) {
    const end = b.indexOf(0, at + 1);
    f[String.fromCharCode(b[at])] = b.subarray(at + 1, end).toString('utf8');
    at = end + 1;
  }
  return f;
}

describe('untyped binary parameters sent without Describe (libpq PQexecParams), against PostgreSQL 15', function () {
  this.timeout(60_000);
  let pair: CatalogPair;
  let postgres: WireClient;
  let patina: WireClient;

  before(async () => {
    pair = await startCatalogPair({ schemas: { patina: SCHEMA, postgres: SCHEMA }, rows: [] });
    postgres = await WireClient.open(pair.postgresPort, { user: 'tester', database: 'db' });
    patina = await WireClient.open(pair.patinaPort, { user: 'tester', database: 'db' });
  });
  after(async () => {
    postgres?.end();
    patina?.end();
    await pair?.dispose();
  });

  /** `sql` with `values` (binary unless `formats` says) on both: the same answer, and the same rows in b after it. */
  async function same(sql: string, values: Buffer[], formats = [1]) {
    const run = async (c: WireClient) => {
      const r = answer(await c.extended(sql, { values, formats, resultFormats: [0] }));
      const stored = await c.extended(
        'SELECT id, i4::text, i8::text, bo::text, f8::text, n::text, ts::text, u::text, tx FROM b ORDER BY id',
        { resultFormats: [0] },
      );
      return { answer: r, stored: answer(stored) };
    };
    const want = await run(postgres);
    const got = await run(patina);
    assert.deepEqual(got, want, sql);
    return want;
  }

  it("SET (a, b) = ($1, $2), ROW(...) and ON CONFLICT's: each field decoded as its column's type (they were stored as the bytes)", async () => {
    await same('INSERT INTO b (id) VALUES (1), (2)', [], []);
    const { stored } = await same('UPDATE b SET (i4, i8, bo) = ($1, $2, $3) WHERE id = 1', [
      int4(42),
      int8(9007199254740993n),
      TRUE,
    ]);
    // (PostgreSQL's own answer: the values, not their bytes)
    assert.deepEqual((stored as string[][])[0].slice(0, 4), ['1', '42', '9007199254740993', 'true']);
    await same('UPDATE b SET (f8, n, ts, u) = ROW($1, $2, $3, $4) WHERE id = 2', [
      float8(1.5),
      NUMERIC_12_5,
      TIMESTAMP,
      UUID,
    ]);
    await same('UPDATE b SET tx = $1, (i4, f8) = ($2, $3) WHERE id = 2 RETURNING i4, f8', [
      Buffer.from('x'),
      int4(-7),
      float8(0.1),
    ]);
    await same(
      'INSERT INTO b (id, i4) VALUES (1, 0) ON CONFLICT (id) DO UPDATE SET (i4, ts) = ($1, $2) RETURNING i4, ts',
      [int4(16777217), TIMESTAMP],
    );
  });

  it('a zero byte in a parameter read as text is 22021 with the parameter in CONTEXT, never stored (an int4 where the statement leaves text)', async () => {
    // where PostgreSQL makes the parameter text, the int4's bytes are text with zero bytes
    await same('SELECT $1', [int4(7)]);
    await same('SELECT length($1)', [int4(7)]);
    await same('INSERT INTO b (id, tx) VALUES (3, $1)', [int4(7)]);
    await same('UPDATE b SET tx = $1 WHERE id = 1', [int8(365n)]);
    // a zero byte in a text-format value too, whatever its type
    await same('INSERT INTO b (id, tx) VALUES (4, $1)', [Buffer.from('a\0b')], [0]);
    await same('SELECT count(*) FROM b WHERE i4 = $1', [Buffer.from('4\x002')], [0]);
    // text without one is text, in either format
    await same('INSERT INTO b (id, tx) VALUES (5, $1) RETURNING tx', [Buffer.from('h\u00e9')]);
  });

  it("a parameter PostgreSQL makes text (a subquery's, a VALUES list's in FROM, a WITH query's, a set operation's of unknowns, (SELECT $1)) written into a column of another type is 42804 at the expression (Patina wrote the text, a binary bool's byte 0x01 as true)", async () => {
    const cases: [string, Buffer[]][] = [
      ['INSERT INTO b (id, bo) SELECT * FROM (VALUES (10, $1)) v', [TRUE]],
      ['INSERT INTO b (id, bo) SELECT v.* FROM (VALUES (10, $1)) AS v', [TRUE]],
      ['INSERT INTO b (id, i4) SELECT 10, x FROM (VALUES ($1), (NULL)) v(x)', [int4(16843009)]],
      ['INSERT INTO b (id, bo) SELECT 10, x FROM (SELECT $1 AS x) s', [TRUE]],
      ['INSERT INTO b (id, bo) SELECT 10, (SELECT $1)', [TRUE]],
      ['INSERT INTO b (id, bo) VALUES (10, (SELECT $1 FROM b LIMIT 1))', [TRUE]],
      ['INSERT INTO b (id, bo) SELECT 10, $1 UNION ALL SELECT 11, $2', [TRUE, TRUE]],
      ["INSERT INTO b (id, i4) SELECT 10, $1 UNION ALL SELECT 11, '2'", [int4(16843009)]],
      ['WITH v(x) AS (SELECT $1) INSERT INTO b (id, bo) SELECT 10, x FROM v', [TRUE]],
      ['INSERT INTO b (id, u) WITH v AS (VALUES ($1)) SELECT 10, column1 FROM v', [UUID]],
      ['UPDATE b SET bo = (SELECT $1) WHERE id = 1', [TRUE]],
      ['UPDATE b SET bo = v.x FROM (VALUES ($1)) v(x) WHERE id = 1', [TRUE]],
      ['UPDATE b SET (tx, bo) = (SELECT $1, $2) WHERE id = 1', [Buffer.from('x'), TRUE]],
      ['INSERT INTO b (id) VALUES (1) ON CONFLICT (id) DO UPDATE SET i4 = (SELECT $1)', [int4(16843009)]],
    ];
    for (const [sql, values] of cases) {
      const { answer } = await same(sql, values);
      // (refused by PostgreSQL itself, the case is one)
      assert.equal((answer as { code: string }[])[0]?.code, '42804', sql);
      // in text format too
      await same(sql, [...values.map(() => Buffer.from('1'))], [0]);
    }
    // where PostgreSQL types the parameter it is read as that type: the table's column, a typed
    // branch, a text column (bare items of the INSERT's own SELECT, a set operation with an int)
    const runs: [string, Buffer[]][] = [
      ['INSERT INTO b (id, bo, i4) SELECT 12, $1, $2 FROM b WHERE id = 1', [TRUE, int4(16843009)]],
      ['INSERT INTO b (id, i4) SELECT 13, $1 UNION SELECT 14, 2', [int4(5)]],
      ['INSERT INTO b (id, tx) SELECT * FROM (VALUES (15, $1)) v RETURNING tx', [Buffer.from('t')]],
      ['UPDATE b SET i4 = x FROM (SELECT $1::int4 AS x) s WHERE id = 15 RETURNING i4', [int4(-1)]],
    ];
    for (const [sql, values] of runs) {
      const { answer } = await same(sql, values);
      assert.ok(!(answer as { code?: string }[]).some((a) => a.code), `${sql}: ${JSON.stringify(answer)}`);
    }
  });
});
