// psycopg2 as an application uses it (test/fixtures/psycopg2-workload/workload.py): bulk inserts
// (execute_values, executemany), RealDictCursor, named cursors with itersize, a scrollable named
// cursor and its scroll(), FETCH and MOVE in every direction, COPY through copy_expert, copy_from
// and copy_to, typed parameters, GROUP BY over dates, IN and = ANY, errors. The same script runs on
// PostgreSQL 15 and on Patina; what it prints must be the same.
// Found: a SCROLL cursor could not go back (55000 at psycopg2's scroll(-2) or scroll(n, 'absolute')).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { type CatalogPair, startCatalogPair } from '../helpers/catalog-pair';
import { WORKLOAD_SCHEMA as SCHEMA } from '../fixtures/workload-schema';

const SCRIPT = path.resolve(__dirname, '..', '..', '..', 'test', 'fixtures', 'psycopg2-workload', 'workload.py');

/** What the script printed (Debian's python3, which has psycopg2). */
function workload(port: number): [string, ...unknown[]][] {
  const r = spawnSync('/usr/bin/python3', [SCRIPT, String(port)], { encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.status, 0, `${SCRIPT} on ${port}:\n${r.stderr}${r.stdout}`);
  return JSON.parse(r.stdout);
}

describe('psycopg2 workload against PostgreSQL 15', function () {
  this.timeout(180_000);
  let pair: CatalogPair;

  before(async () => {
    pair = await startCatalogPair({ schemas: { patina: SCHEMA, postgres: SCHEMA }, rows: [] });
  });
  after(() => pair?.dispose());

  it('every step sees what it saw on PostgreSQL (a scrollable cursor scrolls back, FETCH PRIOR/LAST/ABSOLUTE/RELATIVE/BACKWARD)', () => {
    const postgres = workload(pair.postgresPort);
    const patina = workload(pair.patinaPort);
    assert.equal(postgres.length, 17); // every step ran on the oracle
    const scroll = postgres.find((s) => s[0] === 'scrollable named cursor');
    assert.equal(scroll?.length, 2, 'the scrolls ran on PostgreSQL');
    for (let k = 0; k < postgres.length; k++) assert.deepEqual(patina[k], postgres[k], postgres[k][0]);
  });
});
