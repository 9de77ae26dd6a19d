// npm run bench [-- NAME...]: runs every bench/*.bench.ts (built to dist/bench) one after the
// other, each in its own process so that one's memory and threads do not colour the next.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const only = process.argv.slice(2);
const files = fs
  .readdirSync(__dirname)
  .filter((f) => f.endsWith('.bench.js'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();
let failed = 0;
for (const f of files) {
  process.stdout.write(`\n== ${f.replace(/\.bench\.js$/, '')}\n`);
  const r = spawnSync(process.execPath, ['--expose-gc', path.join(__dirname, f)], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
