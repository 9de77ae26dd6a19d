// psycopg2 as an application uses it (test/fixtures/psycopg2-workload/workload.py): bulk inserts
// (execute_values, executemany), RealDictCursor, named cursors with itersize, a scrollable named
// cursor and its scroll(), FETCH and MOVE in every direction, COPY through copy_expert, copy_from
// and copy_to, typed parameters, GROUP BY over dates, IN and = ANY, errors. The same script runs on
// PostgreSQL 15 and on Patina; what it prints must be the same.
// Found: a SCROLL cursor could not go back (55000 at psycopg2's scroll(-2) or scroll(n, 'absolute')).
import assert from 'node:assert/strict';
import { type CatalogPair, startCatalogPair } from '../helpers/catalog-pair';
import { fixture, pythonSteps, sameSteps } from '../helpers/workload';
import { WORKLOAD_SCHEMA as SCHEMA } from '../fixtures/workload-schema';

const SCRIPT = fixture('psycopg2-workload', 'workload.py');

describe('psycopg2 workload against PostgreSQL 15', function () {
  this.timeout(180_000);
  let pair: CatalogPair;

  before(async () => {
    pair = await startCatalogPair({ schemas: { patina: SCHEMA, postgres: SCHEMA }, rows: [] });
  });
  after(() => pair?.dispose());

  it('every step sees what it saw on PostgreSQL (a scrollable cursor scrolls back, FETCH PRIOR/LAST/ABSOLUTE/RELATIVE/BACKWARD)', () => {
    const postgres = pythonSteps(SCRIPT, pair.postgresPort);
    const patina = pythonSteps(SCRIPT, pair.patinaPort);
    assert.equal(postgres.length, 17); // every step ran on the oracle
    const scroll = postgres.find((s) => s[0] === 'scrollable named cursor');
    assert.equal(scroll?.length, 2, 'the scrolls ran on PostgreSQL');
    sameSteps(patina, postgres);
  });
});
