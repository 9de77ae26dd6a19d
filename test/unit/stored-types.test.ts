// A schema file's JSON, JSONB and NAME columns are created with TEXT affinity (JSON TEXT) and read
// back as the type the file gave (src/engine/schema/stored-types.ts). SQLite is the oracle of the
// affinity: what it stores of '1.50' in each column.
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { introspect } from '../../src/engine/schema/introspect';
import { declaredType, withTextStorage } from '../../src/engine/schema/stored-types';
import { rebuildNumericTextColumns } from '../../src/engine/schema/text-rebuild';

describe('JSON, JSONB and NAME columns stored as text', () => {
  it('writes TEXT after the type of such a column alone, and nowhere else', () => {
    const sql = `CREATE TABLE "t" (
      id INTEGER NOT NULL PRIMARY KEY, doc jsonb, "Doc 2" JSON NOT NULL DEFAULT '{}', nm NAME,
      arr JSON[], sized JSON(10), note TEXT, json TEXT, -- a column named json
      CONSTRAINT json CHECK (doc IS NOT NULL OR nm IS NULL), last JSONB)`;
    assert.equal(
      withTextStorage(sql),
      `CREATE TABLE "t" (
      id INTEGER NOT NULL PRIMARY KEY, doc jsonb TEXT, "Doc 2" JSON TEXT NOT NULL DEFAULT '{}', nm NAME TEXT,
      arr JSON[], sized JSON(10), note TEXT, json TEXT, -- a column named json
      CONSTRAINT json CHECK (doc IS NOT NULL OR nm IS NULL), last JSONB TEXT)`,
    );
  });

  it('gives the columns TEXT affinity, and introspect reads back the declared type', () => {
    const db = new Database(':memory:');
    db.exec(withTextStorage('CREATE TABLE t (id INTEGER PRIMARY KEY, js JSON, jb JSONB, nm NAME, arr JSON[])'));
    db.exec('CREATE TABLE old (id INTEGER PRIMARY KEY, js JSON)');
    db.prepare("INSERT INTO t VALUES (1, '1.50', '12345678901234567890', '007', '1.5')").run();
    db.prepare("INSERT INTO old VALUES (1, '1.50')").run();
    assert.deepEqual(db.prepare('SELECT js, typeof(js), jb, nm FROM t').raw(true).get(), [
      '1.50',
      'text',
      '12345678901234567890',
      '007',
    ]);
    // a table created before keeps SQLite's NUMERIC affinity
    assert.deepEqual(db.prepare('SELECT js, typeof(js) FROM old').raw(true).get(), [1.5, 'real']);
    const t = introspect(db).tables.get('t')!;
    assert.deepEqual(
      t.columns.map((c) => [c.name, c.type, c.storedType]),
      [
        ['id', 'INTEGER', 'INTEGER'],
        ['js', 'JSON', 'JSON TEXT'],
        ['jb', 'JSONB', 'JSONB TEXT'],
        ['nm', 'NAME', 'NAME TEXT'],
        ['arr', 'JSON[]', 'JSON[]'],
      ],
    );
    assert.equal(introspect(db).tables.get('old')!.columns[1].type, 'JSON');
    // a result column's declared type too
    assert.deepEqual(
      db
        .prepare('SELECT js, jb, nm FROM t')
        .columns()
        .map((c) => declaredType(c.type)),
      ['JSON', 'JSONB', 'NAME'],
    );
    assert.equal(declaredType('TEXT'), 'TEXT');
    assert.equal(declaredType(null), null);
    db.close();
  });
});

