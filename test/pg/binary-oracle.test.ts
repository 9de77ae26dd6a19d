// PostgreSQL 15 as the oracle of the binary format: the same tables and values in a real
// PostgreSQL server and in an agent, read with binary results on both and compared byte for byte
// (RowDescription's type too); then PostgreSQL's own binary encodings sent to the agent as binary
// parameters, stored, and read back in text and binary, again compared with PostgreSQL.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type AgentProcess, startAgent } from '../helpers/agent';
import { type WireClient as Client, WireClient } from '../helpers/pg-wire';
import { type BenchPostgres, startPostgres, stopPostgres } from '../helpers/postgres-server';

/** Per type: the column type in PostgreSQL, in the agent's schema, and values as SQL literals (NULL included). */
const CASES: { name: string; pg: string; patina: string; values: string[] }[] = [
  { name: 'bool', pg: 'bool', patina: 'BOOLEAN', values: ["'true'", "'false'"] },
  { name: 'int2', pg: 'int2', patina: 'INT2', values: ['0', '-32768', '32767'] },
  { name: 'int4', pg: 'int4', patina: 'INT4', values: ['-2147483648', '2147483647', '7'] },
  {
    name: 'int8',
    pg: 'int8',
    patina: 'INTEGER',
    values: ['9223372036854775807', '-9223372036854775808', '9007199254740993', '0'],
  },
  { name: 'float4', pg: 'float4', patina: 'FLOAT4', values: ['0.1', '-1.5', '10000000', "'NaN'", "'-Infinity'"] },
  {
    name: 'float8',
    pg: 'float8',
    patina: 'DOUBLE PRECISION',
    values: ['0.1', '1e15', '-2.5e-5', '123456789.125', "'NaN'", "'Infinity'"],
  },
  {
    name: 'numeric',
    pg: 'numeric',
    patina: 'NUMERIC',
    values: [
      '0',
      '-0.0001',
      '1e30',
      "'NaN'",
      '12345.678',
      '-42',
      '0.5',
      '9999.0001',
      '1e-10',
      "'Infinity'",
      "'-Infinity'",
    ],
  },
  { name: 'text', pg: 'text', patina: 'TEXT', values: ["'hello'", "''", "'héllo ünïcode ✓'"] },
  { name: 'varchar', pg: 'varchar', patina: 'VARCHAR(20)', values: ["'abc'"] },
  { name: 'bpchar', pg: 'bpchar', patina: 'BPCHAR', values: ["'abc'"] },
  { name: 'name', pg: 'name', patina: 'NAME', values: ["'pg_class'"] },
  { name: 'bytea', pg: 'bytea', patina: 'BYTEA', values: ["'\\x00ff10'", "'\\x'"] },
  {
    name: 'date',
    pg: 'date',
    patina: 'DATE',
    values: ["'2026-11-25'", "'1999-12-31'", "'1900-02-28'", "'1970-01-01'", "'0044-03-15 BC'", "'4714-11-24 BC'"],
  },
  { name: 'time', pg: 'time', patina: 'TIME', values: ["'00:00:00'", "'23:59:59.999999'", "'12:34:56.5'"] },
  {
    name: 'timestamp',
    pg: 'timestamp',
    patina: 'TIMESTAMP',
    values: [
      "'1999-12-31 23:59:59.123456'",
      "'1970-01-01 00:00:00'",
      "'2026-11-25 01:02:03.000001'",
      "'1900-01-01 12:00:00'",
      "'0001-12-31 23:59:59.5 BC'",
    ],
  },
  {
    name: 'timestamptz',
    pg: 'timestamptz',
    patina: 'TIMESTAMPTZ',
    values: [
      "'2026-11-25 01:02:03+02'",
      "'1999-12-31 23:59:59.5+00'",
      "'1969-07-20 20:17:40.000001+00'",
      "'2024-01-15 10:30:00 EST'",
      "'0044-03-15 10:00:00 CET BC'",
    ],
  },
  {
    name: 'interval',
    pg: 'interval',
    patina: 'INTERVAL',
    values: ["'1 year 2 mons 3 days 04:05:06.5'", "'-1 days'", "'00:00:00'", "'36:00:00'"],
  },
  {
    name: 'uuid',
    pg: 'uuid',
    patina: 'UUID',
    values: ["'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'", "'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A12'"],
  },
  { name: 'json', pg: 'json', patina: 'JSON', values: ['\'{"a": [1, 2.5, "x"]}\''] },
  {
    name: 'jsonb',
    pg: 'jsonb',
    patina: 'JSONB',
    values: [
      '\'{"a": [1, 2.5, "x"]}\'',
      "'[]'",
      '\'{"bb":1,"a":[1.0,2e2,-0,"x\\u00e9\\n"],"a":{"z":null,"y":true}, "c" : "é"}\'',
      '\'"scalar"\'',
    ],
  },
  { name: 'int4[]', pg: 'int4[]', patina: 'INT4[]', values: ["'{}'", "'{1,NULL,3}'"] },
  { name: 'int8[]', pg: 'int8[]', patina: 'INT8[]', values: ["'{9223372036854775807,-1}'"] },
  {
    name: 'text[]',
    pg: 'text[]',
    patina: 'TEXT[]',
    values: ["'{}'", '\'{"a b","",NULL,"NULL",x,"q\\"uote"}\''],
  },
  { name: 'numeric[]', pg: 'numeric[]', patina: 'NUMERIC[]', values: ["'{0,-0.0001,NaN,1e30}'"] },
  { name: 'float8[]', pg: 'float8[]', patina: 'FLOAT8[]', values: ["'{1.5,NaN,-0.25}'"] },
  { name: 'bool[]', pg: 'bool[]', patina: 'BOOL[]', values: ["'{t,f,NULL}'"] },
  { name: 'date[]', pg: 'date[]', patina: 'DATE[]', values: ["'{2026-01-01,1999-12-31}'"] },
  { name: 'timestamp[]', pg: 'timestamp[]', patina: 'TIMESTAMP[]', values: ['\'{"1999-12-31 23:59:59.123456"}\''] },
  { name: 'uuid[]', pg: 'uuid[]', patina: 'UUID[]', values: ["'{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11,NULL}'"] },
];

