import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { decodePk, encodePk } from '../../src/crdt/pk';
import { type AgentProcess, startAgent } from '../helpers/agent';
import { runCli } from '../helpers/cli';
import { openStream, postJson } from '../helpers/http';
import { pgClient, pgListeners } from '../helpers/pg';
import { write as writeTx } from '../helpers/http';

const SCHEMA = `
CREATE TABLE items (id INTEGER NOT NULL PRIMARY KEY, name TEXT, qty INTEGER);
CREATE TABLE tags (owner TEXT NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (owner, n));
CREATE TABLE mixed (a NOT NULL, b NOT NULL, v TEXT, PRIMARY KEY (a, b));
`;

interface Clock {
  cid: string;
  col_version: number;
  db_version: number;
  site_id: string;
  seq: number;
}

/** The clock rows of one key, read from the SQLite file as another process sees it. */
function clocks(agent: AgentProcess, table: string, pk: unknown[]): Record<string, Clock> {
  const db = new Database(agent.dbPath, { readonly: true });
  try {
    const rows = db
      .prepare(
        `SELECT cid, col_version, db_version, hex(site_id) AS site_id, seq FROM "__patina_clock_${table}" WHERE pk = ? ORDER BY cid`,
      )
      .all(encodePk(pk)) as Clock[];
    return Object.fromEntries(rows.map((r) => [r.cid, { ...r, site_id: r.site_id.toLowerCase() }]));
  } finally {
    db.close();
  }
}

const versions = (c: Record<string, Clock>) =>
  Object.fromEntries(Object.entries(c).map(([k, v]) => [k, v.col_version]));

