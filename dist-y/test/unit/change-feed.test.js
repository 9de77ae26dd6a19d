"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
const strict_1 = __importDefault(require("node:assert/strict"));
const change_feed_1 = require("../../src/bus/change-feed");
const cs = (version) => ({ actor: 'a'.repeat(32), version, origin: 'local', changes: [], seq: 0 });
describe('the change feed', () => {
    it('stamps seq in publish order and runs observers synchronously', () => {
        const feed = new change_feed_1.InProcessChangeFeed();
        const seen = [];
        const stop = feed.observe((c) => seen.push(c.seq));
        feed.publish(cs(1));
        strict_1.default.deepEqual(seen, [1]);
        feed.publish(cs(2));
        stop();
        feed.publish(cs(3));
        strict_1.default.deepEqual(seen, [1, 2]);
        strict_1.default.equal(feed.lastSeq, 3);
    });
    it('an observer that throws does not stop the others', () => {
        const errors = [];
        const feed = new change_feed_1.InProcessChangeFeed({ onObserverError: (e) => errors.push(e) });
        const seen = [];
        feed.observe(() => {
            throw new Error('boom');
        });
        feed.observe((c) => seen.push(c.version));
        feed.publish(cs(1));
        strict_1.default.deepEqual(seen, [1]);
        strict_1.default.equal(errors.length, 1);
    });
    it('gives each consumer every changeset in order, from when it subscribed', async () => {
        const feed = new change_feed_1.InProcessChangeFeed();
        feed.publish(cs(1));
        const c = feed.consume('test', 10);
        feed.publish(cs(2));
        feed.publish(cs(3));
        const got = [];
        for await (const x of c) {
            got.push(x.version);
            if (got.length === 2)
                break; // break calls return(), which closes it
        }
        strict_1.default.deepEqual(got, [2, 3]);
        feed.publish(cs(4));
        strict_1.default.deepEqual(await c.next(), { value: undefined, done: true });
    });
    it('wakes a waiting consumer on publish', async () => {
        const feed = new change_feed_1.InProcessChangeFeed();
        const c = feed.consume('test', 1);
        const next = c.next();
        feed.publish(cs(7));
        strict_1.default.equal((await next).value?.version, 7);
    });
    it('marks a consumer that overflows as lagged, drops its queue, and leaves the others alone', async () => {
        const feed = new change_feed_1.InProcessChangeFeed();
        const slow = feed.consume('slow', 3);
        const fast = feed.consume('fast', 100);
        for (let v = 1; v <= 10; v++)
            feed.publish(cs(v));
        strict_1.default.equal(slow.lagged, true);
        strict_1.default.equal(fast.lagged, false);
        await strict_1.default.rejects(slow.next(), /"slow" fell more than 3 changesets behind/);
        const got = [];
        for (let i = 0; i < 10; i++)
            got.push((await fast.next()).value.version);
        strict_1.default.deepEqual(got, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
        fast.close();
    });
    it('close ends a waiting read', async () => {
        const feed = new change_feed_1.InProcessChangeFeed();
        const c = feed.consume('test', 5);
        const next = c.next();
        c.close();
        strict_1.default.deepEqual(await next, { value: undefined, done: true });
    });
});
//# sourceMappingURL=change-feed.test.js.map