// The pure parts of typed operators: which signature a date or time operator has given its operand
// types (sql/typed-operators.ts), and how the translation finds the operands of a marked operator
// by precedence (translate/typed-arithmetic.ts). Bad input: unknown kinds, operators at the end of
// the text, operands of unknown type.
import assert from 'node:assert/strict';
import { dateArithmetic } from '../../../src/engine/dates';
import { lexPg } from '../../../protocols/pg/sql/lexer';
import { withSessionZone } from '../../../protocols/pg/sql/session-zone';
import { type Tok, joinTokens } from '../../../protocols/pg/sql/tokens';
import { rewriteDateArithmetic } from '../../../protocols/pg/sql/translate/typed-arithmetic';
import { dateOperator } from '../../../protocols/pg/sql/typed-operators';
import { mayHaveTypedOperators } from '../../../protocols/pg/sql/typed-operators-hint';
import { OID } from '../../../protocols/pg/types/oids';

/** Tokens with the n-th operator (counting from 0) marked as the analysis would mark it. */
function marked(sql: string, marks: Record<number, string>): Tok[] {
  let n = 0;
  return lexPg(sql)
    .filter((t) => t.type !== 'space')
    .map((t) => (t.type === 'op' && marks[n++] !== undefined ? { ...t, arith: marks[n - 1] } : t));
}

