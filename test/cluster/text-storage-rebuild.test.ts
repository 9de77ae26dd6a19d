// An agent whose table was created before JSON, JSONB and NAME columns were stored as text, in a
// cluster with one whose table was created since: the old one stored a merged '1.50' as 1.5. Its
// rebuild at start (src/engine/schema/text-rebuild.ts) is local storage: no version, no changeset
// moves for it; and from then on both store what either writes as the same text.
import assert from 'node:assert/strict';
import { TestCluster, eventually, exec, rows, syncStatus } from '../helpers/cluster';
import { scrape, value } from '../helpers/metrics';
import { asBefore } from '../helpers/old-storage';
import { sleep } from '../helpers/wait';

const DOCS = 'CREATE TABLE docs (id BIGINT NOT NULL PRIMARY KEY, doc JSONB, nm NAME)';

async function heads(base: string): Promise<Record<string, number>> {
  return Object.fromEntries((await syncStatus(base)).origins.map((o) => [o.actor_id, o.head]));
}

async function merged(base: string): Promise<number> {
  return value(await scrape(base), 'patina_replication_changesets_merged_total');
}

const read = (base: string) => rows(base, 'SELECT id, doc, typeof(doc), nm, typeof(nm) FROM docs ORDER BY id');

describe('a table rebuilt to store JSON, JSONB and NAME as text, in a cluster', function () {
  this.timeout(120_000);
  let c: TestCluster;
  before(async () => {
    c = await TestCluster.start(2, { schema: `${DOCS};\n` });
  });
  after(() => c?.dispose());

  it('sends nothing for the rebuild, and then stores what either agent writes as the other does', async () => {
    const [a, b] = c.nodes;
    await exec(b.http, [["INSERT INTO docs VALUES (1, '1.50', '007'), (2, '{\"a\": 1}', 'bob')"]]);
    await eventually('the rows at a', 20_000, async () => (await read(a.http)).length === 2);
    await a.agent.stop();
    asBefore(a.agent.dbPath, [{ name: 'docs', create: DOCS, indexes: [] }]);
    const stored = await read(b.http);
    const headsBefore = await heads(b.http);
    const mergedBefore = await merged(b.http);

    await a.start();
    assert.match(a.agent.output, /table rebuilt: .*"table":"docs"/);
    // what the old table had made a number is that number's text; digits it lost stay lost
    assert.deepEqual(await read(a.http), [
      [1, '1.5', 'text', '7', 'text'],
      [2, '{"a": 1}', 'text', 'bob', 'text'],
    ]);
    // sync rounds run every 2 s: nothing moves, no agent made a version
    await sleep(5000);
    assert.equal(await merged(b.http), mergedBefore, 'b merged nothing');
    assert.equal(await merged(a.http), 0, 'a merged nothing');
    assert.deepEqual(await heads(b.http), headsBefore);
    assert.deepEqual(await heads(a.http), headsBefore);
    assert.deepEqual(await read(b.http), stored);

    // written on either agent, the same text on both
    await exec(b.http, [["UPDATE docs SET doc = '2.50', nm = '008' WHERE id = 1"]]);
    await exec(a.http, [["INSERT INTO docs VALUES (3, '12345678901234567890', '0.10')"]]);
    await eventually('the same rows on both', 20_000, async () => {
      const [ra, rb] = [await read(a.http), await read(b.http)];
      assert.deepEqual(ra, rb);
      assert.deepEqual(ra, [
        [1, '2.50', 'text', '008', 'text'],
        [2, '{"a": 1}', 'text', 'bob', 'text'],
        [3, '12345678901234567890', 'text', '0.10', 'text'],
      ]);
    });
  });
});
