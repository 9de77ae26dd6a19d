/**
 * A map that keeps at most `max` entries and drops the least recently used: the one bounded cache
 * of the agent (prepared statements by text, statement analyses by shape, verdicts by SQL text).
 * `get` makes an entry the most recent; `peek` does not. A Map keeps insertion order, so the first
 * key is the least recently used one.
 */
export class Lru<K, V> {
  readonly max: number;
  readonly #map = new Map<K, V>();

  constructor(max: number) {
    if (!(max >= 1)) throw new Error(`an Lru holds at least one entry, not ${max}`);
    this.max = max;
  }

  get size(): number {
    return this.#map.size;
  }

  get(key: K): V | undefined {
    const v = this.#map.get(key);
    if (v !== undefined || this.#map.has(key)) {
      this.#map.delete(key);
      this.#map.set(key, v as V);
    }
    return v;
  }

  peek(key: K): V | undefined {
    return this.#map.get(key);
  }

  has(key: K): boolean {
    return this.#map.has(key);
  }

  set(key: K, value: V): this {
    this.#map.delete(key);
    this.#map.set(key, value);
    if (this.#map.size > this.max) this.#map.delete(this.#map.keys().next().value as K);
    return this;
  }

  delete(key: K): boolean {
    return this.#map.delete(key);
  }

  clear(): void {
    this.#map.clear();
  }

  keys(): IterableIterator<K> {
    return this.#map.keys();
  }

  values(): IterableIterator<V> {
    return this.#map.values();
  }
}
