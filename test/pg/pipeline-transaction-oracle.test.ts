// An extended-protocol pipeline outside a block (several Bind/Execute before one Sync, as pgjdbc's
// executeBatch and psycopg 3's executemany send) is one implicit transaction, against PostgreSQL 15:
// a failing statement rolls back the writes before it in the pipeline (they were committed one by
// one here), Sync commits the rest; BEGIN inside takes it over, COMMIT ends it with a warning,
// SAVEPOINT and VACUUM are refused in it, SET TRANSACTION READ ONLY in it lasts to its Sync, and a
// client gone before its Sync stores nothing. The answers (message by message, errors and notices
// with their SQLSTATE and text, ReadyForQuery's status) and the rows stored after are compared.
import assert from 'node:assert/strict';
import { serialize } from 'pg-protocol';
import { type CatalogPair, startCatalogPair } from '../helpers/catalog-pair';
import { pgClient } from '../helpers/pg';
import { WireClient, shownMessage as shown } from '../helpers/pg-wire';

const SCHEMA = "CREATE TABLE t (id INTEGER NOT NULL PRIMARY KEY, v TEXT NOT NULL DEFAULT '');";

const parse = (sql: string, name = '') => serialize.parse({ name, text: sql, types: [] });
const bind = (values: (string | null)[], statement = '') => serialize.bind({ statement, values });
const execute = () => serialize.execute({});
const sync = () => serialize.sync();
/** Bind and Execute of the unnamed statement with `values`. */
const run = (...values: (string | null)[]) => [bind(values), execute()];