describe('typed operators', () => {
  it('signatures: date and integer, dates, timestamps, intervals, either way round', () => {
    const k = (l: number, op: string, r: number, u: 'l' | 'r' | null = null) => dateOperator(l, op, r, u);
    assert.deepEqual(k(OID.date, '+', OID.int4), { kind: 'date+int', oid: OID.date });
    assert.deepEqual(k(OID.int8, '+', OID.date), { kind: 'int+date', oid: OID.date });
    assert.deepEqual(k(OID.date, '-', OID.date), { kind: 'date-date', oid: OID.int4 });
    assert.deepEqual(k(OID.timestamp, '-', OID.timestamp), { kind: 'ts-ts', oid: OID.interval });
    assert.deepEqual(k(OID.interval, '+', OID.timestamptz), { kind: 'iv+tstz', oid: OID.timestamptz });
    assert.deepEqual(k(OID.date, '+', OID.interval), { kind: 'date+iv', oid: OID.timestamp });
    assert.deepEqual(k(OID.numeric, '*', OID.interval), { kind: 'num*iv', oid: OID.interval });
    assert.deepEqual(k(OID.timestamp, '+', OID.text, 'r'), { kind: 'ts+iv', oid: OID.timestamp });
    assert.deepEqual(k(OID.timestamp, '-', OID.text, 'r'), { kind: 'ts-ts', oid: OID.interval });
    // no date or time operand, or one of unknown type: not ours
    assert.equal(k(OID.int4, '+', OID.int4), null);
    assert.equal(k(OID.date, '+', 0), null);
    // no such operator in PostgreSQL
    assert.throws(
      () => k(OID.timestamp, '+', OID.int4),
      /42883|operator does not exist: timestamp without time zone \+ integer/,
    );
    assert.throws(() => k(OID.date, '*', OID.int4), /operator does not exist: date \* integer/);
    assert.throws(() => k(OID.date, '+', OID.text, 'r'), /operator is not unique: date \+ unknown/);
  });

  it('parses only statements that may hold such an operator (not a literal INSERT with signs)', () => {
    const col = (c: string) => (c === 'placed_at' ? 'TIMESTAMP' : c === 'n' ? 'INTEGER' : null);
    const may = (sql: string) =>
      mayHaveTypedOperators(
        lexPg(sql).filter((t) => t.type !== 'space'),
        col,
      );
    assert.equal(may("INSERT INTO t (n, placed_at) VALUES (-5, '2024-01-01'), (+3, now())"), false);
    assert.equal(may('SELECT n + 1 FROM t'), false);
    assert.equal(may('SELECT placed_at - n FROM t'), true);
    assert.equal(may("SELECT now() - interval '1 day'"), true);
    assert.equal(may('SELECT n / 2, 2 ^ 3 FROM t'), true);
    assert.equal(may('SELECT -n FROM t WHERE placed_at IS NULL'), false);
    // a string compared with a computed value is parsed; with a bare column (SQLite's affinity) it is not
    assert.equal(may("SELECT n FROM t GROUP BY n HAVING count(*) > '5'"), true);
    assert.equal(may("SELECT n FROM t WHERE '3' = n + 1"), true);
    assert.equal(may("SELECT n FROM t WHERE name = 'x' AND n = '5'"), false);
  });

  it('operands found by precedence: ^ before * and /, those before + and -, signs bind tightest', () => {
    const t = (sql: string, marks: Record<number, string>) => joinTokens(rewriteDateArithmetic(marked(sql, marks)));
    assert.equal(t('SELECT d + 1', { 0: 'date+int' }), "SELECT __pg_date_arith('date+int', d, 1)");
    assert.equal(
      t('SELECT a * b + d - 2', { 1: 'int+date', 2: 'date-int' }),
      "SELECT __pg_date_arith('date-int', __pg_date_arith('int+date', a * b, d), 2)",
    );
    assert.equal(
      t('SELECT d + i * 2', { 0: 'ts+iv', 1: 'iv*num' }),
      "SELECT __pg_date_arith('ts+iv', d, __pg_date_arith('iv*num', i, 2))",
    );
    assert.equal(t('SELECT d + i * 2', { 0: 'ts+iv' }), "SELECT __pg_date_arith('ts+iv', d, i * 2)");
    // a timestamptz's kinds carry the session's zone when it is not UTC (a day is the zone's)
    assert.equal(t('SELECT z + i', { 0: 'tstz+iv' }), "SELECT __pg_date_arith('tstz+iv', z, i)");
    assert.equal(
      withSessionZone('Europe/Paris', () => t('SELECT z - i, d + i', { 0: 'tstz-iv', 1: 'ts+iv' })),
      "SELECT __pg_date_arith('tstz-iv@Europe/Paris', z, i), __pg_date_arith('ts+iv', d, i)",
    );
    assert.equal(dateArithmetic('tstz+iv@Europe/Paris', '2024-03-30 12:00:00', '1 day'), '2024-03-31 11:00:00');
    assert.equal(dateArithmetic('tstz+iv', '2024-03-30 12:00:00', '1 day'), '2024-03-31 12:00:00');
    assert.equal(
      t('SELECT -2 ^ 2, 2 ^ 3 ^ 2', { 1: 'pow', 2: 'pow', 3: 'pow' }),
      'SELECT __pg_math_power(- 2, 2, power(- 2, 2)), __pg_math_power(__pg_math_power(2, 3, power(2, 3)), 2, NULL)',
    );
    assert.equal(t('SELECT f(x).y - t.d', { 0: 'ts-ts' }), "SELECT __pg_date_arith('ts-ts', f(x).y, t.d)");
    // a window call with its OVER, an aggregate with its FILTER, is one operand on either side
    assert.equal(
      t('SELECT d - lag(d) OVER (ORDER BY d), lag(d) OVER w - d', { 0: 'ts-ts', 1: 'ts-ts' }),
      "SELECT __pg_date_arith('ts-ts', d, lag(d) OVER(ORDER BY d)), __pg_date_arith('ts-ts', lag(d) OVER w, d)",
    );
    // a numeric division takes the operators of its level before it as its left operand, its divisor
    // as a double; of an expression through the function that keeps NaN, of columns behind a NaN test
    assert.equal(
      t('SELECT a * b / sum(c) FILTER (WHERE e) + 1', { 1: 'num/' }),
      'SELECT __pg_num_div(a * b, sum(c) FILTER(WHERE e)) + 1',
    );
    assert.equal(t('SELECT a / 2', { 0: 'num/:' }), 'SELECT (a / __pg_real_divisor(2))');
    assert.equal(
      t('SELECT a / 2', { 0: 'num/:l' }),
      "SELECT (CASE WHEN (a IS 'NaN') AND (a) IS NOT NULL AND (2) IS NOT NULL THEN 'NaN' ELSE a / __pg_real_divisor(2) END)",
    );
    // (left to right: `2 - 1 + n` is (2 - 1) + n)
    assert.equal(t('SELECT 2 - 1 + n', { 1: 'num+' }), 'SELECT __pg_num_add(2 - 1, n)');
    // an operator at the end, or with nothing before it, is left for SQLite to refuse
    assert.equal(t('SELECT d +', { 0: 'date+int' }), 'SELECT d +');
    assert.equal(t('+ 1', { 0: 'date+int' }), '+ 1');
    // nothing marked: the tokens as they were
    assert.equal(t('SELECT d + 1', {}), 'SELECT d + 1');
  });

  it('computes as PostgreSQL: calendar days, months spilled into days, NULL in NULL out, bad kinds refused', () => {
    assert.equal(dateArithmetic('date+int', '2024-02-28', 2), '2024-03-01');
    assert.equal(dateArithmetic('date-date', '2024-03-01', '2024-01-01'), 60);
    assert.equal(dateArithmetic('ts-ts', '2024-01-01 00:00:00', '2024-01-02 01:00:00'), '-1 days -01:00:00');
    assert.equal(dateArithmetic('iv*num', '1 mon', 1.5), '1 mon 15 days');
    assert.equal(dateArithmetic('iv/num', '1 day', 3), '08:00:00');
    assert.equal(dateArithmetic('date+time', '2024-01-01', '10:30'), '2024-01-01 10:30:00');
    assert.equal(dateArithmetic('date+int', null, 1), null);
    assert.throws(() => dateArithmetic('iv/num', '1 day', 0), /division by zero/);
    assert.throws(() => dateArithmetic('date+int', '2024-01-01', 1.5), /invalid input syntax for type integer/);
    assert.throws(() => dateArithmetic('date+int', 'soon', 1), /invalid input syntax for type date/);
    assert.throws(() => dateArithmetic('nonsense', 'a', 'b'), /not known/);
  });
});
