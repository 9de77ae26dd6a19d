// The compiled tests under dist/test. A path given on the command line (`npm test -- dist/test/pg`,
// or one file) runs only that; `npm test -- --grep words` runs the tests whose titles match.
const paths = process.argv.slice(2).filter((a) => a.startsWith('dist/') || a.startsWith('./dist/'));
module.exports = {
  spec: paths.length > 0 ? [] : ['dist/test/**/*.test.js'],
  recursive: true,
  timeout: 30000,
  exit: true,
  'enable-source-maps': true,
};