describe('rebuilding a table created before, whose such columns have NUMERIC affinity', () => {
  it('keeps every other value, the rowids, indexes and stored triggers; a WITHOUT ROWID table and a generated column too', () => {
    const db = new Database(':memory:');
    db.defaultSafeIntegers(true);
    db.exec(`CREATE TABLE a (rowid TEXT, k TEXT NOT NULL PRIMARY KEY, doc JSONB, n NUMERIC, g TEXT GENERATED ALWAYS AS (doc || '!') VIRTUAL);
      CREATE INDEX a_doc ON a (doc, n);
      CREATE TABLE log (x TEXT);
      CREATE TRIGGER a_ins AFTER INSERT ON a BEGIN INSERT INTO log VALUES (NEW.k); END;
      CREATE TABLE w (k BIGINT NOT NULL, j BIGINT NOT NULL, v TEXT, PRIMARY KEY (k, j)) WITHOUT ROWID;
      ALTER TABLE w ADD COLUMN nm NAME;
      CREATE TABLE new (k BIGINT NOT NULL PRIMARY KEY, doc JSONB TEXT);`);
    db.exec(`INSERT INTO a (rowid, k, doc, n) VALUES ('r', 'x', '1.50', '1.50'), (NULL, 'y', '{"a":1}', 'abc'), (NULL, 'z', '12345678901234567890', NULL);
      DELETE FROM a WHERE k = 'y'; INSERT INTO a (k, doc, n) VALUES ('y', '-0', 2);
      INSERT INTO w VALUES (1, 2, '3', '007'), (1, 1, 'x', NULL)`);
    const rowids = db.prepare('SELECT _rowid_, k FROM a ORDER BY k').raw(true).all();
    const rebuilt = rebuildNumericTextColumns(db);
    assert.deepEqual(
      rebuilt.map((r) => [r.table, r.columns, r.rows, r.converted]),
      [
        ['a', ['doc'], 3, 3],
        ['w', ['nm'], 2, 1],
      ],
    );
    assert.deepEqual(db.prepare('SELECT _rowid_, k FROM a ORDER BY k').raw(true).all(), rowids);
    assert.deepEqual(
      db.prepare('SELECT rowid, k, doc, typeof(doc), n, typeof(n), g FROM a ORDER BY k').raw(true).all(),
      [
        ['r', 'x', '1.5', 'text', 1.5, 'real', '1.5!'],
        [null, 'y', '0', 'text', 2n, 'integer', '0!'],
        [null, 'z', '12345678901234567000', 'text', null, 'null', '12345678901234567000!'],
      ],
    );
    assert.deepEqual(db.prepare('SELECT k, j, v, nm, typeof(nm) FROM w ORDER BY k, j').raw(true).all(), [
      [1n, 1n, 'x', null, 'null'],
      [1n, 2n, '3', '7', 'text'],
    ]);
    assert.deepEqual(
      db.prepare("SELECT type, name FROM sqlite_schema WHERE tbl_name = 'a' ORDER BY name").raw(true).all(),
      [
        ['table', 'a'],
        ['index', 'a_doc'],
        ['trigger', 'a_ins'],
        ['index', 'sqlite_autoindex_a_1'],
      ],
    );
    // the stored trigger still fires, the copy did not fire it, and the index is used
    db.exec("INSERT INTO a (k, doc) VALUES ('q', '2.50')");
    assert.deepEqual(db.prepare('SELECT x FROM log ORDER BY x').pluck().all(), ['q', 'x', 'y', 'y', 'z']);
    assert.equal(db.prepare("SELECT doc FROM a WHERE k = 'q'").pluck().get(), '2.50');
    assert.match(
      db.prepare("EXPLAIN QUERY PLAN SELECT k FROM a WHERE doc = '1.5'").raw(true).all().map(String).join('\n'),
      /a_doc/,
    );
    assert.deepEqual(rebuildNumericTextColumns(db), []);
    db.close();
  });
});

describe('a table whose rebuild fails', () => {
  it('is left as it was, and the others are rebuilt', () => {
    const db = new Database(':memory:');
    db.exec(`CREATE TABLE ok (k BIGINT NOT NULL PRIMARY KEY, doc JSONB);
      CREATE TABLE picky (k BIGINT NOT NULL PRIMARY KEY, doc JSONB CHECK (typeof(doc) <> 'text'));
      CREATE INDEX picky_doc ON picky (doc);
      INSERT INTO ok VALUES (1, '1.50'); INSERT INTO picky VALUES (1, '2.50')`);
    const picky = () =>
      db.prepare("SELECT type, name, sql FROM sqlite_schema WHERE tbl_name = 'picky' ORDER BY name").raw(true).all();
    const before = picky();
    assert.deepEqual(
      rebuildNumericTextColumns(db).map((r) => r.table),
      ['ok'],
    );
    assert.deepEqual(picky(), before);
    assert.deepEqual(db.prepare('SELECT doc, typeof(doc) FROM picky').raw(true).get(), [2.5, 'real']);
    assert.deepEqual(db.prepare('SELECT doc, typeof(doc) FROM ok').raw(true).get(), ['1.5', 'text']);
    assert.equal(db.prepare("SELECT count(*) FROM sqlite_schema WHERE name LIKE '__patina_rebuild%'").pluck().get(), 0);
    db.close();
  });
});
