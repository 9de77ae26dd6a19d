// pg_catalog's relations against PostgreSQL 15: every table and view exists with PostgreSQL's
// columns in PostgreSQL's order (a query naming one Patina had not declared was answered with no rows
// at all: psql's \dconfig+ joins pg_parameter_acl); the pg_type rows of the types Patina announces are
// PostgreSQL's own (function names such as json_in and date_recv, typispreferred, typcategory,
// typmodin, typanalyze, storage and alignment were guesses), and Npgsql's type loading, which every
// .NET client (Power BI among them) runs at connect, answers with PostgreSQL's rows for them.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { type CatalogPair, oracleSuite, psqlOk, startCatalogPair } from '../helpers/catalog-pair';
import { pgClient, psql } from '../helpers/pg';

/** Ruby pg's basic type maps, built from pg_type, encoding and decoding a query's values. */
const RUBY_TYPE_MAP = `
require 'pg'
require 'json'
conn = PG.connect(host: '127.0.0.1', port: ARGV[0].to_i, user: 'tester', dbname: 'db')
map = PG::BasicTypeMapForQueries.new(conn)
conn.type_map_for_results = PG::BasicTypeMapForResults.new(conn)
rows = conn.exec_params('SELECT $1::int AS a, $2::text AS b, $3::float8 AS c, $4::bool AS d, $5::text[] AS e',
  [1, 'x', 1.5, true, ['p', 'q']], 0, map).to_a
puts JSON.generate(rows)
`;

const NPGSQL = fs.readFileSync(
  path.join(__dirname, '..', '..', '..', 'test', 'fixtures', 'catalog-clients', 'npgsql-load-types.sql'),
  'utf8',
);

