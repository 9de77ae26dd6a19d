// TypeORM, Sequelize, Django's ORM, SQLAlchemy's ORM, peewee, Rails' ActiveRecord and Sequel as their users use them (entities with relations, eager joins,
// pagination, operators, upserts, transactions, raw aggregates, a duplicate key): one script per ORM,
// run on PostgreSQL 15 and on Patina, each printing what the application would see; the two must
// match. TypeORM could not connect before (it starts with `SELECT * FROM current_schema()`: "no such
// table"), Django's update_or_create was refused (its SELECT ... FOR UPDATE: 0A000), and
// SQLAlchemy's `.astext` comparison found no row (->> gave SQLite's values).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { type CatalogPair, startCatalogPair } from '../helpers/catalog-pair';
import { psql } from '../helpers/pg';

// biome-ignore lint/suspicious/noExplicitAny: the libraries' own types are checked by their users, not here
type Any = any;
/* eslint-disable @typescript-eslint/no-require-imports */
require('reflect-metadata');
const typeorm = require('typeorm') as Any;
const { Sequelize, DataTypes, Op } = require('sequelize') as Any;

const TABLES = `CREATE TABLE authors (id BIGINT NOT NULL PRIMARY KEY, name TEXT NOT NULL DEFAULT '', email VARCHAR(100),
  born DATE, "createdAt" TIMESTAMPTZ, "updatedAt" TIMESTAMPTZ);
CREATE TABLE books (id BIGINT NOT NULL PRIMARY KEY, title TEXT NOT NULL DEFAULT '', price NUMERIC(10,2), author_id BIGINT,
  tags TEXT[], meta JSONB, "createdAt" TIMESTAMPTZ, "updatedAt" TIMESTAMPTZ);
CREATE TABLE ar_authors (id BIGINT NOT NULL PRIMARY KEY, name TEXT NOT NULL DEFAULT '', email VARCHAR(100), born DATE,
  created_at TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP, updated_at TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP);
CREATE TABLE ar_books (id BIGINT NOT NULL PRIMARY KEY, title TEXT NOT NULL DEFAULT '', price NUMERIC(10,2), author_id BIGINT,
  tags TEXT[], meta JSONB, created_at TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  updated_at TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP);
CREATE INDEX ar_books_author ON ar_books (author_id);`;

/** What a TypeORM application sees, step by step. */
async function withTypeorm(port: number): Promise<unknown[]> {
  const { DataSource, EntitySchema, In, ILike, MoreThan, IsNull } = typeorm;
  const Author = new EntitySchema({
    name: 'Author',
    tableName: 'authors',
    columns: {
      id: { type: 'bigint', primary: true },
      name: { type: 'text' },
      email: { type: 'varchar', length: 100, nullable: true },
      born: { type: 'date', nullable: true },
    },
    relations: { books: { type: 'one-to-many', target: 'Book', inverseSide: 'author' } },
  });
  const Book = new EntitySchema({
    name: 'Book',
    tableName: 'books',
    columns: {
      id: { type: 'bigint', primary: true },
      title: { type: 'text' },
      price: { type: 'numeric', precision: 10, scale: 2, nullable: true },
      tags: { type: 'text', array: true, nullable: true },
      meta: { type: 'jsonb', nullable: true },
    },
    relations: {
      author: { type: 'many-to-one', target: 'Author', joinColumn: { name: 'author_id' }, inverseSide: 'books' },
    },
  });
  const ds = new DataSource({
    type: 'postgres',
    host: '127.0.0.1',
    port,
    username: 'tester',
    database: 'db',
    entities: [Author, Book],
    synchronize: false,
  });
  await ds.initialize();
  const out: unknown[] = [];
  try {
    const A = ds.getRepository('Author');
    const B = ds.getRepository('Book');
    await A.save([
      { id: '1', name: 'Ann', born: '1980-05-01' },
      { id: '2', name: 'Bob' },
      { id: '3', name: 'Cy' },
    ]);
    await B.insert([
      { id: '10', title: 'A', price: '12.50', author: { id: '1' }, tags: ['x', 'y'], meta: { a: 1 } },
      { id: '11', title: 'B', price: '3', author: { id: '1' } },
      { id: '12', title: 'C', price: '7.25', author: { id: '2' } },
    ]);
    const authors = await A.find({ relations: { books: true }, order: { id: 'ASC', books: { id: 'ASC' } } });
    out.push(authors.map((a: Any) => [a.id, a.born, a.books.map((b: Any) => [b.title, b.price, b.tags, b.meta])]));
    // pagination over a join: TypeORM's DISTINCT subquery of ids first
    const page = await A.find({ relations: { books: true }, order: { id: 'ASC' }, skip: 1, take: 2 });
    out.push(page.map((a: Any) => a.name));
    out.push((await B.findBy({ price: MoreThan(5), title: In(['A', 'C']) })).map((b: Any) => b.title).sort());
    out.push(await B.count({ where: { author: { name: ILike('a%') } } }));
    out.push(
      await A.findAndCount({ where: { email: IsNull() }, take: 1, order: { name: 'DESC' } }).then(([r, n]: Any) => [
        r.map((x: Any) => x.name),
        n,
      ]),
    );
    out.push(
      await B.createQueryBuilder('b')
        .select('SUM(b.price)', 's')
        .addSelect('COUNT(*)', 'n')
        .where('b.tags @> :t', { t: ['x'] })
        .getRawOne(),
    );
    await ds.transaction(async (m: Any) => m.update('Author', { id: '2' }, { email: 'bob@x' }));
    await assert.rejects(
      ds.transaction(async (m: Any) => {
        await m.insert('Author', { id: '5', name: 'E' });
        throw new Error('rolled back');
      }),
      /rolled back/,
    );
    out.push(await A.count());
    await B.upsert([{ id: '12', title: 'C2', price: '8' }], ['id']);
    out.push((await B.findOneBy({ id: '12' })).title);
    const qr = ds.createQueryRunner();
    out.push(await qr.hasTable('books'), await qr.hasColumn('books', 'price'), await qr.hasColumn('books', 'nope'));
    await qr.release();
    out.push(await A.insert({ id: '1', name: 'dup' }).catch((e: Any) => e.code));
  } finally {
    await ds.destroy();
  }
  return out;
}

