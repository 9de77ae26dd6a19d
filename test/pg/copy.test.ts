// COPY over the PG port: psql's \copy and pg-copy-streams, text and CSV with their options, one
// transaction and one changeset per COPY FROM, PostgreSQL's errors naming the bad line, and COPY TO
// streaming a million rows without holding them.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type AgentProcess, startAgent } from '../helpers/agent';
import { postJson } from '../helpers/http';
import { type PgClient, RawPg, pgClient, psql, serialize } from '../helpers/pg';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const copyStreams = require('pg-copy-streams') as { from(sql: string): Writable; to(sql: string): Readable };

const SCHEMA = `
CREATE TABLE users (id INTEGER NOT NULL PRIMARY KEY, name TEXT NOT NULL DEFAULT '', email TEXT, score REAL, active BOOLEAN);
`;

interface PgErr {
  code: string;
  message: string;
  where?: string;
  detail?: string;
}

/** Runs a COPY FROM STDIN with node-postgres and pg-copy-streams; resolves to the error, or null. */
async function copyFrom(c: PgClient, sql: string, data: string): Promise<PgErr | null> {
  const stream = (c as unknown as { query(s: Writable): Writable }).query(copyStreams.from(sql));
  try {
    await pipeline(Readable.from([Buffer.from(data)]), stream);
    return null;
  } catch (err) {
    return err as PgErr;
  }
}

async function copyTo(c: PgClient, sql: string): Promise<string> {
  const stream = (c as unknown as { query(s: Readable): Readable }).query(copyStreams.to(sql));
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The agent's resident memory, in MiB (Linux). */
function rssMiB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m![1]) / 1024;
}

