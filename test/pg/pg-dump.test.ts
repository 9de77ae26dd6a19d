// pg_dump from Patina, loaded with psql into a fresh PostgreSQL 15 database: the tables, their
// columns, defaults, primary keys and indexes come out as PostgreSQL's own dump of the same schema.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type CatalogPair, createDatabase, startCatalogPair } from '../helpers/catalog-pair';
import { psql } from '../helpers/pg';

function pgDump(port: number, args: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync('pg_dump', ['-h', '127.0.0.1', '-p', String(port), '-U', 'tester', ...args, 'db'], {
    encoding: 'utf8',
    timeout: 60000,
    env: { ...process.env, PGCONNECT_TIMEOUT: '10' },
  });
}

/** A dump without its comments and pg_dump's per-run \restrict key. */
const body = (dump: string) =>
  dump
    .split('\n')
    .filter((l) => !l.startsWith('--') && !/^\\(un)?restrict /.test(l) && l !== '')
    .join('\n');

/** Loads SQL into a new database of the oracle PostgreSQL, stopping at the first error. */
function load(pair: CatalogPair, db: string, sql: string): void {
  createDatabase(pair.postgresPort, db);
  const r = spawnSync(
    'psql',
    ['-X', '-v', 'ON_ERROR_STOP=1', '-q', '-h', '127.0.0.1', '-p', String(pair.postgresPort), '-U', 'tester', '-d', db],
    { input: sql, encoding: 'utf8' },
  );
  assert.equal(r.status, 0, `psql could not load the dump:\n${r.stderr}`);
  assert.equal(r.stderr, '');
}

/** The rows of the three tables in a database of the oracle, as psql prints them unaligned. */
function rowsOf(pair: CatalogPair, db: string): string {
  return spawnSync(
    'psql',
    [
      '-X',
      '-A',
      '-t',
      '-h',
      '127.0.0.1',
      '-p',
      String(pair.postgresPort),
      '-U',
      'tester',
      '-d',
      db,
      '-c',
      'SELECT id, customer_id, amount::float8, note, paid, placed_at, ref FROM orders ORDER BY id',
      '-c',
      'SELECT * FROM customers ORDER BY id',
      '-c',
      'SELECT * FROM line_items ORDER BY order_id, line',
    ],
    { encoding: 'utf8' },
  ).stdout;
}

/** psql's description of every table and index of a database of the oracle. */
function descriptionOf(pair: CatalogPair, db: string): string {
  const r = spawnSync(
    'psql',
    ['-X', '-h', '127.0.0.1', '-p', String(pair.postgresPort), '-U', 'tester', '-d', db, '-c', '\\d'],
    { encoding: 'utf8' },
  );
  const tables = ['customers', 'orders', 'line_items', 'customers_pkey', 'orders_pkey', 'line_items_pkey'];
  const idx = ['orders_customer', 'orders_paid_placed'];
  const each = [...tables, ...idx].map(
    (t) =>
      spawnSync(
        'psql',
        ['-X', '-h', '127.0.0.1', '-p', String(pair.postgresPort), '-U', 'tester', '-d', db, '-c', `\\d ${t}`],
        {
          encoding: 'utf8',
        },
      ).stdout,
  );
  return [r.stdout, ...each].join('\n');
}

