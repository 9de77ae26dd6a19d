// A portal's numeric parameters as sent (protocols/pg/connection/portal.ts): the scale of their text
// or binary form, and the result columns printed at it (`$1::numeric` with '1.500' is 1.500).
import assert from 'node:assert/strict';
import { newPortal, portalColumns, sentScale } from '../../../protocols/pg/connection/portal';
import type { Analyzed, ColumnDesc } from '../../../protocols/pg/sql/analyzed';
import { decimalBinary, parseDecimal } from '../../../protocols/pg/types/numeric';

describe('PG portal: numeric parameters as sent', () => {
  it('reads the scale of a text parameter, less its exponent, and the display scale of a binary one', () => {
    const text = (s: string) => sentScale(Buffer.from(s), 0);
    assert.deepEqual(
      ['1.500', '1.5', ' -0.10 ', '15', '15e-1', '2e-3', '1.50e1', '1.5e3', 'NaN', '.250', 'x1.5', '15.'].map(text),
      [3, 1, 2, 0, 1, 3, 1, 0, 0, 3, 0, 0],
    );
    assert.equal(sentScale(null, 0), 0);
    assert.equal(sentScale(decimalBinary(parseDecimal('1.500')!), 1), 3);
    assert.equal(sentScale(decimalBinary(parseDecimal('NaN')!), 1), 0);
  });

  it("prints a column whose scale is at least its parameters' at the larger of the two, other columns as they are", () => {
    const columns: ColumnDesc[] = [
      { name: 'a', declType: null, scale: 2, scaleIsMinimum: true, scaleParams: [1] },
      { name: 'b', declType: null, scale: 0, scaleIsMinimum: true, scaleParams: [2] },
      { name: 'c', declType: 'NUMERIC(10,2)' },
    ];
    const p = newPortal({ columns } as Analyzed, [], []);
    assert.equal(portalColumns(p, columns), columns);
    p.paramScales = [3, 1];
    assert.deepEqual(
      portalColumns(p, columns).map((c) => c.scale),
      [3, 1, undefined],
    );
    p.paramScales = [1, 0];
    assert.equal(portalColumns(p, columns), columns);
  });
});
