import assert from 'node:assert/strict';
import { Lru } from '../../src/lru';

describe('the bounded cache (Lru)', () => {
  it('keeps at most max entries; what was used lately stays, what was not used for longest goes', () => {
    const c = new Lru<number, number>(100);
    for (let k = 0; k < 1000; k++) {
      c.set(k, k);
      assert.ok(c.size <= 100, `${c.size} entries`);
      assert.equal(c.get(0), 0, 'a key read after every write is never dropped');
    }
    assert.equal(c.get(999), 999, 'the newest is kept');
    assert.equal(c.get(1), undefined, 'an old key never read again is dropped');
    assert.ok(c.size >= 50, 'at least half the room is used');
  });

  it('gets, peeks, deletes and clears; null is a value', () => {
    const c = new Lru<string, number | null>(4);
    c.set('a', 1).set('b', null);
    assert.equal(c.get('b'), null);
    assert.equal(c.has('b'), true);
    assert.equal(c.peek('a'), 1);
    c.set('a', 2);
    assert.equal(c.get('a'), 2, 'set replaces');
    assert.deepEqual(new Set(c.keys()), new Set(['a', 'b']));
    assert.deepEqual(new Set(c.values()), new Set([2, null]));
    assert.equal(c.delete('a'), true);
    assert.equal(c.delete('a'), false);
    assert.equal(c.get('missing'), undefined);
    c.clear();
    assert.equal(c.size, 0);
    assert.throws(() => new Lru(1), /at least two entries/);
  });

  it('peek does not count as a use', () => {
    const c = new Lru<number, number>(4); // two generations of 2
    c.set(1, 1).set(2, 2); // young full: {1,2} become old
    c.peek(1);
    c.set(3, 3).set(4, 4); // {3,4} become old, {1,2} dropped
    assert.equal(c.has(1), false);
    c.set(5, 5);
    assert.equal(c.get(3), 3, 'a get moves an old entry to the young generation');
    c.set(6, 6); // {5,3} old now; {4} dropped
    assert.equal(c.has(3), true);
    assert.equal(c.has(4), false);
  });
});
