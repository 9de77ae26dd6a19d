// A column declared INTEGER or SMALLINT holds what PostgreSQL's int4 and int2 hold: Patina keeps it
// as SQLite's 64-bit INTEGER (int8 on the wire), but a write on the PG port that PostgreSQL refuses
// (22003 `integer out of range`, `smallint out of range`) is refused there too, at every write path:
// INSERT ... VALUES (literals, expressions, rounded decimals, parameters text and binary, one declared
// int8), INSERT ... SELECT, UPDATE ... SET, SET (a, b) = (...), ON CONFLICT DO UPDATE, COPY FROM.
// Before, each of these stored the value (and replicated it). Compared with PostgreSQL 15.
import assert from 'node:assert/strict';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type OracleClients, sameOnBoth, startOracle } from '../helpers/catalog-pair';
import { postJson } from '../helpers/http';
import { WireClient } from '../helpers/pg-wire';

const copyStreams = require('pg-copy-streams') as { from(sql: string): Writable };

const SCHEMA = `CREATE TABLE r (id BIGINT NOT NULL PRIMARY KEY, i INTEGER, s SMALLINT, b BIGINT, k INT4, h INT2, x NUMERIC);
CREATE TABLE kk (id INTEGER NOT NULL PRIMARY KEY, n INTEGER);
CREATE TABLE fr (id BIGINT NOT NULL PRIMARY KEY, i INTEGER, s SMALLINT, b BIGINT, d DOUBLE PRECISION, f REAL, n NUMERIC);`;
const ROWS = [
  'INSERT INTO r (id, i, s, b, x) VALUES (1, 7, 7, 40000000000, 2147483647.5), (2, 2147483647, 32767, 40000, 1.5)',
];

/** The outcome of a statement on a server: its SQLSTATE and message, or 'ok'. */
async function outcome(c: OracleClients['patina'], sql: string, values?: unknown[]): Promise<string> {
  try {
    await c.query({ text: sql, values, rowMode: 'array' });
    return 'ok';
  } catch (err) {
    const e = err as { code: string; message: string };
    return `${e.code} ${e.message}`;
  }
}

/** COPY FROM STDIN of `data`: the error's SQLSTATE, message and CONTEXT, or 'ok'. */
async function copyFrom(c: OracleClients['patina'], sql: string, data: Buffer): Promise<string> {
  const stream = (c as unknown as { query(s: Writable): Writable }).query(copyStreams.from(sql));
  try {
    await pipeline(Readable.from([data]), stream);
    return 'ok';
  } catch (err) {
    const e = err as { code: string; message: string; where?: string };
    return `${e.code} ${e.message} | ${e.where}`;
  }
}

/** A binary COPY payload of rows of (bigint id, one field of `bytes`). */
function binaryCopy(rows: [bigint, Buffer][]): Buffer {
  const parts: Buffer[] = [Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.alloc(8)];
  for (const [id, field] of rows) {
    const head = Buffer.alloc(2 + 4 + 8 + 4);
    head.writeInt16BE(2, 0);
    head.writeInt32BE(8, 2);
    head.writeBigInt64BE(id, 6);
    head.writeInt32BE(field.length, 14);
    parts.push(head, field);
  }
  parts.push(Buffer.from([0xff, 0xff]));
  return Buffer.concat(parts);
}

