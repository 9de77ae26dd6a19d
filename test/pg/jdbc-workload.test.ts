// pgjdbc as an application uses it (test/fixtures/jdbc-workload/JdbcWorkload.java): generated keys,
// batches, Calendar and java.time timestamps, savepoints, metadata, a fetch size, scrollable and
// updatable result sets, arrays, JSON, JDBC escapes, errors with their positions. The same program
// runs on PostgreSQL 15 and on Patina and prints one line per step; the two must match.
// Found: executeBatch with autocommit on and a duplicate key stored the rows before it (PostgreSQL:
// none, the batch's one Sync is one implicit transaction).
// Found: a setString value (pgjdbc binds a varchar) into a numeric or date column, and setBoolean
// into a bigint one, were written; PostgreSQL refuses them with 42804 at the parameter.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type CatalogPair, startCatalogPair } from '../helpers/catalog-pair';
import { WORKLOAD_SCHEMA as SCHEMA } from '../fixtures/workload-schema';

const FIXTURE = path.resolve(__dirname, '..', '..', '..', 'test', 'fixtures', 'jdbc-workload', 'JdbcWorkload.java');
const JAR = '/usr/share/java/postgresql.jar';

function run(cmd: string, args: string[]): string {
  const r = spawnSync(cmd, args, { encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.status, 0, `${cmd} ${args.join(' ')}:\n${r.stderr}${r.stdout}`);
  return r.stdout;
}

describe('pgjdbc workload against PostgreSQL 15', function () {
  this.timeout(180_000);
  let pair: CatalogPair;
  let dir: string;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'patina-jdbc-workload-'));
    run('javac', ['-cp', JAR, '-d', dir, FIXTURE]);
    pair = await startCatalogPair({ schemas: { patina: SCHEMA, postgres: SCHEMA }, rows: [] });
  });
  after(async () => {
    await pair?.dispose();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('every step prints what it printed on PostgreSQL (setString into numeric and date columns, setBoolean into bigint: 42804 at the parameter)', () => {
    const lines = (port: number) =>
      run('java', ['-cp', `${dir}:${JAR}`, 'JdbcWorkload', String(port)])
        .trimEnd()
        .split('\n');
    const postgres = lines(pair.postgresPort);
    const patina = lines(pair.patinaPort);
    assert.equal(postgres.length, 38); // every step ran on the oracle
    assert.ok(postgres.some((l) => l.startsWith('setString into a numeric column => 42804')));
    // (a batch with autocommit on is one transaction: a duplicate key stores none of its rows)
    assert.ok(postgres.some((l) => l.startsWith('batch with a failing row => 23505')));
    assert.ok(postgres.includes('after the failing batch => id:int8, |'));
    assert.deepEqual(patina, postgres);
  });
});