/** What a Sequelize application sees, step by step. */
async function withSequelize(port: number): Promise<unknown[]> {
  const s = new Sequelize(`postgres://tester@127.0.0.1:${port}/db`, { logging: false });
  const Author = s.define(
    'Author',
    {
      id: { type: DataTypes.BIGINT, primaryKey: true },
      name: DataTypes.TEXT,
      email: DataTypes.STRING(100),
      born: DataTypes.DATEONLY,
    },
    { tableName: 'authors' },
  );
  const Book = s.define(
    'Book',
    {
      id: { type: DataTypes.BIGINT, primaryKey: true },
      title: DataTypes.TEXT,
      price: DataTypes.DECIMAL(10, 2),
      tags: DataTypes.ARRAY(DataTypes.TEXT),
      meta: DataTypes.JSONB,
    },
    { tableName: 'books' },
  );
  Author.hasMany(Book, { foreignKey: 'author_id' });
  Book.belongsTo(Author, { foreignKey: 'author_id' });
  const out: unknown[] = [];
  try {
    await Book.destroy({ where: {} });
    await Author.destroy({ where: {} });
    await Author.create({ id: 1, name: 'Ann', email: 'ann@x', born: '1980-05-01' });
    await Author.bulkCreate([
      { id: 2, name: 'Bob' },
      { id: 3, name: 'Cy' },
    ]);
    await Book.bulkCreate([
      { id: 10, title: 'A', price: '12.50', author_id: 1, tags: ['x', 'y'], meta: { a: 1 } },
      { id: 11, title: 'B', price: 3, author_id: 1, tags: [], meta: null },
      { id: 12, title: 'C', price: '7.25', author_id: 2 },
    ]);
    const all = await Author.findAll({
      include: Book,
      order: [
        ['id', 'ASC'],
        [Book, 'id', 'ASC'],
      ],
    });
    out.push(all.map((a: Any) => [a.id, a.name, a.born, a.Books.map((b: Any) => [b.title, b.price, b.tags, b.meta])]));
    out.push(
      (await Book.findAll({ where: { price: { [Op.gt]: 5 }, tags: { [Op.contains]: ['x'] } } })).map(
        (b: Any) => b.title,
      ),
    );
    out.push((await Book.findAndCountAll({ limit: 2, offset: 0, order: [['id', 'DESC']] })).count);
    out.push(await Book.sum('price'), await Book.count({ where: { meta: { a: 1 } } }));
    await Author.update({ email: 'bob@x' }, { where: { name: { [Op.iLike]: 'b%' } } });
    await Book.upsert({ id: 12, title: 'C2', price: '8.00', author_id: 2 });
    out.push((await Book.findByPk(12)).title);
    const t = await s.transaction();
    await Author.create({ id: 4, name: 'Dee' }, { transaction: t });
    await t.rollback();
    out.push(await Author.count());
    const counts = await Author.findAll({
      attributes: ['name', [s.fn('COUNT', s.col('Books.id')), 'n']],
      include: [{ model: Book, attributes: [] }],
      group: ['Author.id'],
      order: [['name', 'ASC']],
      raw: true,
    });
    out.push(counts.map((r: Any) => [r.name, r.n]));
    out.push(await Author.create({ id: 1, name: 'dup' }).catch((e: Any) => [e.name, e.parent?.code]));
  } finally {
    await s.close();
  }
  return out;
}

const FIXTURES = path.resolve(__dirname, '..', '..', '..', 'test', 'fixtures', 'orm-clients');