const table = (name: string, prefix: string) => `${prefix}_${name.replace('[]', '_arr')}`;

describe('binary format against PostgreSQL 15 (the bytes of every type)', function () {
  this.timeout(120000);
  let dir: string;
  let pg: BenchPostgres;
  let agent: AgentProcess;
  let pgc: Client;
  let pat: Client;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'patina-oracle-'));
    pg = await startPostgres(dir, ['fsync=off', 'TimeZone=UTC'], 'tester');
    const schema = CASES.flatMap((c) => [
      `CREATE TABLE ${table(c.name, 't')} (id INTEGER NOT NULL PRIMARY KEY, v ${c.patina});`,
      `CREATE TABLE ${table(c.name, 'p')} (id INTEGER NOT NULL PRIMARY KEY, v ${c.patina});`,
    ]).join('\n');
    agent = await startAgent({ schema: schema + '\n', args: ['--pg-addr', '127.0.0.1:0'] });
    pgc = await WireClient.open(pg.port, { user: 'tester', database: 'postgres' });
    pat = await WireClient.open(agent.pg!.port, { user: 'tester', database: 'db' });
    for (const c of CASES) {
      for (const prefix of ['t', 'p']) {
        const r = await pgc.exchange(
          serializeQuery(`CREATE TABLE ${table(c.name, prefix)} (id int8 PRIMARY KEY, v ${c.pg})`),
        );
        assert.deepEqual(r.errors, []);
      }
      const values = [...c.values, 'NULL'].map((v, i) => `(${i + 1}, ${v})`).join(', ');
      const insert = `INSERT INTO ${table(c.name, 't')} VALUES ${values}`;
      for (const client of [pgc, pat]) {
        const r = await client.exchange(serializeQuery(insert));
        assert.deepEqual(r.errors, [], `${c.name}: ${insert}`);
      }
    }
  });

  after(async () => {
    pgc?.end();
    pat?.end();
    await agent?.dispose();
    if (pg) stopPostgres(pg);
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** The rows of `sql` on both servers, in `format`, with their RowDescription types. */
  async function both(sql: string, format: number) {
    const [want, got] = await Promise.all([
      pgc.extended(sql, { resultFormats: [format] }),
      pat.extended(sql, { resultFormats: [format] }),
    ]);
    assert.deepEqual(want.errors, [], `PostgreSQL: ${sql}`);
    assert.deepEqual(got.errors, [], `Patina: ${sql}`);
    return { want, got };
  }

  for (const c of CASES) {
    it(`sends ${c.name} in binary as PostgreSQL does (${c.values.join(', ')}, NULL)`, async () => {
      const { want, got } = await both(`SELECT v FROM ${table(c.name, 't')} ORDER BY id`, 1);
      assert.equal(got.fields[0].typeOid, want.fields[0].typeOid, 'RowDescription type');
      assert.equal(got.fields[0].format, 1, 'announced binary');
      const hex = (rows: (Buffer | null)[][]) => rows.map((r) => r[0]?.toString('hex') ?? null);
      assert.deepEqual(hex(got.rows), hex(want.rows));
      const text = await both(`SELECT v FROM ${table(c.name, 't')} ORDER BY id`, 0);
      const utf8 = (rows: (Buffer | null)[][]) => rows.map((r) => r[0]?.toString('utf8') ?? null);
      assert.deepEqual(utf8(text.got.rows), utf8(text.want.rows), 'text format too');
    });
  }

  for (const c of CASES) {
    it(`stores PostgreSQL's binary ${c.name} parameters as their text would be stored`, async () => {
      const source = await pgc.extended(`SELECT v, pg_typeof(v)::oid FROM ${table(c.name, 't')} ORDER BY id`, {
        resultFormats: [1],
      });
      const oid = source.rows[0][1]!.readUInt32BE(0);
      for (const [i, row] of source.rows.entries()) {
        const insert = `INSERT INTO ${table(c.name, 'p')} (id, v) VALUES ($1, $2)`;
        const id = Buffer.alloc(8);
        id.writeBigInt64BE(BigInt(i + 1));
        for (const client of [pgc, pat]) {
          const r = await client.extended(insert, { types: [20, oid], values: [id, row[0]], formats: [1] });
          assert.deepEqual(r.errors, [], `${c.name} parameter ${row[0]?.toString('hex')}`);
        }
      }
      for (const format of [0, 1]) {
        const { want, got } = await both(`SELECT v FROM ${table(c.name, 'p')} ORDER BY id`, format);
        const show = (rows: (Buffer | null)[][]) =>
          rows.map((r) => (r[0] === null ? null : format ? r[0].toString('hex') : r[0].toString('utf8')));
        assert.deepEqual(show(got.rows), show(want.rows), format ? 'read back in binary' : 'read back as text');
      }
    });
  }
});

function serializeQuery(sql: string): Buffer {
  const body = Buffer.from(`${sql}\0`);
  const head = Buffer.alloc(5);
  head.write('Q');
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}
