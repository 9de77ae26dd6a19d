// A data-modifying statement in WITH (`WITH d AS (DELETE ... RETURNING *) INSERT INTO archive SELECT
// * FROM d`, `WITH ins AS (INSERT ... RETURNING *) SELECT * FROM ins`) against PostgreSQL 15: the rows,
// their types, the outer statement's command tag and errors as node-postgres sees them, over the
// simple and the extended protocol, in and out of blocks (each was 0A000: 'a data-modifying statement
// in WITH is not supported'). Patina runs the WITH query first and the statement around it after, as
// one write (sql/modifying-with.ts): a failure leaves nothing, and the change feed sees every row.
import assert from 'node:assert/strict';
import type { Readable } from 'node:stream';
import { startCatalogPair, type CatalogPair } from '../helpers/catalog-pair';
import { type PgClient, pgClient } from '../helpers/pg';
import { changes, subscribe } from '../helpers/subscriptions';
import { type Scrape, scrape, value } from '../helpers/metrics';

/** The PG block counters of /metrics: blocks preempted, and committed by replay. */
function blockCounts(s: Scrape): { preempted: number; replayed: number } {
  return {
    preempted: value(s, 'patina_pg_block_holds_preempted_total'),
    replayed: value(s, 'patina_pg_block_commits_total{path="replayed"}'),
  };
}

const COLUMNS =
  'id BIGINT NOT NULL PRIMARY KEY, name TEXT, qty BIGINT, price NUMERIC(10,2), data BYTEA, score DOUBLE PRECISION, at TIMESTAMPTZ, ok BOOLEAN';
const SCHEMA = `CREATE TABLE items (${COLUMNS});
CREATE TABLE archive (${COLUMNS});
CREATE TABLE events (id BIGINT NOT NULL PRIMARY KEY, what TEXT NOT NULL DEFAULT '');`;

const ROWS = `INSERT INTO items VALUES
  (1, 'a', 10, 1.50, '\\x00ff', 1.0, '2024-01-02 03:04:05+00', true),
  (2, 'b', NULL, NULL, NULL, 'Infinity', NULL, false),
  (3, 'c', 30, 3.25, '\\x', 2.5, NULL, NULL),
  (4, 'd', 40, 0.01, '\\x41', -0.5, '1999-12-31 23:59:59.5+00', true)`;

// eslint-disable-next-line @typescript-eslint/no-require-imports
const copyStreams = require('pg-copy-streams') as { to(sql: string): Readable & { rowCount?: number } };

/** What a client sees of a statement: its tag, rows and columns' types, or its error. */
type Seen =
  | { command: string; rowCount: number | null; rows: unknown[][]; fields: string[] }
  | { code: string; message: string; detail?: string };