describe('pg_dump', function () {
  this.timeout(120000);
  let pair: CatalogPair;

  before(async () => {
    pair = await startCatalogPair({ rows: true });
  });
  after(() => pair?.dispose());

  it('--schema-only writes the tables, defaults, primary keys and indexes as PostgreSQL does', () => {
    const fromPatina = pgDump(pair.patinaPort, ['--schema-only']);
    assert.equal(fromPatina.status, 0, fromPatina.stderr);
    assert.equal(fromPatina.stderr, '');
    const fromPostgres = pgDump(pair.postgresPort, ['--schema-only']);
    assert.equal(fromPostgres.status, 0, fromPostgres.stderr);
    assert.equal(body(fromPatina.stdout), body(fromPostgres.stdout));
    assert.match(fromPatina.stdout, /ADD CONSTRAINT line_items_pkey PRIMARY KEY \(order_id, line\)/);
  });

  it('a schema dump loads into a fresh PostgreSQL 15 and describes as the original does', () => {
    const dump = pgDump(pair.patinaPort, ['--schema-only']);
    assert.equal(dump.status, 0, dump.stderr);
    load(pair, 'from_patina', dump.stdout);
    assert.equal(descriptionOf(pair, 'from_patina'), descriptionOf(pair, 'db'));
  });

  for (const [label, db, args] of [
    ['COPY', 'with_rows', []],
    // --inserts reads each table through `DECLARE ... CURSOR FOR SELECT ... FROM ONLY public.t`
    // (it was `no such table: ONLY`)
    ['INSERT statements (--inserts)', 'with_inserts', ['--inserts']],
  ] as const)
    it(`a full dump carries the rows as ${label}, which load into PostgreSQL`, () => {
      const dump = pgDump(pair.patinaPort, [...args]);
      assert.equal(dump.status, 0, dump.stderr);
      if (args.length > 0) assert.match(dump.stdout, /INSERT INTO public\.orders/);
      load(pair, db, dump.stdout);
      assert.equal(rowsOf(pair, db), rowsOf(pair, 'db'));
      assert.match(rowsOf(pair, db), /1\|ann\|ann@example.com/);
    });

  it('a parallel dump (-j) fails naming what Patina cannot do, rather than a query with no rows', () => {
    const dir = path.join(os.tmpdir(), `patina-dump-j-${process.pid}`);
    const r = pgDump(pair.patinaPort, ['-j', '2', '-Fd', '-f', dir]);
    fs.rmSync(dir, { recursive: true, force: true });
    assert.notEqual(r.status, 0);
    assert.match(r.stderr, /exporting a snapshot \(pg_export_snapshot\(\)\) is not supported: .*leave out -j/);
  });

  it("-t naming a table dumps that table alone; naming none that exists fails with pg_dump's message", () => {
    const one = pgDump(pair.patinaPort, ['--schema-only', '-t', 'orders']);
    assert.equal(one.status, 0, one.stderr);
    assert.match(one.stdout, /CREATE TABLE public\.orders/);
    assert.doesNotMatch(one.stdout, /CREATE TABLE public\.customers/);
    const none = pgDump(pair.patinaPort, ['--schema-only', '-t', 'no_such_table']);
    assert.notEqual(none.status, 0);
    assert.match(none.stderr, /no matching tables were found/);
  });

  it('LOCK TABLE IN ACCESS SHARE MODE (what pg_dump takes) is accepted; stronger modes are refused naming the mode', () => {
    const share = psql(pair.patinaPort, ['BEGIN', 'LOCK TABLE public.orders IN ACCESS SHARE MODE', 'COMMIT']);
    assert.equal(share.status, 0, share.stderr);
    assert.equal(share.stdout, 'BEGIN\nLOCK TABLE\nCOMMIT\n');
    for (const [stmt, mode] of [
      ['LOCK TABLE orders', 'ACCESS EXCLUSIVE'],
      ['LOCK TABLE orders IN ROW EXCLUSIVE MODE', 'ROW EXCLUSIVE'],
    ]) {
      const r = psql(pair.patinaPort, [stmt], ['-v', 'VERBOSITY=verbose']);
      assert.notEqual(r.status, 0);
      assert.match(r.stderr, new RegExp(`0A000: LOCK TABLE \\.\\.\\. IN ${mode} MODE is not supported`));
    }
  });

  it('the dump names the connected user as the owner', () => {
    const dump = pgDump(pair.patinaPort, ['--schema-only']);
    assert.equal(dump.status, 0, dump.stderr);
    assert.match(dump.stdout, /ALTER TABLE public\.orders OWNER TO tester;/);
  });
});