describe('change capture: clock tables', () => {
  let agent: AgentProcess;
  before(async () => {
    agent = await startAgent({ schema: SCHEMA, args: ['--pg-addr', '127.0.0.1:0'] });
  });
  after(async () => agent.dispose());

  it('an insert gives the sentinel causal length 1 and every column version 1, stamped with the version and site', async () => {
    const w = await write(agent, "INSERT INTO items (id, name, qty) VALUES (1, 'nut', 5)");
    const c = clocks(agent, 'items', [1n]);
    assert.deepEqual(versions(c), { '-1': 1, name: 1, qty: 1 });
    for (const k of Object.keys(c)) {
      assert.equal(c[k].db_version, w.version);
      assert.equal(c[k].site_id, w.actor_id);
    }
    assert.deepEqual(
      Object.values(c)
        .map((x) => x.seq)
        .sort(),
      [0, 1, 2],
    );
  });

  it('an update bumps only the columns whose value changed', async () => {
    const w = await write(agent, "UPDATE items SET name = 'nut', qty = 6 WHERE id = 1");
    const c = clocks(agent, 'items', [1n]);
    assert.deepEqual(versions(c), { '-1': 1, name: 1, qty: 2 });
    assert.equal(c.qty.db_version, w.version);
    assert.equal(c.qty.seq, 0);
    assert.equal(c.name.db_version, w.version! - 1);
  });

  it('setting NULL to NULL changes nothing; NULL to a value does', async () => {
    await write(agent, 'INSERT INTO items (id) VALUES (2)');
    const none = await write(agent, 'UPDATE items SET name = NULL WHERE id = 2');
    assert.equal(none.version, null);
    assert.deepEqual(versions(clocks(agent, 'items', [2n])), { '-1': 1, name: 1, qty: 1 });
    await write(agent, "UPDATE items SET name = 'x' WHERE id = 2");
    assert.deepEqual(versions(clocks(agent, 'items', [2n])), { '-1': 1, name: 2, qty: 1 });
  });

  it('a delete makes the causal length even and drops the column clocks; a re-insert makes it odd again', async () => {
    await write(agent, 'DELETE FROM items WHERE id = 1');
    assert.deepEqual(versions(clocks(agent, 'items', [1n])), { '-1': 2 });
    await write(agent, "INSERT INTO items (id, name) VALUES (1, 'bolt')");
    assert.deepEqual(versions(clocks(agent, 'items', [1n])), { '-1': 3, name: 1, qty: 1 });
  });

  it('INSERT OR REPLACE of a live row is a delete and an insert (SQLite REPLACE semantics)', async () => {
    await write(agent, "INSERT OR REPLACE INTO items (id, name) VALUES (1, 'screw')");
    assert.deepEqual(versions(clocks(agent, 'items', [1n])), { '-1': 5, name: 1, qty: 1 });
  });

  it('an upsert updates only what changed', async () => {
    await write(agent, "INSERT INTO items (id, name) VALUES (1, 'screw') ON CONFLICT (id) DO UPDATE SET qty = 9");
    assert.deepEqual(versions(clocks(agent, 'items', [1n])), { '-1': 5, name: 1, qty: 2 });
  });

  it('changing a key deletes the old row and creates the new one', async () => {
    await write(agent, 'UPDATE items SET id = 3 WHERE id = 2');
    assert.deepEqual(versions(clocks(agent, 'items', [2n])), { '-1': 2 });
    assert.deepEqual(versions(clocks(agent, 'items', [3n])), { '-1': 1, name: 1, qty: 1 });
  });

  it("numbers a unit's clock rows in column order: sentinel first when the row comes alive, then each changed column", async () => {
    const seqs = (pk: bigint) =>
      Object.fromEntries(Object.entries(clocks(agent, 'items', [pk])).map(([k, v]) => [k, v.seq]));
    const v = await writeTx(agent.http, [
      ['INSERT INTO items (id, name, qty) VALUES (40, ?, 1)', ['a']],
      ['UPDATE items SET name = ?, qty = 2 WHERE id = 40', ['b']],
      ["UPDATE items SET qty = 3, name = 'b' WHERE id = 40", []],
    ]);
    assert.ok(v.version);
    // insert: sentinel 0, name 1, qty 2; the update of both: name 3, qty 4; the update of qty only: 5
    assert.deepEqual(seqs(40n), { '-1': 0, name: 3, qty: 5 });
    await write(agent, 'DELETE FROM items WHERE id = 40');
    await writeTx(agent.http, [
      ['INSERT INTO items (id, name) VALUES (41, ?)', ['c']],
      ["INSERT INTO items (id, name, qty) VALUES (40, 'd', 4)", []],
    ]);
    assert.deepEqual(seqs(41n), { '-1': 0, name: 1, qty: 2 });
    assert.deepEqual(seqs(40n), { '-1': 3, name: 4, qty: 5 });
  });

  it('a table of key columns only keeps just the sentinel', async () => {
    await write(agent, "INSERT INTO tags (owner, n) VALUES ('a', 1)");
    assert.deepEqual(versions(clocks(agent, 'tags', ['a', 1n])), { '-1': 1 });
    const same = await write(agent, "UPDATE tags SET owner = 'a' WHERE n = 1");
    assert.equal(same.version, null);
  });

  it('versions are contiguous across writes, no-ops and failures, and survive a restart', async () => {
    const a = await write(agent, 'INSERT INTO items (id) VALUES (10)');
    await write(agent, 'UPDATE items SET qty = qty WHERE id = 10');
    const bad = await postJson(agent.http, '/v1/transactions', [
      'INSERT INTO items (id) VALUES (11)',
      'INSERT INTO items (id) VALUES (10)',
    ]);
    assert.equal(bad.status, 409, 'a duplicate key is a conflict');
    const b = await write(agent, 'INSERT INTO items (id) VALUES (11)');
    assert.equal(b.version, a.version! + 1);
    assert.deepEqual(clocks(agent, 'items', [11n])['-1'].db_version, b.version);
    await agent.stop();
    await agent.start();
    const c = await write(agent, 'INSERT INTO items (id) VALUES (12)');
    assert.equal(c.version, b.version! + 1);
    assert.equal(c.actor_id, a.actor_id);
  });

  it('keys clock rows by the agreed bytes for every key type: 64-bit extremes, unicode and empty text, blobs with zero bytes, reals', async () => {
    // Columns without a type keep what is stored: integer, real, text or blob. The triggers encode the key in SQL.
    const keys: [string, unknown[]][] = [
      ['9223372036854775807, -9223372036854775808', [9223372036854775807n, -9223372036854775808n]],
      ["'é😀', x'00ff00'", ['é😀', Buffer.from([0, 255, 0])]],
      ["'', x''", ['', Buffer.alloc(0)]],
      ['0.1, -1', [0.1, -1n]],
      ["-1.5e300, 'a''b'", [-1.5e300, "a'b"]],
    ];
    for (const [sql] of keys) await write(agent, `INSERT INTO mixed (a, b, v) VALUES (${sql}, 'x')`);
    for (const [sql, pk] of keys) {
      assert.deepEqual(versions(clocks(agent, 'mixed', pk)), { '-1': 1, v: 1 }, sql);
      const [a, b] = sql.split(/, (?=[^,]*$)/);
      await write(agent, `UPDATE mixed SET v = 'y' WHERE a = ${a} AND b = ${b}`);
      assert.deepEqual(versions(clocks(agent, 'mixed', pk)), { '-1': 1, v: 2 }, sql);
      await write(agent, `DELETE FROM mixed WHERE a = ${a} AND b = ${b}`);
      assert.deepEqual(versions(clocks(agent, 'mixed', pk)), { '-1': 2 }, sql);
    }
  });

  it("a client's ROLLBACK TO inside a block leaves only what is kept: one version, no clock for the undone row", async () => {
    const stream = await openStream(agent.http, 'POST', '/v1/updates/items');
    const pg = pgClient(pgListeners(agent)[0].port);
    await pg.connect();
    try {
      await pg.query('BEGIN');
      await pg.query("INSERT INTO items (id, name) VALUES (300, 'kept')");
      await pg.query('SAVEPOINT s1');
      await pg.query("INSERT INTO items (id, name) VALUES (301, 'undone')");
      await pg.query("UPDATE items SET name = 'kept, then undone' WHERE id = 300");
      await pg.query('ROLLBACK TO SAVEPOINT s1');
      await pg.query("INSERT INTO items (id, name) VALUES (302, 'after')");
      await pg.query('COMMIT');
      assert.deepEqual(await stream.count(2), [{ notify: ['update', [300]] }, { notify: ['update', [302]] }]);
      const kept = clocks(agent, 'items', [300n]);
      assert.deepEqual(versions(kept), { '-1': 1, name: 1, qty: 1 });
      assert.deepEqual(clocks(agent, 'items', [301n]), {});
      assert.equal(clocks(agent, 'items', [302n])['-1'].db_version, kept['-1'].db_version, 'one version for the block');
      // The seqs of the block's clock rows go on from where the kept part left them, none used twice.
      const seqs = [...Object.values(kept), ...Object.values(clocks(agent, 'items', [302n]))]
        .map((c) => c.seq)
        .sort((x, y) => x - y);
      assert.equal(new Set(seqs).size, seqs.length);
    } finally {
      stream.close();
      await pg.end();
    }
  });

  it('two blocks whose writes interleave on one held transaction each get a version, its seqs 0, 1, 2, ... in order', async () => {
    const made = await writeTx(agent.http, [
      "INSERT INTO items (id, name, qty) VALUES (740, 'a', 0), (741, 'b', 0), (742, 'c', 0), (743, 'd', 0)",
    ]);
    const [a, b] = [pgClient(pgListeners(agent)[0].port), pgClient(pgListeners(agent)[0].port)];
    await a.connect();
    await b.connect();
    try {
      await a.query('BEGIN');
      await b.query('BEGIN');
      await a.query("UPDATE items SET name = 'a1' WHERE id = 740");
      await b.query("UPDATE items SET name = 'b1', qty = 1 WHERE id = 741");
      await a.query('UPDATE items SET qty = 2 WHERE id = 740');
      await b.query("UPDATE items SET name = 'd1' WHERE id = 743");
      await a.query("UPDATE items SET name = 'c1', qty = 3 WHERE id = 742");
      await Promise.all([a.query('COMMIT'), b.query('COMMIT')]);
    } finally {
      await a.end();
      await b.end();
    }
    const changed = [740n, 741n, 742n, 743n].flatMap((id) =>
      Object.entries(clocks(agent, 'items', [id]))
        .filter(([, c]) => c.db_version > made.version!)
        .map(([cid, c]) => ({ id, cid, version: c.db_version, seq: c.seq })),
    );
    const byVersion = new Map<number, typeof changed>();
    for (const c of changed) byVersion.set(c.version, [...(byVersion.get(c.version) ?? []), c]);
    const order = (c: { id: bigint; cid: string }) => `${c.id}/${c.cid}`;
    const [va, vb] = [...byVersion.keys()].sort((x, y) => x - y);
    assert.equal(byVersion.size, 2);
    assert.equal(vb, va + 1);
    // a's writes, in the order it made them: 740's name, 740's qty, 742's name and qty
    const inSeqOrder = (v: number) =>
      byVersion
        .get(v)!
        .sort((x, y) => x.seq - y.seq)
        .map((c) => [order(c), c.seq]);
    assert.deepEqual(inSeqOrder(va), [
      ['740/name', 0],
      ['740/qty', 1],
      ['742/name', 2],
      ['742/qty', 3],
    ]);
    assert.deepEqual(inSeqOrder(vb), [
      ['741/name', 0],
      ['741/qty', 1],
      ['743/name', 2],
    ]);
  });

  it('opens a file written by an older agent, whose triggers were kept in the file, and captures as before', async () => {
    const before = await write(agent, "INSERT INTO items (id, name) VALUES (400, 'old file')");
    await agent.stop();
    const db = new Database(agent.dbPath);
    try {
      // The shape older agents left: persistent triggers calling functions only they defined.
      db.exec(
        `CREATE TRIGGER "__patina_upd_items" AFTER UPDATE ON items WHEN patina_capturing() BEGIN SELECT patina_touch('items', 'update', patina_pk(NEW.id), NULL); END`,
      );
      db.exec(
        `CREATE TRIGGER "__patina_keymark_items" BEFORE INSERT ON items BEGIN SELECT patina_key_mark('items', NEW.id = -1); END`,
      );
    } finally {
      db.close();
    }
    await agent.start();
    const after = await write(agent, "UPDATE items SET name = 'new agent' WHERE id = 400");
    assert.equal(after.version, before.version! + 1);
    assert.deepEqual(versions(clocks(agent, 'items', [400n])), { '-1': 1, name: 2, qty: 1 });
    const ro = new Database(agent.dbPath, { readonly: true });
    try {
      assert.deepEqual(
        ro.prepare("SELECT name FROM sqlite_schema WHERE type = 'trigger'").all(),
        [],
        'no trigger is left in the file',
      );
    } finally {
      ro.close();
    }
    const refused = await postJson(agent.http, '/v1/transactions', ["INSERT INTO items (name) VALUES ('no key')"]);
    assert.equal(refused.status, 400);
    assert.match(refused.text, /the key must be chosen by the writer/);
  });

  it('captures a table and a column added by `patina reload`', async () => {
    const s =
      SCHEMA.replace('qty INTEGER)', 'qty INTEGER, note TEXT)') +
      'CREATE TABLE later (k TEXT NOT NULL PRIMARY KEY, v TEXT);\n';
    fs.writeFileSync(path.join(agent.dir, 'schema.sql'), s);
    const r = await runCli(['reload', '--api-addr', new URL(agent.http).host]);
    assert.equal(r.code, 0, r.stderr);
    const later = await openStream(agent.http, 'POST', '/v1/updates/later');
    const items = await openStream(agent.http, 'POST', '/v1/updates/items');
    try {
      assert.equal(later.status, 200);
      await write(agent, "INSERT INTO later (k, v) VALUES ('x', 'y')");
      await write(agent, "UPDATE items SET note = 'hello' WHERE id = 12");
      assert.deepEqual(await later.count(1), [{ notify: ['update', ['x']] }]);
      assert.deepEqual(await items.count(1), [{ notify: ['update', [12]] }]);
      assert.deepEqual(versions(clocks(agent, 'later', ['x'])), { '-1': 1, v: 1 });
      assert.deepEqual(versions(clocks(agent, 'items', [12n])), { '-1': 1, name: 1, note: 1, qty: 1 });
      await write(agent, "UPDATE items SET note = 'again' WHERE id = 12");
      assert.deepEqual(versions(clocks(agent, 'items', [12n])), { '-1': 1, name: 1, note: 2, qty: 1 });
    } finally {
      later.close();
      items.close();
    }
  });
});

describe('primary-key encoding', () => {
  it('is fixed bytes: count, then tag and big-endian payload per column', () => {
    assert.equal(encodePk([1n]).toString('hex'), '01' + '01' + '0000000000000001');
    assert.equal(encodePk([-1n, 'é', null]).toString('hex'), '03' + '01ffffffffffffffff' + '0300000002c3a9' + '00');
    assert.equal(encodePk([1.5, Buffer.from([7])]).toString('hex'), '02' + '023ff8000000000000' + '040000000107');
  });

  it('round-trips 64-bit integers, reals, text, blobs and NULL', () => {
    const vals = [9223372036854775807n, -9223372036854775808n, 0.1, '', 'ü', Buffer.from([0, 255]), null];
    assert.deepEqual(decodePk(encodePk(vals)), vals);
  });
});

/** One transaction of the statements given; fails the test unless every one succeeded. */
function write(agent: AgentProcess, ...statements: unknown[]) {
  return writeTx(agent.http, statements);
}