describe('data-modifying WITH queries, against PostgreSQL 15', function () {
  this.timeout(60_000);
  let pair: CatalogPair;
  const clients: PgClient[] = [];
  before(async () => {
    pair = await startCatalogPair({ schemas: { patina: SCHEMA, postgres: SCHEMA } });
  });
  after(async () => {
    for (const c of clients) await c.end().catch(() => {});
    await pair?.dispose();
  });

  /** A client with every value as its text (no parsing: what came over the wire is compared). */
  async function connect(port: number): Promise<PgClient> {
    const c = pgClient(port, { types: { getTypeParser: () => (v: string) => v } });
    c.on('error', () => {});
    await c.connect();
    clients.push(c);
    return c;
  }

  async function seen(c: PgClient, text: string, values?: unknown[]): Promise<Seen> {
    if (text.startsWith('COPY')) return copied(c, text);
    try {
      const r = await c.query({ text, values, rowMode: 'array' });
      return {
        command: r.command,
        rowCount: r.rowCount,
        rows: r.rows as unknown[][],
        // (a column's table oid differs between the servers: whether it has one, and its attnum)
        fields: r.fields.map(
          (f: { name: string; dataTypeID: number; tableID?: number; columnID?: number }) =>
            `${f.name}:${f.dataTypeID}:${f.tableID ? 'table' : 0}:${f.columnID}`,
        ),
      };
    } catch (err) {
      const e = err as { code: string; message: string; detail?: string };
      return { code: e.code, message: e.message, ...(e.detail ? { detail: e.detail } : {}) };
    }
  }

  /** COPY ... TO STDOUT with pg-copy-streams: its row count and what it sent (binary as hex), or its error. */
  async function copied(c: PgClient, text: string): Promise<Seen> {
    const stream = (c as unknown as { query(s: Readable): Readable & { rowCount?: number } }).query(
      copyStreams.to(text),
    );
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of stream) chunks.push(chunk as Buffer);
    } catch (err) {
      const e = err as { code: string; message: string; detail?: string };
      return { code: e.code, message: e.message, ...(e.detail ? { detail: e.detail } : {}) };
    }
    const data = Buffer.concat(chunks);
    const out = text.includes('binary') ? data.toString('hex') : data.toString('utf8');
    return { command: 'COPY', rowCount: stream.rowCount ?? null, rows: [[out]], fields: [] };
  }

  /** Runs the steps (text and parameters) in one session on each server, from the same rows; returns Patina's. */
  async function same(steps: (string | [string, unknown[]])[]): Promise<Seen[]> {
    const run = async (port: number) => {
      const c = await connect(port);
      await c.query('DELETE FROM items; DELETE FROM archive; DELETE FROM events');
      await c.query(ROWS);
      const out: Seen[] = [];
      for (const s of steps) out.push(typeof s === 'string' ? await seen(c, s) : await seen(c, s[0], s[1]));
      return out;
    };
    const p = await run(pair.patinaPort);
    assert.deepEqual(p, await run(pair.postgresPort));
    return p;
  }

  const tables = [
    'SELECT * FROM items ORDER BY id',
    'SELECT * FROM archive ORDER BY id',
    'SELECT * FROM events ORDER BY id',
  ];

  async function tablesOf(c: PgClient): Promise<Seen[]> {
    const out: Seen[] = [];
    for (const t of tables) out.push(await seen(c, t));
    return out;
  }

  it('INSERT ... RETURNING feeding a SELECT: its rows, of every type, with their types', async () => {
    const out = await same([
      'WITH ins AS (INSERT INTO archive SELECT * FROM items RETURNING *) SELECT * FROM ins ORDER BY id',
      "WITH ins AS (INSERT INTO events VALUES (1, 'x'), (2, 'y') RETURNING id, what || '!' AS loud, id * 2) SELECT * FROM ins",
      ...tables,
    ]);
    assert.equal((out[0] as { rows: unknown[] }).rows.length, 4);
  });

  it('DELETE ... RETURNING feeding an INSERT: INSERT 0 n, the rows moved', async () => {
    const out = await same([
      'WITH d AS (DELETE FROM items WHERE id <= 2 RETURNING *) INSERT INTO archive SELECT * FROM d',
      'WITH d AS (DELETE FROM items WHERE qty > 100 RETURNING *) INSERT INTO archive SELECT * FROM d',
      'WITH d AS (DELETE FROM items WHERE id = 3 RETURNING id, name) INSERT INTO events (id, what) SELECT id, name FROM d',
      ...tables,
    ]);
    assert.equal((out[0] as { command: string }).command, 'INSERT');
    assert.equal((out[0] as { rowCount: number }).rowCount, 2);
  });

  it('UPDATE ... RETURNING feeding a SELECT, an UPDATE and a DELETE: their tags', async () => {
    await same([
      'WITH u AS (UPDATE items SET qty = qty + 1 RETURNING id) SELECT count(*) FROM u',
      "WITH u AS (UPDATE items SET name = name || '+' WHERE id > 2 RETURNING id, qty, price * 2 AS double) SELECT * FROM u ORDER BY id",
      "WITH e AS (INSERT INTO events VALUES (1, 'gone'), (3, 'gone') RETURNING id) UPDATE archive SET name = 'x' WHERE id IN (SELECT id FROM e)",
      "WITH e AS (INSERT INTO events VALUES (2, 'gone') RETURNING id) DELETE FROM archive WHERE id IN (SELECT id FROM e)",
      'INSERT INTO archive SELECT * FROM items',
      "WITH e AS (DELETE FROM events WHERE what = 'gone' RETURNING id) DELETE FROM archive WHERE id IN (SELECT id FROM e)",
      ...tables,
    ]);
  });

  it('UPDATE ... FROM, DELETE ... USING and INSERT ... ON CONFLICT under an alias, their RETURNING read by the outer query', async () => {
    await same([
      "INSERT INTO events VALUES (1, 'one'), (2, 'two')",
      'WITH u AS (UPDATE items i SET name = i.name || e.what FROM events e WHERE e.id = i.id RETURNING i.id, e.what, i.name) SELECT * FROM u ORDER BY id',
      "WITH u AS (INSERT INTO archive AS a (id, name) VALUES (9, 'nine') ON CONFLICT (id) DO UPDATE SET name = a.name || excluded.name RETURNING a.id, a.name) SELECT * FROM u",
      "WITH u AS (INSERT INTO archive AS a (id, name) VALUES (9, 'nine') ON CONFLICT (id) DO UPDATE SET name = a.name || excluded.name RETURNING a.id, a.name) SELECT * FROM u",
      'WITH d AS (DELETE FROM items i USING events e WHERE e.id = i.id RETURNING i.id, e.what) SELECT * FROM d ORDER BY id',
      ...tables,
    ]);
  });

  it('two data-modifying WITH queries, the second reading the first, beside a plain one', async () => {
    await same([
      'WITH a AS (DELETE FROM items WHERE id IN (1, 3) RETURNING *), b AS (INSERT INTO archive SELECT * FROM a RETURNING id, name) SELECT * FROM b ORDER BY id',
      "WITH x AS (SELECT 5 AS k), a AS (INSERT INTO events SELECT k, 'five' FROM x RETURNING id), b AS (UPDATE items SET qty = 0 WHERE id = 2 RETURNING id) SELECT a.id, b.id, x.k FROM a, b, x",
      'WITH RECURSIVE d AS (DELETE FROM items WHERE id = 4 RETURNING id), s(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM s WHERE x < 3) SELECT x, (SELECT id FROM d) FROM s',
      ...tables,
    ]);
  });

  it('a failure of the outer statement or of the WITH query leaves nothing of either', async () => {
    await same([
      // the outer INSERT violates NOT NULL after the DELETE ran: the rows stay in items
      'WITH d AS (DELETE FROM items RETURNING *) INSERT INTO events SELECT id, NULL FROM d',
      "INSERT INTO events VALUES (1, 'one')",
      // the outer UPDATE violates NOT NULL: the WITH query's UPDATE is undone too
      "WITH u AS (UPDATE items SET name = 'changed' RETURNING id) UPDATE events SET what = NULL WHERE id IN (SELECT id FROM u)",
      // the WITH query's own key repeats
      "WITH i AS (INSERT INTO events VALUES (1, 'again') RETURNING id) DELETE FROM items WHERE id IN (SELECT id FROM i)",
      ...tables,
    ]);
  });

  it('in a block: ROLLBACK undoes it, COMMIT keeps it, a failure fails the block', async () => {
    await same([
      'BEGIN',
      'WITH d AS (DELETE FROM items RETURNING *) INSERT INTO archive SELECT * FROM d',
      'SELECT count(*) FROM items',
      'ROLLBACK',
      ...tables,
      'BEGIN',
      "INSERT INTO events VALUES (7, 'seven')",
      'WITH d AS (DELETE FROM items WHERE id = 1 RETURNING *) INSERT INTO archive SELECT * FROM d',
      'WITH d AS (DELETE FROM items WHERE id = 2 RETURNING id, name) SELECT * FROM d',
      'COMMIT',
      ...tables,
      'BEGIN',
      "WITH d AS (DELETE FROM items RETURNING id) INSERT INTO events SELECT id, 'x' FROM d",
      'SELECT 1',
      'ROLLBACK',
      ...tables,
    ]);
  });

  it('in a block whose held transaction another write preempts: tried out, then run again at COMMIT', async () => {
    const run = async (port: number) => {
      const a = await connect(port);
      const b = await connect(port);
      await a.query('DELETE FROM items; DELETE FROM archive; DELETE FROM events');
      await a.query(ROWS);
      const out: Seen[] = [];
      for (const [c, sql] of [
        [a, 'BEGIN'],
        [a, 'WITH d AS (DELETE FROM items WHERE id <= 2 RETURNING *) INSERT INTO archive SELECT * FROM d'],
        // an autocommit write waits a few ms, then the block's held transaction is rolled back
        [b, "INSERT INTO events VALUES (9, 'other')"],
        [a, 'WITH d AS (DELETE FROM items WHERE id = 3 RETURNING id, name) INSERT INTO events SELECT * FROM d'],
        [
          a,
          'WITH u AS (UPDATE archive SET qty = -1 WHERE id = 1 RETURNING id) DELETE FROM events WHERE id IN (SELECT id + 2 FROM u)',
        ],
        [a, 'SELECT id FROM archive ORDER BY id'],
        // (the block's earlier statements are replayed under this read: it names no table of theirs
        // but the DELETE's, which runs as a statement of its own)
        [a, 'SELECT id FROM items ORDER BY id'],
        [a, 'COMMIT'],
      ] as const)
        out.push(await seen(c, sql));
      return out.concat(await tablesOf(a));
    };
    const before = blockCounts(await scrape(pair.agent.http));
    const patina = await run(pair.patinaPort);
    const after = blockCounts(await scrape(pair.agent.http));
    assert.deepEqual(patina, await run(pair.postgresPort));
    assert.deepEqual([after.preempted - before.preempted, after.replayed - before.replayed], [1, 1]);
  });

  it('parameters through the extended protocol', async () => {
    const text =
      'WITH d AS (DELETE FROM items WHERE id = $1 RETURNING *) INSERT INTO archive SELECT * FROM d WHERE qty > $2';
    const run = async (port: number) => {
      const c = await connect(port);
      await c.query('DELETE FROM items; DELETE FROM archive; DELETE FROM events');
      await c.query(ROWS);
      return [
        await seen(c, text, [1, 5]),
        await seen(c, text, [3, 50]),
        await seen(
          c,
          'WITH i AS (INSERT INTO events VALUES ($1, $2) RETURNING *) SELECT id, what, $3::int + 1 FROM i',
          [8, 'eight', 41],
        ),
        await seen(c, 'WITH u AS (UPDATE items SET price = $1 WHERE id = $2 RETURNING price) SELECT price FROM u', [
          '12.345',
          4,
        ]),
      ].concat(await tablesOf(c));
    };
    assert.deepEqual(await run(pair.patinaPort), await run(pair.postgresPort));
  });

  it('EXPLAIN plans such a statement without running it, EXPLAIN ANALYZE runs it', async () => {
    const run = async (port: number) => {
      const c = await connect(port);
      await c.query('DELETE FROM items; DELETE FROM archive; DELETE FROM events');
      await c.query(ROWS);
      const out: unknown[] = [];
      for (const sql of [
        'EXPLAIN WITH d AS (DELETE FROM items RETURNING *) INSERT INTO archive SELECT * FROM d',
        'EXPLAIN WITH d AS (DELETE FROM items WHERE id = $1 RETURNING *) SELECT count(*) FROM d',
        'EXPLAIN ANALYZE WITH d AS (DELETE FROM items WHERE id = 1 RETURNING *) SELECT count(*) FROM d',
      ]) {
        // (the plans differ: whether each answered rows, and what it left)
        const r = await seen(c, sql, sql.includes('$1') ? [2] : undefined);
        out.push('rows' in r && r.rows.length > 0, await tablesOf(c));
      }
      return out;
    };
    assert.deepEqual(await run(pair.patinaPort), await run(pair.postgresPort));
  });

  it('COPY (query) TO STDOUT of a data-modifying WITH query, or of a write with RETURNING: the rows copied out, the write done (each was 0A000)', async () => {
    const out = await same([
      'COPY (WITH d AS (DELETE FROM items WHERE id <= 2 RETURNING *) SELECT * FROM d ORDER BY id) TO STDOUT',
      'COPY (WITH d AS (DELETE FROM items WHERE id = 3 RETURNING *) INSERT INTO archive SELECT * FROM d RETURNING id, name, price) TO STDOUT (FORMAT csv, HEADER)',
      'COPY (UPDATE items SET qty = qty + 1 RETURNING id, qty, data, score, at, ok) TO STDOUT (FORMAT csv)',
      "COPY (INSERT INTO events VALUES (1, 'x'), (2, 'y') RETURNING *) TO STDOUT (FORMAT binary)",
      'COPY (WITH u AS (UPDATE events SET what = what || $$!$$ RETURNING id, what) SELECT what, id FROM u ORDER BY id) TO STDOUT',
      // PostgreSQL's errors: a write without RETURNING, a read-only transaction, a key taken (nothing of it left)
      'COPY (DELETE FROM events) TO STDOUT',
      'COPY (WITH d AS (DELETE FROM events RETURNING id) DELETE FROM archive WHERE id IN (SELECT id FROM d)) TO STDOUT',
      'BEGIN READ ONLY',
      'COPY (WITH d AS (DELETE FROM items RETURNING id) SELECT * FROM d) TO STDOUT',
      'ROLLBACK',
      "COPY (WITH e AS (INSERT INTO events VALUES (7, 'z') RETURNING id) INSERT INTO archive (id) VALUES (3) RETURNING id) TO STDOUT",
      // in a block: its rows at once, undone by ROLLBACK, kept by COMMIT
      'BEGIN',
      'COPY (WITH d AS (DELETE FROM archive RETURNING id) SELECT * FROM d ORDER BY id) TO STDOUT',
      'SELECT count(*) FROM archive',
      'ROLLBACK',
      'BEGIN',
      "COPY (WITH e AS (INSERT INTO events VALUES (8, 'w') RETURNING id, what) SELECT * FROM e) TO STDOUT",
      'COMMIT',
      ...tables,
    ]);
    assert.equal((out[0] as { rowCount: number }).rowCount, 2);
    assert.match((out[0] as { rows: string[][] }).rows[0][0], /^1\ta\t10\t/);
    assert.equal((out[5] as { code: string }).code, '0A000');
  });

  it("PostgreSQL's errors: a WITH query without RETURNING read, one inside a query", async () => {
    const out = await same([
      'WITH d AS (DELETE FROM items WHERE false) SELECT 1',
      'WITH d AS (DELETE FROM items WHERE false) SELECT * FROM d',
      'SELECT 1 FROM (WITH d AS (DELETE FROM items RETURNING *) SELECT * FROM d) s',
      'INSERT INTO archive WITH d AS (DELETE FROM items RETURNING *) SELECT * FROM d',
      'BEGIN',
      'DECLARE c CURSOR FOR WITH d AS (DELETE FROM items RETURNING id) SELECT * FROM d',
      'ROLLBACK',
      ...tables,
    ]);
    assert.equal((out[1] as { code: string }).code, '0A000');
  });

  it('a part reading a table the WITH query writes is refused with 0A000 (PostgreSQL shows it the old rows)', async () => {
    const c = await connect(pair.patinaPort);
    for (const sql of [
      "WITH i AS (INSERT INTO events VALUES (50, 'x') RETURNING *) SELECT * FROM events",
      "WITH i AS (INSERT INTO events VALUES (50, 'x') RETURNING *) SELECT * FROM i UNION ALL SELECT * FROM events",
      'WITH s AS (SELECT count(*) FROM items), d AS (DELETE FROM items RETURNING id) SELECT * FROM s',
      'WITH a AS (DELETE FROM items RETURNING id), b AS (DELETE FROM items RETURNING id) SELECT 1',
      "COPY (WITH i AS (INSERT INTO events VALUES (50, 'x') RETURNING *) SELECT * FROM events) TO STDOUT",
    ]) {
      const r = await seen(c, sql);
      assert.equal((r as { code: string }).code, '0A000', sql);
      assert.match((r as { message: string }).message, /one snapshot/, sql);
    }
    assert.deepEqual(await seen(c, 'SELECT count(*) FROM events WHERE id = 50'), {
      command: 'SELECT',
      rowCount: 1,
      rows: [['0']],
      fields: ['count:20:0:0'],
    });
  });

  it("the change feed sees the WITH query's writes and the outer statement's", async () => {
    const c = await connect(pair.patinaPort);
    await c.query('DELETE FROM items; DELETE FROM archive; DELETE FROM events');
    await c.query(ROWS);
    const items = await subscribe(pair.agent.http, 'SELECT id, name FROM items');
    const archive = await subscribe(pair.agent.http, 'SELECT id, name FROM archive');
    try {
      await c.query('WITH d AS (DELETE FROM items WHERE id IN (1, 2) RETURNING *) INSERT INTO archive SELECT * FROM d');
      const gone = await items.stream.until((e) => changes(e).length >= 2);
      const moved = await archive.stream.until((e) => changes(e).length >= 2);
      assert.deepEqual(
        changes(gone).map(([kind, , cells]) => [kind, cells]),
        [
          ['delete', [1, 'a']],
          ['delete', [2, 'b']],
        ],
      );
      assert.deepEqual(
        changes(moved).map(([kind, , cells]) => [kind, cells]),
        [
          ['insert', [1, 'a']],
          ['insert', [2, 'b']],
        ],
      );
    } finally {
      items.stream.close();
      archive.stream.close();
    }
  });
});
