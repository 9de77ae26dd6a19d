// npm run bench [-- NAME...]: runs every bench/*.bench.ts (built to dist/bench) one after the
// other, each in its own process so that one's memory and threads do not colour the next. The
// figures a bench reports are charted to docs/charts/NAME.svg (PATINA_BENCH_CHARTS overrides the
// folder) when it succeeds; a bench that fails or reports nothing leaves its old chart.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { barChart } from './chart';
import { FIGURES_ENV, readFigures } from './figures';

/** Runs one bench script in its own process and charts what it reported: whether it succeeded. */
export function runBench(script: string, name: string, chartsDir: string): boolean {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'patina-bench-figures-'));
  const figuresFile = path.join(tmp, `${name}.jsonl`);
  try {
    const r = spawnSync(process.execPath, ['--expose-gc', script], {
      stdio: 'inherit',
      env: { ...process.env, [FIGURES_ENV]: figuresFile },
    });
    if (r.status !== 0) return false;
    const figures = readFigures(figuresFile);
    if (figures.length === 0) return true;
    fs.mkdirSync(chartsDir, { recursive: true });
    const chart = path.join(chartsDir, `${name}.svg`);
    fs.writeFileSync(chart, barChart(`${name}: each figure / its anchor, same run`, figures));
    process.stdout.write(`chart: ${chart}\n`);
    return true;
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

function main(): void {
  const only = process.argv.slice(2);
  const chartsDir = process.env.PATINA_BENCH_CHARTS ?? path.resolve(__dirname, '..', '..', 'docs', 'charts');
  const files = fs
    .readdirSync(__dirname)
    .filter((f) => f.endsWith('.bench.js'))
    .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
    .sort();
  let failed = 0;
  for (const f of files) {
    const name = f.replace(/\.bench\.js$/, '');
    process.stdout.write(`\n== ${name}\n`);
    if (!runBench(path.join(__dirname, f), name, chartsDir)) failed++;
  }
  process.exit(failed ? 1 : 0);
}

if (require.main === module) main();
