// Each test file's wall time in `npm test` (mocha's root hooks run once a file in parallel mode):
// appended to dist/test-file-times.ndjson, which scripts/run-tests.js empties before a run and sums
// up after it (the slowest files, the time they add up to), so that the suite's 10-minute budget
// shows where it goes. Loaded by .mocharc.js; a file run alone (`--no-config`) skips it.
import fs from 'node:fs';
import path from 'node:path';

export const TIMES_FILE = path.join(__dirname, '..', '..', 'test-file-times.ndjson');

let started = 0;
let file: string | undefined;

export const mochaHooks = {
  beforeAll(this: Mocha.Context) {
    started = Date.now();
    file = this.test?.parent?.suites[0]?.file;
  },
  afterAll() {
    if (file === undefined) return;
    const ms = Date.now() - started;
    fs.appendFileSync(TIMES_FILE, `${JSON.stringify({ file: path.relative(process.cwd(), file), ms })}\n`);
  },
};