describe('pg: an extended-protocol pipeline is one implicit transaction (oracle: PostgreSQL 15)', function () {
  this.timeout(120_000);
  let pair: CatalogPair;

  before(async () => {
    pair = await startCatalogPair({ schemas: { patina: SCHEMA, postgres: SCHEMA } });
  });
  after(() => pair?.dispose());

  /**
   * Runs the exchanges on a fresh connection to `port` (the table emptied first), each up to its
   * ReadyForQuery, then reads the table back: the transcript.
   */
  async function transcript(port: number, exchanges: Buffer[][], close?: Buffer[]): Promise<string[]> {
    const c = await WireClient.open(port, { user: 'tester', database: 'db' });
    const out: string[] = [];
    try {
      await c.exchange(serialize.query('DELETE FROM t'));
      for (const messages of exchanges) out.push((await c.exchange(...messages)).messages.map(shown).join(' '));
      if (close) c.send(...close, serialize.end());
    } finally {
      c.end();
    }
    const r = await WireClient.open(port, { user: 'tester', database: 'db' });
    try {
      // (a client gone before its Sync: its connection's end is seen a moment later)
      if (close) await new Promise((resolve) => setTimeout(resolve, 300));
      const rows = await r.exchange(serialize.query('SELECT id, v FROM t ORDER BY id'));
      out.push(
        `stored: ${rows.messages
          .filter((m) => m.type === 'D')
          .map(shown)
          .join(', ')}`,
      );
    } finally {
      r.end();
    }
    return out;
  }

  async function same(exchanges: Buffer[][], close?: Buffer[]): Promise<string[]> {
    const patina = await transcript(pair.patinaPort, exchanges, close);
    const postgres = await transcript(pair.postgresPort, exchanges, close);
    assert.deepEqual(patina, postgres);
    return patina;
  }

  const INSERT = 'INSERT INTO t (id, v) VALUES ($1, $2)';

  it('Parse, Bind/Execute x3, Sync where the 2nd fails: nothing of the pipeline is stored', async () => {
    const t = await same([[parse(INSERT), ...run('1', 'a'), ...run('1', 'b'), ...run('2', 'c'), sync()]]);
    assert.match(t[0], /^1 2 C INSERT 0 1 2 E 23505 duplicate key value violates unique constraint "t_pkey" Z I$/);
    assert.equal(t[1], 'stored: ');
  });

  it('the 3rd failing (a NOT NULL): the two before it are rolled back too; a read between saw them', async () => {
    const t = await same([
      [
        parse(INSERT),
        ...run('1', 'a'),
        ...run('2', 'b'),
        parse('SELECT count(*) FROM t'),
        bind([]),
        execute(),
        parse(INSERT),
        ...run('3', null),
        sync(),
      ],
    ]);
    assert.match(t[0], /D 2 .*E 23502/);
    assert.equal(t[1], 'stored: ');
  });

  it('a pipeline that succeeds commits at Sync; one Sync per statement commits each (node-postgres)', async () => {
    const t = await same([
      [parse(INSERT), ...run('1', 'a'), ...run('2', 'b'), sync()],
      [parse(INSERT), ...run('3', 'c'), sync(), parse(INSERT), ...run('3', 'd'), sync()],
    ]);
    assert.equal(t[2], 'stored: D 1|a, D 2|b, D 3|c');
  });

  it('a read first, then writes that fail: the read is answered, the writes rolled back', async () => {
    const t = await same([
      [parse('SELECT count(*) FROM t'), bind([]), execute(), parse(INSERT), ...run('1', 'a'), ...run('1', 'a'), sync()],
    ]);
    assert.equal(t[1], 'stored: ');
  });

  it('BEGIN inside a pipeline takes its writes into the block (ROLLBACK drops them)', async () => {
    const t = await same([
      [parse(INSERT), ...run('1', 'a'), parse('BEGIN'), bind([]), execute(), parse(INSERT), ...run('2', 'b'), sync()],
      [serialize.query('ROLLBACK')],
    ]);
    assert.match(t[0], /Z T$/);
    assert.equal(t[2], 'stored: ');
  });

  it('COMMIT inside a pipeline commits what came before, with a warning; a later failure keeps it', async () => {
    const t = await same([
      [
        parse(INSERT),
        ...run('1', 'a'),
        ...run('2', 'b'),
        parse('COMMIT'),
        bind([]),
        execute(),
        parse(INSERT),
        ...run('3', 'c'),
        ...run('1', 'x'),
        sync(),
      ],
    ]);
    assert.match(t[0], /N 25P01 there is no transaction in progress/);
    assert.equal(t[1], 'stored: D 1|a, D 2|b');
  });

  it('ROLLBACK inside a pipeline drops what came before, with a warning', async () => {
    const t = await same([
      [
        parse(INSERT),
        ...run('1', 'a'),
        parse('ROLLBACK'),
        bind([]),
        execute(),
        parse(INSERT),
        ...run('2', 'b'),
        sync(),
      ],
    ]);
    assert.equal(t[1], 'stored: D 2|b');
  });

  it('SAVEPOINT and VACUUM after a write of the pipeline are refused, and the pipeline rolled back', async () => {
    const t = await same([
      [parse(INSERT), ...run('1', 'a'), parse('SAVEPOINT s'), bind([]), execute(), sync()],
      [parse(INSERT), ...run('2', 'b'), parse('VACUUM'), bind([]), execute(), sync()],
      [parse('SELECT 1'), bind([]), execute(), parse('VACUUM'), bind([]), execute(), sync()],
      [parse('VACUUM'), bind([]), execute(), parse(INSERT), ...run('3', 'c'), ...run('4', 'd'), sync()],
    ]);
    assert.match(t[0], /E 25P01 SAVEPOINT can only be used in transaction blocks/);
    assert.match(t[1], /E 25001 VACUUM cannot be executed within a pipeline/);
    assert.equal(t[4], 'stored: D 3|c, D 4|d');
  });

  it('a simple query of several statements: COMMIT and ROLLBACK in it warn, SAVEPOINT is 25P01', async () => {
    const t = await same([
      [serialize.query("INSERT INTO t (id, v) VALUES (1, 'a'); COMMIT")],
      [serialize.query("INSERT INTO t (id, v) VALUES (2, 'b'); ROLLBACK")],
      [serialize.query("INSERT INTO t (id, v) VALUES (3, 'c'); SAVEPOINT s")],
    ]);
    assert.match(t[0], /N 25P01 there is no transaction in progress/);
    assert.match(t[2], /E 25P01 SAVEPOINT can only be used in transaction blocks/);
    assert.equal(t[3], 'stored: D 1|a');
  });

  /** Parse, Bind and Execute of `sql` with no parameters. */
  const one = (sql: string) => [parse(sql), bind([]), execute()];
  /** A read that fails as it runs (1/0 alone fails at Bind in PostgreSQL, whose planner folds it). */
  const FAIL = 'SELECT 1/(count(*) - count(*)) FROM t';
  const SHOW = serialize.query("SELECT current_setting('TimeZone'), current_setting('myapp.tenant', true)");

  it('a SET or set_config before a failing statement is rolled back with the pipeline (a read, a write, a Parse failing)', async () => {
    const t = await same([
      [
        ...one("SET TimeZone = 'Asia/Tokyo'"),
        ...one("SELECT set_config('myapp.tenant', 'a', false)"),
        ...one(FAIL),
        sync(),
      ],
      [SHOW],
      [...one("SET TimeZone = 'Asia/Tokyo'"), parse(INSERT), ...run('1', 'a'), ...run('1', 'b'), sync()],
      [SHOW],
      [...one("SELECT set_config('myapp.tenant', 'b', false)"), parse('SELEC 1'), sync()],
      [SHOW],
      [...one("SET TimeZone = 'Asia/Tokyo'"), ...one("SELECT set_config('myapp.tenant', 'c', false)"), sync()],
      [SHOW],
    ]);
    assert.match(t[0], /E 22012/);
    assert.match(t[1], /D UTC\| /);
    assert.match(t[3], /D UTC\| /);
    assert.match(t[5], /D UTC\| /);
    assert.match(t[7], /D Asia\/Tokyo\|c/);
  });

  it('SET LOCAL in a pipeline warns, and lasts to its Sync (before a write and after one); set_config(..., true) too', async () => {
    const t = await same([
      [
        ...one("SET LOCAL TimeZone = 'Asia/Tokyo'"),
        ...one("SELECT current_setting('TimeZone')"),
        parse(INSERT),
        ...run('1', 'a'),
        ...one("SET LOCAL myapp.tenant = 'x'"),
        ...one("SELECT current_setting('myapp.tenant')"),
        sync(),
      ],
      [SHOW],
      [
        ...one("SELECT set_config('myapp.tenant', 'y', true)"),
        ...one("SELECT current_setting('myapp.tenant')"),
        sync(),
      ],
      [SHOW],
      [...one("SET LOCAL TimeZone = 'Asia/Tokyo'"), sync()],
      [SHOW],
    ]);
    assert.match(t[0], /^1 2 N 25P01 SET LOCAL can only be used in transaction blocks C SET 1 2 D Asia\/Tokyo /);
    assert.match(t[0], /C INSERT 0 1 1 2 N 25P01 SET LOCAL can only be used in transaction blocks C SET 1 2 D x /);
    assert.match(t[1], /D UTC\| C/);
    assert.match(t[2], /D y/);
    assert.match(t[3], /D UTC\| C/);
  });

  it('BEGIN after a SET of the pipeline takes the SET into the block (ROLLBACK puts it back); COMMIT keeps one', async () => {
    const t = await same([
      [...one("SET TimeZone = 'Asia/Tokyo'"), ...one('BEGIN'), sync()],
      [serialize.query('ROLLBACK')],
      [SHOW],
      [...one("SET TimeZone = 'Asia/Tokyo'"), ...one('COMMIT'), ...one(FAIL), sync()],
      [SHOW],
    ]);
    assert.match(t[2], /D UTC/);
    assert.match(t[3], /N 25P01 there is no transaction in progress/);
    assert.match(t[4], /D Asia\/Tokyo/);
  });

  it('DECLARE without HOLD, LOCK TABLE and DISCARD ALL in a pipeline are refused as PostgreSQL refuses them; FOR UPDATE is not', async () => {
    const t = await same([
      [...one('DECLARE c CURSOR FOR SELECT 1'), ...one('FETCH ALL FROM c'), sync()],
      [parse(INSERT), ...run('1', 'a'), ...one('DECLARE c CURSOR FOR SELECT 1'), sync()],
      [...one('LOCK TABLE t IN ACCESS SHARE MODE'), sync()],
      [parse(INSERT), ...run('2', 'b'), ...one('LOCK TABLE t IN ACCESS SHARE MODE'), sync()],
      [serialize.query('LOCK TABLE t IN ACCESS SHARE MODE')],
      [serialize.query('SELECT 1; LOCK TABLE t IN ACCESS SHARE MODE')],
      [...one('SELECT 1'), ...one('DISCARD ALL'), sync()],
      [parse(INSERT), ...run('3', 'c'), ...one('DISCARD ALL'), sync()],
      [...one('DISCARD ALL'), parse(INSERT), ...run('4', 'd'), sync()],
      [parse(INSERT), ...run('5', 'e'), ...one('SELECT id FROM t WHERE id = 5 FOR UPDATE'), sync()],
    ]);
    assert.match(t[0], /E 25P01 DECLARE CURSOR can only be used in transaction blocks/);
    assert.match(t[2], /E 25P01 LOCK TABLE can only be used in transaction blocks/);
    assert.match(t[4], /E 25P01 LOCK TABLE can only be used in transaction blocks/);
    assert.match(t[5], /C LOCK TABLE/);
    assert.match(t[6], /E 25001 DISCARD ALL cannot be executed within a pipeline/);
    assert.match(t[7], /E 25001 DISCARD ALL cannot be executed within a pipeline/);
    assert.match(t[9], /D 5/);
    assert.equal(t[10], 'stored: D 4|d, D 5|e');
  });

  it('an error is sent at once, before the Sync (what came before it too), as PostgreSQL flushes it', async () => {
    const seen = async (port: number) => {
      const c = await WireClient.open(port, { user: 'tester', database: 'db' });
      try {
        await c.exchange(serialize.query('DELETE FROM t'));
        c.send(parse(INSERT), ...run('1', 'a'), ...run('1', 'b'), ...run('2', 'c'));
        const before = (await c.arrived(500)).map(shown).join(' ');
        const after = (await c.exchange(sync())).messages.map(shown).join(' ');
        return [before, after];
      } finally {
        c.end();
      }
    };
    const patina = await seen(pair.patinaPort);
    assert.deepEqual(patina, await seen(pair.postgresPort));
    assert.match(patina[0], /^1 2 C INSERT 0 1 2 E 23505 duplicate key/);
    assert.equal(patina[1], 'Z I');
  });

  it('a Bind that fails after a write rolls the pipeline back', async () => {
    const t = await same([[parse(INSERT), ...run('1', 'a'), bind(['2']), execute(), sync()]]);
    assert.match(t[0], /E 08P01 bind message supplies 1 parameters/);
    assert.equal(t[1], 'stored: ');
  });

  it('node-postgres queries queued without awaiting (a Sync each) commit one by one', async () => {
    const stored = async (port: number) => {
      const c = pgClient(port);
      await c.connect();
      try {
        await c.query('DELETE FROM t');
        const sent = [
          ['1', 'a'],
          ['1', 'b'],
          ['2', 'c'],
        ].map((values) =>
          c.query(INSERT, values).then(
            () => 'ok',
            (e: { code?: string }) => e.code,
          ),
        );
        const outcomes = await Promise.all(sent);
        const rows = await c.query({ text: 'SELECT v FROM t ORDER BY v', rowMode: 'array' });
        return { outcomes, rows: rows.rows };
      } finally {
        await c.end();
      }
    };
    const patina = await stored(pair.patinaPort);
    assert.deepEqual(patina, await stored(pair.postgresPort));
    assert.deepEqual(patina.outcomes, ['ok', '23505', 'ok']);
  });

  it('a read before the first write sees a row another connection committed meanwhile, as at PostgreSQL 15 in READ COMMITTED', async () => {
    // (reads before the first write run outside the pipeline's transaction here: each sees what is
    // committed when it runs, as each statement's snapshot does at PostgreSQL's default isolation)
    const seen = async (port: number) => {
      const c = await WireClient.open(port, { user: 'tester', database: 'db' });
      const other = await WireClient.open(port, { user: 'tester', database: 'db' });
      try {
        await c.exchange(serialize.query('DELETE FROM t'));
        c.send(...one('SELECT count(*) FROM t'), serialize.flush());
        const first = (await c.arrived(300)).map(shown).join(' ');
        await other.exchange(serialize.query("INSERT INTO t (id, v) VALUES (1, 'o')"));
        const rest = await c.exchange(
          ...one('SELECT count(*) FROM t'),
          parse(INSERT),
          ...run('2', 'a'),
          ...run('2', 'b'),
          sync(),
        );
        const stored = await other.exchange(serialize.query('SELECT id, v FROM t ORDER BY id'));
        return [first, ...[rest, stored].map((r) => r.messages.map(shown).join(' '))];
      } finally {
        c.end();
        other.end();
      }
    };
    const patina = await seen(pair.patinaPort);
    assert.deepEqual(patina, await seen(pair.postgresPort));
    assert.match(patina[0], /D 0 C SELECT 1$/);
    assert.match(patina[1], /^1 2 D 1 C SELECT 1 1 2 C INSERT 0 1 2 E 23505/);
    assert.match(patina[2], /D 1\|o C SELECT 1 Z I$/);
  });

  it('SET TRANSACTION READ ONLY or DEFERRABLE in a pipeline or a simple query of several statements lasts to its end, as its implicit transaction', async () => {
    const mode = (name: string) => one(`SELECT current_setting('transaction_${name}')`);
    const t = await same([
      [serialize.query("SET TRANSACTION READ ONLY; INSERT INTO t (id, v) VALUES (1, 'a')")],
      [serialize.query("SET TRANSACTION READ ONLY; SELECT current_setting('transaction_read_only')")],
      [serialize.query("SELECT current_setting('transaction_read_only')")],
      [...one('SET TRANSACTION READ ONLY'), ...mode('read_only'), parse(INSERT), ...run('2', 'b'), sync()],
      [...mode('read_only'), parse(INSERT), ...run('3', 'c'), sync()],
      [...one('SET TRANSACTION DEFERRABLE'), ...mode('deferrable'), sync()],
      [...mode('deferrable'), sync()],
    ]);
    assert.match(t[0], /^C SET E 25006 cannot execute INSERT in a read-only transaction Z I$/);
    assert.match(t[1], /D on C SELECT 1 Z I$/);
    assert.match(t[2], /D off C SELECT 1 Z I$/);
    assert.match(t[3], /N 25P01 SET TRANSACTION can only be used in transaction blocks C SET 1 2 D on .* E 25006 /);
    assert.match(t[4], /D off C SELECT 1 1 2 C INSERT 0 1 Z I$/);
    assert.match(t[5], /D on C SELECT 1 Z I$/);
    assert.match(t[6], /D off C SELECT 1 Z I$/);
    assert.equal(t[7], 'stored: D 3|c');
  });

  it("SET default_transaction_read_only in a pipeline or a simple query is the next transaction's, reported by ParameterStatus", async () => {
    const t = await same([
      [serialize.query("SET default_transaction_read_only = on; INSERT INTO t (id, v) VALUES (1, 'a')")],
      [serialize.query("INSERT INTO t (id, v) VALUES (2, 'b')")],
      [serialize.query('RESET default_transaction_read_only')],
      [...one('SET default_transaction_read_only = on'), parse(INSERT), ...run('3', 'c'), sync()],
      [parse(INSERT), ...run('4', 'd'), sync()],
      [
        ...one("SELECT current_setting('transaction_read_only')"),
        ...one('RESET default_transaction_read_only'),
        sync(),
      ],
      [...one("SELECT current_setting('transaction_read_only')"), parse(INSERT), ...run('5', 'e'), sync()],
    ]);
    assert.equal(t[0], 'C SET C INSERT 0 1 S default_transaction_read_only=on Z I');
    assert.match(t[1], /^E 25006 cannot execute INSERT in a read-only transaction Z I$/);
    assert.equal(t[2], 'C RESET S default_transaction_read_only=off Z I');
    assert.match(t[3], /C INSERT 0 1 S default_transaction_read_only=on Z I$/);
    assert.match(t[4], /E 25006 /);
    assert.match(t[5], /D on C SELECT 1 1 2 C RESET S default_transaction_read_only=off Z I$/);
    assert.equal(t[7], 'stored: D 1|a, D 3|c, D 5|e');
  });

  it('a client gone before its Sync stores nothing of the pipeline', async () => {
    const t = await same([], [parse(INSERT), ...run('1', 'a'), ...run('2', 'b'), serialize.flush()]);
    assert.equal(t[0], 'stored: ');
  });

  it('garbage after a write in the same packet (a message length below 4) ends the connection; the agent answers others, nothing is stored', async () => {
    // (the length would step the look-ahead for a following Execute back over the buffer, for ever, on the agent's thread)
    const garbage = Buffer.alloc(5);
    garbage.write('B', 0, 'latin1');
    garbage.writeInt32BE(-1, 1); // (one step back from after its type byte: the same place again)
    const c = await WireClient.open(pair.patinaPort, { user: 'tester', database: 'db' });
    try {
      await c.exchange(serialize.query('DELETE FROM t'));
      c.send(parse(INSERT), ...run('7', 'g'), garbage);
    } finally {
      c.end();
    }
    const other = await WireClient.open(pair.patinaPort, { user: 'tester', database: 'db' });
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      const r = await other.exchange(serialize.query('SELECT count(*) FROM t'));
      assert.deepEqual(r.errors, []);
      assert.deepEqual(r.messages.filter((m) => m.type === 'D').map(shown), ['D 0']);
    } finally {
      other.end();
    }
  });
});
