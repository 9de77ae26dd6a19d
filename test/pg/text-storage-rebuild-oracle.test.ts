// A database whose tables were created before JSON, JSONB and NAME columns were declared `JSONB TEXT`
// (src/engine/schema/stored-types.ts) kept SQLite's NUMERIC affinity for them: a document `1.50` was
// stored as the REAL 1.5, a name '007' as 7. Opening such a database rebuilds the table
// (src/engine/schema/text-rebuild.ts): the columns get TEXT affinity, the stored numbers become the
// text a client read, and nothing else changes: not the other values or rowids, not the indexes, not
// a clock, tombstone, change log entry or version. Then a write keeps `1.50` as PostgreSQL 15 does.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { AgentProcess } from '../helpers/agent';
import { createDatabase, psqlOk } from '../helpers/catalog-pair';
import { request } from '../helpers/http';
import { asBefore } from '../helpers/old-storage';
import { type PgClient, pgClient } from '../helpers/pg';
import { type BenchPostgres, startPostgres, stopPostgres } from '../helpers/postgres-server';

// the tables as the schema file declares them, which is how the build before created them
const DOCS =
  'CREATE TABLE docs (id BIGINT NOT NULL, part TEXT NOT NULL, doc JSONB, js JSON, nm NAME, note TEXT, PRIMARY KEY (id, part))';
const DOCS_INDEXES = ['CREATE INDEX docs_doc ON docs (doc)', 'CREATE INDEX docs_nm ON docs (nm, note)'];
const KEYED = 'CREATE TABLE keyed (nm NAME NOT NULL PRIMARY KEY, doc JSONB)';
const PLAIN = 'CREATE TABLE plain (id BIGINT NOT NULL PRIMARY KEY, v TEXT)';
const SCHEMA = `${[DOCS, ...DOCS_INDEXES, KEYED, PLAIN].join(';\n')};\n`;

/** Everything of the file the rebuild must keep, but the rebuilt values: rows with rowid and types, clocks, log, meta. */
function storage(file: string) {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  db.defaultSafeIntegers(true);
  try {
    const all = (sql: string) => db.prepare(sql).raw(true).all() as unknown[][];
    return {
      docs: all(
        'SELECT rowid, id, part, doc, typeof(doc), js, typeof(js), nm, typeof(nm), note FROM docs ORDER BY id, part',
      ),
      keyed: all('SELECT rowid, nm, typeof(nm), doc, typeof(doc) FROM keyed ORDER BY nm'),
      plain: all('SELECT rowid, * FROM plain ORDER BY id'),
      clocks: ['docs', 'keyed', 'plain'].map((t) => all(`SELECT * FROM "__patina_clock_${t}" ORDER BY pk, cid`)),
      log: all('SELECT * FROM __patina_log ORDER BY site_id, db_version, tbl, pk'),
      meta: all("SELECT * FROM __patina_meta WHERE key = 'db_version'"),
      schema: all("SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE tbl_name IN ('docs', 'keyed', 'plain')"),
      types: all("SELECT name, type FROM pragma_table_info('docs')"),
    };
  } finally {
    db.close();
  }
}

