// ORMs and query builders as their users use them, over the PG port: Drizzle ORM (node-postgres
// driver, a table definition), Kysely (PostgresDialect) and knex (pg). Each inserts with columns
// left out (Drizzle sends DEFAULT for them), reads, updates, counts, rolls back a transaction and
// meets a duplicate key with its SQLSTATE.
import assert from 'node:assert/strict';
import { type AgentProcess, startAgent } from '../helpers/agent';

// biome-ignore lint/suspicious/noExplicitAny: the libraries' own types are checked by their users, not here
type Any = any;
/* eslint-disable @typescript-eslint/no-require-imports */
const pg = require('pg') as Any;
const { drizzle } = require('drizzle-orm/node-postgres') as Any;
const { pgTable, bigint, text, boolean, numeric, timestamp } = require('drizzle-orm/pg-core') as Any;
const { eq, sql } = require('drizzle-orm') as Any;
const { Kysely, PostgresDialect } = require('kysely') as Any;
const knex = require('knex') as Any;

const SCHEMA = `CREATE TABLE todos (
  id INTEGER NOT NULL PRIMARY KEY,
  title TEXT NOT NULL DEFAULT 'untitled',
  done BOOLEAN NOT NULL DEFAULT false,
  amount NUMERIC,
  created_at TIMESTAMP
);`;

describe('ORMs and query builders over the PG port', function () {
  this.timeout(60_000);
  let agent: AgentProcess;
  let pool: Any;

  before(async () => {
    agent = await startAgent({ schema: SCHEMA, config: '[api.pg]\naddr = "127.0.0.1:0"\n' });
    pool = new pg.Pool({ host: agent.pg!.host, port: agent.pg!.port, user: 'app', database: 'db', max: 2 });
  });
  after(async () => {
    await pool?.end();
    await agent?.dispose();
  });

  it('Drizzle ORM: insert with defaults, select, update, count, rollback, duplicate key', async () => {
    const todos = pgTable('todos', {
      id: bigint('id', { mode: 'bigint' }).primaryKey(),
      title: text('title').notNull().default('untitled'),
      done: boolean('done').notNull().default(false),
      amount: numeric('amount'),
      createdAt: timestamp('created_at'),
    });
    const db = drizzle(pool);
    const made = await db.insert(todos).values({ id: 1n, amount: '2.5' }).returning();
    assert.deepEqual(made, [{ id: 1n, title: 'untitled', done: false, amount: '2.5', createdAt: null }]);
    const at = new Date('2024-01-02T03:04:05Z');
    await db.insert(todos).values([
      { id: 2n, title: 'b', createdAt: at },
      { id: 3n, done: true },
    ]);
    assert.deepEqual(await db.select().from(todos).where(eq(todos.id, 2n)), [
      { id: 2n, title: 'b', done: false, amount: null, createdAt: at },
    ]);
    assert.deepEqual(await db.update(todos).set({ done: true }).where(eq(todos.id, 1n)).returning({ id: todos.id }), [
      { id: 1n },
    ]);
    assert.deepEqual(await db.select({ n: sql`count(*)` }).from(todos), [{ n: '3' }]); // int8, a string in node-postgres
    await assert.rejects(
      db.transaction(async (tx: Any) => {
        await tx.insert(todos).values({ id: 9n });
        tx.rollback();
      }),
      /Rollback/,
    );
    assert.deepEqual(await db.select().from(todos).where(eq(todos.id, 9n)), []);
    await assert.rejects(db.insert(todos).values({ id: 1n }), (e: Any) => (e.cause ?? e).code === '23505');
    await db.delete(todos).where(eq(todos.id, 3n));
    assert.deepEqual(
      (await db.select({ id: todos.id }).from(todos).orderBy(todos.id)).map((r: Any) => r.id),
      [1n, 2n],
    );
  });

  it('Kysely: insert returning, IN lists, countAll, a transaction that rolls back', async () => {
    const k = new Kysely({ dialect: new PostgresDialect({ pool }) });
    assert.deepEqual(await k.insertInto('todos').values({ id: 10, title: 'k' }).returningAll().execute(), [
      { id: '10', title: 'k', done: false, amount: null, created_at: null },
    ]);
    assert.deepEqual(
      await k.selectFrom('todos').select(['id', 'title']).where('id', 'in', [1, 10]).orderBy('id').execute(),
      [
        { id: '1', title: 'untitled' },
        { id: '10', title: 'k' },
      ],
    );
    const { n } = await k
      .selectFrom('todos')
      .select((eb: Any) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    assert.equal(n, '3');
    await assert.rejects(
      k.transaction().execute(async (tx: Any) => {
        await tx.insertInto('todos').values({ id: 11 }).execute();
        await tx.insertInto('todos').values({ id: 10 }).execute(); // duplicate: the whole block goes
      }),
      (e: Any) => e.code === '23505',
    );
    assert.equal((await k.selectFrom('todos').selectAll().where('id', '=', 11).execute()).length, 0);
  });

  it('knex (pg): insert with a column left out, update, a rolled-back transaction', async () => {
    const db = knex({
      client: 'pg',
      connection: { host: agent.pg!.host, port: agent.pg!.port, user: 'app', database: 'db' },
      pool: { min: 0, max: 1 },
    });
    try {
      assert.deepEqual(await db('todos').insert({ id: 20, amount: 7 }).returning(['id', 'title', 'amount']), [
        { id: '20', title: 'untitled', amount: '7' },
      ]);
      assert.equal(await db('todos').where({ id: 20 }).update({ title: 'kx' }), 1);
      await assert.rejects(
        db.transaction(async (trx: Any) => {
          await trx('todos').insert({ id: 21 });
          throw new Error('give up');
        }),
        /give up/,
      );
      assert.deepEqual(await db('todos').whereIn('id', [20, 21]).select('id', 'title'), [{ id: '20', title: 'kx' }]);
    } finally {
      await db.destroy();
    }
  });
});
