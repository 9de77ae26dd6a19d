// A double precision or real value written into an integer column rounds half to even, as
// PostgreSQL's float8 and float4 to integer casts do (2.5 is 2, -2.5 is -2, 0.5 is 0); a numeric's
// half rounds away from zero (2.5 is 3). Patina rounded every value away from zero (a double 2.5
// was stored 3, and replicated so), and a parameter declared float8 (pgjdbc's setDouble) written
// into a BIGINT column was stored as 4.5. Compared with PostgreSQL 15.
import assert from 'node:assert/strict';
import { type OracleClients, sameOnBoth, startOracle } from '../helpers/catalog-pair';

const SCHEMA =
  'CREATE TABLE fr (id BIGINT NOT NULL PRIMARY KEY, i INTEGER, s SMALLINT, b BIGINT, d DOUBLE PRECISION, f REAL, n NUMERIC);';

describe('a double or real into an integer column, against PostgreSQL 15', function () {
  this.timeout(60_000);
  let o: OracleClients;

  before(async () => {
    o = await startOracle({ schemas: { patina: SCHEMA, postgres: SCHEMA }, rows: [] });
  });
  after(() => o?.close());

  it('rounds a double or real half to even, a numeric half away from zero (both rounded away before)', async () => {
    for (const c of [o.patina, o.postgres]) {
      await c.query(
        'INSERT INTO fr (id, d, f, n) VALUES (1, 2.5, 2.5, 2.5), (2, 3.5, -0.5, 3.5), (3, -2.5, 0.5, -2.5)',
      );
      await c.query('UPDATE fr SET i = d, b = d, s = f');
      await c.query(
        'INSERT INTO fr (id, i, b, s) VALUES (4, 2.5::float8, 0.5::float8, 2.5::real), (5, 2.5, 0.5, -0.5)',
      );
      await c.query('INSERT INTO fr (id, i, b, s) SELECT id + 10, d, d * 1, n FROM fr WHERE id <= 3');
      await c.query('INSERT INTO fr (id, i) VALUES (1, 9) ON CONFLICT (id) DO UPDATE SET i = fr.d + 2, b = fr.f');
      // a parameter declared float8 (pgjdbc's setDouble) into an integer and a bigint column
      await c.query('PREPARE pf(float8) AS UPDATE fr SET i = $1, b = $1 WHERE id = 5');
      await c.query('EXECUTE pf(4.5)');
      await c.query('DEALLOCATE pf');
    }
    const all = await sameOnBoth(o, 'SELECT id, i::int8, b, s::int8 FROM fr ORDER BY id');
    assert.deepEqual(all[0], ['1', '4', '2', '2'], 'a double 2.5 is 2, plus 2 (4.5) is 4');
    assert.deepEqual(all[2], ['3', '-2', '-2', '0'], 'a double -2.5 is -2, a real 0.5 is 0');
    assert.deepEqual(
      all[4],
      ['5', '4', '4', '-1'],
      'a float8 parameter 4.5 is 4 in both columns; a numeric -0.5 is -1',
    );
  });
});
