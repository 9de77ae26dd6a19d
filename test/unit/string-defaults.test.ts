// A string column's boolean default in a schema file is stored as PostgreSQL's text of it
// (src/engine/schema/string-defaults.ts): SQLite is the oracle of what a row that leaves the column
// out stores, and the schema diff reads a table created before (`DEFAULT true`) as unchanged.
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { planSchema } from '../../src/engine/schema/diff';
import { introspect } from '../../src/engine/schema/introspect';
import { withStringDefaults } from '../../src/engine/schema/string-defaults';

const FILE = `CREATE TABLE t (id INTEGER NOT NULL PRIMARY KEY, a TEXT DEFAULT true, b VARCHAR(10) NOT NULL DEFAULT (FALSE),
  c CHARACTER VARYING (4) DEFAULT TRUE, d DEFAULT false, ok BOOLEAN DEFAULT true, n INTEGER DEFAULT true,
  e TEXT[] DEFAULT true, f TEXT DEFAULT 'false', CONSTRAINT x CHECK (a IS NOT NULL OR b = 'true'))`;

describe("a string column's boolean default stored as its text", () => {
  it('quotes the boolean default of text, varchar, char and untyped columns, and nothing else', () => {
    assert.equal(
      withStringDefaults(FILE),
      `CREATE TABLE t (id INTEGER NOT NULL PRIMARY KEY, a TEXT DEFAULT 'true', b VARCHAR(10) NOT NULL DEFAULT 'false',
  c CHARACTER VARYING (4) DEFAULT 'true', d DEFAULT 'false', ok BOOLEAN DEFAULT true, n INTEGER DEFAULT true,
  e TEXT[] DEFAULT true, f TEXT DEFAULT 'false', CONSTRAINT x CHECK (a IS NOT NULL OR b = 'true'))`,
    );
  });

  it('a row that leaves the columns out stores true and false as text', () => {
    const db = new Database(':memory:');
    db.exec(withStringDefaults(FILE));
    db.prepare('INSERT INTO t (id) VALUES (1)').run();
    const row = db.prepare('SELECT a, b, c, d, ok, n FROM t').get();
    assert.deepEqual(row, { a: 'true', b: 'false', c: 'true', d: 'false', ok: 1, n: 1 });
  });

  it('a table created with DEFAULT true is the same table to the schema diff (nothing to change)', () => {
    const old = new Database(':memory:');
    old.exec(FILE);
    const now = new Database(':memory:');
    now.exec(withStringDefaults(FILE));
    const plan = planSchema(introspect(old), introspect(now));
    assert.deepEqual(plan.statements, []);
    // and a changed default is still a change
    const other = new Database(':memory:');
    other.exec(withStringDefaults(FILE.replace('a TEXT DEFAULT true', 'a TEXT DEFAULT false')));
    assert.throws(() => planSchema(introspect(old), introspect(other)), /column "a" would change/);
  });
});
