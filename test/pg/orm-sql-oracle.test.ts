// SQL that ORMs and query builders send (Drizzle, Prisma, TypeORM, Sequelize, Knex, Kysely,
// SQLAlchemy, Django, ActiveRecord): the same statements, with $n parameters through the extended
// protocol, on Patina and on PostgreSQL 15, compared by rows and by the result columns' type OIDs.
// What Patina refuses is asserted with its SQLSTATE (docs/postgres.md lists it).
import assert from 'node:assert/strict';
import { type OracleClients, sameOnBoth, sameOutcomeOnBoth, startOracle } from '../helpers/catalog-pair';
import { type PgClient, pgClient } from '../helpers/pg';

const SCHEMAS = {
  patina: `
CREATE TABLE users (id INTEGER NOT NULL PRIMARY KEY, name TEXT NOT NULL DEFAULT '', email TEXT, active BOOLEAN NOT NULL DEFAULT true,
  age INTEGER, balance NUMERIC, created_at TIMESTAMP, profile JSONB);
CREATE TABLE posts (id INTEGER NOT NULL PRIMARY KEY, author_id INTEGER NOT NULL DEFAULT 0, title TEXT NOT NULL DEFAULT '',
  body TEXT, published BOOLEAN NOT NULL DEFAULT false, views INTEGER NOT NULL DEFAULT 0, created_at TIMESTAMP);
CREATE TABLE tags (post_id INTEGER NOT NULL, tag TEXT NOT NULL, PRIMARY KEY (post_id, tag));
CREATE TABLE items (id INTEGER NOT NULL PRIMARY KEY, qty INTEGER DEFAULT 5, note TEXT DEFAULT 'none', nums BIGINT[],
  labels TEXT[], added DATE DEFAULT CURRENT_DATE);
`,
  postgres: `
CREATE TABLE users (id bigint NOT NULL PRIMARY KEY, name text NOT NULL DEFAULT '', email text, active boolean NOT NULL DEFAULT true,
  age bigint, balance numeric, created_at timestamp, profile jsonb);
CREATE TABLE posts (id bigint NOT NULL PRIMARY KEY, author_id bigint NOT NULL DEFAULT 0, title text NOT NULL DEFAULT '',
  body text, published boolean NOT NULL DEFAULT false, views bigint NOT NULL DEFAULT 0, created_at timestamp);
CREATE TABLE tags (post_id bigint NOT NULL, tag text NOT NULL, PRIMARY KEY (post_id, tag));
CREATE TABLE items (id bigint NOT NULL PRIMARY KEY, qty bigint DEFAULT 5, note text DEFAULT 'none', nums bigint[],
  labels text[], added date DEFAULT CURRENT_DATE);
`,
};
const ROWS = [
  `INSERT INTO users (id, name, email, active, age, balance, created_at, profile) VALUES
    (1, 'Ann', 'ann@example.com', true, 31, 12.5, '2024-03-01 10:00:00', '{"theme": "dark", "langs": ["en", "fr"]}'),
    (2, 'bob', NULL, false, NULL, 0, '2024-03-02 11:30:00', NULL),
    (3, 'Carla', 'carla@example.org', true, 45, 100.25, '2024-04-15 08:15:30', '{"theme": "light"}'),
    (4, 'dan', 'dan@example.com', true, 31, NULL, NULL, '{}')`,
  `INSERT INTO posts (id, author_id, title, body, published, views, created_at) VALUES
    (1, 1, 'Hello', 'first post', true, 10, '2024-03-05 09:00:00'),
    (2, 1, 'Second', NULL, false, 0, '2024-03-06 09:00:00'),
    (3, 3, 'On SQL', 'joins and more', true, 250, '2024-04-20 12:00:00'),
    (4, 3, 'Drafts', '', false, 3, NULL),
    (5, 4, 'hello again', 'x', true, 7, '2024-05-01 00:00:00')`,
  `INSERT INTO tags (post_id, tag) VALUES (1, 'intro'), (1, 'misc'), (3, 'sql'), (3, 'db'), (5, 'intro')`,
  `INSERT INTO items VALUES (1, 1, 'a', '{1,2,3}', '{a,"b c"}', '2020-01-01'), (2, 2, 'b', NULL, NULL, NULL),
    (3, 3, 'c', '{}', '{}', NULL)`,
];

type Case = [string, unknown[]?];

