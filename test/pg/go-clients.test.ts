// Go's pgx (v4, Debian's golang-github-jackc-pgx-v4-dev) as Go services use it: one program
// (test/fixtures/go-clients/pgx_check.go, built once here with Debian's Go, about 20 s the first
// time) run against PostgreSQL 15 and against Patina, each printing what the program saw; the two
// must match. pgx binds and reads in binary, pipelines batches, and sends binary COPY without the
// trailer (PostgreSQL ends the data where a row would start): Patina answered that COPY with 22P04
// `unexpected EOF in COPY data`.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type CatalogPair, startCatalogPair } from '../helpers/catalog-pair';
import { goBuild } from '../helpers/go';

const TABLES = `CREATE TABLE books (id BIGINT NOT NULL PRIMARY KEY, title TEXT NOT NULL DEFAULT '', price NUMERIC(10,2),
  author_id BIGINT, tags TEXT[], meta JSONB, created_at TIMESTAMPTZ, updated_at TIMESTAMPTZ);`;

const SOURCE = path.resolve(__dirname, '..', '..', '..', 'test', 'fixtures', 'go-clients', 'pgx_check.go');

describe('Go: pgx against PostgreSQL 15', function () {
  this.timeout(180_000);
  let pair: CatalogPair;
  let dir: string;
  let program: string;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'patina-go-'));
    program = goBuild(SOURCE, dir);
    pair = await startCatalogPair({ schemas: { patina: TABLES, postgres: TABLES }, rows: [] });
  });
  after(async () => {
    await pair?.dispose();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const run = (port: number): unknown[] => {
    const r = spawnSync(program, [String(port)], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(r.status, 0, `pgx_check on ${port}:\n${r.stderr}${r.stdout}`);
    return JSON.parse(r.stdout);
  };

  it('binds and reads in binary, ANY($1), a batch with an error, a rollback, binary COPY without trailer, 23505', () => {
    const postgres = run(pair.postgresPort);
    const patina = run(pair.patinaPort);
    assert.equal(postgres.length, 10);
    // every step ran on the oracle without an error other than the two the program provokes
    const errors = postgres.filter((s) => (s as unknown[])[1] === 'ERROR').map((s) => (s as unknown[])[0]);
    assert.deepEqual(errors, ['dup']);
    assert.deepEqual(patina, postgres);
  });
});
