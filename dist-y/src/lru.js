"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.Lru = void 0;
/**
 * A map that keeps at most `max` entries and drops those not used for longest: the one bounded
 * cache of the agent (prepared statements by text, statement analyses by shape, verdicts by SQL
 * text). Two generations of at most max/2 entries each, as quick-lru does: entries go into the
 * young one; when it is full it becomes the old one and the previous old one is dropped; a `get`
 * that finds an entry in the old one moves it to the young one. A hit in the young generation is
 * one Map lookup, with no reordering: moving every hit to the end of one Map (delete and set)
 * cost about a microsecond per lookup on the point-read path, through the Map's rehashing.
 */
class Lru {
    max;
    #half;
    #young = new Map();
    #old = new Map();
    constructor(max) {
        if (!(max >= 2))
            throw new Error(`an Lru holds at least two entries, not ${max}`);
        this.max = max;
        this.#half = Math.floor(max / 2);
    }
    get size() {
        return this.#young.size + this.#old.size;
    }
    get(key) {
        const v = this.#young.get(key);
        if (v !== undefined || this.#young.has(key))
            return v;
        const o = this.#old.get(key);
        if (o !== undefined || this.#old.has(key)) {
            this.#old.delete(key);
            this.#put(key, o);
        }
        return o;
    }
    /** The value without counting a use. */
    peek(key) {
        return this.#young.has(key) ? this.#young.get(key) : this.#old.get(key);
    }
    has(key) {
        return this.#young.has(key) || this.#old.has(key);
    }
    set(key, value) {
        if (this.#young.has(key))
            this.#young.set(key, value);
        else {
            this.#old.delete(key);
            this.#put(key, value);
        }
        return this;
    }
    delete(key) {
        const y = this.#young.delete(key);
        return this.#old.delete(key) || y;
    }
    clear() {
        this.#young.clear();
        this.#old.clear();
    }
    /** The keys, those used longest ago first (by generation). */
    *keys() {
        yield* this.#old.keys();
        yield* this.#young.keys();
    }
    *values() {
        yield* this.#old.values();
        yield* this.#young.values();
    }
    #put(key, value) {
        this.#young.set(key, value);
        if (this.#young.size >= this.#half) {
            this.#old = this.#young;
            this.#young = new Map();
        }
    }
}
exports.Lru = Lru;
//# sourceMappingURL=lru.js.map