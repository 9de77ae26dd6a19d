// Generated queries against PostgreSQL 15: a fixed list of seeds of the differential query generator
// (test/helpers/query-gen.ts), each statement run on Patina and on PostgreSQL and compared by rows (a
// multiset, or in order under an ORDER BY of every column), column names and type OIDs, or the
// error's SQLSTATE. A divergence is reported with the statement and both outcomes. Long runs by hand:
// `node scripts/query-diff.js --seed N --count M`.
import assert from 'node:assert/strict';
import { oracleSuite } from '../helpers/catalog-pair';
import { GEN_ROWS, GEN_SCHEMA, QueryGen, compareOutcomes, describeDivergence, outcomeOf } from '../helpers/query-gen';

/** 30 seeds of 10 statements each: 300 statements. */
const SEEDS = Array.from({ length: 30 }, (_, k) => 1 + k * 7);
const PER_SEED = 10;

describe('generated queries against PostgreSQL 15 (query-gen.ts, fixed seeds)', function () {
  this.timeout(120_000);
  const { clients } = oracleSuite(GEN_SCHEMA, GEN_ROWS);

  it(`${SEEDS.length * PER_SEED} statements give the same rows, names and types, or the same SQLSTATE`, async () => {
    const { patina, postgres } = clients();
    const divergences: string[] = [];
    let failed = 0;
    for (const seed of SEEDS) {
      const gen = new QueryGen(seed);
      for (let k = 0; k < PER_SEED; k++) {
        const q = gen.query();
        const pg = await outcomeOf(postgres, q.sql);
        const pa = await outcomeOf(patina, q.sql);
        if (!pg.ok) failed++;
        const why = compareOutcomes(q, pg, pa);
        if (why) divergences.push(`[seed ${seed} #${k}] ${describeDivergence(q, why, pg, pa)}`);
      }
    }
    assert.deepEqual(divergences, [], divergences.join('\n\n'));
    // (the statements must mostly run: errors are compared too, but by SQLSTATE only)
    assert.ok(failed < (SEEDS.length * PER_SEED) / 4, `${failed} statements failed on PostgreSQL`);
  });
});