describe('COPY over the PG port', function () {
  this.timeout(120000);
  let agent: AgentProcess;
  let port: number;
  let c: PgClient;
  const run = (cmds: string[], extra: string[] = []) => psql(port, cmds, ['-A', '-t', ...extra]);
  const count = async () => Number((await c.query('SELECT count(*) AS n FROM users')).rows[0].n);
  const goesOn = async () => assert.deepEqual((await c.query({ text: 'SELECT 1 + 1', rowMode: 'array' })).rows, [[2]]);

  before(async () => {
    agent = await startAgent({ schema: SCHEMA, args: ['--pg-addr', '127.0.0.1:0'] });
    port = agent.pg!.port;
    c = pgClient(port);
    await c.connect();
  });
  after(async () => {
    await c.end();
    await agent.dispose();
  });
  beforeEach(async () => {
    await c.query('TRUNCATE users');
  });

  it("psql's \\copy loads and dumps text format: tabs, newlines, backslashes, NULL, 64-bit integers", () => {
    const file = path.join(agent.dir, 'users.tsv');
    fs.writeFileSync(
      file,
      '1\tann\t\\N\t1.5\tt\n9223372036854775807\ttab\\there\tnew\\nline\\\\x\t\\N\tf\n3\tünï😀\t\\N\t-2\t\\N\n',
    );
    let r = run([`\\copy users (id, name, email, score, active) from '${file}'`]);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, 'COPY 3\n');
    r = run(['SELECT id, name, email IS NULL, score, active FROM users ORDER BY id']);
    assert.equal(r.stdout, '1|ann|t|1.5|t\n3|ünï😀|t|-2|\n9223372036854775807|tab\there|f||f\n');
    const out = path.join(agent.dir, 'out.tsv');
    r = run([`\\copy (SELECT id, name, email, score, active FROM users ORDER BY id) to '${out}'`]);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(
      fs.readFileSync(out, 'utf8'),
      '1\tann\t\\N\t1.5\tt\n3\tünï😀\t\\N\t-2\t\\N\n9223372036854775807\ttab\\there\tnew\\nline\\\\x\t\\N\tf\n',
    );
  });

  it('loads and dumps CSV with HEADER, DELIMITER, NULL and QUOTE, in both option spellings', async () => {
    const file = path.join(agent.dir, 'users.csv');
    fs.writeFileSync(file, "id;name;email\n1;'semi; colon';-\n2;'it''s \"quoted\"';\n3;'multi\nline';x@y\n");
    let r = run([
      `\\copy users (id, name, email) from '${file}' with (format csv, header, delimiter ';', null '-', quote '''')`,
    ]);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, 'COPY 3\n');
    assert.deepEqual(
      (await c.query({ text: 'SELECT id, name, email FROM users ORDER BY id', rowMode: 'array' })).rows,
      [
        ['1', 'semi; colon', null],
        ['2', 'it\'s "quoted"', ''],
        ['3', 'multi\nline', 'x@y'],
      ],
    );
    r = run([`\\copy users (id, name, email) to stdout csv header`]);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(
      r.stdout.split('\n').sort().join('\n'),
      ['', '1,semi; colon,', '2,"it\'s ""quoted""",""', '3,"multi', 'id,name,email', 'line",x@y'].join('\n'),
    );
    assert.equal(
      await copyTo(
        c,
        `COPY (SELECT id, email FROM users ORDER BY id) TO STDOUT WITH (FORMAT csv, DELIMITER '|', NULL 'NULL', HEADER true)`,
      ),
      'id|email\n1|NULL\n2|\n3|x@y\n',
    );
  });

  it('CSV FORCE_QUOTE, FORCE_NOT_NULL and FORCE_NULL as PostgreSQL applies them, and its refusals', async () => {
    // (the outputs below are PostgreSQL 15's for the same statements)
    await c.query('DELETE FROM users');
    assert.equal(
      await copyFrom(
        c,
        'COPY users (id, name, email) FROM STDIN WITH (FORMAT csv, FORCE_NOT_NULL (name), FORCE_NULL (email))',
        '1,,""\n2,x,\n3,"",y\n',
      ),
      null,
    );
    assert.deepEqual(
      (await c.query({ text: 'SELECT id, name, email FROM users ORDER BY id', rowMode: 'array' })).rows,
      [
        ['1', '', null], // an unquoted empty name is '' under FORCE_NOT_NULL; a quoted empty email NULL under FORCE_NULL
        ['2', 'x', null],
        ['3', '', 'y'],
      ],
    );
    const sql = 'SELECT id, name, email, id > 1 AS b FROM users ORDER BY id';
    assert.equal(
      await copyTo(c, `COPY (${sql}) TO STDOUT WITH (FORMAT csv, HEADER true, FORCE_QUOTE *)`),
      'id,name,email,b\n"1","",,"f"\n"2","x",,"t"\n"3","","y","t"\n',
    );
    assert.equal(
      await copyTo(c, `COPY (${sql}) TO STDOUT WITH (FORMAT csv, FORCE_QUOTE (name, b))`),
      '1,"",,"f"\n2,"x",,"t"\n3,"",y,"t"\n',
    );
    // the old spelling, through psql
    const r = run(['\\copy users (id, name) to stdout csv force quote name']);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, '1,""\n2,"x"\n3,""\n');
    for (const [stmt, code, message] of [
      [
        'COPY users (id) TO STDOUT WITH (FORMAT csv, FORCE_QUOTE (name))',
        '42P10',
        'FORCE_QUOTE column "name" not referenced by COPY',
      ],
      ['COPY users (id) TO STDOUT WITH (FORCE_QUOTE (id))', '0A000', 'COPY force quote available only in CSV mode'],
      [
        'COPY users (id) FROM STDIN WITH (FORMAT csv, FORCE_QUOTE (id))',
        '0A000',
        'COPY force quote only available using COPY TO',
      ],
      [
        'COPY users (id) TO STDOUT WITH (FORMAT csv, FORCE_NULL (id))',
        '0A000',
        'COPY force null only available using COPY FROM',
      ],
      ['COPY users (id) FROM STDIN WITH (FORMAT csv, FORCE_NOT_NULL *)', '42601', null],
    ] as const) {
      const err = stmt.includes('FROM STDIN')
        ? await copyFrom(c, stmt, '9\n')
        : await copyTo(c, stmt).then(
            () => null,
            (e) => e as PgErr,
          );
      assert.equal(err?.code, code, stmt);
      if (message) assert.equal(err?.message, message, stmt);
    }
    assert.equal(
      await copyFrom(c, 'COPY users (id) FROM STDIN WITH (FORMAT csv, FORCE_NULL (email))', '9\n').then((e) => e?.code),
      '42P10',
    );
    assert.equal((await c.query('SELECT count(*) AS n FROM users')).rows[0].n, '3'); // nothing refused was stored
  });
  it('pg-copy-streams copies in and out; a COPY FROM is one transaction and one changeset', async () => {
    const v1 = (await postJson(agent.http, '/v1/transactions', ["INSERT INTO users (id, name) VALUES (-1, 'before')"]))
      .json as { version: number };
    const rows = Array.from(
      { length: 5000 },
      (_, i) => `${i + 1}\tuser ${i + 1}\t\\N\t${i / 2}\t${i % 2 ? 't' : 'f'}\n`,
    ).join('');
    assert.equal(await copyFrom(c, 'COPY users (id, name, email, score, active) FROM STDIN', rows), null);
    assert.equal(await count(), 5001);
    const v2 = (await postJson(agent.http, '/v1/transactions', ["INSERT INTO users (id, name) VALUES (-2, 'after')"]))
      .json as { version: number };
    assert.equal(v2.version, v1.version + 2, 'the 5000 rows of the COPY are one transaction (one db_version)');
    const text = await copyTo(c, 'COPY users TO STDOUT');
    assert.equal(text.split('\n').length - 1, 5002);
    assert.ok(text.includes('4999\tuser 4999\t\\N\t2499\tf\n'));
    await goesOn();
  });

  it("psycopg2's copy_expert and copy_from load and dump, and a bad line raises with its pgcode", async () => {
    const py = `
import io
import psycopg2
conn = psycopg2.connect(host='127.0.0.1', port=${port}, user='tester', dbname='db')
cur = conn.cursor()
cur.copy_expert("COPY users (id, name) FROM STDIN WITH (FORMAT csv, HEADER)", io.StringIO("id,name\\n1,ann\\n2,\\"b, ob\\"\\n"))
cur.copy_from(io.StringIO("3\\tcy\\n"), 'users', columns=('id', 'name'))
conn.commit()
out = io.StringIO()
cur.copy_expert("COPY (SELECT id, name FROM users ORDER BY id) TO STDOUT WITH CSV", out)
print(out.getvalue(), end='')
try:
    cur.copy_expert("COPY users (id, name) FROM STDIN", io.StringIO("4\\td\\nfive\\te\\n"))
except psycopg2.Error as e:
    print(e.pgcode, e.diag.context)
conn.rollback()
cur.execute('SELECT count(*) FROM users')
print(cur.fetchone()[0])
`;
    const p = spawnSync('/usr/bin/python3', ['-c', py], { encoding: 'utf8', timeout: 30000 });
    assert.equal(p.status, 0, p.stderr);
    assert.equal(p.stdout, '1,ann\n2,"b, ob"\n3,cy\n22P02 COPY users, line 2, column id: "five"\n3\n');
  });

  it("a bad line fails the whole COPY with PostgreSQL's error naming the line; the session goes on", async () => {
    await c.query(`INSERT INTO users (id, name) VALUES (1, 'kept')`);
    const cases: [string, string, Partial<PgErr>][] = [
      [
        'COPY users (id, name, score) FROM STDIN',
        '10\ta\t1\n11\tb\t2\n12\tc\tabc\n13\td\t4\n',
        {
          code: '22P02',
          message: 'invalid input syntax for type double precision: "abc"',
          where: 'COPY users, line 3, column score: "abc"',
        },
      ],
      [
        'COPY users (id, name) FROM STDIN',
        '10\ta\n11\n',
        { code: '22P04', message: 'missing data for column "name"', where: 'COPY users, line 2' },
      ],
      [
        'COPY users (id, name) FROM STDIN',
        '10\ta\tb\n',
        { code: '22P04', message: 'extra data after last expected column', where: 'COPY users, line 1' },
      ],
      [
        'COPY users (id, name) FROM STDIN',
        'x1\ta\n',
        {
          code: '22P02',
          message: 'invalid input syntax for type bigint: "x1"',
          where: 'COPY users, line 1, column id: "x1"',
        },
      ],
      [
        'COPY users (id, name) FROM STDIN WITH (FORMAT csv)',
        '10,a\n11,"open\n',
        { code: '22P04', message: 'unterminated CSV quoted field', where: 'COPY users, line 2' },
      ],
      [
        'COPY users (id, name) FROM STDIN',
        '10\ta\n1\tdup\n',
        {
          code: '23505',
          message: 'duplicate key value violates unique constraint "users_pkey"',
          detail: 'Key (id)=(1) already exists.',
          where: 'COPY users, line 2',
        },
      ],
      [
        'COPY users (id, active) FROM STDIN',
        '10\tmaybe\n',
        { code: '22P02', message: 'invalid input syntax for type boolean: "maybe"' },
      ],
      [
        'COPY users (id, nope) FROM STDIN',
        '',
        { code: '42703', message: 'column "nope" of relation "users" does not exist' },
      ],
      ['COPY nosuch FROM STDIN', '', { code: '42P01', message: 'relation "nosuch" does not exist' }],
      [
        'COPY users FROM STDIN WITH (FORMAT binary)',
        '',
        // binary data that is no binary COPY (copy-binary-oracle.test.ts has the real ones)
        { code: '22P04', message: 'COPY file signature not recognized' },
      ],
      ["COPY users FROM '/etc/passwd'", '', { code: '0A000' }],
    ];
    for (const [sql, data, want] of cases) {
      const err = await copyFrom(c, sql, data);
      assert.ok(err, `${sql} with ${JSON.stringify(data)} succeeded`);
      for (const [k, v] of Object.entries(want))
        assert.equal(err[k as keyof PgErr], v, `${sql} ${JSON.stringify(data)}: ${k}`);
      assert.equal(await count(), 1, 'nothing of a failed COPY is kept');
      await goesOn();
    }
    // psql shows the CONTEXT line and goes on with the next command
    const file = path.join(agent.dir, 'bad.csv');
    fs.writeFileSync(file, '20,a\n21,b,extra\n');
    const r = psql(
      port,
      [`\\copy users (id, name) from '${file}' csv`, 'SELECT count(*) FROM users'],
      ['-A', '-t', '-v', 'ON_ERROR_STOP=0', '-v', 'VERBOSITY=verbose'],
    );
    assert.match(r.stderr, /ERROR: {2}22P04: extra data after last expected column\nCONTEXT: {2}COPY users, line 2/);
    assert.equal(r.stdout, '1\n');
  });

  it('COPY FROM inside a transaction block is part of it: rolled back with it, and a failure fails the block', async () => {
    await c.query('BEGIN');
    assert.equal(await copyFrom(c, 'COPY users (id, name) FROM STDIN', '1\ta\n2\tb\n'), null);
    assert.equal(await count(), 2);
    await c.query('ROLLBACK');
    assert.equal(await count(), 0);
    await c.query('BEGIN');
    assert.equal((await copyFrom(c, 'COPY users (id, name) FROM STDIN', '1\ta\n1\tb\n'))?.code, '23505');
    await assert.rejects(c.query('SELECT 1'), (e: PgErr) => e.code === '25P02');
    await c.query('ROLLBACK');
    await goesOn();
  });

  it('COPY TO streams a million rows with bounded memory, waiting for a slow reader', async () => {
    const pid = agent.proc.pid!;
    const before = rssMiB(pid);
    let peak = before;
    // about 120 bytes a row: 120 MB if the agent held the result
    const sql = `COPY (WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 1000000) SELECT x, lpad(x::text, 110, '0') FROM n) TO STDOUT`;
    const stream = (c as unknown as { query(s: Readable): Readable }).query(copyStreams.to(sql));
    let bytes = 0;
    let lines = 0;
    let last = '';
    let paused = false;
    for await (const chunk of stream) {
      const b = chunk as Buffer;
      bytes += b.length;
      for (let i = b.indexOf(10); i >= 0; i = b.indexOf(10, i + 1)) lines++;
      last = (last + b.toString('latin1')).slice(-200);
      if (!paused && bytes > 20e6) {
        paused = true; // a slow reader: the agent must wait, not buffer the rest
        for (let k = 0; k < 10; k++) {
          await new Promise((r) => setTimeout(r, 100));
          peak = Math.max(peak, rssMiB(pid));
        }
      }
      if (lines % 50000 < 50) peak = Math.max(peak, rssMiB(pid));
    }
    assert.equal(lines, 1000000);
    assert.ok(last.endsWith(`1000000\t${String(1000000).padStart(110, '0')}\n`));
    assert.ok(
      peak - before < 60,
      `the agent grew by ${Math.round(peak - before)} MiB while streaming ${Math.round(bytes / 1e6)} MB`,
    );
    await goesOn();
  });
});

