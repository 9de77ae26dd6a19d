// The type of each parameter, from where it stands (PostgreSQL's parse tree: BETWEEN, IN lists,
// `= ANY($1)`, arithmetic, COALESCE, CASE, conditions, INSERT ... SELECT, ON CONFLICT SET, UPDATE
// SET): asyncpg encodes every argument in binary by the type ParameterDescription names, so a
// parameter left `text` refused a datetime or an int ("expected str, got datetime"). The same
// statements through asyncpg on PostgreSQL 15 and on Patina: the same parameter types and rows.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { type OracleClients, startOracle } from '../helpers/catalog-pair';

const PYTHON = '/usr/bin/python3'; // Debian's python3, which has asyncpg
const SCRIPT = path.resolve(__dirname, '..', '..', '..', 'test', 'fixtures', 'param-types', 'asyncpg_params.py');

function run(port: number): [string, ...unknown[]][] {
  const r = spawnSync(PYTHON, [SCRIPT, String(port)], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

describe('parameter types from where they stand, through asyncpg, against PostgreSQL 15', function () {
  this.timeout(90_000);
  let o: OracleClients;

  before(async () => {
    o = await startOracle({ rows: true });
  });
  after(() => o?.close());

  it('BETWEEN, IN, = ANY, arithmetic, COALESCE, CASE, conditions, subqueries and writes type their parameters', () => {
    const postgres = run(o.pair.postgresPort);
    const patina = run(o.pair.patinaPort);
    assert.ok(postgres.length > 20);
    // PostgreSQL itself runs every case (the list holds no statement it refuses)
    assert.deepEqual(
      postgres.filter((c) => c[1] === 'error' || c[1] === 'client error'),
      [],
    );
    postgres.forEach((want, i) => assert.deepEqual(patina[i], want, String(want[0])));
  });
});
