"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
const strict_1 = __importDefault(require("node:assert/strict"));
const lru_1 = require("../../src/lru");
describe('the bounded cache (Lru)', () => {
    it('keeps at most max entries; what was used lately stays, what was not used for longest goes', () => {
        const c = new lru_1.Lru(100);
        for (let k = 0; k < 1000; k++) {
            c.set(k, k);
            strict_1.default.ok(c.size <= 100, `${c.size} entries`);
            strict_1.default.equal(c.get(0), 0, 'a key read after every write is never dropped');
        }
        strict_1.default.equal(c.get(999), 999, 'the newest is kept');
        strict_1.default.equal(c.get(1), undefined, 'an old key never read again is dropped');
        strict_1.default.ok(c.size >= 50, 'at least half the room is used');
    });
    it('gets, peeks, deletes and clears; null is a value', () => {
        const c = new lru_1.Lru(4);
        c.set('a', 1).set('b', null);
        strict_1.default.equal(c.get('b'), null);
        strict_1.default.equal(c.has('b'), true);
        strict_1.default.equal(c.peek('a'), 1);
        c.set('a', 2);
        strict_1.default.equal(c.get('a'), 2, 'set replaces');
        strict_1.default.deepEqual(new Set(c.keys()), new Set(['a', 'b']));
        strict_1.default.deepEqual(new Set(c.values()), new Set([2, null]));
        strict_1.default.equal(c.delete('a'), true);
        strict_1.default.equal(c.delete('a'), false);
        strict_1.default.equal(c.get('missing'), undefined);
        c.clear();
        strict_1.default.equal(c.size, 0);
        strict_1.default.throws(() => new lru_1.Lru(1), /at least two entries/);
    });
    it('peek does not count as a use', () => {
        const c = new lru_1.Lru(4); // two generations of 2
        c.set(1, 1).set(2, 2); // young full: {1,2} become old
        c.peek(1);
        c.set(3, 3).set(4, 4); // {3,4} become old, {1,2} dropped
        strict_1.default.equal(c.has(1), false);
        c.set(5, 5);
        strict_1.default.equal(c.get(3), 3, 'a get moves an old entry to the young generation');
        c.set(6, 6); // {5,3} old now; {4} dropped
        strict_1.default.equal(c.has(3), true);
        strict_1.default.equal(c.has(4), false);
    });
});
//# sourceMappingURL=lru.test.js.map