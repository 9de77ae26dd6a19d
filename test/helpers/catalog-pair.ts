// A Patina agent and a real PostgreSQL 15 holding the same tables (test/fixtures/catalog-schema.ts):
// PostgreSQL is the oracle of what a client's schema browsing should see.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { POSTGRES_SCHEMA, PATINA_SCHEMA, ROWS } from '../fixtures/catalog-schema';
import { type AgentProcess, startAgent } from './agent';
import { type PgClient, pgClient, psql } from './pg';
import { type BenchPostgres, startPostgres, stopPostgres } from './postgres-server';

/** Both servers, each with database `db` and user `tester`. */
export interface CatalogPair {
  agent: AgentProcess;
  postgres: BenchPostgres;
  /** PostgreSQL listener port of Patina, then of PostgreSQL. */
  patinaPort: number;
  postgresPort: number;
  dispose(): Promise<void>;
}

/** Runs psql on `port` as tester@db; its stdout, failing the test on any error. */
export function psqlOk(
  port: number,
  commands: string[],
  extra: string[] = [],
  env: Record<string, string> = {},
): string {
  const r = psql(port, commands, extra, env);
  assert.equal(r.status, 0, `psql ${commands.join('; ')}:\n${r.stderr}`);
  return r.stdout;
}

/** CREATE DATABASE on a PostgreSQL server (connected to its `postgres` database). */
export function createDatabase(port: number, name: string): void {
  const r = spawnSync(
    'psql',
    ['-X', '-h', '127.0.0.1', '-p', String(port), '-U', 'tester', '-d', 'postgres', '-c', `CREATE DATABASE ${name}`],
    { encoding: 'utf8' },
  );
  assert.equal(r.status, 0, `CREATE DATABASE ${name}: ${r.stderr}`);
}

/**
 * Starts both servers with the fixture's schema (and its rows when `rows`), or with a schema of the
 * test's own: `schemas` as Patina's schema file and PostgreSQL's DDL, then `rows` run on both.
 */
export async function startCatalogPair(
  opts: { rows?: boolean | string[]; schemas?: { patina: string; postgres: string } } = {},
): Promise<CatalogPair> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'patina-catalog-'));
  const postgres = await startPostgres(dir, ['fsync=off', 'TimeZone=UTC'], 'tester');
  let agent: AgentProcess | undefined;
  try {
    createDatabase(postgres.port, 'db');
    psqlOk(postgres.port, [opts.schemas?.postgres ?? POSTGRES_SCHEMA]);
    agent = await startAgent({ schema: opts.schemas?.patina ?? PATINA_SCHEMA, args: ['--pg-addr', '127.0.0.1:0'] });
    const rows = opts.rows === true ? ROWS : opts.rows || [];
    for (const port of [postgres.port, agent.pg!.port]) if (rows.length > 0) psqlOk(port, rows);
  } catch (err) {
    await agent?.dispose();
    stopPostgres(postgres);
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  const a = agent;
  return {
    agent: a,
    postgres,
    patinaPort: a.pg!.port,
    postgresPort: postgres.port,
    async dispose() {
      await a.dispose();
      stopPostgres(postgres);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Both servers with a node-postgres client connected to each: the oracle tests' setup. */
export interface OracleClients {
  pair: CatalogPair;
  patina: PgClient;
  postgres: PgClient;
  close(): Promise<void>;
}

export async function startOracle(opts: Parameters<typeof startCatalogPair>[0] = {}): Promise<OracleClients> {
  const pair = await startCatalogPair(opts);
  const patina = pgClient(pair.patinaPort);
  const postgres = pgClient(pair.postgresPort);
  await patina.connect();
  await postgres.connect();
  return {
    pair,
    patina,
    postgres,
    async close() {
      await patina.end();
      await postgres.end();
      await pair.dispose();
    },
  };
}

/**
 * The oracle for one `describe`: both servers started before its tests (the same schema on each)
 * and closed after; `same` runs a statement on both and compares, `clients()` gives the clients.
 */
export function oracleSuite(
  schema: string,
  rows: string[],
): {
  same: (sql: string, params?: unknown[]) => Promise<unknown[][]>;
  clients: () => OracleClients;
} {
  let o: OracleClients | undefined;
  before(async () => {
    o = await startOracle({ schemas: { patina: schema, postgres: schema }, rows });
  });
  after(() => o?.close());
  return { same: (sql, params) => sameOnBoth(o!, sql, params), clients: () => o! };
}

/**
 * Runs `sql` on both servers; fails unless the rows (in any order when `sorted`), the column type
 * OIDs and the row counts are the same. Returns Patina's rows.
 */
export async function sameOnBoth(
  o: OracleClients,
  sql: string,
  params?: unknown[],
  opts: { sorted?: boolean; types?: boolean } = {},
): Promise<unknown[][]> {
  const p = await o.patina.query({ text: sql, values: params, rowMode: 'array' });
  const g = await o.postgres.query({ text: sql, values: params, rowMode: 'array' });
  const order = (rows: unknown[][]) =>
    opts.sorted ? [...rows].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1)) : rows;
  assert.deepEqual(order(p.rows), order(g.rows), `${sql} ${JSON.stringify(params ?? [])}`);
  const types = (r: { fields: { dataTypeID: number }[] }) => r.fields.map((f) => f.dataTypeID);
  if (opts.types !== false) assert.deepEqual(types(p), types(g), `column types of ${sql}`);
  assert.equal(p.rowCount, g.rowCount, `row count of ${sql}`);
  return p.rows;
}

/** Runs `sql` on both servers: the same rows and column types, or the same SQLSTATE and message. */
export async function sameOutcomeOnBoth(o: OracleClients, sql: string): Promise<void> {
  const run = async (c: OracleClients['patina']) => {
    try {
      const r = await c.query({ text: sql, rowMode: 'array' });
      return { rows: r.rows, types: r.fields.map((f) => f.dataTypeID) };
    } catch (e) {
      const err = e as { code?: string; message: string };
      return { code: err.code, message: err.message };
    }
  };
  assert.deepEqual(await run(o.patina), await run(o.postgres), sql);
}
