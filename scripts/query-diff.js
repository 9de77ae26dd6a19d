#!/usr/bin/env node
// Long runs of the differential query generator by hand (test/helpers/query-gen.ts; the bounded run
// is test/pg/generated-oracle.test.ts): starts a Patina agent and a PostgreSQL 15 with the
// generator's tables, runs M generated statements from seed N on both and prints each divergence
// (the statement, PostgreSQL's outcome, Patina's).
//
//   npx tsc -p tsconfig.json && node scripts/query-diff.js --seed 1 --count 5000 [--quiet] [--show]
//
// --seed N: the first seed (each seed gives `--per` statements, 10 by default; seeds N, N+1, ...).
// --count M: how many statements in all. --show: print every statement. --quiet: divergences
// grouped by their kind only (one line each, with the shortest statement of the kind).
const path = require('node:path');

const dist = path.join(__dirname, '..', 'dist', 'test', 'helpers');
const { startOracle } = require(path.join(dist, 'catalog-pair.js'));
const gen = require(path.join(dist, 'query-gen.js'));

function arg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}
const flag = (name) => process.argv.includes(`--${name}`);

async function main() {
  const seed = Number(arg('seed', '1'));
  const count = Number(arg('count', '1000'));
  const per = Number(arg('per', '10'));
  const o = await startOracle({ schemas: { patina: gen.GEN_SCHEMA, postgres: gen.GEN_SCHEMA }, rows: gen.GEN_ROWS });
  const kinds = new Map();
  let ran = 0;
  let diverged = 0;
  try {
    for (let s = seed; ran < count; s++) {
      const g = new gen.QueryGen(s);
      for (let k = 0; k < per && ran < count; k++, ran++) {
        const q = g.query();
        if (flag('show')) console.log(`[${s}.${k}] ${q.sql}`);
        const pg = await gen.outcomeOf(o.postgres, q.sql);
        const patina = await gen.outcomeOf(o.patina, q.sql);
        const why = gen.compareOutcomes(q, pg, patina);
        if (!why) continue;
        diverged++;
        const kind = why.replace(/\d+/g, 'N').replace(/row \[.*\] missing/, 'row missing');
        const shortest = kinds.get(kind);
        if (!shortest || q.sql.length < shortest.q.sql.length) kinds.set(kind, { q, why, pg, patina, seed: s, n: (shortest?.n ?? 0) + 1 });
        else shortest.n++;
        if (!flag('quiet')) console.log(`[seed ${s} #${k}] ${gen.describeDivergence(q, why, pg, patina)}\n`);
      }
    }
  } finally {
    await o.close();
  }
  console.log(`${ran} statements, ${diverged} divergences`);
  for (const [kind, d] of kinds)
    console.log(`\n${kind} (${d.n}x), shortest [seed ${d.seed}]:\n${gen.describeDivergence(d.q, d.why, d.pg, d.patina)}`);
  process.exit(diverged > 0 ? 1 : 0);
}

main().catch((e) => {
  console.error(e);
  process.exit(2);
});
