import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { InProcessChangeFeed } from '../../src/bus/change-feed';
import type { Changeset } from '../../src/bus/changeset';
import { ChangeCapture } from '../../src/crdt/capture';
import { ChangeMerger, type RemoteChangeset, compareValues } from '../../src/crdt/merge';
import { encodePk } from '../../src/crdt/pk';
import { Engine } from '../../src/engine/engine';
import { VersionBook, markRange, missingRanges } from '../../src/cluster/bookkeeping';

describe('merge order of values', () => {
  it('puts INTEGER > REAL > TEXT > BLOB > NULL, then orders by value', () => {
    const order = [null, Buffer.from([1]), Buffer.from([2]), 'a', 'b', 'é', -1.5, 2.5, -5n, 3n, 9223372036854775807n];
    for (let i = 0; i < order.length; i++) {
      for (let j = 0; j < order.length; j++)
        assert.equal(compareValues(order[i], order[j]), Math.sign(i - j), `${String(order[i])} vs ${String(order[j])}`);
    }
    assert.equal(compareValues(1n, 100.5), 1, 'an INTEGER beats any REAL');
  });
});

describe('version bookkeeping', () => {
  it('adds versions, opening and closing gaps', () => {
    let o = markRange({ head: 0, gaps: [] }, 1, 3);
    assert.deepEqual(o, { head: 3, gaps: [] });
    o = markRange(o, 7, 7);
    assert.deepEqual(o, { head: 7, gaps: [[4, 6]] });
    o = markRange(o, 5, 5);
    assert.deepEqual(o, {
      head: 7,
      gaps: [
        [4, 4],
        [6, 6],
      ],
    });
    o = markRange(o, 4, 6);
    assert.deepEqual(o, { head: 7, gaps: [] });
  });

  it('finds what one side has and the other lacks', () => {
    assert.deepEqual(missingRanges({ head: 10, gaps: [[3, 4]] }, { head: 5, gaps: [[1, 2]] }), [
      [1, 2],
      [6, 10],
    ]);
    assert.deepEqual(missingRanges({ head: 10, gaps: [] }, { head: 10, gaps: [] }), []);
    assert.deepEqual(missingRanges({ head: 100, gaps: [] }, { head: 0, gaps: [] }, 30), [[1, 30]]);
  });
});

