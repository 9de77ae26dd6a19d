// COPY in binary format, what drivers' bulk loaders send (asyncpg's copy_records_to_table, psycopg
// 3's binary copy, pgx's CopyFrom, Npgsql's binary import): the same script on PostgreSQL 15 and on
// Patina must print the same document (rows read back, COPY tags, SQLSTATEs of bad rows, bad data).
// It was refused with 0A000; asyncpg's copy_records_to_table could not load a table. And text COPY
// into an array column (a BIGINT[] was read as one bigint: 22P02).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { type CatalogPair, startCatalogPair } from '../helpers/catalog-pair';

const PYTHON = '/usr/bin/python3'; // Debian's python3, which has asyncpg and psycopg 3
const SCRIPT = path.resolve(__dirname, '..', '..', '..', 'test', 'fixtures', 'copy-clients', 'copy_binary.py');
const TABLE = `CREATE TABLE cb (id BIGINT NOT NULL PRIMARY KEY, i4 BIGINT, f DOUBLE PRECISION, n NUMERIC(12,3), t TEXT,
  b BYTEA, d DATE, ts TIMESTAMPTZ, tsn TIMESTAMP, iv INTERVAL, j JSONB, arr BIGINT[], tags TEXT[], ok BOOLEAN,
  u UUID, v VARCHAR(5));`;

function run(port: number): unknown {
  const r = spawnSync(PYTHON, [SCRIPT, String(port)], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 0, `${SCRIPT} on ${port}:\n${r.stderr}${r.stdout}`);
  return JSON.parse(r.stdout);
}

describe('COPY FORMAT binary through asyncpg and psycopg 3, against PostgreSQL 15', function () {
  this.timeout(120_000);
  let pair: CatalogPair;

  before(async () => {
    pair = await startCatalogPair({ schemas: { patina: TABLE, postgres: TABLE }, rows: [] });
  });
  after(() => pair?.dispose());

  it('loads and reads back every column type both ways, refuses bad rows and bad data with the same SQLSTATEs', () => {
    const postgres = run(pair.postgresPort) as Record<string, unknown>;
    const patina = run(pair.patinaPort);
    // the script checked what it should (a sanity check of the oracle's own answer)
    assert.equal(postgres.records, 'COPY 3');
    assert.deepEqual(postgres.bad, ['22001', '23505']);
    assert.equal(postgres.garbage, '22P04');
    assert.deepEqual(postgres.arrays, [
      [20, [1, 2, 3], ['a', 'b c', null]],
      [21, [], null],
    ]);
    assert.equal(postgres.bad_array, '22P02');
    assert.deepEqual(patina, postgres);
  });

  it("takes an int4, int2 or float4 field for an integer or double column (Patina's INTEGER is int8)", () => {
    // what a client sends when its types come from a PostgreSQL schema with INTEGER and REAL columns
    const script = `import psycopg, sys
with psycopg.connect(f'host=127.0.0.1 port={sys.argv[1]} user=tester dbname=db sslmode=disable', autocommit=True) as c:
    with c.cursor() as cur:
        with cur.copy('COPY cb (id, i4, f) FROM STDIN (FORMAT BINARY)') as cp:
            cp.set_types(['int4', 'int2', 'float4'])
            cp.write_row((90, -7, 0.5))
        print(cur.execute('SELECT id, i4, f FROM cb WHERE id = 90').fetchone())
`;
    const r = spawnSync(PYTHON, ['-c', script, String(pair.patinaPort)], { encoding: 'utf8', timeout: 30_000 });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, '(90, -7, 0.5)\n');
  });
});
