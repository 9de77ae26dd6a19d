import assert from 'node:assert/strict';
import { InProcessChangeFeed } from '../../src/bus/change-feed';
import type { Changeset } from '../../src/bus/changeset';

const cs = (version: number): Changeset => ({ actor: 'a'.repeat(32), version, origin: 'local', changes: [], seq: 0 });

describe('the change feed', () => {
  it('stamps seq in publish order and runs observers synchronously', () => {
    const feed = new InProcessChangeFeed();
    const seen: number[] = [];
    const stop = feed.observe((c) => seen.push(c.seq));
    feed.publish(cs(1));
    assert.deepEqual(seen, [1]);
    feed.publish(cs(2));
    stop();
    feed.publish(cs(3));
    assert.deepEqual(seen, [1, 2]);
    assert.equal(feed.lastSeq, 3);
  });

  it('an observer that throws does not stop the others', () => {
    const errors: unknown[] = [];
    const feed = new InProcessChangeFeed({ onObserverError: (e) => errors.push(e) });
    const seen: number[] = [];
    feed.observe(() => {
      throw new Error('boom');
    });
    feed.observe((c) => seen.push(c.version));
    feed.publish(cs(1));
    assert.deepEqual(seen, [1]);
    assert.equal(errors.length, 1);
  });

  it('gives each consumer every changeset in order, from when it subscribed', async () => {
    const feed = new InProcessChangeFeed();
    feed.publish(cs(1));
    const c = feed.consume('test', 10);
    feed.publish(cs(2));
    feed.publish(cs(3));
    const got: number[] = [];
    for await (const x of c) {
      got.push(x.version);
      if (got.length === 2) break; // break calls return(), which closes it
    }
    assert.deepEqual(got, [2, 3]);
    feed.publish(cs(4));
    assert.deepEqual(await c.next(), { value: undefined, done: true });
  });

  it('wakes a waiting consumer on publish', async () => {
    const feed = new InProcessChangeFeed();
    const c = feed.consume('test', 1);
    const next = c.next();
    feed.publish(cs(7));
    assert.equal((await next).value?.version, 7);
  });

  it('marks a consumer that overflows as lagged, drops its queue, and leaves the others alone', async () => {
    const feed = new InProcessChangeFeed();
    const slow = feed.consume('slow', 3);
    const fast = feed.consume('fast', 100);
    for (let v = 1; v <= 10; v++) feed.publish(cs(v));
    assert.equal(slow.lagged, true);
    assert.equal(fast.lagged, false);
    await assert.rejects(slow.next(), /"slow" fell more than 3 changesets behind/);
    const got: number[] = [];
    for (let i = 0; i < 10; i++) got.push((await fast.next()).value!.version);
    assert.deepEqual(got, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    fast.close();
  });

  it('close ends a waiting read', async () => {
    const feed = new InProcessChangeFeed();
    const c = feed.consume('test', 5);
    const next = c.next();
    c.close();
    assert.deepEqual(await next, { value: undefined, done: true });
  });
});
