// The client matrix over TLS with a SCRAM user, as the issue asks of every client: the query
// builders and ORMs (Kysely, Drizzle, knex, TypeORM, Sequelize over node-postgres), the Python
// clients (psycopg 3, asyncpg, SQLAlchemy with pandas, pgcli, Django), pgbench and pg_dump, each against an
// agent that requires TLS, verifying its certificate against the test CA where the client can.
// Each inserts, reads, updates, rolls a transaction back and meets a duplicate key (23505).
// PHP (PDO, pg_*), Perl's DBD::Pg, Ruby's pg and Go (pgx, lib/pq) run one script each against the
// agent and against a PostgreSQL 15 with the same certificate and a SCRAM user, and must see the
// same; through libpq they require channel binding (SCRAM-SHA-256-PLUS), which Patina did not offer:
// libpq's `channel_binding=require` failed with "server did not offer an authentication method
// that supports channel binding". psql, node-postgres, postgres.js, psycopg2, psqlODBC
// (tls-users.test.ts) and pgjdbc (scram-logins.test.ts) are covered where they were.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { AgentProcess } from '../helpers/agent';
import { goBuild } from '../helpers/go';
import { psql, RawPg, serialize } from '../helpers/pg';
import { startTlsPostgres, TestCerts } from '../helpers/tls';

// biome-ignore lint/suspicious/noExplicitAny: the libraries' own types are checked by their users, not here
type Any = any;
/* eslint-disable @typescript-eslint/no-require-imports */
const pg = require('pg') as Any;
const { drizzle } = require('drizzle-orm/node-postgres') as Any;
const { pgTable, bigint, text, numeric } = require('drizzle-orm/pg-core') as Any;
const { eq } = require('drizzle-orm') as Any;
const { Kysely, PostgresDialect } = require('kysely') as Any;
const knex = require('knex') as Any;
require('reflect-metadata');
const typeorm = require('typeorm') as Any;
const { Sequelize, DataTypes } = require('sequelize') as Any;

const SCHEMA =
  "CREATE TABLE items (id INTEGER NOT NULL PRIMARY KEY, name TEXT NOT NULL DEFAULT '', price NUMERIC(10,2));";
const USER = 'app';
const PASSWORD = 'tls-matrix-pw-5e1b';
const PYTHON = '/usr/bin/python3';
const FIXTURES = path.resolve(__dirname, '..', '..', '..', 'test', 'fixtures', 'tls-clients');
const SCRIPT = path.join(FIXTURES, 'python_clients.py');

