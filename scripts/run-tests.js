// `npm test`'s mocha runs (after the build): every file two at a time (.mocharc.js), then the files
// that measure the disk's pace alone (PATINA_TEST_SOLO). Arguments (`npm test -- dist/test/pg`,
// `-- --grep words`) go to one mocha run of what they name, as before.
const { spawnSync } = require('node:child_process');

const mocha = require.resolve('mocha/bin/mocha.js');
const args = process.argv.slice(2);
const run = (env) =>
  spawnSync(process.execPath, [mocha, ...args], { stdio: 'inherit', env: { ...process.env, ...env } }).status ?? 1;
let status = run({});
if (args.length === 0) status = run({ PATINA_TEST_SOLO: '1' }) || status;
process.exit(status);