describe('ChangeMerger', function () {
  this.timeout(20_000);
  let dir: string;
  let engine: Engine<Changeset>;
  let merger: ChangeMerger;
  let book: VersionBook;
  const feed = new InProcessChangeFeed();
  const seen: Changeset[] = [];
  const other = 'ff'.repeat(16);

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'patina-merge-'));
    fs.writeFileSync(
      path.join(dir, 'schema.sql'),
      'CREATE TABLE kv (k INTEGER NOT NULL PRIMARY KEY, v TEXT, n INTEGER);',
    );
    engine = await Engine.open<Changeset>({
      path: path.join(dir, 'db'),
      schemaPaths: [path.join(dir, 'schema.sql')],
      readWorkers: { min: 0, max: 1 },
    });
    const capture = ChangeCapture.install(engine, feed);
    merger = new ChangeMerger(engine, capture, feed);
    const lease = await engine.lease();
    book = VersionBook.open(lease.db, capture.actor, () => capture.version);
    lease.release();
    feed.observe((cs) => seen.push(cs));
  });
  after(async () => {
    await engine.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const row = (k: number, cl: number, cols: [string, unknown, number][]) => ({
    table: 'kv',
    pk: encodePk([BigInt(k)]),
    cl,
    sentinelSeq: 0,
    cols: cols.map(([cid, val, colVersion], i) => ({ cid, val: val as string, colVersion, seq: i + 1 })),
  });
  const merge = (cs: RemoteChangeset[]) => merger.merge(cs, [], () => book.begin());
  const table = () => engine.writer.db.prepare('SELECT k, v, n FROM kv ORDER BY k').raw().all();

  it('applies a remote changeset, records it, publishes it as remote, and leaves capture quiet', async () => {
    const r = await merge([
      {
        actor: other,
        version: 1,
        rows: [
          row(1, 1, [
            ['v', 'one', 1],
            ['n', 10n, 1],
          ]),
        ],
      },
    ]);
    assert.equal(r.applied, 1);
    assert.deepEqual(table(), [[1n, 'one', 10n]]);
    assert.equal(book.has(other, 1), true);
    assert.equal(seen.at(-1)?.origin, 'remote');
    assert.deepEqual(seen.at(-1)?.changes, [
      { table: 'kv', pk: [1], kind: 'insert', values: { k: 1, v: 'one', n: 10 } },
    ]);
    const clocks = engine.writer.db
      .prepare('SELECT cid, hex(site_id) AS s, db_version FROM __patina_clock_kv ORDER BY cid')
      .all() as { cid: string; s: string; db_version: bigint }[];
    assert.ok(
      clocks.every((c) => c.s.toLowerCase() === other && c.db_version === 1n),
      JSON.stringify(clocks, (_k, v) => (typeof v === 'bigint' ? String(v) : v)),
    );
  });

  it('changes nothing when the same changeset comes twice', async () => {
    const before = seen.length;
    const r = await merge([{ actor: other, version: 1, rows: [row(1, 1, [['v', 'changed?', 1]])] }]);
    assert.equal(r.duplicate, 1);
    assert.deepEqual(table(), [[1n, 'one', 10n]]);
    assert.equal(seen.length, before);
  });

  it('keeps the higher col_version, and at equal versions the greater value', async () => {
    await merge([{ actor: other, version: 2, rows: [row(1, 1, [['v', 'aaa', 1]])] }]);
    assert.deepEqual(table(), [[1n, 'one', 10n]], "'aaa' < 'one' at equal col_version: the local value stays");
    await merge([{ actor: other, version: 3, rows: [row(1, 1, [['v', 'zzz', 1]])] }]);
    assert.deepEqual(table(), [[1n, 'zzz', 10n]]);
    await merge([{ actor: other, version: 4, rows: [row(1, 1, [['n', 1n, 2]])] }]);
    assert.deepEqual(table(), [[1n, 'zzz', 1n]]);
  });

  it('deletes on a higher even causal length and ignores older lives', async () => {
    await merge([{ actor: other, version: 5, rows: [{ ...row(1, 2, []), sentinelSeq: 0 }] }]);
    assert.deepEqual(table(), []);
    await merge([{ actor: other, version: 6, rows: [row(1, 1, [['v', 'late update', 9]])] }]);
    assert.deepEqual(table(), [], 'an update of the previous life does not bring the row back');
    assert.equal(seen.at(-1)?.changes[0]?.kind, 'delete');
  });

  it('defers a changeset naming an unknown column: nothing applied, nothing recorded', async () => {
    const r = await merge([
      {
        actor: other,
        version: 8,
        rows: [
          row(2, 1, [
            ['v', 'x', 1],
            ['nope', 'y', 1],
          ]),
        ],
      },
    ]);
    assert.equal(r.deferred.length, 1);
    assert.match(r.deferred[0].reason, /unknown column "nope"/);
    assert.deepEqual(table(), []);
    assert.equal(book.has(other, 8), false);
    assert.equal(book.get(other).head, 6);
  });

  it('lets the event loop turn while it merges 100,000 rows, and no reader sees a part of them', async function () {
    this.timeout(90_000);
    const rows = Array.from({ length: 100_000 }, (_, i) => row(1_000_000 + i, 1, [['v', `r${i}`, 1]]));
    const reader = new Database(path.join(dir, 'db'), { readonly: true });
    try {
      const count = () => reader.prepare('SELECT count(*) AS n FROM kv WHERE k >= 1000000').get() as { n: number };
      // timers that fire while the merge runs: the thread was not held by it in one go
      const seenDuring: number[] = [];
      let merging = true;
      const tick = setInterval(() => merging && seenDuring.push(count().n), 5);
      const r = await merge([{ actor: other, version: 10, rows }]).finally(() => {
        merging = false;
        clearInterval(tick);
      });
      assert.equal(r.applied, 1);
      assert.ok(seenDuring.length > 0, 'no timer ran while 100,000 rows were merged');
      assert.deepEqual([...new Set(seenDuring)], [0], 'a reader saw a part of the changeset during its merge');
      assert.equal(count().n, 100_000);
      assert.equal(book.has(other, 10), true);
    } finally {
      reader.close();
    }
  });

  it('does not move local db_version when merging', async () => {
    const r = await engine.transaction([{ sql: 'INSERT INTO kv (k, v) VALUES (3, ?)', params: ['local'] }]);
    assert.equal(r.change?.version, 1);
  });
});
