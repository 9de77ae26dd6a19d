// The compiled tests under dist/test. A path given on the command line (`npm test -- dist/test/pg`,
// or one file) runs only that; `npm test -- --grep words` runs the tests whose titles match.
//
// Files run two at a time (mocha's parallel mode, one worker per core of the 2-core machine the
// suite is kept under 10 minutes on): most of a file's time is spent waiting for the agents,
// PostgreSQL servers and clients it starts, so two workers halve the wall time (9 min serial, 5 min
// so) without changing what a test sees: every test starts its own processes on ports the kernel
// picks. `npm test -- --no-parallel` runs them one at a time (mocha's `.only` needs that).
const paths = process.argv.slice(2).filter((a) => a.startsWith('dist/') || a.startsWith('./dist/'));
module.exports = {
  spec: paths.length > 0 ? [] : ['dist/test/**/*.test.js'],
  recursive: true,
  timeout: 30000,
  exit: true,
  'enable-source-maps': true,
  parallel: true,
  jobs: 2,
};
