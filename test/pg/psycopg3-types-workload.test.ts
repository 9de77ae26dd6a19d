// psycopg 3 as an application uses it (test/fixtures/psycopg3-types-workload/workload.py): text and binary
// cursors over every column type, executemany (returning=True), Json/Jsonb adapters, row factories,
// prepare_threshold=0, server-side cursors (itersize, scrollable, binary, withhold), COPY in binary
// both ways and in text, transactions and TypeInfo. The same script runs on PostgreSQL 15 and on
// Patina; what it prints must be the same. (It found nothing new: what differs is in
// docs/postgres.md, and left out here: INTEGER and REAL columns are int8 and float8, a plain NUMERIC
// loses its trailing zeros, an array of more than one dimension has no binary form, ranges.)
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { type CatalogPair, startCatalogPair } from '../helpers/catalog-pair';

const SCRIPT = path.resolve(__dirname, '..', '..', '..', 'test', 'fixtures', 'psycopg3-types-workload', 'workload.py');

const SCHEMA = `CREATE TABLE vals (id BIGINT NOT NULL PRIMARY KEY, n NUMERIC, price NUMERIC(10,2), big BIGINT,
  f DOUBLE PRECISION, ts TIMESTAMP, tstz TIMESTAMPTZ, d DATE, t TIME, iv INTERVAL, j JSON, jb JSONB, b BYTEA,
  u UUID, ok BOOLEAN, tags TEXT[], ints BIGINT[], c CHAR(3), vc VARCHAR(10));`;

/** What the script printed (Debian's python3, which has psycopg 3.1). */
function workload(port: number): [string, unknown][] {
  const r = spawnSync('/usr/bin/python3', [SCRIPT, String(port)], { encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.status, 0, `${SCRIPT} on ${port}:\n${r.stderr}${r.stdout}`);
  return JSON.parse(r.stdout);
}

describe('psycopg 3 types workload against PostgreSQL 15', function () {
  this.timeout(180_000);
  let pair: CatalogPair;

  before(async () => {
    pair = await startCatalogPair({ schemas: { patina: SCHEMA, postgres: SCHEMA }, rows: [] });
  });
  after(() => pair?.dispose());

  it('every step sees what it saw on PostgreSQL (binary cursors, COPY in binary, server-side cursors, prepare_threshold=0)', () => {
    const postgres = workload(pair.postgresPort);
    const patina = workload(pair.patinaPort);
    assert.deepEqual(
      patina.map((s) => s[0]),
      postgres.map((s) => s[0]),
    );
    const on = (name: string) => JSON.stringify(postgres.find((s) => s[0] === name)?.[1]);
    assert.match(on('COPY FROM binary'), /^2$/); // the oracle ran the steps
    assert.match(on('server-side fetchmany'), /^\[\[1,/);
    for (let k = 0; k < postgres.length; k++) assert.deepEqual(patina[k], postgres[k], postgres[k][0]);
  });
});
