// pg_type against PostgreSQL 15: the rows of the types Patina announces are PostgreSQL's own
// (function names such as json_in and date_recv, typispreferred, typcategory, typmodin, typanalyze,
// storage and alignment were Patina's guesses), and Npgsql's type loading, which every .NET client
// (Power BI among them) runs at connect, answers with PostgreSQL's rows for them.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { type CatalogPair, startCatalogPair } from '../helpers/catalog-pair';
import { psql } from '../helpers/pg';

const NPGSQL = fs.readFileSync(
  path.join(__dirname, '..', '..', '..', 'test', 'fixtures', 'catalog-clients', 'npgsql-load-types.sql'),
  'utf8',
);

describe('pg_type, against PostgreSQL 15', function () {
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
      typcollation, typnamespace, typrelid, typbasetype, typnotnull FROM pg_type ORDER BY oid`;
    const patina = lines(pair.patinaPort, sql);
    const postgres = new Set(lines(pair.postgresPort, sql));
    assert.ok(patina.length >= 50, `${patina.length} types`);
    for (const row of patina) assert.ok(postgres.has(row), `not PostgreSQL's: ${row}`);
    // each type's functions are pg_proc rows of their names (a join by name, as psql's \\dT+ makes)
    const joined = `SELECT count(*) FROM pg_type t JOIN pg_proc p ON p.proname = t.typreceive::text`;
    assert.equal(Number(lines(pair.patinaPort, joined)[0]), patina.length);
  });

  it("Npgsql's type loading answers PostgreSQL's rows for Patina's types, without an error", () => {
    const patina = lines(pair.patinaPort, NPGSQL);
    const postgres = new Set(lines(pair.postgresPort, NPGSQL));
    assert.match(patina[0], /^PostgreSQL 15/);
    const types = patina.slice(1);
    assert.ok(types.length >= 50, `${types.length} types`);
    for (const row of types) assert.ok(postgres.has(row), `not PostgreSQL's: ${row}`);
    // arrays after their elements, as Npgsql orders them (its second pass resolves none then)
    const kinds = types.map((r) => r.split('|')[3]);
    assert.ok(kinds.indexOf('a') > kinds.lastIndexOf('b'), kinds.join(''));
  });
});
