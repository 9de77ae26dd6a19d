// The compiled tests under dist/test. A path given on the command line (`npm test -- dist/test/pg`,
// or one file) runs only that; `npm test -- --grep words` runs the tests whose titles match.
//
// Files run two at a time (mocha's parallel mode, one worker per core of the 2-core machine the
// suite is kept under 10 minutes on): most of a file's time is spent waiting for the agents,
// PostgreSQL servers and clients it starts, so two workers halve the wall time (9 min serial, 5 min
// so) without changing what a test sees: every test starts its own processes on ports the kernel
// picks. `npm test -- --no-parallel` runs them one at a time (mocha's `.only` needs that).
//
// Except the files that measure the disk's pace (SOLO): the durability test writes 400 MiB and
// expects the WAL to start over meanwhile, which a second file writing beside it can keep from
// happening (it failed so once in seven runs). `npm test` runs them after the rest, alone
// (`PATINA_TEST_SOLO=1`, scripts/run-tests.js).
const SOLO = ['dist/test/ops/durability.test.js'];
const paths = process.argv.slice(2).filter((a) => a.startsWith('dist/') || a.startsWith('./dist/'));
const solo = process.env.PATINA_TEST_SOLO === '1';
module.exports = {
  // (each file's wall time, summed up by scripts/run-tests.js)
  require: ['dist/test/helpers/file-times.js'],
  spec: paths.length > 0 ? [] : solo ? SOLO : ['dist/test/**/*.test.js'],
  ignore: paths.length > 0 || solo ? [] : SOLO,
  recursive: true,
  timeout: 30000,
  exit: true,
  'enable-source-maps': true,
  parallel: !solo,
  jobs: 2,
};