describe('the client matrix over TLS with SCRAM', function () {
  this.timeout(120_000);
  let certs: TestCerts;
  let agent: AgentProcess;
  let port: number;
  const ssl = () => ({ ca: fs.readFileSync(certs.file('ca.crt')), servername: 'localhost' });
  const conn = () => ({ host: 'localhost', port, user: USER, password: PASSWORD, database: 'db', ssl: ssl() });
  const env = () => ({ PGSSLMODE: 'verify-full', PGSSLROOTCERT: certs.file('ca.crt'), PGPASSWORD: PASSWORD });

  before(async () => {
    certs = TestCerts.generate('agent1');
    agent = new AgentProcess({ schema: SCHEMA });
    agent.opts.config = certs.pgListener('agent1', [{ name: USER, role: 'write', secret: `password = "${PASSWORD}"` }]);
    await agent.start();
    port = agent.pg!.port;
  });
  after(async () => {
    await agent?.dispose();
    certs?.dispose();
  });

  /** The duplicate key's SQLSTATE from a client error (node-postgres's, or the ORM's wrapping it). */
  const code = (e: Any) => e?.code ?? e?.cause?.code ?? e?.parent?.code ?? e?.driverError?.code;

  it('Kysely, Drizzle and knex over node-postgres with verify-full', async () => {
    const kysely = new Kysely({ dialect: new PostgresDialect({ pool: new pg.Pool({ ...conn(), max: 1 }) }) });
    try {
      await kysely.insertInto('items').values({ id: 101, name: 'ky', price: '1.50' }).execute();
      await kysely.updateTable('items').set({ name: 'ky2' }).where('id', '=', 101).execute();
      const row = await kysely.selectFrom('items').select(['name', 'price']).where('id', '=', 101).executeTakeFirst();
      assert.deepEqual(row, { name: 'ky2', price: '1.50' });
      await assert.rejects(
        kysely.transaction().execute(async (trx: Any) => {
          await trx.insertInto('items').values({ id: 102, name: 'gone' }).execute();
          throw new Error('roll back');
        }),
        /roll back/,
      );
      const dup = await kysely.insertInto('items').values({ id: 101 }).execute().catch(code);
      assert.equal(dup, '23505');
    } finally {
      await kysely.destroy();
    }

    const pool = new pg.Pool({ ...conn(), max: 1 });
    try {
      const items = pgTable('items', {
        id: bigint('id', { mode: 'number' }).primaryKey(),
        name: text('name').notNull().default(''),
        price: numeric('price'),
      });
      const db = drizzle(pool);
      await db.insert(items).values({ id: 111, price: '2.25' });
      await db.update(items).set({ name: 'dz' }).where(eq(items.id, 111));
      assert.deepEqual(await db.select().from(items).where(eq(items.id, 111)), [
        { id: 111, name: 'dz', price: '2.25' },
      ]);
      assert.equal(await db.insert(items).values({ id: 111 }).catch(code), '23505');
    } finally {
      await pool.end();
    }

    const k = knex({ client: 'pg', connection: conn(), pool: { min: 0, max: 1 } });
    try {
      await k('items').insert({ id: 121, name: 'kn' });
      await k('items').where({ id: 121 }).update({ price: '3.00' });
      assert.deepEqual(await k('items').select('name', 'price').where({ id: 121 }), [{ name: 'kn', price: '3.00' }]);
      await assert.rejects(
        k.transaction(async (trx: Any) => {
          await trx('items').insert({ id: 122, name: 'gone' });
          throw new Error('roll back');
        }),
        /roll back/,
      );
      assert.equal(await k('items').insert({ id: 121 }).catch(code), '23505');
      assert.deepEqual(await k('items').count('* as n').whereIn('id', [102, 122]), [{ n: '0' }]);
    } finally {
      await k.destroy();
    }
  });

  it('TypeORM and Sequelize with verify-full', async () => {
    const Item = new typeorm.EntitySchema({
      name: 'Item',
      tableName: 'items',
      columns: {
        id: { type: 'bigint', primary: true },
        name: { type: 'text' },
        price: { type: 'numeric', precision: 10, scale: 2, nullable: true },
      },
    });
    const ds = new typeorm.DataSource({ type: 'postgres', ...conn(), username: USER, entities: [Item] });
    await ds.initialize();
    try {
      const repo = ds.getRepository('Item');
      await repo.insert({ id: '131', name: 'to', price: '4.50' });
      await repo.update({ id: '131' }, { name: 'to2' });
      assert.deepEqual(await repo.findOneBy({ id: '131' }), { id: '131', name: 'to2', price: '4.50' });
      await assert.rejects(
        ds.transaction(async (m: Any) => {
          await m.insert('Item', { id: '132', name: 'gone' });
          throw new Error('roll back');
        }),
        /roll back/,
      );
      assert.equal(await repo.insert({ id: '131', name: 'dup' }).catch(code), '23505');
      assert.equal(await repo.countBy({ id: '132' }), 0);
    } finally {
      await ds.destroy();
    }

    const s = new Sequelize('db', USER, PASSWORD, {
      dialect: 'postgres',
      host: 'localhost',
      port,
      logging: false,
      dialectOptions: { ssl: ssl() },
    });
    try {
      const Row = s.define(
        'Row',
        { id: { type: DataTypes.BIGINT, primaryKey: true }, name: DataTypes.TEXT, price: DataTypes.DECIMAL(10, 2) },
        { tableName: 'items', timestamps: false },
      );
      await Row.create({ id: 141, name: 'sq', price: '5.00' });
      await Row.update({ name: 'sq2' }, { where: { id: 141 } });
      const row = await Row.findByPk(141);
      assert.deepEqual([row.name, row.price], ['sq2', '5.00']);
      const t = await s.transaction();
      await Row.create({ id: 142, name: 'gone' }, { transaction: t });
      await t.rollback();
      assert.equal(await Row.count({ where: { id: 142 } }), 0);
      assert.equal(await Row.create({ id: 141, name: 'dup' }).catch(code), '23505');
    } finally {
      await s.close();
    }
  });

  it("psycopg 3, asyncpg, SQLAlchemy with pandas, pgcli and Django's ORM with verify-full", () => {
    const r = spawnSync(PYTHON, [SCRIPT, String(port), USER, PASSWORD, certs.file('ca.crt')], {
      encoding: 'utf8',
      timeout: 90_000,
    });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), {
      psycopg3: [
        'p3',
        '3.00',
        'on',
        0,
        '23505',
        [
          [301, '3.00'],
          [303, '0.25'],
        ],
      ],
      asyncpg: ['apg2', '2.25', 0, '23505'],
      sqlalchemy: [['pa', 'pb'], 'pa', '23505'],
      pgcli: [[['cli']], ['items']],
      django: ['dj2', '6.00', 0, '23505', [341, 343]],
    });
  });

  it('pgbench (a custom script, prepared) and pg_dump with verify-full', () => {
    const dir = fs.mkdtempSync(path.join(agent.dir, 'pgbench-'));
    const script = path.join(dir, 'items.sql');
    fs.writeFileSync(
      script,
      "\\set id random(1000, 1999)\nINSERT INTO items (id, name) VALUES (:id, 'b') ON CONFLICT (id) DO UPDATE SET name = 'b2';\nSELECT name FROM items WHERE id = :id;\n",
    );
    const b = spawnSync(
      'pgbench',
      [
        '-h',
        'localhost',
        '-p',
        String(port),
        '-U',
        USER,
        '-n',
        '-M',
        'prepared',
        '-c',
        '2',
        '-t',
        '25',
        '-f',
        script,
        'db',
      ],
      { encoding: 'utf8', env: { ...process.env, ...env() }, timeout: 60_000 },
    );
    assert.equal(b.status, 0, b.stderr + b.stdout);
    assert.match(b.stdout, /number of transactions actually processed: 50\/50/);
    assert.match(b.stdout, /number of failed transactions: 0 /);
    const dump = spawnSync('pg_dump', ['-h', 'localhost', '-p', String(port), '-U', USER, '--schema-only', 'db'], {
      encoding: 'utf8',
      env: { ...process.env, ...env() },
      timeout: 60_000,
    });
    assert.equal(dump.status, 0, dump.stderr);
    assert.match(dump.stdout, /CREATE TABLE public\.items/);
    assert.match(dump.stdout, /ADD CONSTRAINT items_pkey PRIMARY KEY \(id\)/);
    // and what was written over TLS is there, over TLS
    const r = psql(
      port,
      ['SELECT count(*) > 0 FROM items WHERE id BETWEEN 1000 AND 1999'],
      ['-A', '-t', '-U', USER],
      env(),
    );
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, 't\n');
  });
  describe('PHP, Perl, Ruby and Go, each run on PostgreSQL 15 with the same certificate too', () => {
    let postgres: Awaited<ReturnType<typeof startTlsPostgres>>;
    let goDir: string;
    before(async () => {
      postgres = await startTlsPostgres(certs, 'agent1', USER, PASSWORD, SCHEMA);
      goDir = fs.mkdtempSync(path.join(agent.dir, 'go-'));
    });
    after(() => postgres?.dispose());

    /** What a client script printed on a server (its JSON), failing on anything it wrote to stderr. */
    const run = (cmd: string, args: string[], on: number, firstId: number) => {
      const r = spawnSync(cmd, [...args, String(on), USER, PASSWORD, certs.file('ca.crt'), String(firstId)], {
        encoding: 'utf8',
        timeout: 60_000,
      });
      assert.equal(r.status, 0, `${cmd} ${args.join(' ')} on ${on}:\n${r.stderr}${r.stdout}`);
      assert.equal(r.stderr, '', `${cmd} ${args.join(' ')} warned on ${on}`);
      return new Map<string, unknown>(JSON.parse(r.stdout));
    };
    const both = (cmd: string, args: string[], firstId: number) => {
      const patina = run(cmd, args, port, firstId);
      assert.deepEqual(patina, run(cmd, args, postgres.port, firstId));
      return patina;
    };
    const denied = `FATAL:  password authentication failed for user "${USER}"`;

    it('PHP: PDO pgsql and pg_connect with verify-full and channel_binding=require, require, a wrong password', () => {
      const seen = both('php', [path.join(FIXTURES, 'php_tls.php')], 500);
      assert.equal(seen.get('pdo ssl'), 'on');
      assert.deepEqual(seen.get('pdo rows'), [[500, 'pdo2', '1.50']]);
      assert.equal(seen.get('pdo dup'), '23505');
      assert.ok(String(seen.get('pdo wrong password')).endsWith(denied));
      assert.equal(seen.get('pg_* dup'), '23505');
      assert.equal(seen.get('pg_connect require'), '2');
      assert.ok(String(seen.get('pg_connect wrong password')).endsWith(denied));
    });

    it('Perl DBD::Pg and Ruby pg with verify-full and channel_binding=require, require, a wrong password', () => {
      const perl = both('perl', [path.join(FIXTURES, 'dbd_pg_tls.pl')], 600);
      assert.deepEqual(perl.get('rows'), [[600, 'perl2', '3.50']]);
      assert.equal(perl.get('dup'), '23505');
      assert.deepEqual((perl.get('wrong password') as string[]).slice(0, 2), ['refused', '08006']);
      assert.ok((perl.get('wrong password') as string[])[2].endsWith(denied));
      const ruby = both('ruby', [path.join(FIXTURES, 'ruby_pg_tls.rb')], 700);
      assert.deepEqual(ruby.get('ssl'), ['on', true]);
      assert.deepEqual(ruby.get('dup'), ['PG::UniqueViolation', '23505']);
      assert.ok((ruby.get('wrong password') as string[])[1].endsWith(denied));
    });

    const sha256 = (b: Buffer | string) => crypto.createHash('sha256').update(b).digest();
    const hmac = (key: Buffer, data: string) => crypto.createHmac('sha256', key).update(data).digest();

    /**
     * A SCRAM login over TLS written by hand: the mechanism chosen, the gs2 header of the first
     * message, and the final message's c= made from the hash of the certificate received. What the
     * client sees: the mechanisms offered, then AuthenticationOk or the error's fields.
     */
    async function tlsScram(on: number, mechanism: string, header: string, cbind: (hash: Buffer) => Buffer | string) {
      const c = await RawPg.connectTls(on, certs.read('ca.crt'));
      const next = async () => {
        for (let i = 0; i < 200 && c.messages.length === 0 && !c.closed; i++)
          await new Promise((r) => setTimeout(r, 25));
        return c.messages.shift() as unknown as Record<string, unknown> | undefined;
      };
      const outcome = (m: Record<string, unknown> | undefined) =>
        m?.name === 'error' ? [m.severity, m.code, m.message, m.detail] : m?.name;
      try {
        c.listen();
        c.send(serialize.startup({ user: USER, database: 'db' }));
        const offered = (await next())?.mechanisms;
        const bare = 'n=,r=rOprNGfwEbeRWgbNEkqO';
        c.send(serialize.sendSASLInitialResponseMessage(mechanism, `${header}${bare}`));
        const cont = await next();
        if (cont?.name !== 'authenticationSASLContinue') return [offered, outcome(cont)];
        const serverFirst = cont.data as string;
        const attrs = Object.fromEntries(serverFirst.split(',').map((p) => [p[0], p.slice(2)]));
        const salted = crypto.pbkdf2Sync(PASSWORD, Buffer.from(attrs.s, 'base64'), Number(attrs.i), 32, 'sha256');
        const clientKey = hmac(salted, 'Client Key');
        const data = cbind(sha256(c.socket.getPeerCertificate().raw));
        const withoutProof = `c=${Buffer.from(data).toString('base64')},r=${attrs.r}`;
        const signature = hmac(sha256(clientKey), `${bare},${serverFirst},${withoutProof}`);
        const proof = Buffer.from(clientKey.map((b, i) => b ^ signature[i]));
        c.send(serialize.sendSCRAMClientFinalMessage(`${withoutProof},p=${proof.toString('base64')}`));
        const final = await next();
        return [offered, final?.name === 'authenticationSASLFinal' ? outcome(await next()) : outcome(final)];
      } finally {
        c.end();
      }
    }

    const PLUS = 'SCRAM-SHA-256-PLUS';
    const bound = 'p=tls-server-end-point,,';
    for (const [what, mechanism, header, cbind] of [
      ['PLUS bound to the certificate received', PLUS, bound, (h: Buffer) => Buffer.concat([Buffer.from(bound), h])],
      ['PLUS bound to another certificate', PLUS, bound, (h: Buffer) => Buffer.concat([Buffer.from(bound), sha256(h)])],
      ['PLUS without binding data (n)', PLUS, 'n,,', () => 'n,,'],
      [
        'SCRAM-SHA-256 with binding data',
        'SCRAM-SHA-256',
        bound,
        (h: Buffer) => Buffer.concat([Buffer.from(bound), h]),
      ],
      ['PLUS with tls-unique', PLUS, 'p=tls-unique,,', () => 'p=tls-unique,,'],
      ['y over TLS: the client thinks the server cannot bind', 'SCRAM-SHA-256', 'y,,', () => 'y,,'],
      ['n, then a final message saying y', 'SCRAM-SHA-256', 'n,,', () => 'y,,'],
      ['an authorization identity', 'SCRAM-SHA-256', 'n,a=app,', () => 'n,a=app,'],
      ['SCRAM-SHA-1', 'SCRAM-SHA-1', 'n,,', () => 'n,,'],
      ['SCRAM-SHA-256 unbound (n)', 'SCRAM-SHA-256', 'n,,', () => 'n,,'],
    ] as const)
      it(`SCRAM over TLS by hand: ${what}`, async () => {
        const seen = await tlsScram(port, mechanism, header, cbind);
        assert.deepEqual(seen, await tlsScram(postgres.port, mechanism, header, cbind));
        assert.deepEqual(seen[0], [PLUS, 'SCRAM-SHA-256']);
      });

    it('Go: pgx and lib/pq with verify-full, a wrong password as 28P01', () => {
      // a second Go program: its build reuses go-clients.test.ts's compiled pgx (a few seconds)
      const program = goBuild(path.join(FIXTURES, 'go_tls.go'), goDir);
      const seen = both(program, [], 800);
      assert.deepEqual(seen.get('pgx row'), ['pgx2', '5.50', 0]);
      assert.equal(seen.get('pq dup'), '23505');
      const wrong = ['FATAL', '28P01', `password authentication failed for user "${USER}"`];
      assert.deepEqual(seen.get('pgx wrong password'), wrong);
      assert.deepEqual(seen.get('pq wrong password'), wrong);
    });
  });
});
