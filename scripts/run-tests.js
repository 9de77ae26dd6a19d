// `npm test`'s mocha runs (after the build): every file two at a time (.mocharc.js), then the files
// that measure the disk's pace alone (PATINA_TEST_SOLO). Arguments (`npm test -- dist/test/pg`,
// `-- --grep words`) go to one mocha run of what they name, as before. After a whole run, the files'
// wall times (test/helpers/file-times.ts) are summed up: the suite is kept under 10 minutes, and
// this shows where its time goes.
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const mocha = require.resolve('mocha/bin/mocha.js');
const times = path.join(__dirname, '..', 'dist', 'test-file-times.ndjson');
const args = process.argv.slice(2);
const run = (env) =>
  spawnSync(process.execPath, [mocha, ...args], { stdio: 'inherit', env: { ...process.env, ...env } }).status ?? 1;
fs.rmSync(times, { force: true });
const started = Date.now();
let status = run({});
if (args.length === 0) status = run({ PATINA_TEST_SOLO: '1' }) || status;
if (args.length === 0 && fs.existsSync(times)) {
  const files = fs
    .readFileSync(times, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    .sort((a, b) => b.ms - a.ms);
  const sum = files.reduce((s, f) => s + f.ms, 0);
  console.log(
    `\n${files.length} test files: ${(sum / 1000).toFixed(0)} s of file time, ${((Date.now() - started) / 1000).toFixed(0)} s of wall time; the slowest:`,
  );
  for (const f of files.slice(0, 15)) console.log(`  ${(f.ms / 1000).toFixed(1).padStart(6)} s  ${f.file}`);
}
process.exit(status);
