// numeric's power as PostgreSQL 15 computes it (src/engine/pg-exact-power.ts): the scale it picks
// and its digits, for integer exponents (power_var_int step for step) and others (exp(y · ln x)).
// Each answer below is PostgreSQL 15's (test/pg/numeric-oracle.test.ts compares more with it).
import assert from 'node:assert/strict';
import { numericPower } from '../../src/engine/pg-exact-power';

describe('numeric power', () => {
  it('integer exponents: exact products at scale max(16, the base scale), negative ones divided', () => {
    assert.equal(numericPower('12.50', '2'), '156.2500000000000000');
    assert.equal(numericPower('2', '-3'), '0.1250000000000000');
    assert.equal(numericPower('0.5', '30'), '0.0000000009313226');
    assert.equal(numericPower('1.0001', '10000'), '2.7181459268252249');
    assert.equal(numericPower('7', '0'), '1.0000000000000000');
    assert.equal(numericPower('-2', '3'), '-8.0000000000000000');
    assert.equal(numericPower('0.9', '5000'), '0.0000000000000000');
    assert.equal(numericPower('1.5', 2n), '2.2500000000000000');
  });

  it('other exponents: exp(y · ln x) rounded at the scale power_var picks', () => {
    assert.equal(numericPower('2', '0.5'), '1.4142135623730950');
    assert.equal(numericPower('1.1', '-0.5'), '0.9534625892455923');
    assert.equal(numericPower('3', '100.5'), '892660050986726025793758618484491202448379176856.3');
    assert.equal(numericPower('0', '2.5'), '0.0000000000000000');
  });

  it('NaN ^ 0 and 1 ^ NaN are 1, other NaN NaN; NULL in, NULL out; PostgreSQL errors', () => {
    assert.equal(numericPower('NaN', '0'), '1');
    assert.equal(numericPower('1', 'NaN'), '1');
    assert.equal(numericPower('2', 'NaN'), 'NaN');
    assert.equal(numericPower(null, '2'), null);
    const code = (f: () => unknown) => {
      try {
        f();
        return 'ok';
      } catch (e) {
        return (e as { sqlstate?: string }).sqlstate;
      }
    };
    assert.equal(
      code(() => numericPower('-2', '0.5')),
      '2201F',
    );
    assert.equal(
      code(() => numericPower('0', '-1')),
      '2201F',
    );
    assert.equal(
      code(() => numericPower('4', '375085.00')),
      '22003',
    );
  });
});