describe('INTEGER and SMALLINT columns hold what int4 and int2 hold, against PostgreSQL 15', function () {
  this.timeout(60_000);
  let o: OracleClients;

  before(async () => {
    o = await startOracle({ schemas: { patina: SCHEMA, postgres: SCHEMA }, rows: ROWS });
  });
  after(() => o?.close());

  /** The table's rows as both hold them (the integers read as int8: Patina's INTEGER is int8 on the wire). */
  const rows = () => sameOnBoth(o, 'SELECT id, i::int8, s::int8, k, h FROM r ORDER BY id');

  it('refuses a value past the range in every write, with the same SQLSTATE and message (it was stored)', async () => {
    const before = await rows();
    for (const sql of [
      'INSERT INTO r (id, i) VALUES (10, 40000000000)',
      'INSERT INTO r (id, i) VALUES (10, -2147483649)',
      'INSERT INTO r (id, s) VALUES (10, 40000)',
      'INSERT INTO r (id, s) VALUES (10, -32769)',
      'INSERT INTO r (id, i) VALUES (10, 2147483647 + 1)',
      'INSERT INTO r (id, s) VALUES (10, 1), (11, 32767 + 1)',
      'INSERT INTO r (id, i) VALUES (10, 2147483647.5)',
      'INSERT INTO r (id, s) VALUES (10, -32768.5)',
      'INSERT INTO r (id, i) VALUES (10, 1e10)',
      'INSERT INTO r (id, i) VALUES (10, 3e9::float8)',
      'INSERT INTO r (id, i) SELECT 10, b FROM r WHERE id = 1',
      'INSERT INTO r (id, s) SELECT id + 10, b FROM r',
      'INSERT INTO r (id, i) SELECT 10, x FROM r WHERE id = 1',
      'INSERT INTO r (id, i) SELECT * FROM (VALUES (10, 40000000000)) v',
      'UPDATE r SET s = 40000 WHERE id = 1',
      'UPDATE r SET i = i + 1 WHERE id = 2',
      'UPDATE r SET s = s * 2',
      'UPDATE r SET i = b WHERE id = 1',
      'UPDATE r SET (s, i) = (1, 2147483648) WHERE id = 1',
      'UPDATE r SET (i, s) = ROW(1, 40000) WHERE id = 1',
      'INSERT INTO r (id, s) VALUES (2, 1) ON CONFLICT (id) DO UPDATE SET s = excluded.s + r.s',
      'INSERT INTO r (id, i) VALUES (1, 1) ON CONFLICT (id) DO UPDATE SET i = 40000000000',
      // a declared INT4 or INT2 column (int4 and int2 here too) took a fraction and a value past them
      'INSERT INTO r (id, k) VALUES (10, 2147483647.5)',
      'UPDATE r SET h = 40000 WHERE id = 1',
    ]) {
      const p = await outcome(o.patina, sql);
      assert.match(p, /^22003 (integer|smallint) out of range$/, sql);
      assert.equal(p, await outcome(o.postgres, sql), sql);
    }
    assert.deepEqual(await rows(), before);
  });

  it('rounds a double or real into an integer column half to even, a numeric half away from zero (it rounded both away)', async () => {
    for (const c of [o.patina, o.postgres]) {
      await c.query(
        'INSERT INTO fr (id, d, f, n) VALUES (1, 2.5, 2.5, 2.5), (2, 3.5, -0.5, 3.5), (3, -2.5, 0.5, -2.5)',
      );
      await c.query('UPDATE fr SET i = d, b = d, s = f');
      await c.query(
        'INSERT INTO fr (id, i, b, s) VALUES (4, 2.5::float8, 0.5::float8, 2.5::real), (5, 2.5, 0.5, -0.5)',
      );
      await c.query('INSERT INTO fr (id, i, b, s) SELECT id + 10, d, d * 1, n FROM fr WHERE id <= 3');
      await c.query('INSERT INTO fr (id, i) VALUES (1, 9) ON CONFLICT (id) DO UPDATE SET i = fr.d + 2, b = fr.f');
      // a parameter declared float8 (pgjdbc's setDouble) into an integer and a bigint column
      await c.query('PREPARE pf(float8) AS UPDATE fr SET i = $1, b = $1 WHERE id = 5');
      await c.query('EXECUTE pf(4.5)');
      await c.query('DEALLOCATE pf');
    }
    const all = await sameOnBoth(o, 'SELECT id, i::int8, b, s::int8 FROM fr ORDER BY id');
    assert.deepEqual(all[0], ['1', '4', '2', '2'], 'a double 2.5 is 2, plus 2 is 4.5 and 4');
    assert.deepEqual(
      all[4],
      ['5', '4', '4', '-1'],
      'a float8 parameter 4.5 is 4 in both columns; a numeric -0.5 is -1',
    );
  });

  it('takes every value within the range, a fraction rounded into it, as PostgreSQL stores it', async () => {
    for (const c of [o.patina, o.postgres]) {
      await c.query(
        'INSERT INTO r (id, i, s, k, h) VALUES (20, 2147483647, 32767, -2147483648, -32768), (21, -2147483648, -32768, 2147483647, 32767)',
      );
      await c.query('INSERT INTO r (id, i, s, k, h) VALUES (22, 2147483647.4, -32768.4, 2.5, -2.5)');
      await c.query('INSERT INTO r (id, i, s) SELECT id + 30, b, s FROM r WHERE id = 2');
      await c.query('UPDATE r SET i = i - 1, s = s - 1 WHERE id = 20');
      await c.query('INSERT INTO r (id, i, s) VALUES ($1, $2, $3)', [23, '-2147483648', '32767']);
      await c.query('INSERT INTO r (id, s) VALUES (24, 5) ON CONFLICT (id) DO NOTHING');
    }
    await rows();
    assert.deepEqual((await sameOnBoth(o, 'SELECT i::int8, s::int8 FROM r WHERE id = 22')).flat(), [
      '2147483647',
      '-32768',
    ]);
  });

  it('refuses a parameter past the range, text, binary or declared int8 (the SQLSTATE PostgreSQL gives)', async () => {
    const before = await rows();
    // text (node-postgres sends no types): PostgreSQL reads it as int4 at Bind
    for (const [sql, values] of [
      ['INSERT INTO r (id, i) VALUES ($1, $2)', [30, '40000000000']],
      ['INSERT INTO r (id, s) VALUES ($1, $2)', [30, '40000']],
      ['UPDATE r SET s = $1 WHERE id = 1', ['-40000']],
      ['UPDATE r SET (i, s) = ($1, $2) WHERE id = 1', ['1', '40000']],
      // declared int8 by a cast: assigned as an int8, 22003 `integer out of range` on both
      ['INSERT INTO r (id, i) VALUES ($1, $2::int8)', [30, '40000000000']],
      ['INSERT INTO r (id, i) SELECT $1, $2::int8', [30, '40000000000']],
    ] as [string, unknown[]][]) {
      const p = await outcome(o.patina, sql, values);
      assert.match(p, /^22003 /, sql);
      assert.equal(p.slice(0, 5), (await outcome(o.postgres, sql, values)).slice(0, 5), sql);
    }
    // binary, declared int8 at Parse (pgjdbc's setLong, a driver's int64): PostgreSQL's assignment
    // of an int8 to an int4 column, 22003 `integer out of range`
    const eight = (n: bigint) => {
      const b = Buffer.alloc(8);
      b.writeBigInt64BE(n);
      return b;
    };
    for (const port of [o.pair.patinaPort, o.pair.postgresPort]) {
      const c = await WireClient.open(port, { user: 'tester', database: 'db' });
      try {
        for (const [sql, n] of [
          ['INSERT INTO r (id, i) VALUES ($1, $2)', 40000000000n],
          ['INSERT INTO r (id, s) VALUES ($1, $2)', -40000n],
          ['UPDATE r SET i = $2 WHERE id = $1', 2147483648n],
        ] as [string, bigint][]) {
          const r = await c.extended(sql, {
            types: [20, 20],
            values: [eight(sql.startsWith('UPDATE') ? 1n : 31n), eight(n)],
            formats: [1],
          });
          assert.deepEqual(
            r.errors.map((e) => `${e.code} ${e.message}`),
            [`22003 ${sql.includes('s)') ? 'smallint' : 'integer'} out of range`],
            `${port}: ${sql}`,
          );
        }
      } finally {
        c.end();
      }
    }
    assert.deepEqual(await rows(), before);
  });

  it('COPY FROM refuses a value past the range, in text, csv and binary, with its CONTEXT line', async () => {
    const before = await rows();
    for (const [sql, data] of [
      ['COPY r (id, i) FROM STDIN', '40\t40000000000\n'],
      ['COPY r (id, s) FROM STDIN', '40\t1\n41\t-40000\n'],
      ['COPY r (id, s) FROM STDIN (FORMAT csv)', '40,32768\n'],
    ]) {
      const p = await copyFrom(o.patina, sql, Buffer.from(data));
      assert.match(p, /^22003 value ".*" is out of range for type (integer|smallint) \| COPY r, line \d+, column/);
      assert.equal(p, await copyFrom(o.postgres, sql, Buffer.from(data)), sql);
    }
    // binary: a 4-byte field past int2's range into a SMALLINT column (PostgreSQL refuses the field's
    // length for int2, 22P03; Patina reads an int4 there, as a client typed from a PostgreSQL schema
    // may send, and refuses its value, 22003); nothing is stored on either
    const four = Buffer.alloc(4);
    four.writeInt32BE(40000);
    const data = binaryCopy([
      [42n, Buffer.from([0, 1])],
      [43n, four],
    ]);
    const p = await copyFrom(o.patina, 'COPY r (id, s) FROM STDIN (FORMAT binary)', data);
    assert.match(p, /^22003 value "40000" is out of range for type smallint \| COPY r, line 2, column s/);
    assert.match(await copyFrom(o.postgres, 'COPY r (id, s) FROM STDIN (FORMAT binary)', data), /^22P03 /);
    // (within the range, COPY takes them on both)
    for (const c of [o.patina, o.postgres])
      assert.equal(await copyFrom(c, 'COPY r (id, i, s) FROM STDIN', Buffer.from('44\t-2147483648\t-32768\n')), 'ok');
    await sameOnBoth(o, 'SELECT count(*) FROM r WHERE id BETWEEN 40 AND 44');
    assert.deepEqual((await rows()).length, before.length + 1);
  });

  it('reads: a literal past the range compared with the column is 22003 at it, a number past it finds no row', async () => {
    // (the extended protocol: the simple one binds such a comparison's literal as an int8, below in docs)
    for (const sql of [
      "SELECT id FROM r WHERE s = '40000' AND id = $1",
      "SELECT id FROM r WHERE i = '3000000000' AND id = $1",
    ]) {
      const err = async (c: OracleClients['patina']) => {
        try {
          await c.query(sql, [1]);
          return null;
        } catch (e) {
          const x = e as { code: string; message: string; position: string };
          return [x.code, x.message, x.position];
        }
      };
      const p = await err(o.patina);
      assert.equal(p?.[0], '22003', sql);
      assert.deepEqual(p, await err(o.postgres), sql);
    }
    await sameOnBoth(o, 'SELECT count(*) FROM r WHERE s = 40000 OR i = 40000000000 OR s > 32767');
  });

  it("an INTEGER PRIMARY KEY (SQLite's rowid) keeps Patina's 63-bit keys: patina_id(), COPY, UPDATE (Patina's own rule)", async () => {
    const c = o.patina;
    await c.query('INSERT INTO kk (id, n) VALUES (patina_id(), 1), ($1, 2)', ['9223372036854775807']);
    assert.equal(await copyFrom(c, 'COPY kk (id, n) FROM STDIN', Buffer.from('9223372036854775806\t3\n')), 'ok');
    await c.query('UPDATE kk SET id = 40000000000 WHERE n = 3');
    assert.equal((await c.query('SELECT count(*)::int8 FROM kk WHERE id > 2147483647 AND n > 1')).rows[0].count, '2');
    // (its other INTEGER columns are int4's)
    assert.match(await outcome(c, 'UPDATE kk SET n = 40000000000'), /^22003 integer out of range$/);
    assert.match(await copyFrom(c, 'COPY kk (id, n) FROM STDIN', Buffer.from('5\t3000000000\n')), /^22003 /);
  });

  it('a stored value past int4 in an INT4 column (written over HTTP, in SQLite) is never sent as a wrong 4-byte value', async () => {
    const w = await postJson(o.pair.agent.http, '/v1/transactions', [
      'INSERT INTO r (id, k, h) VALUES (50, 40000000000, 40000)',
    ]);
    assert.equal(w.status, 200, w.text);
    const c = await WireClient.open(o.pair.patinaPort, { user: 'tester', database: 'db' });
    try {
      for (const [column, type] of [
        ['k', 'integer'],
        ['h', 'smallint'],
      ])
        for (const format of [0, 1]) {
          const r = await c.extended(`SELECT ${column} FROM r WHERE id = 50`, { resultFormats: [format] });
          assert.deepEqual(r.rows, [], `${column} format ${format}`);
          assert.deepEqual(
            r.errors.map((e) => `${e.code} ${e.message}`),
            [`22003 ${type} out of range`],
            `${column} format ${format}`,
          );
        }
      // read as int8 it is its value
      const r = await c.extended('SELECT k::int8 FROM r WHERE id = 50', { resultFormats: [0] });
      assert.equal(r.rows[0][0]!.toString(), '40000000000');
    } finally {
      c.end();
    }
  });
});
