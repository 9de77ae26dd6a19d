// The pure parts of a PG session (protocols/pg/session/): SET and RESET parsed, SHOW's rows, the
// arguments of NOTIFY as bound, and EXPLAIN's lines from SQLite's plan rows.
import assert from 'node:assert/strict';
import { explainLines } from '../../../protocols/pg/session/explain';
import { notifyArguments } from '../../../protocols/pg/session/notifications';
import { BlockRows, RowClaims, pointRow } from '../../../protocols/pg/session/row-claims';
import type { Schema, TableDef } from '../../../src/engine/schema/model';
import { applySetting, parseSet, showRows } from '../../../protocols/pg/session/settings';
import type { Analyzed } from '../../../protocols/pg/sql/analyzed';
import { lexPg } from '../../../protocols/pg/sql/lexer';

const sig = (sql: string) => lexPg(sql).filter((t) => t.type !== 'space' && t.type !== 'comment');
const sqlstate = (code: string) => (e: unknown) => (e as { sqlstate?: string }).sqlstate === code;

describe('PG session parts', () => {
  it('SET and RESET: name and value, quoted values unquoted, SET TRANSACTION sets no setting but names its isolation level', () => {
    assert.deepEqual(parseSet(sig('SET search_path TO public, "My Schema"')), {
      name: 'search_path',
      value: 'public, My Schema',
    });
    assert.deepEqual(parseSet(sig("SET application_name = 'it''s'")), { name: 'application_name', value: "it's" });
    assert.deepEqual(parseSet(sig("SET TIME ZONE 'UTC'")), { name: 'timezone', value: 'UTC' });
    assert.deepEqual(parseSet(sig('SET LOCAL statement_timeout = 5')), {
      name: 'statement_timeout',
      value: '5',
      local: true,
    });
    assert.deepEqual(parseSet(sig('SET statement_timeout TO DEFAULT')), { name: 'statement_timeout', value: null });
    assert.deepEqual(parseSet(sig('RESET datestyle')), { name: 'datestyle', value: null });
    // (no setting; the level goes to the transaction's checks, session/transaction-modes.ts)
    assert.deepEqual(parseSet(sig('SET TRANSACTION ISOLATION LEVEL SERIALIZABLE')), {
      name: '',
      value: null,
      isolation: { name: 'transaction_isolation', value: 'serializable' },
    });
    // incomplete statements: no name (nothing is set) or an empty value
    assert.deepEqual(parseSet(sig('SET')), { name: '', value: '' });
    assert.deepEqual(parseSet(sig('RESET')), { name: '', value: null });
    assert.deepEqual(parseSet(sig('SET x =')), { name: 'x', value: '' });
  });

  it('settings: RESET gives the default back, SHOW ALL sorted, an unknown name is 42704', () => {
    const settings = new Map([
      ['search_path', 'public'],
      ['work_mem', '1MB'],
    ]);
    applySetting(settings, { name: 'timezone', value: null });
    applySetting(settings, { name: 'work_mem', value: '8MB' });
    applySetting(settings, { name: '', value: 'y' });
    applySetting(settings, undefined);
    applySetting(settings, { name: 'my.custom', value: null });
    applySetting(settings, { name: 'search_path', value: null });
    assert.deepEqual(
      [...settings],
      [
        ['search_path', '"$user", public'],
        ['work_mem', '8MB'],
        ['timezone', 'UTC'],
        ['my.custom', ''],
      ],
    );
    assert.deepEqual(showRows(settings, 'work_mem'), [['8MB']]);
    // (a setting the session has not set: PostgreSQL 15's default)
    assert.deepEqual(showRows(settings, 'maintenance_work_mem'), [['64MB']]);
    const all = showRows(settings, 'all');
    assert.deepEqual(
      all.find((r) => r[0] === 'work_mem'),
      ['work_mem', '8MB', 'Sets the maximum memory to be used for query workspaces.'],
    );
    assert.deepEqual(
      all.map((r) => String(r[0]).toLowerCase()),
      all.map((r) => String(r[0]).toLowerCase()).sort(),
    );
    assert.throws(() => showRows(settings, 'nope'), sqlstate('42704'));
    assert.throws(() => applySetting(settings, { name: 'zz', value: null }), sqlstate('42704'));
    assert.throws(() => applySetting(settings, { name: 'work_mems', value: '1MB' }), sqlstate('42704'));
  });

  it('NOTIFY arguments: literals or bound parameters; an empty channel or a long payload is 22023', () => {
    assert.deepEqual(notifyArguments({ name: 'c', payload: 'p' }, []), ['c', 'p']);
    assert.deepEqual(notifyArguments({ name: '', payload: '', params: [0, 1] }, ['ch', null]), ['ch', '']);
    assert.deepEqual(notifyArguments({ name: 'c', payload: '', params: [null, 0] }, [42]), ['c', '42']);
    assert.throws(() => notifyArguments({ name: '', payload: 'x' }, []), sqlstate('22023'));
    assert.throws(() => notifyArguments({ name: 'c', payload: 'x'.repeat(8000) }, []), sqlstate('22023'));
    assert.throws(() => notifyArguments({ name: '', payload: '', params: [0, null] }, [null]), sqlstate('22023'));
  });

  it("EXPLAIN lines: SQLite's plan indented as PostgreSQL's, a write over what it reads", () => {
    const read = { readonly: true } as Analyzed;
    assert.deepEqual(
      explainLines(
        [
          [2, 0, 0, 'SCAN users'],
          [5, 2, 0, 'USE INDEX'],
        ],
        read,
      ),
      ['SCAN users', '  ->  USE INDEX'],
    );
    assert.deepEqual(explainLines([], read), ['(no plan)']);
    const update = { readonly: false, command: 'UPDATE', sql: 'UPDATE "users" SET a = 1' } as Analyzed;
    assert.deepEqual(explainLines([[2, 0, 0, 'SEARCH users USING INTEGER PRIMARY KEY (rowid=?)']], update), [
      'Update on users',
      '  ->  SEARCH users USING INTEGER PRIMARY KEY (rowid=?)',
    ]);
    const truncate = { readonly: false, command: 'TRUNCATE TABLE', sql: 'DELETE FROM "users"' } as Analyzed;
    assert.deepEqual(explainLines([], truncate), ['Delete on users', '  ->  Result']);
  });

  it('row claims: the one row of a point statement by its one-column key, and nothing for other shapes', () => {
    const table = (name: string, primaryKey: string[]) => ({ name, primaryKey }) as unknown as TableDef;
    const schema: Schema = {
      tables: new Map([
        ['Accounts', table('Accounts', ['aid'])],
        ['pairs', table('pairs', ['a', 'b'])],
      ]),
    };
    const row = (sql: string, params?: Record<string, unknown>) =>
      pointRow(sql, params as Record<string, never> | undefined, schema);
    assert.deepEqual(row('SELECT abalance FROM accounts WHERE aid = $1', { 1: 7 }), {
      key: 'accounts\u00007',
      reads: true,
    });
    assert.deepEqual(row('UPDATE "Accounts" SET abalance = abalance + $1 WHERE "aid" = $2;', { 1: 5, 2: '7' }), {
      key: 'accounts\u00007',
      reads: false,
    });
    assert.deepEqual(row('update accounts set x = 1 where aid = -3'), { key: 'accounts\u0000-3', reads: false });
    assert.deepEqual(row("DELETE FROM accounts WHERE aid = 'it''s'"), { key: "accounts\u0000it's", reads: false });
    // not one row by the key: no claim (the block is checked at COMMIT only)
    for (const sql of [
      'SELECT abalance FROM accounts WHERE bid = $1',
      'SELECT abalance FROM accounts WHERE aid = $1 AND bid = 2',
      'SELECT abalance FROM accounts WHERE aid > $1',
      'SELECT * FROM pairs WHERE a = $1',
      'SELECT * FROM nowhere WHERE aid = $1',
      'INSERT INTO accounts (aid) VALUES ($1)',
    ])
      assert.equal(row(sql, { 1: 1 }), null, sql);
    assert.equal(row('SELECT abalance FROM accounts WHERE aid = $1', { 1: null }), null);
  });

  it('row claims: a read waits for the block that claims a row either writes, a cycle does not wait, release wakes, a COMMIT waits only for blocks that read its rows', async () => {
    const claims = new RowClaims();
    const [a, b, c] = [new BlockRows(), new BlockRows(), new BlockRows()];
    const x = { key: 't\u00001', reads: true };
    const writeX = { key: x.key, reads: false };
    assert.equal(claims.note(a, writeX, 1000), null);
    assert.equal(claims.note(a, x, 1000), null); // a claims x
    assert.equal(claims.note(b, writeX, 1000), null); // a write alone does not wait
    let read = false;
    const waiting = claims.note(b, x, 1000)!.then(() => (read = true));
    await new Promise((r) => setTimeout(r, 10));
    assert.equal(read, false);
    assert.equal(claims.beforeCommit(a, 1000), null); // nobody else claims x
    claims.release(a);
    await waiting;
    assert.equal(read, true);
    // a COMMIT waits for a block that read a row it writes
    const z = { key: 't\u00003', reads: true };
    assert.equal(claims.note(c, z, 1000), null);
    assert.equal(claims.beforeCommit(c, 1000), null);
    claims.note(b, { key: z.key, reads: false }, 1000);
    let committed = false;
    const bCommit = claims.beforeCommit(b, 1000)!.then(() => (committed = true));
    await new Promise((r) => setTimeout(r, 10));
    assert.equal(committed, false);
    claims.release(c);
    await bCommit;
    claims.release(b);
    assert.equal(claims.size, 0);
    // two blocks that each read a row the other writes: the second COMMIT does not wait for the first
    const [d, e] = [new BlockRows(), new BlockRows()];
    const y = { key: 't\u00002', reads: true };
    claims.note(d, x, 1000);
    claims.note(e, y, 1000);
    claims.note(d, { key: y.key, reads: false }, 1000);
    claims.note(e, { key: x.key, reads: false }, 1000);
    const dCommit = claims.beforeCommit(d, 1000)!;
    assert.equal(claims.beforeCommit(e, 1000), null);
    claims.release(e);
    await dCommit;
    claims.release(d);
    assert.equal(claims.size, 0);
    // a block whose connection closed while it waited claims nothing when the wait ends
    const [f, g] = [new BlockRows(), new BlockRows()];
    claims.note(f, writeX, 1000);
    claims.note(f, x, 1000);
    claims.note(g, writeX, 1000);
    const gWaits = claims.note(g, x, 1000)!;
    claims.release(g);
    claims.release(f);
    await gWaits;
    assert.equal(claims.size, 0);
    // a COMMIT does not wait for a committing block that only writes the row (tpcb-like's branch),
    // and does wait for one that read it
    const [h, k] = [new BlockRows(), new BlockRows()];
    const branch = { key: 'b\u00001', reads: false };
    claims.note(h, branch, 1000);
    claims.note(k, branch, 1000);
    assert.equal(claims.beforeCommit(h, 1000), null); // h claims the branch until it ends
    assert.equal(claims.commitBlocked(k), false);
    assert.equal(claims.beforeCommit(k, 1000), null);
    claims.release(h);
    claims.release(k);
    assert.equal(claims.size, 0);
    const [p, q] = [new BlockRows(), new BlockRows()];
    claims.note(p, branch, 1000);
    claims.note(p, { key: branch.key, reads: true }, 1000);
    claims.note(q, branch, 1000);
    assert.equal(claims.beforeCommit(p, 1000), null);
    assert.equal(claims.commitBlocked(q), true); // p read the row q writes
    claims.release(p);
    assert.equal(claims.commitBlocked(q), false);
    claims.release(q);
    assert.equal(claims.size, 0);
  });
});