describe('a COPY FROM whose client stops sending', function () {
  this.timeout(60000);
  let agent: AgentProcess;
  before(async () => {
    agent = await startAgent({
      schema: SCHEMA,
      config: '[api]\nquery_timeout = 1\n[[api.pg]]\naddr = "127.0.0.1:0"\n',
    });
  });
  after(() => agent.dispose());

  it('is rolled back after api.query_timeout without data, giving the writer back; the session goes on', async () => {
    const c = await RawPg.open(agent.pg!.port);
    c.send(serialize.query('COPY users (id, name) FROM STDIN'));
    await c.until('copyInResponse');
    c.send(serialize.copyData(Buffer.from('1\ta\n')));
    // the writer is held by the COPY; this write waits for it, and goes through once the COPY is given up
    const write = postJson(agent.http, '/v1/transactions', ["INSERT INTO users (id, name) VALUES (2, 'http')"]);
    const msgs = await c.until('readyForQuery');
    const err = msgs.find((m) => m.name === 'error') as { code?: string; message?: string } | undefined;
    assert.equal(err?.code, '57014');
    assert.match(err?.message ?? '', /COPY from stdin received no data for 1 s/);
    assert.equal((await write).status, 200);
    c.send(serialize.query('SELECT id FROM users ORDER BY id'));
    const rows = (await c.until('readyForQuery'))
      .filter((m) => m.name === 'dataRow')
      .map((m) => (m.fields as string[])[0]);
    assert.deepEqual(rows, ['2'], "the COPY's row was rolled back");
    c.end();
  });
});
