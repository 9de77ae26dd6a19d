// SQL cursors over the PG port: DECLARE ... CURSOR [WITH HOLD] FOR, FETCH, MOVE, CLOSE, as psycopg2's
// named cursors and psql use them; rows are pulled as FETCH asks, and bad input gets PostgreSQL's
// SQLSTATEs while the session goes on.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { type AgentProcess, startAgent } from '../helpers/agent';
import { type PgClient, pgClient, psql } from '../helpers/pg';

const SCHEMA = `
CREATE TABLE items (id INTEGER NOT NULL PRIMARY KEY, name TEXT NOT NULL DEFAULT '');
`;
const PYTHON = '/usr/bin/python3';

function rssMiB(pid: number): number {
  return Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
}

describe('cursors over the PG port', function () {
  this.timeout(60000);
  let agent: AgentProcess;
  let port: number;
  let c: PgClient;
  const rows = async (sql: string) =>
    (await c.query({ text: sql, rowMode: 'array' })).rows.map((r) => r.map(String).join('|'));
  /** The SQLSTATE a statement fails with ('ok' when it succeeds); an object is a named (prepared) statement. */
  const code = async (q: string | { name: string; text: string }) => {
    try {
      await (typeof q === 'string' ? c.query(q) : (c as unknown as { query(q: object): Promise<unknown> }).query(q));
    } catch (err) {
      return (err as { code: string }).code;
    }
    return 'ok';
  };

  before(async () => {
    agent = await startAgent({ schema: SCHEMA, args: ['--pg-addr', '127.0.0.1:0'] });
    port = agent.pg!.port;
    const r = psql(port, [
      `WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 5000) INSERT INTO items SELECT x, 'item ' || x FROM n`,
    ]);
    assert.equal(r.status, 0, r.stderr);
    c = pgClient(port);
    await c.connect();
  });
  after(async () => {
    await c.end();
    await agent.dispose();
  });

  it('DECLARE, FETCH n, FETCH FORWARD, MOVE, FETCH ALL and CLOSE inside a block', async () => {
    await c.query('BEGIN');
    const d = await c.query('DECLARE cur NO SCROLL CURSOR FOR SELECT id, name FROM items WHERE id <= 10 ORDER BY id');
    assert.equal((d as unknown as { command: string }).command, 'DECLARE');
    const first = await c.query('FETCH 3 FROM cur');
    assert.deepEqual(
      first.fields.map((f) => f.name),
      ['id', 'name'],
    );
    assert.equal(first.rowCount, 3);
    assert.deepEqual(
      first.rows.map((r) => String(r.id)),
      ['1', '2', '3'],
    );
    assert.deepEqual(await rows('FETCH NEXT FROM cur'), ['4|item 4']);
    assert.deepEqual(await rows('FETCH FORWARD 2 IN cur'), ['5|item 5', '6|item 6']);
    assert.equal((await c.query('MOVE 2 FROM cur')).rowCount, 2);
    assert.deepEqual(await rows('FETCH ALL FROM cur'), ['9|item 9', '10|item 10']);
    assert.deepEqual(await rows('FETCH cur'), []);
    await c.query('CLOSE cur');
    assert.equal(await code('FETCH cur'), '34000');
    await c.query('ROLLBACK');
  });

  it("FETCH through Parse/Bind/Describe/Execute (a named prepared statement) describes the cursor's columns", async () => {
    await c.query('BEGIN');
    await c.query('DECLARE pc CURSOR FOR SELECT id, name, id * 2 AS twice FROM items WHERE id <= 5 ORDER BY id');
    // node-postgres sends a named statement as Parse, Bind, Describe (portal), Execute, Sync
    const q = { name: 'fetch_pc', text: 'FETCH 2 FROM pc', rowMode: 'array' } as { text: string; rowMode: 'array' };
    const r1 = await c.query(q);
    assert.deepEqual(
      r1.fields.map((f) => f.name),
      ['id', 'name', 'twice'],
    );
    assert.deepEqual(
      r1.rows.map((r) => r.map(String)),
      [
        ['1', 'item 1', '2'],
        ['2', 'item 2', '4'],
      ],
    );
    const r2 = await c.query(q);
    assert.deepEqual(
      r2.rows.map((r) => String(r[0])),
      ['3', '4'],
    );
    await c.query('CLOSE pc');
    assert.equal(await code({ name: 'fetch_pc', text: 'FETCH 2 FROM pc' }), '34000');
    await c.query('ROLLBACK');
  });

  it('answers bad cursor use with PostgreSQL SQLSTATEs; the session goes on', async () => {
    assert.equal(await code('DECLARE c1 CURSOR FOR SELECT 1'), '25P01'); // without HOLD only in a block
    assert.equal(await code('FETCH 1 FROM nosuch'), '34000');
    assert.equal(await code('CLOSE nosuch'), '34000');
    await c.query('BEGIN');
    await c.query('DECLARE c1 CURSOR FOR SELECT id FROM items ORDER BY id');
    assert.equal(await code('DECLARE c1 CURSOR FOR SELECT 1'), '42P03');
    await c.query('ROLLBACK');
    await c.query('BEGIN');
    await c.query('DECLARE c2 CURSOR FOR SELECT id FROM items ORDER BY id');
    assert.equal(await code('FETCH PRIOR FROM c2'), '55000');
    await c.query('ROLLBACK');
    await c.query('BEGIN');
    assert.equal(await code('DECLARE c3 CURSOR FOR INSERT INTO items (id) VALUES (-1)'), '42601');
    await c.query('ROLLBACK');
    await c.query('BEGIN');
    await c.query('DECLARE c4 CURSOR FOR SELECT id FROM items');
    await c.query('COMMIT');
    assert.equal(await code('FETCH c4'), '34000', 'a cursor without HOLD closes with its transaction');
    assert.deepEqual(await rows('SELECT 1'), ['1']);
  });

  it('WITH HOLD cursors live on after COMMIT until CLOSE, outside a block too', async () => {
    await c.query('DECLARE h CURSOR WITH HOLD FOR SELECT id FROM items ORDER BY id');
    assert.deepEqual(await rows('FETCH 2 FROM h'), ['1', '2']);
    await c.query('BEGIN');
    assert.deepEqual(await rows('FETCH 1 FROM h'), ['3']);
    await c.query('COMMIT');
    assert.deepEqual(await rows('FETCH 1 FROM h'), ['4']);
    await c.query('CLOSE ALL');
    assert.equal(await code('FETCH h'), '34000');
  });

  it("psycopg2's named cursors iterate, fetchmany and hold across commit", () => {
    const py = `
import psycopg2
conn = psycopg2.connect(host='127.0.0.1', port=${port}, user='tester', dbname='db')
cur = conn.cursor('big')
cur.itersize = 700
cur.execute('SELECT id, name FROM items ORDER BY id')
n = 0
total = 0
for row in cur:
    n += 1
    total += row[0]
print(n, total, cur.description[1].name)
cur.close()
cur = conn.cursor('some')
cur.execute('SELECT id FROM items WHERE id > %s ORDER BY id', (4990,))
print([r[0] for r in cur.fetchmany(3)], [r[0] for r in cur.fetchmany(3)])
cur.close()
conn.commit()
held = conn.cursor('held', withhold=True)
held.execute('SELECT id FROM items ORDER BY id')
print(held.fetchone()[0])
conn.commit()
print(held.fetchone()[0])
held.close()
try:
    cur = conn.cursor()
    cur.execute('FETCH 1 FROM held')
except psycopg2.Error as e:
    print(e.pgcode)
conn.rollback()
cur = conn.cursor()
cur.execute('SELECT count(*) FROM items')
print(cur.fetchone()[0])
`;
    const p = spawnSync(PYTHON, ['-c', py], { encoding: 'utf8', timeout: 30000 });
    assert.equal(p.status, 0, p.stderr);
    assert.equal(
      p.stdout,
      `5000 ${(5000 * 5001) / 2} name\n[4991, 4992, 4993] [4994, 4995, 4996]\n1\n2\n34000\n5000\n`,
    );
  });

  it("psycopg 3's named cursors describe the cursor's portal, then FETCH (text and binary, held across commit)", () => {
    // psycopg 3 sends DECLARE, then a Describe of the portal named as the cursor (PostgreSQL's cursors
    // are portals), then FETCH FORWARD n: the Describe was 34000 `portal "big" does not exist`
    const py = `
import psycopg
conn = psycopg.connect(host='127.0.0.1', port=${port}, user='tester', dbname='db')
with conn.cursor(name='big') as cur:
    cur.itersize = 700
    cur.execute('SELECT id, name FROM items WHERE id > %s ORDER BY id', (0,))
    print([(d.name, d.type_code) for d in cur.description])
    n = total = 0
    for row in cur:
        n += 1
        total += row[0]
    print(n, total)
with conn.cursor(name='bin', binary=True) as cur:
    cur.execute('SELECT id, name FROM items WHERE id > %s ORDER BY id', (4997,))
    print(cur.fetchmany(2), cur.fetchall())
conn.commit()
with conn.cursor(name='held', withhold=True) as cur:
    cur.execute('SELECT id FROM items ORDER BY id')
    print(cur.fetchone()[0])
    conn.commit()
    print(cur.fetchone()[0])
conn.commit()
pg = conn.pgconn
pg.send_describe_portal(b'nosuch')
r = pg.get_result()
print(r.error_field(ord('C')).decode())
while pg.get_result() is not None:
    pass
print(conn.execute('SELECT count(*) FROM items').fetchone()[0])
`;
    const p = spawnSync(PYTHON, ['-c', py], { encoding: 'utf8', timeout: 30000 });
    assert.equal(p.status, 0, p.stderr);
    assert.equal(
      p.stdout,
      `[('id', 20), ('name', 25)]\n5000 ${(5000 * 5001) / 2}\n` +
        `[(4998, 'item 4998'), (4999, 'item 4999')] [(5000, 'item 5000')]\n1\n2\n34000\n5000\n`,
    );
  });
  it('a cursor over a million rows holds only what FETCH has asked for', async () => {
    const pid = agent.proc.pid!;
    const before = rssMiB(pid);
    await c.query('BEGIN');
    // about 120 bytes a row: 120 MB if the agent held the result
    await c.query(
      `DECLARE m CURSOR FOR WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 1000000) SELECT x, lpad(x::text, 110, '0') FROM n`,
    );
    let last = 0;
    for (let k = 0; k < 5; k++) {
      const r = await c.query({ text: 'FETCH 1000 FROM m', rowMode: 'array' });
      assert.equal(r.rows.length, 1000);
      last = Number(r.rows[999][0]);
    }
    assert.equal(last, 5000);
    await new Promise((r) => setTimeout(r, 500));
    const grown = rssMiB(pid) - before;
    assert.ok(grown < 60, `the agent grew by ${Math.round(grown)} MiB with a million-row cursor open`);
    await c.query('CLOSE m');
    await c.query('COMMIT');
    assert.deepEqual(await rows('SELECT 1'), ['1']);
  });
});
