// checkReach skips tokenizing a text that holds none of the words it refuses (src/engine/classify.ts):
// what it refused it still refuses, in any case, quoted, or after a comment; the rest passes.
import { strict as assert } from 'node:assert';
import { checkReach } from '../../src/engine/classify';

const refused = [
  'ATTACH DATABASE x AS y',
  '/* c */ Detach y',
  'pragma table_info(t)',
  'SELECT * FROM "__patina_meta"',
  'SELECT * FROM [__PATINA_x]',
  'SELECT * FROM `__Patina_y`',
  "SELECT * FROM pragma_table_info('t')",
  'SELECT ReadFile(1)',
  'SELECT "load_extension"(1)',
  'SELECT * FROM sqlite_dbpage',
  'SELECT "fts3_to\u212Aenizer"(1)', // (the Kelvin sign lower-cases to k)
];
const passed = [
  'SELECT abalance FROM pgbench_accounts WHERE aid = 17',
  "SELECT 'x' AS attach_note",
  'SELECT "pragma""_x" FROM t',
  'SELECT editor FROM t',
];

describe('checkReach gate', () => {
  it('refuses what it refused', () => {
    for (const sql of refused) assert.throws(() => checkReach(sql, 'statement'), /not accepted/, sql);
  });
  it('passes the rest', () => {
    for (const sql of passed) assert.doesNotThrow(() => checkReach(sql, 'statement'), sql);
  });
});
