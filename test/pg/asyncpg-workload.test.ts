// asyncpg as an application uses it (test/fixtures/asyncpg-workload/workload.py): executemany,
// fetch of every column type (binary), copy_records_to_table, copy_from_query / copy_from_table /
// copy_to_table, prepare() with get_attributes() and get_parameters(), transactions, cursor()
// iteration, a cursor's forward(), custom type codecs and errors. The same script runs on PostgreSQL
// 15 and on Patina; what it prints must be the same.
// Found: Cursor.forward() (`MOVE FORWARD n "__asyncpg_portal_1__"`, the portal of the cursor's Bind)
// was 34000 `cursor "__asyncpg_portal_1__" does not exist`: FETCH and MOVE did not reach a portal.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { type CatalogPair, startCatalogPair } from '../helpers/catalog-pair';

const SCRIPT = path.resolve(__dirname, '..', '..', '..', 'test', 'fixtures', 'asyncpg-workload', 'workload.py');

// (BIGINT and DOUBLE PRECISION, the integer and float types Patina keeps; a plain NUMERIC whose values
// end in no zero, which such a column loses: docs/postgres.md)
const SCHEMA = `CREATE TABLE vals (id BIGINT NOT NULL PRIMARY KEY, n NUMERIC, price NUMERIC(10,2), big BIGINT,
  f DOUBLE PRECISION, ts TIMESTAMP, tstz TIMESTAMPTZ, d DATE, t TIME, iv INTERVAL, j JSON, jb JSONB, b BYTEA,
  u UUID, ok BOOLEAN, tags TEXT[], ints BIGINT[], c CHAR(3), vc VARCHAR(10));`;

/** What the script printed (Debian's python3, which has asyncpg). */
function workload(port: number): [string, unknown][] {
  const r = spawnSync('/usr/bin/python3', [SCRIPT, String(port)], { encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.status, 0, `${SCRIPT} on ${port}:\n${r.stderr}${r.stdout}`);
  return JSON.parse(r.stdout);
}

describe('asyncpg workload against PostgreSQL 15', function () {
  this.timeout(180_000);
  let pair: CatalogPair;

  before(async () => {
    pair = await startCatalogPair({ schemas: { patina: SCHEMA, postgres: SCHEMA }, rows: [] });
  });
  after(() => pair?.dispose());

  it("every step sees what it saw on PostgreSQL (a cursor's forward() moves its portal)", () => {
    const postgres = workload(pair.postgresPort);
    const patina = workload(pair.patinaPort);
    assert.deepEqual(
      patina.map((s) => s[0]),
      postgres.map((s) => s[0]),
    );
    const on = (name: string) => postgres.find((s) => s[0] === name)?.[1];
    assert.equal(on('cursor forward'), 1); // the oracle moved
    assert.deepEqual(on('cursor fetchrow after forward'), [4]);
    for (let k = 0; k < postgres.length; k++) assert.deepEqual(patina[k], postgres[k], postgres[k][0]);
  });
});