describe('pg_catalog relations and pg_type, against PostgreSQL 15', function () {
  this.timeout(60_000);
  let pair: CatalogPair;
  before(async () => {
    pair = await startCatalogPair();
  });
  after(() => pair?.dispose());

  const lines = (port: number, sql: string) => {
    const r = psql(port, [sql], ['-A', '-t']);
    assert.equal(r.status, 0, r.stderr);
    return r.stdout.split('\n').filter(Boolean);
  };

  it("the rows of Patina's types are PostgreSQL's", () => {
    const sql = `SELECT oid, typname, typlen, typbyval, typtype, typcategory, typispreferred, typdelim, typelem, typarray,
      typinput, typoutput, typreceive, typsend, typmodin, typmodout, typanalyze, typsubscript, typalign, typstorage,
      typcollation, typnamespace, typrelid, typbasetype, typnotnull FROM pg_type WHERE typnamespace <> 2200 ORDER BY oid`;
    const patina = lines(pair.patinaPort, sql);
    const postgres = new Set(lines(pair.postgresPort, sql));
    assert.ok(patina.length >= 50, `${patina.length} types`);
    for (const row of patina) assert.ok(postgres.has(row), `not PostgreSQL's: ${row}`);
    // each type's functions are pg_proc rows of their names (a join by name, as psql's \\dT+ makes)
    const joined = `SELECT count(*) FROM pg_type t JOIN pg_proc p ON p.proname = t.typreceive::text WHERE typnamespace <> 2200`;
    const receiving = patina.filter((r) => r.split('|')[12] !== '-');
    assert.equal(Number(lines(pair.patinaPort, joined)[0]), receiving.length);
  });
  it("pg_type lists every type of PostgreSQL's pg_catalog, those Patina has no values of too (inet, money, ranges, pseudo-types), with their comments: psql's \\dTS as PostgreSQL's (Ruby pg's BasicTypeMapForQueries raised `no encoder defined for type \"inet\"`)", () => {
    // all but the row types of PostgreSQL's own relations and their arrays
    const sql = `SELECT t.oid, typname, typtype, typcategory, typelem, typarray, typinput, typoutput, typreceive,
      format_type(t.oid, NULL), obj_description(t.oid, 'pg_type'), d.description, r.rngsubtype, r.rngmultitypid
      FROM pg_type t LEFT JOIN pg_description d ON d.objoid = t.oid AND d.classoid = 'pg_type'::regclass
      LEFT JOIN pg_range r ON r.rngtypid = t.oid
      WHERE typnamespace = 'pg_catalog'::regnamespace AND typtype <> 'c'
        AND NOT EXISTS (SELECT 1 FROM pg_type e WHERE e.oid = t.typelem AND e.typtype = 'c') ORDER BY t.oid`;
    const patina = lines(pair.patinaPort, sql);
    assert.ok(patina.some((r) => r.startsWith('869|inet|b|I|0|1041|inet_in|')));
    assert.deepEqual(patina, lines(pair.postgresPort, sql));
    const commands = [
      '\\dTS',
      '\\dTS+ int*',
      `SELECT 'inet'::regtype, 'inet[]'::regtype, '_money'::regtype, to_regtype('bit varying'), 'int4range'::regtype::oid,
        format_type('tsvector'::regtype, NULL), pg_typeof('cidr'::regtype)`,
    ];
    assert.equal(psqlOk(pair.patinaPort, commands), psqlOk(pair.postgresPort, commands));
    // Ruby's pg builds its type map from pg_type, then encodes a query's parameters by it
    const ruby = (port: number) => {
      const r = spawnSync('ruby', ['-e', RUBY_TYPE_MAP, String(port)], { encoding: 'utf8', timeout: 30_000 });
      assert.equal(r.status, 0, r.stderr);
      return r.stdout;
    };
    const out = ruby(pair.patinaPort);
    assert.match(out, /^\[\{"a":1,/);
    assert.equal(out, ruby(pair.postgresPort));
  });

  it("each table has PostgreSQL's composite row type and its array type, named as PostgreSQL names them (there were none)", () => {
    const commands = [
      `SELECT typname, typlen, typbyval, typtype, typcategory, typispreferred, typdelim,
        (SELECT e.typname FROM pg_type e WHERE e.oid = t.typelem) AS elem, (SELECT a.typname FROM pg_type a WHERE a.oid = t.typarray) AS arr,
        typinput, typoutput, typreceive, typsend, typmodin, typmodout, typanalyze, typsubscript, typalign, typstorage, typcollation,
        typnamespace::regnamespace, typrelid::regclass, typrelid::regclass::text, typbasetype, typnotnull, typowner, typisdefined,
        typtypmod, typndims, typdefault, (SELECT count(*) FROM pg_proc p WHERE p.proname = t.typreceive::text) AS procs
        FROM pg_type t WHERE typnamespace = 'public'::regnamespace ORDER BY typname`,
      'SELECT relname, (SELECT typname FROM pg_type WHERE oid = c.reltype) FROM pg_class c WHERE relnamespace = 2200 ORDER BY 1',
      `SELECT 'customers'::regtype, '_customers'::regtype, 'customers[]'::regtype, 'public.orders'::regtype::text,
        format_type('customers'::regtype, NULL), format_type(typarray, -1), 'customers'::regtype::oid = reltype,
        to_regtype('line_items') FROM pg_class c JOIN pg_type t ON t.oid = c.reltype WHERE relname = 'customers'`,
      "SELECT 'customers'::regtype, count(*) FROM customers",
      // pg_dump's test of an array type (a name's subscript is its character)
      `SELECT typname, typname[0] = '_' AND typelem != 0 AND (SELECT typarray FROM pg_type te WHERE oid = t.typelem) = t.oid
        FROM pg_type t WHERE typnamespace = 2200 ORDER BY 1`,
      // a whole row is of that type
      'SELECT pg_typeof(c), pg_typeof(customers)::text FROM customers c, customers ORDER BY c.id LIMIT 1',
      '\\dT',
      '\\d customers',
    ];
    for (const port of [pair.patinaPort, pair.postgresPort])
      psqlOk(port, ["INSERT INTO customers (id, name) VALUES (901, 'row')"]);
    try {
      const out = psqlOk(pair.patinaPort, commands);
      assert.match(out, /\n customers +\| customers\n/);
      assert.equal(out, psqlOk(pair.postgresPort, commands));
    } finally {
      for (const port of [pair.patinaPort, pair.postgresPort]) psqlOk(port, ['DELETE FROM customers WHERE id >= 901']);
    }
  });
  it("Npgsql's type loading answers PostgreSQL's rows for Patina's types, without an error", () => {
    const patina = lines(pair.patinaPort, NPGSQL);
    const postgres = new Set(lines(pair.postgresPort, NPGSQL));
    assert.match(patina[0], /^PostgreSQL 15/);
    assert.ok(patina.includes('pg_catalog|1016|_int8|a|f|20'), 'int8[] is an array of int8');
    const types = patina.slice(1);
    assert.ok(types.length >= 50, `${types.length} types`);
    for (const row of types) assert.ok(postgres.has(row), `not PostgreSQL's: ${row}`);
    // arrays after their elements, as Npgsql orders them (its second pass resolves none then)
    const kinds = types.map((r) => r.split('|')[3]);
    assert.ok(kinds.indexOf('a') > kinds.lastIndexOf('b'), kinds.join(''));
  });
  it("every table and view of pg_catalog and information_schema has PostgreSQL's columns in its order; queries naming them answer", async () => {
    const rels = lines(
      pair.postgresPort,
      `SELECT nspname || '.' || relname FROM pg_class c JOIN pg_namespace n ON n.oid = relnamespace
        WHERE nspname IN ('pg_catalog', 'information_schema') AND relkind IN ('r', 'v') ORDER BY 1`,
    );
    assert.ok(rels.length > 200, `${rels.length} relations`);
    const patina = pgClient(pair.patinaPort);
    const postgres = pgClient(pair.postgresPort);
    await patina.connect();
    await postgres.connect();
    try {
      for (const rel of rels) {
        const sql = `SELECT * FROM ${rel} LIMIT 0`;
        const names = async (c: typeof patina) => (await c.query(sql)).fields.map((f) => f.name);
        assert.deepEqual(await names(patina), await names(postgres), rel);
      }
    } finally {
      await patina.end();
      await postgres.end();
    }
    // psql's \dconfig+ (pg_settings LEFT JOIN pg_parameter_acl) and a left join of relations Patina has no rows of
    for (const commands of [
      ['\\dconfig+ work_mem', '\\dconfig *mem*'],
      [
        `SELECT c.relname, p.partstrat, pr.prpubid FROM pg_class c LEFT JOIN pg_partitioned_table p ON p.partrelid = c.oid
          LEFT JOIN pg_publication_rel pr ON pr.prrelid = c.oid WHERE c.relname IN ('orders', 'customers') ORDER BY 1`,
      ],
    ])
      assert.equal(psqlOk(pair.patinaPort, commands), psqlOk(pair.postgresPort, commands), commands.join('; '));
  });
  it("lists the system relations as PostgreSQL does: psql's \\dS and \\d pg_class, pg_tables, information_schema.tables and its NOT NULL checks (pg_class held none)", () => {
    for (const commands of [
      ['\\dS', '\\dtS pg_a*', '\\dvS pg_stat*', '\\diS pg_class*'],
      ['\\d pg_enum', '\\d pg_description', '\\d pg_inherits', '\\d pg_am_oid_index', '\\d'],
      [
        `SELECT relkind, count(*) FROM pg_class WHERE relnamespace IN ('pg_catalog'::regnamespace, 'information_schema'::regnamespace)
          GROUP BY 1 ORDER BY 1`,
        'SELECT table_schema, table_type, count(*) FROM information_schema.tables GROUP BY 1, 2 ORDER BY 1, 2',
        "SELECT table_schema, count(*), count(*) FILTER (WHERE is_nullable = 'NO') FROM information_schema.columns GROUP BY 1 ORDER BY 1",
        'SELECT schemaname, count(*) FROM pg_tables GROUP BY 1 ORDER BY 1',
        'SELECT schemaname, count(*) FROM pg_views GROUP BY 1 ORDER BY 1',
        "SELECT count(*), count(*) FILTER (WHERE indexdef LIKE 'CREATE UNIQUE%') FROM pg_indexes WHERE schemaname = 'pg_catalog'",
        `SELECT 'pg_class'::regclass::oid, 2601::regclass, to_regclass('tables'), to_regclass('information_schema.tables')::oid =
          (SELECT oid FROM pg_class WHERE relname = 'tables'), pg_table_is_visible('pg_am'::regclass),
          pg_table_is_visible(to_regclass('information_schema.tables'))`,
        `SELECT pg_get_indexdef('pg_class_oid_index'::regclass), pg_get_constraintdef(oid), contype FROM pg_constraint
          WHERE conname = 'pg_class_oid_index'`,
        'SELECT table_schema, constraint_type, count(*) FROM information_schema.table_constraints GROUP BY 1, 2 ORDER BY 1, 2',
        `SELECT * FROM information_schema.table_constraints WHERE table_schema <> 'public'
          AND table_name IN ('pg_am', 'pg_enum', 'pg_class') ORDER BY constraint_name`,
        "SELECT * FROM information_schema.check_constraints WHERE constraint_schema <> 'public' ORDER BY constraint_name",
        // NOT NULL columns of user tables are CHECK constraints there too (their names carry each side's own OIDs)
        `SELECT c.check_clause, t.table_name, t.constraint_type FROM information_schema.check_constraints c
          JOIN information_schema.table_constraints t USING (constraint_name) WHERE t.table_schema = 'public' ORDER BY 2, 1`,
        'SELECT schemaname, viewname, viewowner FROM pg_views ORDER BY 2 LIMIT 3',
      ],
    ])
      assert.equal(psqlOk(pair.patinaPort, commands), psqlOk(pair.postgresPort, commands), commands.join('; '));
  });
  it('regclass values are OIDs that print as names, typed regclass (node-postgres read NaN: they went typed oid)', async () => {
    const commands = [
      `SELECT c.oid::regclass AS r, 'pg_am'::regclass AS s, 'orders'::regclass::text AS t, c.oid::regclass::text AS u,
        2601::regclass AS v, to_regclass('orders') AS w FROM pg_class c WHERE relname = 'pg_am'`,
      'SELECT count(*) FROM pg_class WHERE oid = 2601::regclass',
      "SELECT relname FROM pg_class WHERE oid = 'orders'::regclass",
      "SELECT c.relname FROM pg_class c WHERE c.oid::regclass::text LIKE 'ord%'",
      `SELECT format('%s', c.oid::regclass), c.oid::regclass || '!', concat(c.oid::regclass, '?'), 'x' || 'orders'::regclass,
        c.oid::regclass::varchar(3) FROM pg_class c WHERE relname = 'orders'`,
      `SELECT 'information_schema.tables'::regclass, '"orders"'::regclass, 'orders'::regclass = 'public.orders'::regclass`,
      "SELECT 'nope'::regclass",
    ];
    const out = (port: number) => {
      const r = psql(port, commands);
      return r.stdout + r.stderr;
    };
    assert.equal(out(pair.patinaPort), out(pair.postgresPort));
    const read = async (port: number) => {
      const c = pgClient(port);
      await c.connect();
      try {
        const r = await c.query(
          "SELECT c.oid::regclass AS r, 'pg_am'::regclass AS s, $1::regclass AS p FROM pg_class c WHERE relname = 'pg_am'",
          ['orders'],
        );
        return [r.rows, r.fields.map((f) => f.dataTypeID)];
      } finally {
        await c.end();
      }
    };
    const patina = await read(pair.patinaPort);
    assert.deepEqual(patina, [[{ r: 'pg_am', s: 'pg_am', p: 'orders' }], [2205, 2205, 2205]]);
    assert.deepEqual(patina, await read(pair.postgresPort));
  });
  it("a name cast to regclass, regtype or regnamespace beside a table of the database, as PostgreSQL answers it (it was 42883: the casts' functions are the catalog connection's)", async () => {
    const commands = [
      "SELECT 'integer'::regtype, id FROM customers ORDER BY id",
      "SELECT * FROM customers WHERE 'public'::regnamespace IS NOT NULL ORDER BY id",
      "SELECT 'customers'::regclass, count(*) FROM customers",
      `SELECT pg_typeof(id)::regtype, pg_typeof(name)::regtype::text, CAST('"public"."orders"' AS regclass), '23'::regtype
        FROM customers ORDER BY id`,
      `SELECT 'orders'::regclass::text, 'int8'::regtype::text, 'public'::regnamespace::text, 'x' || 'orders'::regclass,
        format('%s', 'int4'::regtype), 'orders'::regclass = 'public.orders'::regclass FROM customers ORDER BY id LIMIT 1`,
      "SELECT id FROM customers WHERE 'customers'::regclass::oid > 0 ORDER BY id",
      "SELECT 'nope'::regclass, id FROM customers",
      "SELECT 'nope'::regtype, id FROM customers",
      "SELECT 'nope'::regnamespace, id FROM customers",
      "SELECT 'nope'::regtype",
    ];
    const out = (port: number) => {
      const r = psql(port, commands);
      return r.stdout + r.stderr;
    };
    // typed regclass, regtype and regnamespace on the wire, the OID in binary
    const read = async (port: number) => {
      const c = pgClient(port);
      await c.connect();
      try {
        const sql = `SELECT 'orders'::regclass AS c, 'integer'::regtype AS t, 'public'::regnamespace AS n,
          pg_typeof(id)::regtype AS p FROM customers ORDER BY id LIMIT 1`;
        const r = await c.query(sql);
        const b = await c.query({
          text: "SELECT 'integer'::regtype::oid AS o, 'public'::regnamespace AS n, id FROM customers LIMIT 1",
          binary: true,
        } as never);
        return [r.rows, r.fields.map((f) => f.dataTypeID), b.rows];
      } finally {
        await c.end();
      }
    };
    for (const port of [pair.patinaPort, pair.postgresPort])
      psqlOk(port, ["INSERT INTO customers (id, name) VALUES (901, 'reg1'), (902, 'reg2')"]);
    try {
      const text = out(pair.patinaPort);
      assert.match(text, / integer \| 901\n/);
      assert.equal(text, out(pair.postgresPort));
      const patina = await read(pair.patinaPort);
      assert.deepEqual(patina.slice(0, 2), [
        [{ c: 'orders', t: 'integer', n: 'public', p: 'bigint' }],
        [2205, 2206, 4089, 2206],
      ]);
      assert.deepEqual(patina, await read(pair.postgresPort));
    } finally {
      for (const port of [pair.patinaPort, pair.postgresPort]) psqlOk(port, ['DELETE FROM customers WHERE id >= 901']);
    }
    // a column's or parameter's cast runs per row, where the function is not: a clear refusal
    const r = psql(pair.patinaPort, ['SELECT name::regclass FROM customers']);
    assert.match(r.stderr, /ERROR: {2}a cast of a column or parameter to regclass is not supported/);
  });
  it('a type name that is no type is 42704 `type "t" does not exist` at the name, 3F000 for a schema that is none (the name was passed through: \'x\'::nosuchtype answered x)', async () => {
    const commands = [
      "SELECT 'x'::nosuchtype",
      'SELECT CAST(1 AS nosuchtype)',
      "SELECT 1, 'x'::nosuchtype FROM orders",
      "SELECT 'x'::pg_catalog.nosuch",
      "SELECT 'x'::public.nosuch, id FROM customers",
      "SELECT 'x'::nosuchtype[]",
      "SELECT 'x'::nosuch(3)[]",
      `SELECT 'x'::"Text"`,
      'SELECT 1::serial',
      "SELECT nosuchtype 'x'",
      "SELECT 'x'::foo.bar",
      "SELECT * FROM json_to_record('{}') AS r(a nosuch)",
      "SELECT 'é'::text,\n  NULL::pg_class IS NULL, 'x'::nosuch",
      "SELECT 'x'::text, 1::pg_catalog.int4, NULL::pg_class IS NULL, NULL::customers IS NULL, date '2024-01-02', 'a'::\"char\"",
    ];
    // (psql going on past an error)
    const out = (port: number) => {
      const r = psql(port, commands, ['-v', 'ON_ERROR_STOP=0']);
      return r.stdout + r.stderr;
    };
    const patina = out(pair.patinaPort);
    assert.match(patina, /ERROR: {2}type "nosuchtype\[\]" does not exist\nLINE 1: SELECT 'x'::nosuchtype\[\]\n {20}\^/);
    assert.equal(patina, out(pair.postgresPort));
    // in a Parse (node-postgres sends a statement with parameters so): the error at the name
    const failure = async (port: number, sql: string) => {
      const c = pgClient(port);
      await c.connect();
      try {
        return await c.query(sql, ['x']).then(
          () => 'ran',
          (e: { code?: string; message: string; position?: string }) => `${e.code} ${e.message} @${e.position}`,
        );
      } finally {
        await c.end();
      }
    };
    for (const sql of [
      'SELECT $1::nosuchtype',
      'SELECT CAST($1 AS pg_catalog.nosuch)',
      'SELECT id FROM customers WHERE name = $1::nosuch[]',
    ]) {
      const p = await failure(pair.patinaPort, sql);
      assert.match(p, /^42704 type "[\w.]+(\[\])?" does not exist @\d+$/);
      assert.equal(p, await failure(pair.postgresPort, sql), sql);
    }
  });
  it('a catalog query naming a relation or a column PostgreSQL lacks is its 42P01 or 42703 at the name, with its HINT (it was answered with no rows)', async () => {
    const commands = [
      'SELECT nosuch FROM pg_class',
      'SELECT * FROM pg_nosuch',
      'SELECT c.relname, c.nosuch FROM pg_catalog.pg_class c',
      'SELECT relnam FROM pg_class',
      'SELECT * FROM information_schema.nosuch',
      'SELECT table_nam FROM information_schema.tables',
      'SELECT n.nspname FROM pg_namespace n JOIN pg_catalog.pg_nosuch x ON x.oid = n.oid',
      // (PostgreSQL 16's column)
      'SELECT name, result_types FROM pg_prepared_statements',
      'SELECT relname FROM pg_class WHERE relname = (SELECT attnam FROM pg_attribute LIMIT 1)',
      'WITH x AS (SELECT oid, relname FROM pg_class) SELECT x.nosuch FROM x',
      'SELECT c.relname, o.nosuch FROM pg_class c JOIN orders o ON o.id = c.oid',
      // what PostgreSQL has answers (the names known here are its)
      "SELECT c.relname, n.nspname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relname = 'orders'",
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1",
    ];
    // (psql going on past an error)
    const out = (port: number) => {
      const r = psql(port, commands, ['-v', 'ON_ERROR_STOP=0']);
      return r.stdout + r.stderr;
    };
    const patina = out(pair.patinaPort);
    assert.match(patina, /ERROR: {2}relation "pg_nosuch" does not exist\nLINE 1: SELECT \* FROM pg_nosuch\n {22}\^/);
    assert.match(patina, /HINT: {2}Perhaps you meant to reference the column "tables.table_name"\./);
    assert.equal(patina, out(pair.postgresPort));
    // in a Parse (a statement with a parameter): the same error at the same place
    const failure = async (port: number, sql: string) => {
      const c = pgClient(port);
      await c.connect();
      try {
        return await c.query(sql, ['x']).then(
          () => 'ran',
          (e: { code?: string; message: string; position?: string }) => `${e.code} ${e.message} @${e.position}`,
        );
      } finally {
        await c.end();
      }
    };
    for (const sql of [
      'SELECT nosuch FROM pg_class WHERE relname = $1',
      'SELECT relname FROM pg_catalog.pg_nosuch WHERE relname = $1',
    ]) {
      const p = await failure(pair.patinaPort, sql);
      assert.match(p, /^42(703|P01) .* does not exist @\d+$/);
      assert.equal(p, await failure(pair.postgresPort, sql), sql);
    }
  });
  it("a catalog table's rows answer xmin, xmax, cmin, cmax and ctid typed xid, cid and tid, as PostgreSQL's (pgAdmin and DBeaver read them: it was 0A000); a view's, a subquery's and a bare one beside a join are 42703 as there", async () => {
    const sql = `SELECT c.oid, c.xmin, c.xmax, c.cmin, c.cmax, c.ctid, xmin::text::int8 > 0 AS positive
      FROM pg_class c WHERE c.relname = 'pg_class'`;
    const shapes = async (port: number, binary: boolean) => {
      const c = pgClient(port);
      await c.connect();
      try {
        // (node-postgres's binary results: the codecs' binary forms, read as its text)
        const query = c.query.bind(c) as unknown as (
          q: object,
        ) => Promise<{ rows: unknown[][]; fields: { name: string; dataTypeID: number }[] }>;
        const r = await query({ text: sql, rowMode: 'array', binary });
        const bare = await c.query({
          text: 'SELECT xmin, ctid, cmax FROM pg_namespace ORDER BY ctid LIMIT 1',
          rowMode: 'array',
        });
        return {
          types: [...r.fields, ...bare.fields].map((f) => `${f.name}:${f.dataTypeID}`),
          rows: r.rows.length,
          positive: r.rows[0][6],
          // (xmin an xid, ctid a (block,offset))
          text: binary
            ? null
            : [String(r.rows[0][1]).match(/^\d+$/) !== null, /^\(\d+,\d+\)$/.test(String(r.rows[0][5]))],
          bare: [String(bare.rows[0][0]).match(/^\d+$/) !== null, /^\(\d+,\d+\)$/.test(String(bare.rows[0][1]))],
        };
      } finally {
        await c.end();
      }
    };
    for (const binary of [false, true]) {
      const p = await shapes(pair.patinaPort, binary);
      assert.deepEqual(p.types.slice(1, 6), ['xmin:28', 'xmax:28', 'cmin:29', 'cmax:29', 'ctid:27']);
      assert.deepEqual(p, await shapes(pair.postgresPort, binary));
    }
    const commands = [
      "SELECT pg_typeof(xmin), pg_typeof(ctid), pg_typeof(cmin), pg_typeof(n.xmax) FROM pg_namespace n WHERE nspname = 'public'",
      "SELECT count(*) FROM pg_type t WHERE t.xmax::text = '0' AND t.cmin::text = '0' AND t.xmin::text <> '' AND t.typname = 'int4'",
      'SELECT xmin FROM pg_tables',
      'SELECT t.ctid FROM information_schema.tables t',
      'SELECT x.xmin FROM (SELECT * FROM pg_class) x',
      'SELECT xmin FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace',
    ];
    const out = (port: number) => {
      const r = psql(port, commands, ['-v', 'ON_ERROR_STOP=0']);
      return r.stdout + r.stderr;
    };
    const patina = out(pair.patinaPort);
    assert.match(patina, / xid {7}\| tid {7}\| cid {7}\| xid\n/);
    assert.equal(patina, out(pair.postgresPort));
    // a table of the database keeps its refusal: a made-up xmin would pass an optimistic lock
    const refused = psql(pair.patinaPort, ['SELECT xmin FROM customers']);
    assert.match(refused.stderr, /system column "xmin" is not supported/);
  });
  it("tableoid of a table of the database is its OID, as `'t'::regclass` names it (it was 0A000)", async () => {
    const commands = [
      "SELECT tableoid::regclass, id FROM customers WHERE tableoid = 'customers'::regclass ORDER BY id",
      `SELECT c.tableoid = 'customers'::regclass, c.tableoid::regclass::text, count(*) FROM customers c
        GROUP BY c.tableoid ORDER BY 2`,
      `SELECT tableoid::regclass, count(*) FROM customers GROUP BY id % 2, tableoid ORDER BY tableoid, 2`,
      `SELECT tableoid::regclass FROM customers UNION ALL SELECT tableoid::regclass FROM orders ORDER BY 1`,
      'SELECT pg_typeof(tableoid), pg_typeof(c.tableoid) FROM customers c ORDER BY id LIMIT 1',
      'SELECT x.tableoid FROM (SELECT 1) x',
    ];
    const out = (port: number) => {
      const r = psql(port, commands);
      return r.stdout + r.stderr;
    };
    // typed oid on the wire (the OIDs themselves are each side's own)
    const types = async (port: number) => {
      const c = pgClient(port);
      await c.connect();
      try {
        const r = await c.query('SELECT tableoid, t.tableoid AS u FROM customers t');
        return r.fields.map((f) => f.dataTypeID);
      } finally {
        await c.end();
      }
    };
    for (const port of [pair.patinaPort, pair.postgresPort])
      psqlOk(port, ["INSERT INTO customers (id, name) VALUES (901, 'reg1'), (902, 'reg2')"]);
    try {
      const text = out(pair.patinaPort);
      assert.match(text, / customers \| 901\n/);
      assert.equal(text, out(pair.postgresPort));
      assert.deepEqual(await types(pair.patinaPort), [26, 26]);
      assert.deepEqual(await types(pair.patinaPort), await types(pair.postgresPort));
    } finally {
      for (const port of [pair.patinaPort, pair.postgresPort]) psqlOk(port, ['DELETE FROM customers WHERE id >= 901']);
    }
  });
  it("a bare tableoid beside another table is PostgreSQL's 42702, inside a join its 42703 with the HINT; beside a subquery, a view or a WITH query it is the one table's (the first table's OID was answered)", () => {
    for (const sql of [
      'SELECT tableoid FROM customers, orders',
      'SELECT count(*) FROM customers c, orders o WHERE tableoid > 0',
      'SELECT c.id FROM customers c, orders o ORDER BY tableoid',
      'SELECT tableoid FROM customers JOIN orders ON true',
      'SELECT tableoid FROM (SELECT 1) s JOIN orders o ON true',
      'SELECT tableoid FROM pg_class c, pg_namespace n WHERE n.oid = c.relnamespace LIMIT 1',
      'SELECT tableoid FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace LIMIT 1',
      'SELECT relname FROM pg_class WHERE oid = 1259 UNION ALL SELECT tableoid::regclass::text FROM pg_am, pg_class LIMIT 1',
      // one table: its own
      'SELECT tableoid::regclass FROM pg_class c, (SELECT 1) s LIMIT 1',
      'SELECT tableoid FROM pg_am a, pg_tables t LIMIT 1',
      'WITH w AS (SELECT 1) SELECT tableoid FROM w, pg_am LIMIT 1',
      'SELECT c.tableoid, n.tableoid FROM pg_class c, pg_namespace n LIMIT 1',
      'SELECT tableoid FROM pg_am WHERE EXISTS (SELECT 1 FROM pg_class, pg_namespace) LIMIT 1',
      'SELECT (SELECT tableoid FROM pg_am LIMIT 1) FROM pg_class, pg_namespace LIMIT 1',
    ]) {
      const out = (port: number) => {
        const r = psql(port, [sql]);
        return r.stdout + r.stderr;
      };
      assert.equal(out(pair.patinaPort), out(pair.postgresPort), sql);
    }
  });
  it('pg_stat_user_tables counts the rows inserted, updated and deleted per table, as PostgreSQL (they stayed 0)', async () => {
    const read = async (c: ReturnType<typeof pgClient>) => {
      await c.query('SELECT pg_stat_force_next_flush()');
      const r = await c.query(
        `SELECT relname, n_tup_ins::int8 AS i, n_tup_upd::int8 AS u, n_tup_del::int8 AS d FROM pg_stat_user_tables
          ORDER BY relname`,
      );
      return r.rows.map((row) => [row.relname, Number(row.i), Number(row.u), Number(row.d)]);
    };
    const deltas = async (port: number) => {
      const c = pgClient(port);
      await c.connect();
      try {
        const before = await read(c);
        await c.query("INSERT INTO customers (id, name) VALUES (301, 'a'), (302, 'b'), (303, 'c')");
        await c.query("UPDATE customers SET name = 'x' WHERE id >= 301");
        await c.query('DELETE FROM customers WHERE id = 303');
        await c.query(
          "INSERT INTO customers (id, name) VALUES (302, 'dup') ON CONFLICT (id) DO UPDATE SET name = excluded.name",
        );
        await c.query('BEGIN');
        await c.query("INSERT INTO customers (id, name) VALUES (304, 'd')");
        await c.query('COMMIT');
        await c.query('DELETE FROM customers WHERE id >= 301');
        const after = await read(c);
        return after.map((row, k) => [
          row[0],
          ...row.slice(1).map((v, j) => (v as number) - (before[k][j + 1] as number)),
        ]);
      } finally {
        await c.end();
      }
    };
    const patina = await deltas(pair.patinaPort);
    assert.deepEqual(patina, await deltas(pair.postgresPort));
    assert.deepEqual(patina[0], ['customers', 4, 4, 4]);
  });

  it("pg_stat_database counts transactions and written rows as PostgreSQL does (pgAdmin's dashboard; they stayed 0)", async () => {
    const read = async (c: ReturnType<typeof pgClient>) => {
      await c.query('SELECT pg_stat_force_next_flush()');
      const r = await c.query(
        `SELECT xact_commit::int8 AS c, xact_rollback::int8 AS r, tup_inserted::int8 AS i, tup_updated::int8 AS u,
          tup_deleted::int8 AS d FROM pg_stat_database WHERE datname = current_database()`,
      );
      return Object.values(r.rows[0]).map(Number);
    };
    const deltas = async (port: number) => {
      const c = pgClient(port);
      await c.connect();
      try {
        const before = await read(c);
        await c.query("INSERT INTO customers (id, name) VALUES (101, 'a'), (102, 'b')");
        await c.query("INSERT INTO customers (id, name) VALUES (103, 'c')");
        await c.query("UPDATE customers SET name = 'x' WHERE id >= 101");
        await c.query('DELETE FROM customers WHERE id = 103');
        await c.query('BEGIN');
        await c.query("UPDATE customers SET name = 'y' WHERE id = 101");
        await c.query('COMMIT');
        await c.query('BEGIN');
        await c.query("INSERT INTO customers (id, name) VALUES (104, 'd')");
        await c.query('ROLLBACK');
        await c.query('SELECT * FROM customers');
        await c.query('DELETE FROM customers WHERE id >= 101');
        const after = await read(c);
        return after.map((v, k) => v - before[k]);
      } finally {
        await c.end();
      }
    };
    const patina = await deltas(pair.patinaPort);
    assert.deepEqual(patina, await deltas(pair.postgresPort));
    assert.deepEqual(patina, [9, 1, 4, 4, 3]);
  });
  it("'public'::regnamespace is the schema's OID, which catalog queries compare with relnamespace (it matched nothing)", () => {
    for (const sql of [
      "SELECT relname FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relkind = 'r' ORDER BY 1",
      "SELECT 'public'::regnamespace::oid, 'PUBLIC'::regnamespace::oid, relnamespace::regnamespace FROM pg_class WHERE relname = 'orders'",
      "SELECT count(*) FROM pg_type WHERE typnamespace = 'pg_catalog'::regnamespace AND typname = 'int4'",
    ])
      assert.deepEqual(lines(pair.patinaPort, sql), lines(pair.postgresPort, sql), sql);
    const r = psql(pair.patinaPort, ["SELECT 'nope'::regnamespace"], ['-A', '-t']);
    assert.match(r.stderr, /schema "nope" does not exist/);
  });
  it("'public'::regnamespace and 'integer'::regtype print their names, made text too (they printed 2200 and 2200.0, 23.0)", async () => {
    const commands = [
      `SELECT 'public'::regnamespace AS n, 'public'::regnamespace::text AS t, 'integer'::regtype::text AS u,
        'x' || 'pg_catalog'::regnamespace AS v, format('%s', 'int8'::regtype) AS w, 2200::regnamespace::text AS x`,
      `SELECT relnamespace::regnamespace::text, pg_typeof(relname)::text FROM pg_class WHERE relname = 'orders'`,
    ];
    assert.equal(psqlOk(pair.patinaPort, commands), psqlOk(pair.postgresPort, commands));
    // typed regnamespace as in PostgreSQL (it went typed int8), its OID in binary
    const read = async (port: number) => {
      const c = pgClient(port);
      await c.connect();
      try {
        const r = await c.query(
          "SELECT 'public'::regnamespace AS n, relnamespace::regnamespace AS m FROM pg_class WHERE relname = 'orders'",
        );
        const b = await c.query({ text: "SELECT 'public'::regnamespace::oid AS o", binary: true } as never);
        return [r.rows, r.fields.map((f) => f.dataTypeID), b.rows];
      } finally {
        await c.end();
      }
    };
    const patina = await read(pair.patinaPort);
    assert.deepEqual(patina.slice(0, 2), [[{ n: 'public', m: 'public' }], [4089, 4089]]);
    assert.deepEqual(patina, await read(pair.postgresPort));
  });
  /** What node-postgres sees of each statement on a server: its rows and column types, or its SQLSTATE and message. */
  const outcomes = async (port: number, sqls: string[]) => {
    const c = pgClient(port);
    await c.connect();
    try {
      const out: string[] = [];
      for (const sql of sqls) {
        try {
          const r = await c.query(sql);
          out.push(`${sql}: ${JSON.stringify(r.rows)} ${r.fields.map((f) => f.dataTypeID).join(',')}`);
        } catch (err) {
          const e = err as { code?: string; message: string };
          out.push(`${sql}: ${e.code} ${e.message}`);
        }
      }
      return out;
    } finally {
      await c.end();
    }
  };
  it('the privilege functions check what PostgreSQL checks: the object, the role and the privilege words exist (42P01, 42703, 3F000, 3D000, 42883, 42704, 22023; NULL for an OID naming nothing); existing objects are still granted (they answered true for anything)', async () => {
    const sqls = [
      // what BI tools and admin GUIs ask of existing objects
      "SELECT has_table_privilege('orders', 'SELECT'), has_table_privilege('public.orders', 'select, insert')",
      "SELECT has_table_privilege('tester', 'orders', 'SELECT WITH GRANT OPTION'), has_table_privilege('db.public.orders', 'update')",
      "SELECT c.relname FROM pg_class c WHERE has_table_privilege(c.oid, 'SELECT') AND c.relname IN ('orders', 'pg_class') ORDER BY 1",
      "SELECT has_table_privilege('information_schema.tables', 'select'), has_table_privilege('orders', 'rule')",
      "SELECT has_column_privilege('orders', 'note', 'select'), has_column_privilege('orders', 2::int2, 'update')",
      "SELECT has_column_privilege('orders', 'ctid', 'select'), has_any_column_privilege('orders', ' Select ,insert ')",
      "SELECT has_schema_privilege('public', 'USAGE'), has_schema_privilege('pg_catalog', 'usage, create')",
      "SELECT has_database_privilege('db', 'CONNECT'), has_database_privilege('db', 'create, temp, temporary')",
      "SELECT has_function_privilege('upper(text)', 'execute'), has_function_privilege('pg_catalog.now()', 'EXECUTE')",
      "SELECT pg_has_role('tester', 'MEMBER'), pg_has_role('tester', 'tester', 'usage with admin option')",
      // objects that are none
      "SELECT has_table_privilege('nosuch', 'select')",
      "SELECT has_table_privilege('public.nosuch', 'select')",
      "SELECT has_table_privilege('nosuch.orders', 'select')",
      "SELECT has_table_privilege('\"ORDERS\"', 'select')",
      "SELECT has_table_privilege('pg_catalog.orders', 'select')",
      "SELECT has_table_privilege('other.public.orders', 'select')",
      "SELECT has_table_privilege('a.b.c.d', 'select')",
      "SELECT has_table_privilege('', 'select')",
      "SELECT has_table_privilege('\"orders', 'select')",
      "SELECT has_table_privilege(999999::oid, 'select'), has_table_privilege(0::oid, 'select')",
      "SELECT has_column_privilege('orders', 'nosuch', 'select')",
      "SELECT has_column_privilege('orders', 'NOTE', 'select')",
      "SELECT has_column_privilege('nosuch', 'note', 'select')",
      "SELECT has_column_privilege('orders', 99::int2, 'select'), has_column_privilege(999999::oid, 'note', 'select')",
      "SELECT has_any_column_privilege('nosuch', 'select')",
      "SELECT has_schema_privilege('nosuch', 'usage')",
      "SELECT has_schema_privilege('PUBLIC', 'usage')",
      "SELECT has_schema_privilege(999999::oid, 'usage')",
      "SELECT has_database_privilege('nosuch', 'connect')",
      "SELECT has_database_privilege(999999::oid, 'connect')",
      "SELECT has_function_privilege('nosuch(text)', 'execute')",
      "SELECT has_function_privilege('upper', 'execute')",
      "SELECT has_function_privilege(999999::oid, 'execute')",
      "SELECT has_sequence_privilege('orders', 'usage')",
      "SELECT has_sequence_privilege('nosuch', 'usage')",
      "SELECT has_sequence_privilege(999999::oid, 'usage')",
      // roles that are none
      "SELECT has_table_privilege('nobody', 'orders', 'select')",
      "SELECT has_schema_privilege('nobody', 'nosuch', 'usage')",
      "SELECT pg_has_role('nobody', 'member')",
      "SELECT pg_has_role('public', 'member')",
      // privilege words that are none, each checked where PostgreSQL checks it
      "SELECT has_table_privilege('orders', 'frobnicate')",
      "SELECT has_table_privilege('nosuch', 'frobnicate')",
      "SELECT has_table_privilege(999999::oid, 'frobnicate')",
      "SELECT has_column_privilege('orders', 'note', 'delete')",
      "SELECT has_column_privilege('orders', 'note', '')",
      "SELECT has_any_column_privilege('orders', 'truncate')",
      "SELECT has_schema_privilege('public', 'select')",
      "SELECT has_database_privilege('db', 'select')",
      "SELECT has_function_privilege('upper(text)', 'usage')",
      "SELECT has_sequence_privilege('nosuch', 'frob')",
      "SELECT pg_has_role('tester', 'frob')",
      "SELECT has_table_privilege('orders', 'select  with grant option')",
      // strict: NULL in, NULL out
      "SELECT has_table_privilege(NULL, 'select'), has_table_privilege('orders', NULL), has_schema_privilege(NULL::text, 'usage')",
    ];
    const patina = await outcomes(pair.patinaPort, sqls);
    assert.deepEqual(patina, await outcomes(pair.postgresPort, sqls));
  });
  it('pg_table_is_visible, pg_type_is_visible and pg_function_is_visible of an OID naming nothing are NULL, as in PostgreSQL (they answered true)', async () => {
    const sqls = [
      `SELECT pg_table_is_visible(0) a, pg_table_is_visible(999999) b, pg_table_is_visible('orders'::regclass) c,
        pg_table_is_visible('pg_class'::regclass) d, pg_table_is_visible('information_schema.tables'::regclass) e`,
      `SELECT pg_type_is_visible(999999) a, pg_type_is_visible(0) b, pg_type_is_visible(23) c,
        pg_type_is_visible('orders'::regtype) d, pg_type_is_visible('inet'::regtype) e`,
      `SELECT pg_function_is_visible(999999) a, pg_function_is_visible(0) b, pg_function_is_visible('now'::regproc) c,
        pg_function_is_visible('upper(text)'::regprocedure) d`,
      'SELECT count(*) FROM pg_class c WHERE pg_table_is_visible(c.oid) AND c.relnamespace = 2200',
      'SELECT pg_table_is_visible(NULL) a, pg_type_is_visible(NULL) b, pg_function_is_visible(NULL) c',
    ];
    const patina = await outcomes(pair.patinaPort, sqls);
    assert.deepEqual(patina, await outcomes(pair.postgresPort, sqls));
  });
  it("to_regclass and a name cast to regclass read the name as PostgreSQL does: '' and an unclosed quote are 42602, another database's name 0A000, four parts 42601, a schema that is none 3F000 for the cast (to_regclass('') was NULL, '\"orders'::regclass was orders, 'db.public.orders'::regclass 42P01); to_regproc(''), to_regprocedure('upper') and to_regtype('') are errors as there (they were NULL)", async () => {
    const sqls = [
      "SELECT to_regclass('')",
      "SELECT to_regclass('\"orders')",
      "SELECT to_regclass('orders x')",
      "SELECT to_regclass('other.public.orders')",
      "SELECT to_regclass('a.b.c.d')",
      `SELECT to_regclass('db.public.orders') a, to_regclass('public . orders') b, to_regclass('nosuch.orders') c,
        to_regclass('pg_catalog.orders') d, to_regclass('public.pg_class') e, to_regclass('information_schema.tables') f,
        to_regclass('"".orders') g, to_regclass('ORDERS') h, to_regclass('"ORDERS"') i`,
      "SELECT ''::regclass",
      "SELECT '\"orders'::regclass",
      "SELECT 'nosuch.orders'::regclass",
      "SELECT 'public.nosuch'::regclass",
      "SELECT 'pg_catalog.orders'::regclass",
      "SELECT 'db.public.orders'::regclass, 'pg_catalog.pg_class'::regclass",
      "SELECT id FROM customers WHERE 'nosuch.x'::regclass::oid > 0",
      "SELECT to_regtype('')",
      "SELECT to_regtype('nosuch') a, to_regtype('int4') b",
      "SELECT to_regproc('')",
      "SELECT to_regproc('\"now')",
      "SELECT to_regprocedure('upper')",
      "SELECT to_regprocedure('')",
    ];
    const patina = await outcomes(pair.patinaPort, sqls);
    assert.deepEqual(patina, await outcomes(pair.postgresPort, sqls));
  });
  it("a name cast to regproc or regprocedure is looked up as PostgreSQL's parser does: 42725 for a name several functions share, 42883 for none, 22P02 for a regprocedure without its argument list (the name was kept: 'upper'::regproc answered upper)", async () => {
    const sqls = [
      "SELECT 'upper'::regproc",
      "SELECT CAST('upper' AS regproc)",
      "SELECT 'nosuch'::regproc",
      "SELECT 'upper(int)'::regprocedure",
      "SELECT 'upper'::regprocedure",
      "SELECT 'now'::regproc::oid, 'pg_catalog.now'::regproc::text, 'array_in'::regproc::text, 'upper(text)'::regprocedure::text",
      "SELECT count(*) > 0 FROM pg_type WHERE typinput = 'pg_catalog.array_in'::regproc",
    ];
    const patina = await outcomes(pair.patinaPort, sqls);
    assert.deepEqual(patina, await outcomes(pair.postgresPort, sqls));
  });
  it("a regprocedure written with other type names prints them as PostgreSQL names them: 'abs(int4)'::regprocedure and to_regprocedure('abs(int4)') are abs(integer) (they were kept as written, and 'abs(int)' was not 'abs(integer)')", async () => {
    const sqls = [
      "SELECT 'abs(int4)'::regprocedure, 'pg_catalog.abs( int4 )'::regprocedure::text, 'substr(text, int)'::regprocedure",
      "SELECT to_regprocedure('abs(int4)'), to_regprocedure('pg_catalog.substr(text, int4, int4)'), to_regprocedure('abs(text)')",
      "SELECT 'abs(int)'::regprocedure = 'abs(integer)'::regprocedure, 'date_part(text, timestamptz)'::regprocedure",
    ];
    const patina = await outcomes(pair.patinaPort, sqls);
    assert.deepEqual(patina, await outcomes(pair.postgresPort, sqls));
  });
  it("the system relations' and schemas' privileges, pg_init_privs and acldefault() are PostgreSQL's: psql's \\dp and \\dn+ as there (relacl and the other schemas' nspacl were NULL, pg_init_privs empty, acldefault() NULL)", async () => {
    const sqls = [
      `SELECT c.relacl::text, count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname IN ('pg_catalog', 'information_schema') AND c.relkind IN ('r', 'v') GROUP BY 1 ORDER BY 1`,
      "SELECT relname, relacl::text FROM pg_class WHERE relname IN ('pg_class', 'pg_authid', 'pg_settings', 'pg_shmem_allocations', 'sql_parts') ORDER BY 1",
      "SELECT attnum, attname, attacl::text FROM pg_attribute WHERE attrelid = 'pg_subscription'::regclass AND attnum > 0 ORDER BY 1",
      'SELECT nspname, nspacl::text FROM pg_namespace ORDER BY 1',
      // (pg_proc's rows left out: pg_proc lists only the functions Patina runs)
      "SELECT classoid::int, objsubid > 0 AS col, privtype, count(*), min(initprivs::text) FROM pg_init_privs WHERE classoid <> 'pg_proc'::regclass GROUP BY 1, 2, 3 ORDER BY 1, 2, 3",
      `SELECT count(*) FROM pg_class c JOIN pg_init_privs p ON p.objoid = c.oid AND p.classoid = 'pg_class'::regclass AND p.objsubid = 0
        WHERE p.initprivs::text IS DISTINCT FROM c.relacl::text`,
      "SELECT acldefault('r', 10)::text r, acldefault('n', 10)::text n, acldefault('f', 10)::text f, acldefault('T', 6171)::text t, acldefault('c', 10)::text c, acldefault('s', 99999)::text s",
      "SELECT acldefault('rr', 10)::text a, acldefault(NULL, 10)::text b, acldefault('r', NULL)::text c",
      "SELECT acldefault('x', 10)",
      // pg_dump's own question (getTables): a catalog table's ACL against its initial one
      `SELECT c.relname, c.relacl::text, acldefault(CASE WHEN c.relkind = 'S' THEN 's'::"char" ELSE 'r'::"char" END, c.relowner)::text AS acldefault,
              pip.privtype, pip.initprivs::text
         FROM pg_class c LEFT JOIN pg_init_privs pip ON (c.oid = pip.objoid AND pip.classoid = 'pg_class'::regclass AND pip.objsubid = 0)
        WHERE c.relname IN ('pg_class', 'pg_statistic', 'tables', 'orders') ORDER BY 1`,
    ];
    const patina = await outcomes(pair.patinaPort, sqls);
    assert.deepEqual(patina, await outcomes(pair.postgresPort, sqls));
    assert.match(patina[1], /"relname":"pg_class","relacl":"\{tester=arwdDxt\/tester,=r\/tester\}"/);
    for (const meta of ['\\dp pg_catalog.pg_s*', '\\dp information_schema.s*', '\\dn+'])
      assert.deepEqual(lines(pair.patinaPort, meta), lines(pair.postgresPort, meta), meta);
  });
  it("psql's \\dx+ lists plpgsql's language and handler functions from pg_depend, and pg_describe_object words the catalog's objects as PostgreSQL's (pg_depend was empty, the function missing)", async () => {
    for (const meta of ['\\dx+', '\\dx+ plpgsql'])
      assert.deepEqual(lines(pair.patinaPort, meta), lines(pair.postgresPort, meta), meta);
    const sqls = [
      `SELECT pg_describe_object(classid, objid, objsubid) AS o, pg_describe_object(refclassid, refobjid, refobjsubid) AS r, deptype
         FROM pg_depend WHERE refobjid = 13559 OR objid = 13563 ORDER BY 1, 2`,
      `SELECT pg_describe_object('pg_proc'::regclass, 'upper(text)'::regprocedure, 0) f, pg_describe_object(2612, 14, 0) l,
              pg_describe_object(2615, 'public'::regnamespace, 0) s, pg_describe_object(1247, 'integer'::regtype, 0) t`,
      `SELECT pg_describe_object(1259, 'pg_class'::regclass, 0) a, pg_describe_object(1259, 'pg_class'::regclass, 2) b,
              pg_describe_object(1259, 'pg_tables'::regclass, 0) c, pg_describe_object(1259, 'pg_class_oid_index'::regclass, 0) d,
              pg_describe_object(1259, 'orders'::regclass, 2) e, pg_describe_object(1259, 'orders_pkey'::regclass, 0) f`,
      'SELECT pg_describe_object(1255, 999999, 0) a, pg_describe_object(0, 0, 0) b, pg_describe_object(NULL, 1, 0) c',
      'SELECT pg_describe_object(1234, 1, 0)',
    ];
    const patina = await outcomes(pair.patinaPort, sqls);
    assert.deepEqual(patina, await outcomes(pair.postgresPort, sqls));
    assert.match(patina[0], /function plpgsql_validator\(oid\)/);
  });
  it("pg_tablespace_location of the two tablespaces is '', and pg_proc lists it, as PostgreSQL's (pgcli's \\db asks pg_proc first: it showed the location `Not supported`, and the function answered NULL)", async () => {
    const sqls = [
      'SELECT spcname, pg_tablespace_location(oid) FROM pg_tablespace ORDER BY 1',
      'SELECT pg_tablespace_location(0) a, pg_tablespace_location(NULL) b',
      "SELECT proname, prorettype, proargtypes::text FROM pg_proc WHERE proname = 'pg_tablespace_location'",
    ];
    const patina = await outcomes(pair.patinaPort, sqls);
    assert.deepEqual(patina, await outcomes(pair.postgresPort, sqls));
    assert.match(patina[0], /"spcname":"pg_default","pg_tablespace_location":""/);
  });
});

describe("pg_index's operator classes and collations, against PostgreSQL 15", function () {
  this.timeout(120_000);
  // (BIGINT: Patina's INTEGER is int8, docs/schema.md)
  const { same, clients } = oracleSuite(
    `CREATE TABLE items (id BIGINT NOT NULL PRIMARY KEY, name TEXT, code VARCHAR(10), flag CHAR(3), tags TEXT[],
       nums BIGINT[], doc JSONB, words TSVECTOR, label NAME, ref OID, blob BYTEA, f DOUBLE PRECISION, n NUMERIC,
       d DATE, ts TIMESTAMP, tz TIMESTAMPTZ, b BOOLEAN, u UUID, iv INTERVAL, tm TIME);
     CREATE INDEX items_name ON items (name);
     CREATE INDEX items_code_flag ON items (code, flag DESC);
     CREATE INDEX items_arrays ON items (tags, nums);
     CREATE INDEX items_doc_words ON items (doc, words);
     CREATE INDEX items_label_ref_blob ON items (label, ref, blob);
     CREATE INDEX items_scalars ON items (f, n, d, ts, tz, b, u, iv, tm);`,
    [],
  );
  const indexes = `SELECT c.relname, i.indclass::text, i.indcollation::text FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace`;

  it("each key has its type's default btree operator class and its collation (text 100, name 950), a catalog index's too (they were zeros)", async () => {
    const rows = await same(`${indexes} WHERE n.nspname = 'public' ORDER BY 1`);
    assert.ok(rows.some((r) => r[0] === 'items_name' && r[1] === '3126' && r[2] === '100'));
    await same(`${indexes} WHERE n.nspname = 'pg_catalog' ORDER BY 1`);
    await same(
      "SELECT attrelid::regclass::text, attname, attcollation::int FROM pg_attribute WHERE attrelid IN ('items'::regclass, 'items_label_ref_blob'::regclass) AND attnum > 0 ORDER BY 1, 2",
    );
  });

  it("pg_opclass and pg_opfamily name those classes, as SQLAlchemy's and pgAdmin's index queries join them (both were empty)", async () => {
    await same(
      `SELECT c.relname, k.n, opc.opcname, opc.opcdefault, opc.opcintype::regtype::text, f.opfname, am.amname
         FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid CROSS JOIN LATERAL unnest(i.indclass) WITH ORDINALITY AS k(cls, n)
         LEFT JOIN pg_opclass opc ON opc.oid = k.cls LEFT JOIN pg_opfamily f ON f.oid = opc.opcfamily LEFT JOIN pg_am am ON am.oid = opc.opcmethod
        WHERE c.relname LIKE 'items%' ORDER BY 1, 2`,
    );
    await same(
      "SELECT i.indclass[0]::int, i.indcollation[1]::int FROM pg_index i WHERE i.indexrelid = 'items_code_flag'::regclass",
    );
    // (a quoted type name is pg_type's own: "char" the one-byte type, which catalog indexes key on)
    await same(`SELECT '"char"'::regtype::oid::int, 'char'::regtype::oid::int, '"char"'::regtype::text`);
    const { patina, postgres } = clients();
    const d = async (c: typeof patina) =>
      (await c.query({ text: "SELECT pg_get_indexdef('items_code_flag'::regclass)", rowMode: 'array' })).rows;
    assert.deepEqual(await d(patina), await d(postgres));
  });
});
