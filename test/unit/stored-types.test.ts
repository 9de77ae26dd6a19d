// A schema file's JSON, JSONB and NAME columns are created with TEXT affinity (JSON TEXT) and read
// back as the type the file gave (src/engine/schema/stored-types.ts). SQLite is the oracle of the
// affinity: what it stores of '1.50' in each column.
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { introspect } from '../../src/engine/schema/introspect';
import { declaredType, withTextStorage } from '../../src/engine/schema/stored-types';

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
