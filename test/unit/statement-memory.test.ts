// Statements dropped by the agent's caches are finalized while it runs (src/engine/statement-memory.ts):
// better-sqlite3 frees a statement only when V8 collects its object, and with a small heap V8 does not
// on its own. Seen through a FinalizationRegistry on the statements' objects: without the collection
// the first batch's callbacks do not come (the agent's RSS grew by gigabytes), with it they do.
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import {
  PREPARES_PER_COLLECTION,
  collectDroppedStatements,
  statementCollections,
} from '../../src/engine/statement-memory';

describe('statements the caches drop', () => {
  it('are finalized after PREPARES_PER_COLLECTION more writes are prepared, with no collection of the test’s own', async () => {
    collectDroppedStatements();
    const db = new Database(':memory:');
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER)');
    let finalized = 0;
    const registry = new FinalizationRegistry<number>(() => {
      finalized++;
    });
    const dropped = 200;
    // each text new, as a literal UPDATE's; only the registry holds them (weakly)
    for (let i = 0; i < dropped; i++) registry.register(db.prepare(`UPDATE t SET v = v + ${i} WHERE id = 1`), i);
    const before = statementCollections();
    // a ring of the last 256, as the writer's cache keeps them
    const ring: Database.Statement[] = [];
    for (let i = 0; i < PREPARES_PER_COLLECTION; i++) ring[i % 256] = db.prepare(`UPDATE t SET v = ${i} WHERE id = 2`);
    // reads' statements are not counted: V8's own collections keep up with their few KB
    const collected = statementCollections();
    for (let i = 0; i < PREPARES_PER_COLLECTION + 10; i++) db.prepare(`SELECT v + ${i} FROM t`);
    assert.equal(statementCollections(), collected, 'reads ask for no collection');
    assert.ok(statementCollections() > before, 'a collection was asked for');
    const deadline = Date.now() + 5000;
    while (finalized < dropped && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    assert.equal(finalized, dropped, `${finalized} of the ${dropped} dropped statements were collected`);
    assert.equal(ring.length, 256);
    db.close();
  });
});
