// psycopg 3 as an application uses it (test/fixtures/psycopg3-types-workload/workload.py): text and binary
// cursors over every column type, executemany (returning=True), Json/Jsonb adapters, row factories,
// prepare_threshold=0, server-side cursors (itersize, scrollable, binary, withhold), COPY in binary
// both ways and in text, transactions and TypeInfo. The same script runs on PostgreSQL 15 and on
// Patina; what it prints must be the same. (It found nothing new: what differs is in
// docs/postgres.md, and left out here: INTEGER and REAL columns are int8 and float8, a plain NUMERIC
// loses its trailing zeros, an array of more than one dimension has no binary form, ranges.)
import assert from 'node:assert/strict';
import { type CatalogPair, startCatalogPair } from '../helpers/catalog-pair';
import { fixture, pythonSteps, sameSteps } from '../helpers/workload';
import { TYPES_SCHEMA as SCHEMA } from '../fixtures/workload-schema';

const SCRIPT = fixture('psycopg3-types-workload', 'workload.py');

describe('psycopg 3 types workload against PostgreSQL 15', function () {
  this.timeout(180_000);
  let pair: CatalogPair;

  before(async () => {
    pair = await startCatalogPair({ schemas: { patina: SCHEMA, postgres: SCHEMA }, rows: [] });
  });
  after(() => pair?.dispose());

  it('every step sees what it saw on PostgreSQL (binary cursors, COPY in binary, server-side cursors, prepare_threshold=0)', () => {
    const postgres = pythonSteps(SCRIPT, pair.postgresPort);
    const patina = pythonSteps(SCRIPT, pair.patinaPort);
    const on = (name: string) => JSON.stringify(postgres.find((s) => s[0] === name)?.[1]);
    assert.match(on('COPY FROM binary'), /^2$/); // the oracle ran the steps
    assert.match(on('server-side fetchmany'), /^\[\[1,/);
    sameSteps(patina, postgres);
  });
});