/** What a Ruby script printed (Debian's ruby with the pg gem and the ORM's package). */
function withRuby(script: string, port: number, env: Record<string, string> = {}): unknown[] {
  const file = path.join(FIXTURES, script);
  const r = spawnSync('ruby', [file, String(port)], {
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, ...env },
  });
  assert.equal(r.status, 0, `${file} on ${port}:\n${r.stderr}${r.stdout}`);
  return JSON.parse(r.stdout);
}

/** What ActiveRecord's script printed; PS=0: no prepared statements. */
const withActiveRecord = (port: number, prepared: boolean) =>
  withRuby('active_record.rb', port, { PS: prepared ? '1' : '0' });

/** What a Python ORM script printed (Debian's python3, which has Django and SQLAlchemy). */
function withPython(script: string, port: number): unknown[] {
  const file = path.join(FIXTURES, script);
  const r = spawnSync('/usr/bin/python3', [file, String(port)], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 0, `${file} on ${port}:\n${r.stderr}${r.stdout}`);
  return JSON.parse(r.stdout);
}

describe('TypeORM, Sequelize, Django, SQLAlchemy, peewee, ActiveRecord and Sequel ORMs against PostgreSQL 15', function () {
  this.timeout(120_000);
  let pair: CatalogPair;

  before(async () => {
    pair = await startCatalogPair({ schemas: { patina: TABLES, postgres: TABLES }, rows: [] });
  });
  after(() => pair?.dispose());

  it('TypeORM: connects, saves, joins, paginates, filters, upserts, rolls back, sees 23505 as PostgreSQL gives them', async () => {
    const postgres = await withTypeorm(pair.postgresPort);
    const patina = await withTypeorm(pair.patinaPort);
    assert.equal(postgres.length, 12); // every step ran on the oracle
    assert.deepEqual(patina, postgres);
  });

  it('Django: annotate, Q and F, select_related, atomic blocks, update_or_create (its FOR UPDATE), IntegrityError', () => {
    const postgres = withPython('django_orm.py', pair.postgresPort);
    const patina = withPython('django_orm.py', pair.patinaPort);
    assert.equal(postgres.length, 14);
    assert.deepEqual(patina, postgres);
  });

  it("SQLAlchemy's ORM: loading strategies, ARRAY and JSONB operators (.astext), with_for_update, ON CONFLICT, RETURNING", () => {
    const postgres = withPython('sqlalchemy_orm.py', pair.postgresPort);
    const patina = withPython('sqlalchemy_orm.py', pair.patinaPort);
    assert.equal(postgres.length, 17);
    assert.deepEqual(patina, postgres);
  });

  it('ActiveRecord (Rails): finds the primary key, types columns, creates, joins, upserts, batches, locks, RecordNotUnique', () => {
    // (ActiveRecord found no primary key: its query's generate_subscripts(indkey, 1) in a subquery gave
    // no row, so every find and save failed; timestamp(6) columns read as plain timestamp; an interval
    // was nil: Rails sets IntervalStyle iso_8601 and Patina printed the postgres style)
    const empty = (port: number) => psql(port, ['DELETE FROM ar_books; DELETE FROM ar_authors'], ['-q']);
    for (const prepared of [true, false]) {
      const postgres = withActiveRecord(pair.postgresPort, prepared);
      const patina = withActiveRecord(pair.patinaPort, prepared);
      assert.equal(postgres.length, 26);
      assert.deepEqual(patina, postgres, prepared ? 'prepared statements' : 'statements with their values in the text');
      for (const port of [pair.postgresPort, pair.patinaPort]) assert.equal(empty(port).status, 0);
    }
  });

  it('Sequel (Ruby): schema parsing and its primary key, RETURNING, upserts, savepoints, prepared statements, COPY, LISTEN', () => {
    // (Sequel found no primary key: `"pg_index"."indisprimary" = 't'` with quoted names found no row)
    const postgres = withRuby('sequel_orm.rb', pair.postgresPort);
    const patina = withRuby('sequel_orm.rb', pair.patinaPort);
    assert.equal(postgres.length, 22);
    assert.deepEqual(patina, postgres);
  });

  it('peewee: introspection (pwiz), joins, aggregates, ARRAY and JSONB fields, upserts, atomic rollback, IntegrityError', () => {
    // (information_schema.columns said `text[]` where PostgreSQL says ARRAY, as peewee's get_columns reads it)
    const postgres = withPython('peewee_orm.py', pair.postgresPort);
    const patina = withPython('peewee_orm.py', pair.patinaPort);
    assert.equal(postgres.length, 23);
    assert.deepEqual(patina, postgres);
  });

  it('Sequelize: creates, includes, operators, sums, upserts, rolls back, sees 23505 as PostgreSQL gives them', async () => {
    const postgres = await withSequelize(pair.postgresPort);
    const patina = await withSequelize(pair.patinaPort);
    assert.equal(postgres.length, 9);
    assert.deepEqual(patina, postgres);
  });
});
