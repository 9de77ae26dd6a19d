"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// ORMs and query builders as their users use them, over the PG port: Drizzle ORM (node-postgres
// driver, a table definition), Kysely (PostgresDialect) and knex (pg). Each inserts with columns
// left out (Drizzle sends DEFAULT for them), reads, updates, counts, rolls back a transaction and
// meets a duplicate key with its SQLSTATE.
const strict_1 = __importDefault(require("node:assert/strict"));
const agent_1 = require("../helpers/agent");
/* eslint-disable @typescript-eslint/no-require-imports */
const pg = require('pg');
const { drizzle } = require('drizzle-orm/node-postgres');
const { pgTable, bigint, text, boolean, numeric, timestamp } = require('drizzle-orm/pg-core');
const { eq, sql } = require('drizzle-orm');
const { Kysely, PostgresDialect } = require('kysely');
const knex = require('knex');
const SCHEMA = `CREATE TABLE todos (
  id INTEGER NOT NULL PRIMARY KEY,
  title TEXT NOT NULL DEFAULT 'untitled',
  done BOOLEAN NOT NULL DEFAULT false,
  amount NUMERIC,
  created_at TIMESTAMP
);`;
describe('ORMs and query builders over the PG port', function () {
    this.timeout(60_000);
    let agent;
    let pool;
    before(async () => {
        agent = await (0, agent_1.startAgent)({ schema: SCHEMA, config: '[api.pg]\naddr = "127.0.0.1:0"\n' });
        pool = new pg.Pool({ host: agent.pg.host, port: agent.pg.port, user: 'app', database: 'db', max: 2 });
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
        strict_1.default.deepEqual(made, [{ id: 1n, title: 'untitled', done: false, amount: '2.5', createdAt: null }]);
        const at = new Date('2024-01-02T03:04:05Z');
        await db.insert(todos).values([
            { id: 2n, title: 'b', createdAt: at },
            { id: 3n, done: true },
        ]);
        strict_1.default.deepEqual(await db.select().from(todos).where(eq(todos.id, 2n)), [
            { id: 2n, title: 'b', done: false, amount: null, createdAt: at },
        ]);
        strict_1.default.deepEqual(await db.update(todos).set({ done: true }).where(eq(todos.id, 1n)).returning({ id: todos.id }), [
            { id: 1n },
        ]);
        strict_1.default.deepEqual(await db.select({ n: sql `count(*)` }).from(todos), [{ n: '3' }]); // int8, a string in node-postgres
        await strict_1.default.rejects(db.transaction(async (tx) => {
            await tx.insert(todos).values({ id: 9n });
            tx.rollback();
        }), /Rollback/);
        strict_1.default.deepEqual(await db.select().from(todos).where(eq(todos.id, 9n)), []);
        await strict_1.default.rejects(db.insert(todos).values({ id: 1n }), (e) => (e.cause ?? e).code === '23505');
        await db.delete(todos).where(eq(todos.id, 3n));
        strict_1.default.deepEqual((await db.select({ id: todos.id }).from(todos).orderBy(todos.id)).map((r) => r.id), [1n, 2n]);
    });
    it('Kysely: insert returning, IN lists, countAll, a transaction that rolls back', async () => {
        const k = new Kysely({ dialect: new PostgresDialect({ pool }) });
        strict_1.default.deepEqual(await k.insertInto('todos').values({ id: 10, title: 'k' }).returningAll().execute(), [
            { id: '10', title: 'k', done: false, amount: null, created_at: null },
        ]);
        strict_1.default.deepEqual(await k.selectFrom('todos').select(['id', 'title']).where('id', 'in', [1, 10]).orderBy('id').execute(), [
            { id: '1', title: 'untitled' },
            { id: '10', title: 'k' },
        ]);
        const { n } = await k
            .selectFrom('todos')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow();
        strict_1.default.equal(n, '3');
        await strict_1.default.rejects(k.transaction().execute(async (tx) => {
            await tx.insertInto('todos').values({ id: 11 }).execute();
            await tx.insertInto('todos').values({ id: 10 }).execute(); // duplicate: the whole block goes
        }), (e) => e.code === '23505');
        strict_1.default.equal((await k.selectFrom('todos').selectAll().where('id', '=', 11).execute()).length, 0);
    });
    it('knex (pg): insert with a column left out, update, a rolled-back transaction', async () => {
        const db = knex({
            client: 'pg',
            connection: { host: agent.pg.host, port: agent.pg.port, user: 'app', database: 'db' },
            pool: { min: 0, max: 1 },
        });
        try {
            strict_1.default.deepEqual(await db('todos').insert({ id: 20, amount: 7 }).returning(['id', 'title', 'amount']), [
                { id: '20', title: 'untitled', amount: '7' },
            ]);
            strict_1.default.equal(await db('todos').where({ id: 20 }).update({ title: 'kx' }), 1);
            await strict_1.default.rejects(db.transaction(async (trx) => {
                await trx('todos').insert({ id: 21 });
                throw new Error('give up');
            }), /give up/);
            strict_1.default.deepEqual(await db('todos').whereIn('id', [20, 21]).select('id', 'title'), [{ id: '20', title: 'kx' }]);
        }
        finally {
            await db.destroy();
        }
    });
});
//# sourceMappingURL=orm-clients.test.js.map