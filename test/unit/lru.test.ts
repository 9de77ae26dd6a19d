import assert from 'node:assert/strict';
import { Lru } from '../../src/lru';

describe('the bounded cache (Lru)', () => {
  it('keeps at most max entries and drops the least recently used; get makes an entry recent, peek does not', () => {
    const c = new Lru<string, number | null>(3);
    c.set('a', 1).set('b', 2).set('c', null);
    assert.equal(c.get('a'), 1); // a is now the most recent
    assert.equal(c.peek('b'), 2); // b stays the least recent
    c.set('d', 4);
    assert.deepEqual([...c.keys()], ['c', 'a', 'd'], 'b was dropped');
    assert.equal(c.get('c'), null, 'a null value is a value');
    assert.equal(c.has('c'), true);
    c.set('e', 5);
    assert.deepEqual([...c.keys()], ['d', 'c', 'e'], 'a was the least recent after c was read');
    c.set('d', 40);
    assert.deepEqual([...c.keys()], ['c', 'e', 'd'], 'setting again makes it recent');
    assert.equal(c.size, 3);
    assert.equal(c.delete('c'), true);
    assert.equal(c.get('missing'), undefined);
    c.clear();
    assert.equal(c.size, 0);
    assert.throws(() => new Lru(0), /at least one entry/);
  });
});