describe('SQL ORMs send, against PostgreSQL 15', function () {
  this.timeout(60_000);
  let o: OracleClients;
  let patina: PgClient;
  let postgres: PgClient;

  before(async () => {
    o = await startOracle({ schemas: SCHEMAS, rows: ROWS });
    ({ patina, postgres } = o);
  });
  after(() => o?.close());

  const same = (sql: string, params?: unknown[], sorted = false) => sameOnBoth(o, sql, params, { sorted });

  async function all(cases: Case[]): Promise<void> {
    for (const [sql, params] of cases) await same(sql, params);
  }

  async function refused(sql: string, params: unknown[], code: string, message: RegExp): Promise<void> {
    await assert.rejects(patina.query(sql, params), (e: { code?: string; message: string }) => {
      assert.equal(e.code, code, `${sql}: ${e.message}`);
      assert.match(e.message, message);
      return true;
    });
  }

  it('quoted identifiers, LIMIT/OFFSET, FETCH FIRST, = ANY($1), IN, COALESCE, CASE, EXISTS', async () => {
    await all([
      ['select "id", "name", "email" from "users" where "users"."id" = $1', [1]],
      [
        'SELECT "public"."users"."id", "public"."users"."name" FROM "public"."users" WHERE "public"."users"."active" = $1 ORDER BY "public"."users"."id" ASC LIMIT $2 OFFSET $3',
        [true, 10, 0],
      ],
      [
        'SELECT "t0"."id", "t0"."title" FROM "public"."posts" AS "t0" WHERE ("t0"."published" = $1 AND "t0"."views" > $2) ORDER BY "t0"."id" ASC',
        [true, 5],
      ],
      [
        'select "users"."id", "users"."name" from "users" where "users"."id" in ($1, $2, $3) order by "users"."id"',
        [1, 3, 99],
      ],
      ['select "id" from "users" where "id" = any($1) order by "id"', [[1, 2, 9]]],
      ['select "id" from "users" where "name" = any($1::text[]) order by "id"', [['Ann', 'dan']]],
      ['select "id" from "users" where not ("id" = any($1)) order by "id"', [[1, 2]]],
      ['SELECT id, name FROM users ORDER BY id LIMIT $1 OFFSET $2', [2, 1]],
      ['SELECT id FROM users ORDER BY id LIMIT 2 OFFSET 2'],
      // FETCH FIRST (SQLAlchemy's fetch(), Hibernate), OFFSET alone (Django's [n:]), OFFSET before LIMIT
      ['SELECT id FROM users ORDER BY id OFFSET 1 ROWS FETCH NEXT 2 ROWS ONLY'],
      ['SELECT id FROM users ORDER BY id FETCH FIRST 1 ROW ONLY'],
      ['SELECT id FROM users ORDER BY id OFFSET $1 ROWS FETCH FIRST $2 ROWS ONLY', [1, 2]],
      ['SELECT id FROM (SELECT id FROM users ORDER BY id OFFSET 1 ROW) s ORDER BY id FETCH NEXT ROW ONLY'],
      ['SELECT id FROM users ORDER BY id OFFSET 2'],
      ['SELECT id FROM users ORDER BY id OFFSET $1', [3]],
      ['SELECT id FROM users ORDER BY id OFFSET 1 LIMIT 2'],
      ['SELECT id FROM users ORDER BY id LIMIT ALL OFFSET 3'],
      ['SELECT id, COALESCE(email, $1) AS email FROM users ORDER BY id', ['none']],
      ['SELECT id, COALESCE(age, 0) FROM users ORDER BY id'],
      [
        'SELECT id, CASE WHEN age > 40 THEN $1 WHEN age IS NULL THEN $2 ELSE $3 END AS bucket FROM users ORDER BY id',
        ['old', 'unknown', 'young'],
      ],
      ['SELECT id, CASE active WHEN true THEN 1 ELSE 0 END FROM users ORDER BY id'],
      [
        'SELECT u.id FROM users u WHERE EXISTS (SELECT 1 FROM posts p WHERE p.author_id = u.id AND p.published = true) ORDER BY u.id',
      ],
      ['SELECT u.id FROM users u WHERE NOT EXISTS (SELECT 1 FROM posts p WHERE p.author_id = u.id) ORDER BY u.id'],
      ['SELECT id, EXISTS (SELECT 1 FROM posts p WHERE p.author_id = users.id) AS has_posts FROM users ORDER BY id'],
      [
        'SELECT "users".*, "posts"."title" FROM "users" JOIN "posts" ON "posts"."author_id" = "users"."id" WHERE "posts"."id" = $1',
        [3],
      ],
      ['SELECT * FROM users ORDER BY id'],
    ]);
  });

  it('window count for pagination, aggregates, array_agg, GROUP BY ... HAVING', async () => {
    await all([
      ['SELECT id, name, count(*) OVER () AS total FROM users ORDER BY id LIMIT $1 OFFSET $2', [2, 0]],
      ['SELECT id, count(*) OVER() AS full_count FROM posts WHERE published = $1 ORDER BY id LIMIT 2', [true]],
      ['SELECT id, row_number() OVER (PARTITION BY author_id ORDER BY id) AS rn FROM posts ORDER BY id'],
      ['SELECT id, rank() OVER (ORDER BY views DESC) FROM posts ORDER BY id'],
      ['SELECT id, sum(views) OVER (PARTITION BY author_id) FROM posts ORDER BY id'],
      ['SELECT id, lag(views) OVER (ORDER BY id), lead(id, 1) OVER (ORDER BY id) FROM posts ORDER BY id'],
      ['SELECT author_id, array_agg(id) FROM posts GROUP BY author_id ORDER BY author_id'],
      ['SELECT author_id, array_agg(id ORDER BY id DESC) AS ids FROM posts GROUP BY author_id ORDER BY author_id'],
      ['SELECT author_id, array_agg(title) FROM posts GROUP BY author_id ORDER BY author_id'],
      ['SELECT post_id, array_agg(tag ORDER BY tag) FROM tags GROUP BY post_id ORDER BY post_id'],
      ["SELECT author_id, string_agg(title, ', ') FROM posts GROUP BY author_id ORDER BY author_id"],
      ["SELECT author_id, string_agg(title, ', ' ORDER BY title) FROM posts GROUP BY author_id ORDER BY author_id"],
      ['SELECT post_id, string_agg(DISTINCT tag, $1) FROM tags GROUP BY post_id ORDER BY post_id', [',']],
      ["SELECT string_agg(DISTINCT tag, ' | ') FROM tags"],
      ["SELECT string_agg(DISTINCT tag, ', ' ORDER BY tag DESC), string_agg(DISTINCT tag, ';' ORDER BY tag) FROM tags"],
      ["SELECT string_agg(DISTINCT title, ',') FROM posts WHERE views > 1000"],
      [
        "SELECT a.name, string_agg(DISTINCT lower(p.title), '/') FROM users a JOIN posts p ON p.author_id = a.id GROUP BY a.name ORDER BY a.name",
      ],
      ['SELECT author_id, count(*) AS n FROM posts GROUP BY author_id HAVING count(*) > $1 ORDER BY author_id', [1]],
      ['SELECT author_id, sum(views) FROM posts GROUP BY author_id HAVING sum(views) >= 10 ORDER BY 2 DESC'],
      ['SELECT bool_and(active), bool_or(active) FROM users'],
      [
        'SELECT author_id, bool_and(published), bool_or(published), every(views > 0) FROM posts GROUP BY author_id ORDER BY author_id',
      ],
      ['SELECT count(*) FILTER (WHERE published) FROM posts'],
      ['SELECT count(*)::int FROM users'],
      ['SELECT cast(count(*) as integer) AS "count" FROM "users"'],
      ['SELECT DISTINCT author_id FROM posts ORDER BY author_id'],
      ['SELECT DISTINCT age FROM users ORDER BY age NULLS FIRST'],
      ['SELECT id, age FROM users ORDER BY age DESC NULLS LAST, id'],
      ['SELECT id FROM users WHERE age > 40 UNION ALL SELECT id FROM users WHERE age < 40 ORDER BY id'],
      ['SELECT name FROM users UNION SELECT title FROM posts ORDER BY 1'],
      ['SELECT id FROM users EXCEPT SELECT author_id FROM posts ORDER BY 1'],
      [
        'WITH active_users AS (SELECT id, name FROM users WHERE active) SELECT a.name, count(p.id) FROM active_users a LEFT JOIN posts p ON p.author_id = a.id GROUP BY a.name ORDER BY a.name',
      ],
      ['WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t WHERE n < 5) SELECT sum(n) FROM t'],
      // a NOT NULL column is NULL on the outer side of a join: NULLs still go last
      [
        'SELECT u.id, p.id FROM users u FULL OUTER JOIN posts p ON p.author_id = u.id AND p.views > 100 ORDER BY u.id, p.id',
      ],
      ['SELECT u.id, p.id FROM users u LEFT JOIN posts p ON p.author_id = u.id ORDER BY p.id DESC, u.id'],
      ['SELECT u.name, p.title FROM posts p RIGHT JOIN users u ON p.author_id = u.id ORDER BY u.id, p.id'],
    ]);
  });

  it("relational queries as JSON: Drizzle's LEFT JOIN LATERAL, Kysely's json_agg(agg), json_build_object", async () => {
    await all([
      // Drizzle ORM 0.45 db.query.users.findMany({ with: { posts: true } }) and friends, as it sends them
      [
        `select "users"."id", "users"."name", "users"."email", "users"."active", "users"."created_at", "users"."profile", "users_posts"."data" as "posts" from "users" "users" left join lateral (select coalesce(json_agg(json_build_array("users_posts"."id", "users_posts"."author_id", "users_posts"."title", "users_posts"."published")), '[]'::json) as "data" from "posts" "users_posts" where "users_posts"."author_id" = "users"."id") "users_posts" on true order by "users"."id"`,
      ],
      [
        `select "users"."id", "users"."name", "users_posts"."data" as "posts" from "users" "users" left join lateral (select coalesce(json_agg(json_build_array("users_posts"."id", "users_posts"."title", "users_posts"."published") order by "users_posts"."id"), '[]'::json) as "data" from (select * from "posts" "users_posts" where ("users_posts"."author_id" = "users"."id" and "users_posts"."published" = $1) order by "users_posts"."id" limit $2) "users_posts") "users_posts" on true order by "users"."id" limit $3`,
        [true, 2, 10],
      ],
      [
        `select "posts"."id", "posts"."author_id", "posts"."title", "posts"."published", "posts_author"."data" as "author" from "posts" "posts" left join lateral (select json_build_array("posts_author"."id", "posts_author"."name", "posts_author"."email", "posts_author"."active", "posts_author"."created_at", "posts_author"."profile") as "data" from (select * from "users" "posts_author" where "posts_author"."id" = "posts"."author_id" limit $1) "posts_author") "posts_author" on true order by "posts"."id"`,
        [1],
      ],
      // older Drizzle: a scalar subquery per relation
      [
        `select "users"."id", "users"."name", (select coalesce(json_agg(json_build_array("users_posts"."id", "users_posts"."title")), '[]'::json) from (select * from "posts" "users_posts" where "users_posts"."author_id" = "users"."id" order by "users_posts"."id") "users_posts") as "posts" from "users" order by "users"."id"`,
      ],
      [
        `select "id", (select json_build_array("a"."id", "a"."name") from (select * from "users" "a" where "a"."id" = "posts"."author_id" limit $1) "a") as "author" from "posts" order by "id"`,
        [1],
      ],
      // Kysely's jsonArrayFrom / jsonObjectFrom (kysely/helpers/postgres), nested
      [
        `select "u"."id", (select coalesce(json_agg(agg), '[]') from (select "p"."id", "p"."title", "p"."published", "p"."created_at" from "posts" as "p" where "p"."author_id" = "u"."id" order by "p"."id") as agg) as "posts" from "users" as "u" order by "u"."id"`,
      ],
      [
        `select "p"."id", (select to_json(obj) from (select "u"."id", "u"."name", "u"."active", "u"."profile" from "users" as "u" where "u"."id" = "p"."author_id") as obj) as "author" from "posts" as "p" order by "p"."id"`,
      ],
      [
        `select "u"."id", (select coalesce(json_agg(agg), '[]') from (select "p"."id", (select coalesce(json_agg(agg), '[]') from (select "t"."tag" from "tags" as "t" where "t"."post_id" = "p"."id" order by "t"."tag") as agg) as "tags" from "posts" as "p" where "p"."author_id" = "u"."id" order by "p"."id") as agg) as "posts" from "users" as "u" order by "u"."id"`,
      ],
      // whole rows, booleans, timestamps and jsonb inside documents; json_agg over no rows is NULL
      ['SELECT row_to_json(u) FROM users u WHERE id = 1'],
      ['SELECT row_to_json(t) FROM (SELECT id, name FROM users WHERE id = 1) t'],
      ['SELECT json_agg(p) FROM posts p WHERE p.id < 3'],
      [
        `SELECT u.id, COALESCE((SELECT json_agg(row_to_json(p)) FROM (SELECT id, title FROM posts WHERE author_id = u.id ORDER BY id) p), '[]') AS posts FROM users u ORDER BY u.id`,
      ],
      [
        `SELECT u.id, (SELECT jsonb_agg(jsonb_build_object('id', p.id)) FROM posts p WHERE p.author_id = u.id) FROM users u ORDER BY u.id`,
      ],
      ["SELECT json_build_object('id', id, 'name', name) FROM users ORDER BY id"],
      ["SELECT jsonb_build_object('id', id, 'name', name, 'active', active) FROM users ORDER BY id"],
      ["SELECT json_build_object('flag', true, 'when', created_at, 'p', profile, 'b', balance) FROM users ORDER BY id"],
      ['SELECT json_build_array(id, name) FROM users ORDER BY id'],
      ["SELECT json_agg(json_build_object('id', id) ORDER BY id DESC) FROM posts"],
      ['SELECT json_agg(active ORDER BY id) FROM users'],
      ['SELECT json_agg(id), json_object_agg(id, name) FROM users WHERE id > 100'],
      ['SELECT json_object_agg(id, name) FROM users'],
      ['SELECT author_id, json_agg(title) FILTER (WHERE published) FROM posts GROUP BY author_id ORDER BY author_id'],
      ['SELECT to_json(name), to_jsonb(age) FROM users ORDER BY id'],
      [
        "SELECT profile, profile->'theme', profile->>'theme', profile->'langs'->0, profile->'langs'->>1 FROM users ORDER BY id",
      ],
      ["SELECT jsonb_array_length(profile->'langs') FROM users WHERE id = 1"],
    ]);
  });

  it('computed booleans inside a JSON document are true/false/null, as PostgreSQL prints them', async () => {
    await all([
      [
        "SELECT json_build_object('adult', age > 30, 'mail', email IS NOT NULL, 'none', email IS NULL, 'off', NOT active) FROM users ORDER BY id",
      ],
      [
        "SELECT jsonb_build_object('both', active AND age >= 31, 'either', active OR age < 0, 'bal', (balance > 10)) FROM users ORDER BY id",
      ],
      [
        "SELECT json_build_array(id = 1, name LIKE 'C%', id IN (1, 3), EXISTS (SELECT 1 FROM posts p WHERE p.author_id = users.id)) FROM users ORDER BY id",
      ],
      ["SELECT jsonb_build_array(age BETWEEN 30 AND 40, name <> 'bob', age > $1) FROM users ORDER BY id", [40]],
      ['SELECT json_agg(views > 5 ORDER BY id), json_object_agg(id, published AND views > 5) FROM posts'],
      // not recognisably boolean: numbers and CASE stay what they are
      [
        "SELECT json_build_object('n', age + 1, 'c', CASE WHEN age > 30 THEN 'old' ELSE 'young' END, 's', (SELECT count(*) FROM posts p WHERE p.author_id = users.id)) FROM users ORDER BY id",
      ],
    ]);
  });

  it('casts, dates, strings, booleans, BETWEEN, IS DISTINCT FROM', async () => {
    await all([
      ["SELECT id::text, age::int, balance::numeric, balance::text, '42'::int, '3.5'::numeric FROM users ORDER BY id"],
      ["SELECT CAST(id AS TEXT), CAST(balance AS float8), CAST('12' AS bigint) FROM users ORDER BY id"],
      ['SELECT id::varchar, created_at::date, created_at::text FROM users ORDER BY id'],
      ['SELECT count(*) FROM users WHERE created_at < CURRENT_TIMESTAMP'],
      ['SELECT count(*) FROM users WHERE created_at < now()'],
      ["SELECT count(*) FROM users WHERE created_at > now() - interval '100 years'"],
      ["SELECT date_trunc('month', created_at) AS m, count(*) FROM users GROUP BY 1 ORDER BY 1"],
      ['SELECT extract(year from created_at), extract(month from created_at) FROM users ORDER BY id'],
      ['SELECT EXTRACT(EPOCH FROM created_at)::bigint FROM users ORDER BY id'],
      ['SELECT id FROM users WHERE created_at BETWEEN $1 AND $2 ORDER BY id', ['2024-03-01', '2024-03-31']],
      ['SELECT id FROM users WHERE created_at >= $1::timestamp ORDER BY id', ['2024-03-02 00:00:00']],
      ['SELECT id FROM users WHERE name ILIKE $1 ORDER BY id', ['%A%']],
      ['SELECT id FROM users WHERE lower(name) = lower($1)', ['ANN']],
      ['SELECT upper(name), length(name), char_length(name) FROM users ORDER BY id'],
      ["SELECT position('a' in name), strpos(name, 'a') FROM users ORDER BY id"],
      ['SELECT substring(name from 1 for 2), substring(name, 2), substr(name, 1, 3) FROM users ORDER BY id'],
      ["SELECT split_part(email, '@', 2) FROM users ORDER BY id"],
      ["SELECT concat(name, '-', id), concat_ws(', ', name, email, age) FROM users ORDER BY id"],
      ["SELECT regexp_replace(name, '[aeiou]', '*', 'g'), regexp_replace(name, 'a', 'A') FROM users ORDER BY id"],
      [
        "SELECT replace(name, 'a', 'o'), left(name, 2), right(name, 2), repeat('ab', 2), reverse(name) FROM users ORDER BY id",
      ],
      ["SELECT lpad(id::text, 3, '0'), rpad(name, 6, '.') FROM users ORDER BY id"],
      ["SELECT initcap('hello world'), md5('abc')"],
      ["SELECT name || ' <' || email || '>' FROM users ORDER BY id"],
      ['SELECT id FROM users WHERE active IS TRUE ORDER BY id'],
      ['SELECT id FROM users WHERE active = $1 ORDER BY id', [false]],
      ['SELECT id, active, NOT active FROM users ORDER BY id'],
      ['SELECT id FROM users WHERE age IS DISTINCT FROM $1 ORDER BY id', [31]],
      ['SELECT id FROM users WHERE age IS NOT DISTINCT FROM $1 ORDER BY id', [null]],
      ['SELECT id, age IS DISTINCT FROM 31 FROM users ORDER BY id'],
      ['SELECT id FROM users WHERE age BETWEEN $1 AND $2 ORDER BY id', [30, 40]],
      ['SELECT true, false, NULL::boolean, 1 = 1'],
      ['SELECT greatest(age, 40), least(age, 40), nullif(age, 31) FROM users ORDER BY id'],
      ['SELECT count(*) FROM users WHERE random() < 1'],
      ['SELECT gen_random_uuid() IS NOT NULL'],
    ]);
  });

  it('writes: RETURNING, multi-row DEFAULT, ON CONFLICT, UPDATE ... FROM, aliases, DELETE ... USING', async () => {
    const writes: Case[] = [
      [
        'INSERT INTO "users" ("id", "name", "email", "active", "age", "balance", "created_at", "profile") VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *',
        [10, 'Eve', 'eve@example.com', true, 28, '5.5', '2024-06-01 10:00:00', '{"a": 1}'],
      ],
      [
        'INSERT INTO "users" ("id", "name", "email", "active", "age", "balance", "created_at", "profile") VALUES ($1, $2, default, default, default, default, default, default) RETURNING "id", "name", "active"',
        [11, 'Fay'],
      ],
      [
        'insert into "users" ("id", "name", "email", "active", "age", "balance", "created_at", "profile") values ($1, $2, default, default, $3, default, default, default), ($4, $5, $6, false, default, $7, default, default) returning "id", "name", "active", "age"',
        [12, 'Gus', 40, 13, 'Hal', 'hal@x.io', 3],
      ],
      ['INSERT INTO users (id, name) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING', [1, 'dup']],
      // a bulk insert of arrays zipped by unnest (SQLite's unnest took one array and inserted nothing)
      [
        'INSERT INTO tags (post_id, tag) SELECT * FROM unnest($1::int8[], $2::text[]) RETURNING post_id, tag',
        [
          [1, 3, 3],
          ['bulk-a', 'bulk-a', 'bulk-b'],
        ],
      ],
      [
        'INSERT INTO users (id, name, age) SELECT u.id, u.name, u.age FROM unnest($1::int8[], $2::text[], $3::int8[]) AS u(id, name, age) RETURNING id, name, age',
        [
          [20, 21],
          ['Ivy', 'Jo'],
          [22, null],
        ],
      ],
      // writes that read generate_series or unnest ran on the catalog's connection: readonly database
      [
        "INSERT INTO posts (id, title) SELECT 100 + g, 'gen ' || g FROM generate_series(1, 3) g RETURNING id, title",
        [],
      ],
      ['INSERT INTO users (id) SELECT unnest($1::int8[]) RETURNING id, name, active', [[30, 31]]],
      ["UPDATE posts SET title = 'x' WHERE id IN (SELECT unnest($1::int8[])) RETURNING id, title", [[101, 103]]],
      // a write after WITH is a write (it went to the catalog's connection by its first word)
      [
        "WITH s AS (SELECT g FROM generate_series(1, 2) g) INSERT INTO posts (id, title) SELECT 110 + g, 'w' FROM s RETURNING id",
        [],
      ],
      ['INSERT INTO users (id, name) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING RETURNING id', [1, 'dup']],
      ['INSERT INTO users (id, name) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING id', [14, 'Ivy']],
      [
        'INSERT INTO users (id, name, age) VALUES ($1, $2, $3) ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, age = EXCLUDED.age RETURNING *',
        [2, 'Bobby', 33],
      ],
      [
        'INSERT INTO "users" ("id", "name", "age") VALUES ($1, $2, $3) ON CONFLICT ("id") DO UPDATE SET "name" = excluded."name", "age" = "users"."age" + 1 RETURNING "id", "name", "age"',
        [3, 'Carla B', 0],
      ],
      [
        'INSERT INTO users AS u (id, name, age) VALUES ($1, $2, $3) ON CONFLICT (id) DO UPDATE SET age = u.age + EXCLUDED.age WHERE u.active RETURNING u.id, u.age',
        [4, 'dan', 1],
      ],
      [
        "INSERT INTO users (id, name) VALUES (15, 'Jo'), (1, 'Ann2') ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name RETURNING id, name",
      ],
      ['INSERT INTO users (id, name) VALUES ($1, $2) ON CONFLICT ON CONSTRAINT users_pkey DO NOTHING', [1, 'x']],
      [
        'INSERT INTO users (id, name) VALUES ($1, $2) ON CONFLICT ON CONSTRAINT users_pkey DO UPDATE SET name = EXCLUDED.name RETURNING name',
        [15, 'Joe'],
      ],
      [
        'INSERT INTO tags (post_id, tag) VALUES ($1, $2) ON CONFLICT (post_id, tag) DO NOTHING RETURNING *',
        [1, 'intro'],
      ],
      ["INSERT INTO tags (post_id, tag) SELECT id, 'new' FROM posts WHERE published RETURNING post_id"],
      ['UPDATE "users" SET "name" = $1, "balance" = $2 WHERE "users"."id" = $3 RETURNING *', ['Ann A', '99.95', 1]],
      ['UPDATE posts SET views = views + 1 WHERE id = ANY($1) RETURNING id, views', [[1, 3]]],
      ['UPDATE posts SET published = NOT published WHERE author_id = $1 RETURNING id, published', [1]],
      ['UPDATE users SET profile = $1 WHERE id = $2 RETURNING profile', ['{"x": [1, 2]}', 11]],
      [
        "UPDATE posts SET title = v.title FROM (VALUES (1, 'One'), (2, 'Two')) AS v(id, title) WHERE posts.id = v.id RETURNING posts.id, posts.title",
      ],
      [
        'UPDATE posts SET views = CASE id WHEN 1 THEN 100 WHEN 2 THEN 200 ELSE views END WHERE id IN (1, 2) RETURNING id, views',
      ],
      ['UPDATE posts p SET views = 0 FROM users u WHERE p.author_id = u.id AND u.name = $1 RETURNING p.id', ['dan']],
      ['UPDATE posts AS p SET views = views + 1 WHERE p.id = $1 RETURNING p.id, p.views', [4]],
      ['UPDATE users SET created_at = CURRENT_TIMESTAMP WHERE id = $1 RETURNING id', [13]],
      ['DELETE FROM "tags" WHERE "tags"."post_id" = $1 AND "tags"."tag" = $2 RETURNING *', [1, 'misc']],
      ["DELETE FROM tags WHERE tag = 'new' RETURNING post_id, tag"],
      ['DELETE FROM tags t USING posts p WHERE t.post_id = p.id AND p.title = $1 RETURNING t.tag', ['On SQL']],
      ['DELETE FROM tags USING posts WHERE tags.post_id = posts.id AND posts.id = $1', [5]],
      ['DELETE FROM users u USING posts p WHERE p.author_id = u.id AND p.id = $1 RETURNING u.id', [99]],
      ['DELETE FROM users WHERE id IN (SELECT id FROM users WHERE id > $1) RETURNING id', [13]],
    ];
    for (const [sql, params] of writes) await same(sql, params, true);
    for (const t of ['users', 'posts', 'tags'])
      await same(`SELECT * FROM ${t} ${t === 'users' ? 'WHERE id <> 13 ' : ''}ORDER BY 1, 2`);
  });

  // SQLite's RETURNING knows only the target: `u.name` was 42703, `*` the target's columns alone,
  // `t.*` 42000 (translate/returning-from.ts)
  it("UPDATE ... FROM and DELETE ... USING return the other tables' columns; RETURNING t.* of the target", async () => {
    const cases: Case[] = [
      ["INSERT INTO tags (post_id, tag) VALUES (1, 'r1'), (1, 'r2'), (4, 'r3')"],
      [
        "UPDATE posts SET title = title || '!' FROM users u WHERE posts.author_id = u.id AND u.id = $1 RETURNING posts.id, u.name, u.email",
        [3],
      ],
      ['UPDATE posts p SET views = p.views + 1 FROM users u WHERE p.author_id = u.id AND p.id = $1 RETURNING *', [1]],
      ["UPDATE posts SET body = 'b' FROM users u WHERE posts.author_id = u.id AND u.id = 4 RETURNING u.*, posts.title"],
      // the target's own filter on the column SET changes is not needed to find the joined row again
      [
        'UPDATE posts SET views = 0 FROM users WHERE posts.author_id = users.id AND posts.views > 100 AND active RETURNING posts.id, name, users.age + 1 AS next',
      ],
      [
        'UPDATE users u SET age = v.age FROM (VALUES (1, 50)) AS v(id, age) WHERE u.id = v.id RETURNING u.id, v.age AS new_age, v.*',
      ],
      ['DELETE FROM tags t USING posts p WHERE t.post_id = p.id AND p.id = $1 RETURNING t.*, p.title', [1]],
      ['DELETE FROM tags USING posts WHERE tags.post_id = posts.id AND posts.id = $1 RETURNING *', [4]],
      ['UPDATE users SET age = age WHERE id = $1 RETURNING users.*', [3]],
      // a subquery in RETURNING reads its own FROM's names
      [
        'UPDATE posts SET views = views FROM users u WHERE posts.author_id = u.id AND u.id = 1 RETURNING (SELECT count(*) FROM users u WHERE u.id > posts.author_id) AS later, u.name',
      ],
      ['DELETE FROM tags AS x WHERE x.post_id = $1 RETURNING x.*', [99]],
    ];
    // (an UPDATE returns its rows in no set order)
    for (const [sql, params] of cases) await same(sql, params, true);
    // a join condition reading a column SET changes could not find the joined row again
    await refused(
      'UPDATE posts SET author_id = u.id FROM users u WHERE posts.author_id = u.id AND posts.id = $1 RETURNING u.name',
      [1],
      '0A000',
      /RETURNING a FROM item's column of an UPDATE that sets "author_id"/,
    );
  });

  it('SAVEPOINT, RELEASE and ROLLBACK TO inside a transaction', async () => {
    for (const c of [patina, postgres]) {
      await c.query('BEGIN');
      await c.query('INSERT INTO tags (post_id, tag) VALUES ($1, $2)', [2, 'a']);
      await c.query('SAVEPOINT s1');
      await c.query('INSERT INTO tags (post_id, tag) VALUES ($1, $2)', [2, 'b']);
      await c.query('ROLLBACK TO SAVEPOINT s1');
      await c.query('SAVEPOINT s2');
      await c.query('INSERT INTO tags (post_id, tag) VALUES ($1, $2)', [2, 'c']);
      await c.query('RELEASE SAVEPOINT s2');
      await c.query('COMMIT');
    }
    assert.deepEqual(await same('SELECT tag FROM tags WHERE post_id = 2 ORDER BY tag'), [['a'], ['c']]);
  });

  it('a multi-row upsert proposing one key twice is 21000 on both (SQLite updated the row again, last row winning)', async () => {
    const cases: [string, unknown[]][] = [
      [
        'INSERT INTO users (id, name) VALUES ($1, $2), ($3, $4) ON CONFLICT (id) DO UPDATE SET name = excluded.name',
        [40, 'a', 40, 'b'],
      ],
      [
        "INSERT INTO users (id, name) VALUES (41, 'a'), (41, 'b') ON CONFLICT (id) DO UPDATE SET name = excluded.name",
        [],
      ],
      [
        'INSERT INTO tags (post_id, tag) VALUES ($1, $2), ($1, $2) ON CONFLICT (post_id, tag) DO UPDATE SET tag = excluded.tag',
        [1, 'dup'],
      ],
    ];
    for (const [sql, params] of cases) {
      for (const client of [patina, postgres])
        await assert.rejects(
          client.query(sql, params),
          { code: '21000', message: /cannot affect row a second time/ },
          sql,
        );
    }
    // nothing was written; DO NOTHING and distinct keys go on as before
    await all([
      ['SELECT count(*) FROM users WHERE id IN (40, 41)'],
      [
        'INSERT INTO users (id, name) VALUES ($1, $2), ($3, $4) ON CONFLICT (id) DO NOTHING RETURNING id, name',
        [42, 'a', 42, 'b'],
      ],
      [
        'INSERT INTO users (id, name) VALUES ($1, $2), ($3, $4) ON CONFLICT (id) DO UPDATE SET name = excluded.name RETURNING id, name',
        [43, 'a', 44, 'b'],
      ],
    ]);
  });

  it('UPDATE ... SET x = DEFAULT takes the default, also in (a, b) = (DEFAULT, ...) and DO UPDATE (was 42601)', async () => {
    const writes: Case[] = [
      ['UPDATE items SET qty = DEFAULT, note = $1 WHERE id = $2 RETURNING id, qty, note', ['n', 1]],
      ['UPDATE items SET (qty, note) = (DEFAULT, $1) WHERE id = 2 RETURNING qty, note', ['m']],
      ['UPDATE items AS i SET (note, qty) = ROW($1, DEFAULT), nums = DEFAULT WHERE i.id = 3 RETURNING *', ['r']],
      ['UPDATE items SET added = DEFAULT WHERE id = 1 RETURNING added = CURRENT_DATE'],
      [
        'INSERT INTO items (id, qty) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET qty = DEFAULT, note = excluded.note RETURNING qty, note',
        [1, 9],
      ],
    ];
    for (const [sql, params] of writes) await same(sql, params, true);
  });

  it('SET (a, b) = source takes a ROW() or sub-SELECT of its width, as PostgreSQL does (SET (x) = (5) ran)', async () => {
    for (const sql of [
      'UPDATE items SET (qty) = (5) WHERE id = 1',
      'UPDATE items SET (qty, note) = 5 WHERE id = 1',
      'INSERT INTO items (id) VALUES (1) ON CONFLICT (id) DO UPDATE SET (qty) = (5)',
      'UPDATE items SET (qty, note) = ROW(5) WHERE id = 1',
      "UPDATE items SET (qty, note) = (5, 'a', 7) WHERE id = 1",
      'UPDATE items SET (qty, note) = (SELECT 1) WHERE id = 1',
      'UPDATE items SET (qty) = ROW(6) WHERE id = 2 RETURNING qty',
      'UPDATE items SET (qty) = (SELECT 7) WHERE id = 2 RETURNING qty',
      "UPDATE items SET (qty, note) = (SELECT qty + 1, 's' FROM items WHERE id = 2) WHERE id = 2 RETURNING qty, note",
    ])
      await sameOutcomeOnBoth(o, sql);
  });

  it('INSERT ... OVERRIDING SYSTEM VALUE and OVERRIDING USER VALUE keep the values written (was 42601)', async () => {
    // no identity columns: the clause keeps every value, as PostgreSQL does then
    await all([
      ['INSERT INTO items (id, qty) OVERRIDING SYSTEM VALUE VALUES ($1, $2) RETURNING id, qty, note', [10, 4]],
      ['INSERT INTO items (id, qty) OVERRIDING USER VALUE VALUES ($1, DEFAULT) RETURNING id, qty', [11]],
      ['INSERT INTO items OVERRIDING USER VALUE SELECT 12, 7 RETURNING id, qty'],
    ]);
  });

  it('arr[n] = v in UPDATE ... SET and in an INSERT column list writes the element (was 42601)', async () => {
    const writes: Case[] = [
      // past the end NULLs, before the first the bounds move, a NULL or empty array begins at it
      ['UPDATE items SET nums[2] = $1 WHERE id = 1 RETURNING nums', [20]],
      ['UPDATE items SET nums[5] = 9, labels[2] = $1 WHERE id = 1 RETURNING nums, labels', ['x y']],
      ['UPDATE items SET nums[0] = 7 WHERE id = 1 RETURNING nums'],
      ['UPDATE items SET nums[$1] = $2 WHERE id = 2 RETURNING nums', [1, 4]],
      ['UPDATE items SET nums[3] = 1, labels[1] = $1 WHERE id = 3 RETURNING nums, labels', ['q']],
      // the elements in the order written, each reading the row's old value
      ['UPDATE items SET nums[1] = NULL, nums[2] = nums[1] + 100 WHERE id = 2 RETURNING nums'],
      ['UPDATE items AS i SET nums[1 + 1] = i.qty WHERE i.id = 2 RETURNING nums'],
      [
        'INSERT INTO items (id, nums[1], nums[2], labels[2]) VALUES ($1, $2, $3, $4) RETURNING nums, labels',
        [20, 1, 2, 'z'],
      ],
      ['INSERT INTO items (id, nums[2]) VALUES (21, 5), (22, NULL) RETURNING id, nums'],
      [
        'INSERT INTO items (id, nums[1]) VALUES (20, 8) ON CONFLICT (id) DO UPDATE SET nums[3] = excluded.nums[1] RETURNING nums',
      ],
    ];
    for (const [sql, params] of writes) await same(sql, params, true);
    for (const sql of [
      'UPDATE items SET nums[1] = DEFAULT WHERE id = 1',
      'UPDATE items SET nums[NULL] = 1 WHERE id = 1',
      "UPDATE items SET nums[1] = 'x' WHERE id = 1",
      "UPDATE items SET nums[1] = 1, nums = '{1}' WHERE id = 1",
      "INSERT INTO items (id, nums[1], nums) VALUES (30, 1, '{1}')",
    ])
      await sameOutcomeOnBoth(o, sql);
    // an element in a multiple-column SET from a sub-SELECT (it was 0A000; slices, several subscripts,
    // INSERT ... SELECT: test/pg/array-assignments-oracle.test.ts)
    await sameOutcomeOnBoth(
      o,
      'UPDATE items SET (qty, nums[1]) = (SELECT 1, 2) WHERE id = 1 RETURNING qty, nums::text',
    );
  });

  it('a LIMIT, OFFSET or FETCH FIRST count with a fraction is rounded, as PostgreSQL turns numeric into bigint (was 42804)', async () => {
    await all([
      ['SELECT id FROM users ORDER BY id LIMIT 1.5'],
      ['SELECT id FROM users ORDER BY id LIMIT 2.4 OFFSET 0.5'],
      ['SELECT id FROM users ORDER BY id LIMIT -0.4'],
      ['SELECT id FROM users ORDER BY id OFFSET 1.5 ROWS FETCH FIRST 1.5 ROWS ONLY'],
      ['SELECT id, age FROM users ORDER BY age NULLS LAST FETCH FIRST 0.6 ROWS WITH TIES'],
    ]);
    await sameOutcomeOnBoth(o, 'SELECT id FROM users LIMIT -1.5');
  });

  it("locking clauses run as their transaction's reads (Django's update_or_create, with_for_update; were 0A000)", async () => {
    for (const c of [patina, postgres]) await c.query('BEGIN');
    await all([
      ['SELECT id, name FROM users WHERE id = $1 FOR UPDATE', [1]],
      ['SELECT u.id FROM users u WHERE u.active ORDER BY u.id FOR NO KEY UPDATE OF u NOWAIT'],
      ['SELECT id FROM users WHERE id > $1 ORDER BY id LIMIT 2 FOR SHARE SKIP LOCKED', [1]],
      ['SELECT p.id FROM posts p JOIN users u ON u.id = p.author_id WHERE u.id = 1 ORDER BY p.id FOR UPDATE OF p, u'],
      ['SELECT substring(name FROM 1 FOR 2) FROM users WHERE id = 1 FOR KEY SHARE'],
    ]);
    for (const c of [patina, postgres]) await c.query('COMMIT');
    // a lock is a write's intent: refused in a READ ONLY transaction, as PostgreSQL does
    for (const c of [patina, postgres]) {
      await c.query('BEGIN READ ONLY');
      await assert.rejects(c.query('SELECT id FROM users WHERE id = 1 FOR UPDATE'), { code: '25006' });
      await c.query('ROLLBACK');
    }
    // read, then write back what was read, in two sessions at once: the second one's locking read
    // waits for the first one's COMMIT and reads what it wrote, so no update is lost (on both)
    for (const port of [o.pair.patinaPort, o.pair.postgresPort]) {
      const [a, b] = [pgClient(port), pgClient(port)];
      await Promise.all([a.connect(), b.connect()]);
      try {
        await a.query('UPDATE users SET age = 50 WHERE id = 2');
        for (const c of [a, b]) await c.query('BEGIN');
        const first = await a.query('SELECT age FROM users WHERE id = 2 FOR UPDATE');
        const second = b.query('SELECT age FROM users WHERE id = 2 FOR UPDATE'); // waits
        await a.query('UPDATE users SET age = $1 WHERE id = 2', [Number(first.rows[0].age) + 1]);
        await a.query('COMMIT');
        const read = await second;
        assert.equal(Number(read.rows[0].age), 51, `port ${port}: the second read after the first COMMIT`);
        await b.query('UPDATE users SET age = $1 WHERE id = 2', [Number(read.rows[0].age) + 1]);
        await b.query('COMMIT');
        const { rows } = await a.query('SELECT age FROM users WHERE id = 2');
        assert.equal(Number(rows[0].age), 52, `port ${port}`);
      } finally {
        await Promise.all([a.end(), b.end()]);
      }
    }
  });

  it('what has no translation is refused with its SQLSTATE, naming the construct', async () => {
    // text too long to make: refused as PostgreSQL refuses 1 GB (54000), at 100 million characters
    await refused("SELECT repeat('x', 2000000000)", [], '54000', /requested length too large/);
    await refused("SELECT repeat('ab', $1)", [60_000_000], '54000', /requested length too large/);
    await refused("SELECT lpad('x', 2000000000)", [], '54000', /requested length too large/);
    await refused(
      'SELECT string_agg(DISTINCT tag, $1 ORDER BY post_id) FROM tags',
      [','],
      '42P10',
      /ORDER BY expressions must appear in argument list/,
    );
    await refused(
      'SELECT count(*), generate_series(1, 2) FROM users',
      [],
      '0A000',
      /generate_series\(\) in a select list/,
    );
    await refused(
      'INSERT INTO users (id, name) VALUES ($1, $2) ON CONFLICT ON CONSTRAINT users_email_key DO NOTHING',
      [1, 'x'],
      '42704',
      /users_email_key/,
    );
    // a LATERAL subquery selecting * over a join whose tables share a column's name cannot list
    // its columns by name (over one table it runs: lateral-oracle)
    await refused(
      'SELECT p.id, x.tag FROM posts p LEFT JOIN LATERAL (SELECT * FROM tags t JOIN tags t2 ON t2.post_id = t.post_id WHERE t.post_id = p.id) x ON true',
      [],
      '0A000',
      /LATERAL subquery selecting \*/,
    );
    await same(
      'SELECT p.id, x.tag FROM posts p LEFT JOIN LATERAL (SELECT * FROM tags t WHERE t.post_id = p.id) x ON true ORDER BY 1, 2',
    );
    await same('SELECT 1');
  });
});