describe('a table created before JSON, JSONB and NAME were stored as text is rebuilt at start', function () {
  this.timeout(120_000);
  let dir: string;
  let agent: AgentProcess;
  let postgres: BenchPostgres;
  let pg: PgClient;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'patina-rebuild-'));
    postgres = await startPostgres(dir, ['fsync=off', 'TimeZone=UTC'], 'tester');
    createDatabase(postgres.port, 'db');
    psqlOk(postgres.port, [SCHEMA]);
    pg = pgClient(postgres.port);
    await pg.connect();
    agent = new AgentProcess({ dir: path.join(dir, 'agent'), schema: SCHEMA, args: ['--pg-addr', '127.0.0.1:0'] });
    fs.mkdirSync(agent.dir);
  });
  after(async () => {
    await pg?.end();
    await agent?.kill();
    if (postgres) stopPostgres(postgres);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('converts the stored numbers to their text, keeps clocks, tombstones and versions, and stores 1.50 as PostgreSQL does', async () => {
    // rows written through the PG port: numbers and other documents, a composite key, rows deleted
    // (one re-created: causal length 3) and updated
    await agent.start();
    const patina = pgClient(agent.pg!.port);
    await patina.connect();
    for (const sql of [
      `INSERT INTO docs VALUES (1, 'a', '1.50', '1.50', '007', 'x'), (1, 'b', '12345678901234567890', '1e2', ' 7 ', 'y'),
        (2, 'a', '{"a": 1.50}', '[1.50]', 'bob', NULL), (3, 'a', '1e-7', '-0', '1.5', 'z'), (4, 'a', '"s"', 'null', '42', 'w'),
        (5, 'a', '1e300', '0.30000000000000004', '123456789012345678', NULL)`,
      "DELETE FROM docs WHERE id IN (3, 4) AND part = 'a'",
      "INSERT INTO docs VALUES (3, 'a', '2.50', '-1.5e-3', '0.1', 'again')",
      "UPDATE docs SET doc = '7.0', note = 'x2' WHERE id = 1 AND part = 'a'",
      `INSERT INTO keyed VALUES ('x', '1.50'), ('y', '{"k": 2}')`,
      "INSERT INTO plain VALUES (1, '1.50')",
    ])
      await patina.query(sql);
    await patina.end();
    assert.equal(await agent.stop(), 0);

    asBefore(agent.dbPath, [
      { name: 'docs', create: DOCS, indexes: DOCS_INDEXES },
      { name: 'keyed', create: KEYED, indexes: [] },
    ]);
    const before = storage(agent.dbPath);
    // the build before's storage: numbers, the type declared without TEXT
    assert.deepEqual(before.types, [
      ['id', 'BIGINT'],
      ['part', 'TEXT'],
      ['doc', 'JSONB'],
      ['js', 'JSON'],
      ['nm', 'NAME'],
      ['note', 'TEXT'],
    ]);
    assert.ok(before.docs.some((r) => r[4] === 'real') && before.docs.some((r) => r[8] === 'integer'));
    // row (4, 'a') deleted (causal length 2), (3, 'a') deleted and made again (3)
    const sentinels = before.clocks[0].filter((r) => r[1] === '-1').map((r) => r[2]);
    assert.ok(sentinels.includes(2n) && sentinels.includes(3n), String(sentinels));

    await agent.start();
    const rebuilt = agent.output.split('\n').filter((l) => l.includes('table rebuilt'));
    assert.equal(rebuilt.length, 1, agent.output);
    assert.match(rebuilt[0], /"table":"docs","columns":\["doc","js","nm"\],"rows":5,/);
    // a key of such a type is the row's identity in every clock: that table is left as it was, and said so
    assert.match(agent.output, /table not rebuilt: .*"table":"keyed"/);
    const after = storage(agent.dbPath);

    // the columns have TEXT affinity now; everything but the rebuilt values is as it was
    assert.deepEqual(after.types, [
      ['id', 'BIGINT'],
      ['part', 'TEXT'],
      ['doc', 'JSONB TEXT'],
      ['js', 'JSON TEXT'],
      ['nm', 'NAME TEXT'],
      ['note', 'TEXT'],
    ]);
    for (const k of ['keyed', 'plain', 'clocks', 'log', 'meta'] as const) assert.deepEqual(after[k], before[k], k);
    assert.deepEqual(
      after.schema.filter((r) => r[0] === 'index').sort(),
      before.schema.filter((r) => r[0] === 'index').sort(),
    );
    assert.equal(after.docs.length, before.docs.length);
    before.docs.forEach((b, i) => {
      const a = after.docs[i];
      assert.deepEqual([a[0], a[1], a[2], a[9]], [b[0], b[1], b[2], b[9]], 'rowid, key and other columns');
      for (const at of [3, 5, 7]) {
        assert.equal(a[at + 1], b[at + 1] === 'null' ? 'null' : 'text', `${b[1]}/${b[2]} column ${at}`);
        // the same value: a number as the text of that number, anything else as it was
        if (typeof b[at] === 'bigint') assert.equal(BigInt(a[at] as string), b[at]);
        else if (typeof b[at] === 'number') assert.equal(Number(a[at]), b[at]);
        else assert.equal(a[at], b[at]);
      }
    });

    // what a client reads of them is what it read before (the same text), a jsonb number as numeric's digits
    const c = pgClient(agent.pg!.port);
    await c.connect();
    try {
      const shown = await c.query({
        text: "SELECT doc::text, js::text, nm::text FROM docs WHERE id = 1 AND part = 'b'",
        rowMode: 'array',
      });
      assert.deepEqual(shown.rows, [['12345678901234567000', '100', '7']]);

      // a new write keeps its text, as PostgreSQL 15 does, by literal and by parameter
      const writes: [string, unknown[]][] = [
        ["INSERT INTO docs VALUES (10, 'a', '1.50', '1.50', '007', NULL)", []],
        ['INSERT INTO docs VALUES ($1, $2, $3, $4, $5, NULL)', [11, 'a', '12345678901234567890', '1e2', ' 7 ']],
        ["UPDATE docs SET doc = '2.50', nm = '0.10' WHERE id = 10", []],
      ];
      for (const [text, values] of writes) {
        await c.query({ text, values, rowMode: 'array' });
        await pg.query({ text, values, rowMode: 'array' });
      }
      const read = 'SELECT id, part, doc, js, nm, doc::text, js::text, nm::text FROM docs WHERE id >= 10 ORDER BY id';
      const p = await c.query({ text: read, rowMode: 'array' });
      const o = await pg.query({ text: read, rowMode: 'array' });
      assert.deepEqual(p.rows, o.rows);
      assert.deepEqual(
        p.fields.map((f) => f.dataTypeID),
        o.fields.map((f) => f.dataTypeID),
      );
    } finally {
      await c.end();
    }

    // and by HTTP: a parameter "1.50" is stored as that text
    const post = (p: string, body: string) =>
      request(agent.http, 'POST', p, body, { 'content-type': 'application/json' });
    const w = await post(
      '/v1/transactions',
      `[["INSERT INTO docs (id, part, doc, nm) VALUES (12, 'a', ?, ?)", ["1.50", "007"]]]`,
    );
    assert.equal(w.status, 200, w.text);
    const r = await post('/v1/queries', `"SELECT doc, typeof(doc), nm, typeof(nm) FROM docs WHERE id = 12"`);
    assert.deepEqual(
      r.lines.filter((l) => 'row' in (l as object)).map((l) => (l as { row: [number, unknown[]] }).row[1]),
      [['1.50', 'text', '007', 'text']],
    );

    // a second start finds nothing to rebuild, and changes nothing
    assert.equal(await agent.stop(), 0);
    const once = storage(agent.dbPath);
    await agent.start();
    assert.doesNotMatch(agent.output, /table rebuilt/);
    assert.deepEqual(storage(agent.dbPath), once);
    assert.equal(await agent.stop(), 0);
  });
});
