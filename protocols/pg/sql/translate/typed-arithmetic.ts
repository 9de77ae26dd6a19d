// Operators marked by the analysis with what they compute (sql/typed-operators.ts reads their
// operand types off PostgreSQL's parse tree): `x AT TIME ZONE z` becomes __pg_at_zone(kind, x, z);
// `date + 1`, `date - date`, `interval * 2`, ... become __pg_date_arith('kind', left, right); `a ^ b`
// becomes __pg_math_power(a, b, power(a, b)) (src/engine/pg-float-math.ts), `a # b` (XOR) __pg_xor(a, b), a numeric `a % b` __pg_mod(a, b); intervals
// compared by __pg_interval_key of each side; the divisor of a numeric division __pg_real_divisor(b),
// or the whole division __pg_numeric_div(a, b) and avg(x) __pg_numeric_avg(x) where they are a
// result column, exact (typed-operators.ts markExactColumns; ORDER BY its alias sorts by
// CAST(alias AS REAL), not by the text). By precedence as
// PostgreSQL binds them: AT TIME ZONE, then `^`, then `*` and `/`, then `+` and `-`, then `#` and `||`, then comparisons, each left to
// right, so an operand an earlier sweep rewrote is one group token when a looser operator takes it.
import {
  type Tok,
  closer,
  endsOperand,
  isOp,
  isPunct,
  isWord,
  joinTokens,
  operandEnd,
  operandStart,
  topLevelItems,
  topLevelWord,
} from '../tokens';
import { quoteString } from '../lexer';
import { sessionZone } from '../session-zone';
import { exactSortKey } from './exact-order';
import { textOfKind } from '../text-kinds';
import { negateIntervals, rewriteIntervalArithmetic } from './interval-arithmetic';
import { lookup } from '../../../../src/lookup';
import { keyedRow } from '../row-keys';
import { intDivisionChecked, intRangeChecked } from '../int-overflow';

/**
 * All date and time arithmetic of a token run: negated intervals, the operators the analysis typed,
 * then `x ± interval` the analysis could not type (an operand of unknown type). The casts pass runs
 * it on a cast's operand before that becomes one group.
 */
export function rewriteDateArithmetic(toks: Tok[]): Tok[] {
  return rewriteIntervalArithmetic(rewriteTypedArithmetic(negateIntervals(rewriteAtTimeZone(toks))));
}

/**
 * `x AT TIME ZONE z` the analysis typed (it binds tighter than any arithmetic): a timestamp's wall
 * time read in zone z is an instant ('tz-local'), an instant's wall time in z a timestamp ('tz-wall').
 */
function rewriteAtTimeZone(toks: Tok[]): Tok[] {
  if (!toks.some((t) => isWord(t, 'AT') && 'arith' in t && t.arith)) return toks;
  const out: Tok[] = [];
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    const kind = isWord(t, 'AT') && 'arith' in t ? t.arith : undefined;
    const end = kind && isWord(toks[i + 1], 'TIME') && isWord(toks[i + 2], 'ZONE') ? operandEnd(toks, i + 3) : -1;
    if (!kind || end < 0 || out.length === 0) {
      out.push(t);
      continue;
    }
    // (an operand in parentheses has its own date arithmetic: `(ts + interval '1 hour') AT TIME ZONE
    // 'UTC'` added the texts as numbers)
    let left = joinTokens(rewriteDateArithmetic(out.splice(operandStart(out))));
    // a date is the instant of its midnight in the session's zone, then seen in z (it was UTC's midnight)
    const zone = sessionZone();
    if (kind === 'tz-wall-date' && zone !== null) left = `__pg_timestamptz_in(${left}, ${quoteString(zone)})`;
    const at = kind === 'tz-wall-date' ? 'tz-wall' : kind;
    out.push({ type: 'group', text: `__pg_at_zone('${at}', ${left}, ${joinTokens(toks.slice(i + 3, end + 1))})` });
    i = end;
  }
  return out;
}

const COMPARISON_OPS = ['=', '<>', '!=', '<', '>', '<=', '>='];

const TIGHTER: Record<string, Set<string>> = lookup({
  '^': new Set(),
  '*': new Set(['^']),
  '/': new Set(['^']),
  '%': new Set(['^']),
  '+': new Set(['^', '*', '/', '%']),
  '-': new Set(['^', '*', '/', '%']),
  // `#` (bitwise XOR) is one of PostgreSQL's other operators, looser than arithmetic
  '#': new Set(['^', '*', '/', '%', '+', '-']),
  '||': new Set(['^', '*', '/', '%', '+', '-']),
});
/** PostgreSQL's other operators (`Op` in its grammar): one level, left to right, below arithmetic. */
const OTHER_OPS = ['#', '||', '<<', '>>', '^@', '~<~', '~<=~', '~>~', '~>=~'];
for (const op of OTHER_OPS) TIGHTER[op] = TIGHTER['#'];
/**
 * Other operators too, which later passes rewrite (jsonb's and arrays', translate/jsonb-ops.ts): a
 * comparison's operand takes them in (`doc -> 'a' = '1'` compares `doc -> 'a'`; its left operand was
 * the key alone, read as JSON: 22P02), but this pass rewrites none of them.
 */
const LATER_OTHER_OPS = ['->', '->>', '#>', '#>>', '#-', '@>', '<@', '?', '?|', '?&', '&&', '@?', '@@'];
// comparisons bind looser than all of these
for (const op of COMPARISON_OPS)
  TIGHTER[op] = new Set(['^', '*', '/', '%', '+', '-', ...OTHER_OPS, ...LATER_OTHER_OPS]);

const SAME_LEVEL = new Set(['^', '*', '/', '%']);

/** What a left operand takes in: the tighter operators and those of its own level (left to right: `2 - 1 + n`). */
const LEFT: Record<string, Set<string>> = lookup({});
for (const level of [['^'], ['*', '/', '%'], ['+', '-'], OTHER_OPS])
  for (const op of level) LEFT[op] = new Set([...TIGHTER[op], ...level]);
for (const op of COMPARISON_OPS) LEFT[op] = TIGHTER[op];

const marked = (t: Tok | undefined, ops: string[]): t is Tok & { arith: string } =>
  t !== undefined && t.type === 'op' && 'arith' in t && t.arith !== undefined && ops.includes(t.text);

export function rewriteTypedArithmetic(toks: Tok[]): Tok[] {
  if (!toks.some((t) => 'arith' in t && t.arith !== undefined)) return toks;
  // a string literal compared with a number: the number PostgreSQL reads it as
  // and avg, stddev and variance of a result column, exact (src/engine/pg-exact-division.ts,
  // pg-exact-statistics.ts)
  toks = qualifiedOrderRefs(toks).map((t) =>
    t.type === 'string' && 'arith' in t && t.arith?.startsWith('num:')
      ? { type: 'number', text: t.arith.slice(4) }
      : t.type === 'number' && 'arith' in t && t.arith === 'numx-lit'
        ? { type: 'string', text: quoteString(t.text) }
        : t.type === 'string' && 'arith' in t && t.arith?.startsWith('str:')
          ? { type: 'string', text: quoteString(t.arith.slice(4)) }
          : t.type === 'string' && 'arith' in t && t.arith?.startsWith('blob:')
            ? { type: 'group', text: `X'${t.arith.slice(5)}'` }
            : t.type === 'word' && 'arith' in t && t.arith === 'numx-abs'
              ? { type: 'word', text: '__pg_numeric_abs_exact' }
              : t.type === 'word' && 'arith' in t && t.arith?.startsWith('numx-fn:')
                ? { type: 'word', text: `__pg_numeric_${t.arith.slice(8)}_exact` }
                : t.type === 'word' && 'arith' in t && t.arith === 'avg-x'
                  ? { type: 'word', text: '__pg_numeric_avg' }
                  : t.type === 'word' && 'arith' in t && t.arith === 'sum-x'
                    ? { type: 'word', text: '__pg_numeric_sum_exact' }
                    : t.type === 'word' && 'arith' in t && t.arith === 'minmax-x'
                      ? { type: 'word', text: `__pg_numeric_${t.text.toLowerCase()}_exact` }
                      : t.type === 'word' && 'arith' in t && t.arith === 'stat-x'
                        ? { type: 'word', text: `__pg_numeric_${t.text.toLowerCase()}` }
                        : 'arith' in t && t.arith === 'num-order'
                          ? { type: 'group', text: exactSortKey(t.text) }
                          : t,
  );
  toks = rewritePrefixCalls(rewriteNegations(rewriteColumnAggregates(toks)));
  for (const ops of [['^'], ['*', '/', '%'], ['+', '-'], OTHER_OPS]) toks = sweep(toks, ops);
  // BETWEEN binds looser than those and tighter than comparisons
  return sweep(rewriteIntervalIn(rewriteIntervalBetween(toks)), COMPARISON_OPS);
}

/** A qualified reference marked 'num-order' on its first name (`s.a`): one token, which that mark makes the column's number. */
function qualifiedOrderRefs(toks: Tok[]): Tok[] {
  const at = (t: Tok) => 'arith' in t && t.arith === 'num-order';
  if (!toks.some(at)) return toks;
  const out: Tok[] = [];
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    const name = (x: Tok | undefined) => x?.type === 'word' || x?.type === 'quoted';
    if (at(t) && name(t) && isPunct(toks[i + 1], '.') && name(toks[i + 2])) {
      out.push({ ...t, text: `${t.text}.${toks[i + 2].text}` } as Tok);
      i += 2;
    } else out.push(t);
  }
  return out;
}

/** An operand's text with the marks inside it (in parentheses, a call's arguments) rewritten too. */
const operandText = (toks: Tok[]): string => joinTokens(rewriteTypedArithmetic(toks));

/**
 * `-x` of a numeric (marked 'num-neg'): __pg_num_neg(x), which keeps NaN (a sign binds tighter than
 * any operator); of an exact part of a result column ('numx-neg'), exactly; of an interval that is
 * no literal ('iv-neg'), each field negated as interval times -1 (SQLite's -'1 day' is -1).
 */
function rewriteNegations(toks: Tok[]): Tok[] {
  const negation = (t: Tok) =>
    'arith' in t && (t.arith === 'num-neg' || t.arith === 'numx-neg' || t.arith === 'iv-neg');
  if (!toks.some(negation)) return toks;
  const out: Tok[] = [];
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    const end = negation(t) ? operandEnd(toks, i + 1) : -1;
    if (end < 0) {
      out.push(t);
      continue;
    }
    const x = operandText(toks.slice(i + 1, end + 1));
    const mark = 'arith' in t ? t.arith : undefined;
    out.push({
      type: 'group',
      text:
        mark === 'numx-neg'
          ? `__pg_numeric_sub_exact(0, ${x})`
          : mark === 'iv-neg'
            ? `__pg_date_arith('iv*num', ${x}, -1)`
            : `__pg_num_neg(${x})`,
    });
    i = end;
  }
  return out;
}

const ARITHMETIC_OPS = new Set(['^', '*', '/', '%', '+', '-']);

/**
 * `@ x`, `|/ x`, `||/ x` (marked 'pre:abs', 'pre:sqrt', 'pre:cbrt'): the function's call. Their
 * operand runs through arithmetic, which binds tighter than these operators (`|/ 25 + 11` is 6).
 */
function rewritePrefixCalls(toks: Tok[]): Tok[] {
  const call = (t: Tok) => ('arith' in t && t.arith?.startsWith('pre:') ? t.arith.slice(4) : undefined);
  if (!toks.some(call)) return toks;
  const out: Tok[] = [];
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    const fn = call(t);
    let end = fn ? operandEnd(toks, i + 1) : -1;
    if (end < 0) {
      out.push(t);
      continue;
    }
    while (toks[end + 1]?.type === 'op' && ARITHMETIC_OPS.has(toks[end + 1].text)) {
      const next = operandEnd(toks, end + 2);
      if (next < 0) break;
      end = next;
    }
    const x = operandText(toks.slice(i + 1, end + 1));
    // (PostgreSQL's checks and NaN: src/engine/pg-float-math.ts, as words.ts calls the functions)
    out.push({ type: 'group', text: `${fn?.startsWith('__pg_') ? fn : `__pg_math_${fn}`}(${x})` });
    i = end;
  }
  return out;
}

/** numeric's `+`, `-`, `*` (marked 'num+', ...): the functions that keep NaN (src/engine/pg-numeric-arith.ts). */
const NUMERIC_OPS: Record<string, string> = lookup({
  'num+': '__pg_num_add',
  'num-': '__pg_num_sub',
  'num*': '__pg_num_mul',
  // of an exact result column (sql/exact-columns.ts): exactly, as text (src/engine/pg-exact-division.ts)
  // a numeric division as a double (SQLite would divide two integers as integers), NaN kept
  'num/': '__pg_num_div',
  'numx+': '__pg_numeric_add_exact',
  'numx-': '__pg_numeric_sub_exact',
  'numx*': '__pg_numeric_mul_exact',
  'numx/': '__pg_numeric_div',
  // numeric's power, exactly (src/engine/pg-exact-power.ts): `a ^ b` and power(a, b) ('numx-pow')
  'numx^': '__pg_numeric_power',
  'numx-pow': '__pg_numeric_power',
  // a double's (marked 'flt+', ...): PostgreSQL's checks too, 22003 past its range (src/engine/pg-float-math.ts)
  'flt+': '__pg_float_add',
  'flt-': '__pg_float_sub',
  'flt*': '__pg_float_mul',
  'flt/': '__pg_float_div',
});

/**
 * A double's `left op right` that SQLite computes (`value`): where it is infinite (or, of `*`,
 * zero; or NULL) __pg_float_check tells an overflow or underflow of finite operands (22003, as
 * PostgreSQL's float8pl and its kin) from an infinity that came in; other rows pay one BETWEEN
 * (the cheapest test measured: 100,000 rows of `f + 1` 15.9-19.9 ms before, 20.6-20.7 with it).
 */
function rangeChecked(op: string, left: string, right: string, value: string): string {
  const zero = op === '*' ? `(${value}) <> 0 AND ` : '';
  return `(CASE WHEN ${zero}(${value}) BETWEEN -1.7976931348623157e308 AND 1.7976931348623157e308 THEN ${value} ELSE __pg_float_check('${op}', ${left}, ${right}, ${value}) END)`;
}

/**
 * An exact operator's call ('numx*:2:' and the like): each operand that is a numeric of known scale
 * handed over at that scale (__pg_numeric_at: SQLite holds 12.50 as the double 12.5).
 */
function exactCall(arith: string, left: string, right: string): string {
  const [op, ls, rs] = arith.split(':');
  const at = (x: string, s: string | undefined) => (s ? `__pg_numeric_at(${x}, ${s})` : x);
  return `${NUMERIC_OPS[op]}(${at(left, ls)}, ${at(right, rs)})`;
}

/**
 * `value` unless one of the operands (columns or parameters, cheap to read twice) is numeric's NaN:
 * then NaN (NULL with a NULL); NaN too where SQLite's operator gives NULL of two values (Infinity -
 * Infinity, Infinity * 0: a NaN double, which SQLite makes NULL).
 */
function nanGuarded(
  op: string,
  a: string | null,
  b: string | null,
  left: string,
  right: string,
  value: string,
  result = value,
): string {
  const test = [a, b].filter((x) => x !== null).map((x) => `${x} IS 'NaN'`);
  // (NULL with NaN is NULL: SQLite's own operator, reading NaN as 0, tells it)
  // (`result`: the value where no operand is NaN, a double's range checked)
  const guarded = `(CASE WHEN (${test.join(' OR ')}) AND (${value}) IS NOT NULL THEN 'NaN' ELSE ${result} END)`;
  // (a sum or difference of a column and a number is never Infinity - Infinity)
  if (op !== '*' && test.length < 2) return guarded;
  return `(CASE WHEN (${value}) IS NULL THEN iif((${left}) IS NULL OR (${right}) IS NULL, NULL, 'NaN') WHEN ${test.join(' OR ')} THEN 'NaN' ELSE ${result} END)`;
}

/**
 * A numeric division whose operands are columns, parameters or numbers (marked 'num/:lr'): by a
 * double (__pg_real_divisor, 22012 by zero), NaN when an operand that may be NaN is (NaN / 0 too),
 * NULL with a NULL (SQLite's division reads NaN as 0: `x / 'NaN'` is NULL).
 */
function guardedDivision(a: string | null, b: string | null, left: string, right: string): string {
  const value = `${left} / __pg_real_divisor(${right})`;
  const test = [a, b].filter((x) => x !== null).map((x) => `${x} IS 'NaN'`);
  if (test.length === 0) return `(${value})`;
  const nan = `WHEN (${test.join(' OR ')}) AND (${left}) IS NOT NULL AND (${right}) IS NOT NULL THEN 'NaN'`;
  // (Infinity / Infinity of two columns: NaN, which SQLite makes NULL)
  const inf =
    test.length === 2 ? ` WHEN (${value}) IS NULL THEN iif((${left}) IS NULL OR (${right}) IS NULL, NULL, 'NaN')` : '';
  return `(CASE ${nan}${inf} ELSE ${value} END)`;
}

const COLUMN_CALLS = new Set(['num-sum-col', 'num-avg-col', 'num-fn-col', 'num-fn', 'num-pow', 'numx-pow']);
const callMark = (t: Tok): string | undefined =>
  'arith' in t ? t.arith?.replace(/^numx-pow:.*$/, 'numx-pow') : undefined;

/**
 * sum(x) and avg(x) of a numeric column (marked 'num-sum-col', 'num-avg-col'): NaN when x held one;
 * abs(x), sqrt(x), ... of a column ('num-fn-col') or an expression ('num-fn', read twice): NaN when x
 * is; power(a, b) of numerics ('num-pow'): PostgreSQL's answer when a or b is NaN (__pg_nan_power).
 */
function rewriteColumnAggregates(toks: Tok[]): Tok[] {
  if (!toks.some((t) => COLUMN_CALLS.has(callMark(t) ?? ''))) return toks;
  const out: Tok[] = [];
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    const mark = callMark(t);
    const close = mark && COLUMN_CALLS.has(mark) && isPunct(toks[i + 1], '(') ? closer(toks, i + 1) : -1;
    const pair = mark === 'num-pow' || mark === 'numx-pow';
    const args = pair && close > 0 ? topLevelItems(toks, i + 2, close) : [];
    if (close < 0 || (pair && args.length !== 2)) {
      out.push(t);
      continue;
    }
    if (mark === 'numx-pow' && 'arith' in t && t.arith) {
      // exactly, each operand of known scale at it (src/engine/pg-exact-power.ts)
      const [a, b] = args.map(([from, to]) => operandText(toks.slice(from, to)));
      out.push({ type: 'group', text: exactCall(t.arith, a, b) });
    } else if (mark === 'num-pow') {
      const [a, b] = args.map(([from, to]) => operandText(toks.slice(from, to)));
      out.push({ type: 'group', text: nanPower(a, b, `${t.text}(${a}, ${b})`) });
    } else {
      const x = mark === 'num-fn' ? `(${operandText(toks.slice(i + 2, close))})` : joinTokens(toks.slice(i + 2, close));
      const fn = mark === 'num-fn-col' || mark === 'num-fn';
      const test = fn ? `${x} IS 'NaN'` : `max(${x} IS 'NaN')`;
      // (a sum or avg of Infinity and -Infinity is NaN, where SQLite's is NULL)
      const value = fn ? `${t.text}(${x})` : `coalesce(${t.text}(${x}), iif(count(${x}) > 0, 'NaN', NULL))`;
      out.push({ type: 'group', text: `iif(${test}, 'NaN', ${value})` });
    }
    i = close;
  }
  return out;
}

/**
 * `a ^ b` of doubles: PostgreSQL's checks, the C library's value (src/engine/pg-float-math.ts); of
 * operands that hold such a call, NULL for that value, so that they are not written 2^depth times.
 */
const mathPower = (a: string, b: string): string =>
  `__pg_math_power(${a}, ${b}, ${/__pg_math_/.test(a + b) ? 'NULL' : `power(${a}, ${b})`})`;

/** `a ^ b` or power(a, b) of numerics: SQLite's power unless a or b is NaN (it made that NULL). */
const nanPower = (a: string, b: string, power: string): string =>
  `(CASE WHEN (${a}) IS 'NaN' OR (${b}) IS 'NaN' THEN __pg_nan_power(${a}, ${b}) ELSE ${power} END)`;

const BOUND_OPS = new Set(['^', '*', '/', '%', '+', '-', '#', '||']);

/** Where the left operand of BETWEEN or IN that ends `out` starts: with the operators that bind tighter. */
function boundOperandStart(out: Tok[]): number {
  let start = operandStart(out);
  while (
    start >= 2 &&
    out[start - 1].type === 'op' &&
    BOUND_OPS.has(out[start - 1].text) &&
    endsOperand(out[start - 2])
  )
    start = operandStart(out.slice(0, start - 1));
  return start;
}

/** `x [NOT] IN (a, b)` or `IN (SELECT ...)` of intervals (marked 'iv-in' on IN, or NOT): each by its length ('1 day' IN ('24 hours')). */
function rewriteIntervalIn(toks: Tok[]): Tok[] {
  // (and numeric and boolean arrays, 'arr-in:kind': by __pg_array_key, their elements' values; jsonb,
  // 'arr-in:jsonb', by __pg_jsonb_sortkey, one key for equal values ('1.50' and '1.5'); timetz,
  // 'arr-in:timetz', by its key, a literal read as timetz input; and
  // numerics in HAVING, 'numx-in': each compared as numerics, __pg_numeric_cmp)
  const marked = (t: Tok) =>
    'arith' in t && (t.arith === 'iv-in' || t.arith === 'numx-in' || t.arith?.startsWith('arr-in:') === true);
  if (!toks.some(marked)) return toks;
  const out: Tok[] = [];
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    const not = isWord(t, 'NOT') && isWord(toks[i + 1], 'IN');
    const at = not ? i + 1 : i;
    const open = marked(t) && isWord(toks[at], 'IN') && isPunct(toks[at + 1], '(') ? at + 1 : -1;
    const array = 'arith' in t && t.arith?.startsWith('arr-in:') ? t.arith.slice(7) : undefined;
    const numeric = 'arith' in t && t.arith === 'numx-in';
    const key = (x: string) =>
      array === 'jsonb'
        ? `__pg_jsonb_sortkey(${x})`
        : array === 'timetz'
          ? `__pg_array_sortkey('timetz@${sessionZone() ?? 'UTC'}', ${x})`
          : array
            ? `__pg_array_key('${array}', ${x})`
            : numeric
              ? `__pg_numeric_key(${x})`
              : `__pg_interval_key(${x})`;
    const close = open < 0 || out.length === 0 ? -1 : closer(toks, open);
    if (close < 0) {
      out.push(t);
      continue;
    }
    const leftToks = out.splice(boundOperandStart(out));
    const left = joinTokens(leftToks);
    // a row of timetz fields in a list of rows ('arr-in:row:k1,k2', sql/row-keys.ts): each such field by its key
    const row = array?.startsWith('row:') ? array.slice(4).split(',') : undefined;
    if (row) {
      const keyed = (side: Tok[]) => keyedRow(side, row, joinTokens, arrayKey) ?? joinTokens(side);
      const rows = topLevelItems(toks, open + 1, close).map(([a, b]) => keyed(toks.slice(a, b)));
      out.push({ type: 'group', text: `${keyed(leftToks)} ${not ? 'NOT ' : ''}IN (${rows.join(', ')})` });
      i = close;
      continue;
    }
    // a subquery's one column read through a UNION ALL whose first, empty member names it (numerics
    // in HAVING by __pg_numeric_key: one text for a number at any scale, the double 0.15 and the exact 0.15000)
    // (a set operation rewritten before: a group that is a query, interval-distinct.ts)
    const query = ['SELECT', 'WITH', 'VALUES'].some((w) => isWord(toks[open + 1], w));
    if (numeric && !query) {
      const each = topLevelItems(toks, open + 1, close).map(
        ([a, b]) => `__pg_numeric_cmp(${left}, ${joinTokens(toks.slice(a, b))}) = 0`,
      );
      out.push({ type: 'group', text: `${not ? 'NOT ' : ''}(${each.join(' OR ')})` });
      i = close;
      continue;
    }
    const items = query
      ? [
          `SELECT ${key('"__pg_k"')} FROM (SELECT NULL AS "__pg_k" WHERE 0 UNION ALL SELECT * FROM (${joinTokens(toks.slice(open + 1, close))}))`,
        ]
      : topLevelItems(toks, open + 1, close).map(([a, b]) => key(joinTokens(toks.slice(a, b))));
    out.push({ type: 'group', text: `${key(left)} ${not ? 'NOT ' : ''}IN (${items.join(', ')})` });
    i = close;
  }
  return out;
}

/**
 * `x [NOT] BETWEEN a AND b` of intervals (marked 'iv-between' on BETWEEN, or NOT): each side by its
 * length, of jsonb ('jb-between') by its key in jsonb's order, of timetz ('tz-between') by its
 * instant and offset; of numerics in HAVING ('numx-between'): compared as numerics (__pg_numeric_cmp).
 */
function rewriteIntervalBetween(toks: Tok[]): Tok[] {
  // (and of jsonb, 'jb-between': each side by __pg_jsonb_sortkey, in jsonb's order)
  const between = (t: Tok) =>
    'arith' in t &&
    (t.arith === 'iv-between' ||
      t.arith === 'numx-between' ||
      t.arith === 'jb-between' ||
      t.arith === 'tz-between' ||
      !!t.arith?.startsWith('date-between:'));
  if (!toks.some(between)) return toks;
  const out: Tok[] = [];
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    const not = isWord(t, 'NOT') && isWord(toks[i + 1], 'BETWEEN');
    const b = not ? i + 1 : i;
    const and = between(t) && isWord(toks[b], 'BETWEEN') ? topLevelWord(toks, b + 1, toks.length, 'AND') : -1;
    let end = and < 0 || out.length === 0 ? -1 : operandEnd(toks, and + 1);
    if (end < 0) {
      out.push(t);
      continue;
    }
    // the upper bound and the left operand, with the operators binding tighter than BETWEEN
    while (toks[end + 1]?.type === 'op' && BOUND_OPS.has(toks[end + 1].text)) {
      const next = operandEnd(toks, end + 2);
      if (next < 0) break;
      end = next;
    }
    const left = joinTokens(out.splice(boundOperandStart(out)));
    const [low, high] = [joinTokens(toks.slice(b + 1, and)), joinTokens(toks.slice(and + 1, end + 1))];
    const key =
      'arith' in t && t.arith === 'jb-between'
        ? '__pg_jsonb_sortkey'
        : 'arith' in t && t.arith === 'tz-between'
          ? `__pg_array_sortkey('timetz@${sessionZone() ?? 'UTC'}', `
          : '__pg_interval_key';
    const keyed = (x: string) => (key.endsWith(' ') ? `${key}${x})` : `${key}(${x})`);
    out.push({
      type: 'group',
      text:
        'arith' in t && t.arith === 'numx-between'
          ? `${not ? 'NOT ' : ''}(__pg_numeric_cmp(${left}, ${low}) >= 0 AND __pg_numeric_cmp(${left}, ${high}) <= 0)`
          : 'arith' in t && t.arith?.startsWith('date-between:')
            ? `${not ? 'NOT ' : ''}${dateBetween(t.arith.slice(13), left, low, high)}`
            : `${keyed(left)} ${not ? 'NOT ' : ''}BETWEEN ${keyed(low)} AND ${keyed(high)}`,
    });
    i = end;
  }
  return out;
}

/** One precedence level, left to right. */
function sweep(toks: Tok[], ops: string[]): Tok[] {
  const out: Tok[] = [];
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (!marked(t, ops) || out.length === 0) {
      out.push(t);
      continue;
    }
    // an exact division is a result column's whole expression: its left operand runs to the start
    const tighter = t.arith === 'num/x' ? SAME_LEVEL : TIGHTER[t.text];
    // the left operand, with the tighter operators it ends in (`a * b + d`: a * b) and those of its
    // own level before it (`a / b * c`: a / b)
    const leftOps = t.arith === 'num/x' ? SAME_LEVEL : LEFT[t.text];
    let start = operandStart(out);
    for (;;) {
      // a sign binds tighter than any of these (`-2 ^ 2` is 4)
      while (start >= 1 && (isOp(out[start - 1], '-') || isOp(out[start - 1], '+')) && !endsOperand(out[start - 2]))
        start--;
      // (an operator with no operand before it is a sign: `SELECT -7 # 0` takes -7, not SELECT;
      // `1 + -7 # 3` takes 1 + -7)
      if (start >= 2 && out[start - 1].type === 'op' && leftOps.has(out[start - 1].text) && endsOperand(out[start - 2]))
        start = operandStart(out.slice(0, start - 1));
      else break;
    }
    // the right operand, likewise (`d + interval '1 day' * n` when that * was not marked)
    let end = operandEnd(toks, i + 1);
    if (end < 0) {
      out.push(t);
      continue;
    }
    while (toks[end + 1]?.type === 'op' && tighter.has(toks[end + 1].text) && !isOp(toks[end + 1], t.text)) {
      const next = operandEnd(toks, end + 2);
      if (next < 0) break;
      end = next;
    }
    // (rows with timetz fields, 'row-ord:k1,k2': each such field by its key, sql/row-keys.ts)
    const row = t.arith.startsWith('row-ord:') ? t.arith.slice(8).split(',') : undefined;
    const operand = (side: Tok[]) => (row && keyedRow(side, row, operandText, arrayKey)) || operandText(side);
    const left = operand(out.splice(start));
    const right = operand(toks.slice(i + 1, end + 1));
    const guarded = /^(num|flt)[-+*/]:/.test(t.arith) ? t.arith.slice(5) : undefined;
    const float = t.arith.startsWith('flt');
    const value = `${left} ${t.text} ${right}`;
    const checked = intRangeChecked(t.arith, value);
    const divided = intDivisionChecked(t.arith, left, right);
    if (divided !== undefined) {
      // an integer division that may overflow, its range checked (sql/int-overflow.ts)
      out.push(...divided);
      i = end;
      continue;
    }
    if (checked !== undefined) {
      // int4 or int2 arithmetic, its range checked (sql/int-overflow.ts)
      out.push({ type: 'group', text: checked });
      i = end;
      continue;
    }
    out.push({
      type: 'group',
      text:
        guarded !== undefined && t.text === '/'
          ? guardedDivision(guarded.includes('l') ? left : null, guarded.includes('r') ? right : null, left, right)
          : guarded !== undefined
            ? nanGuarded(
                t.text,
                guarded.includes('l') ? left : null,
                guarded.includes('r') ? right : null,
                left,
                right,
                value,
                float ? rangeChecked(t.text, left, right, value) : value,
              )
            : t.arith === 'numx-cmp'
              ? `__pg_numeric_cmp(${left}, ${right}) ${t.text} 0`
              : t.arith.startsWith('numx')
                ? exactCall(t.arith, left, right)
                : NUMERIC_OPS[t.arith]
                  ? `${NUMERIC_OPS[t.arith]}(${left}, ${right})`
                  : t.arith === 'pow'
                    ? mathPower(left, right)
                    : t.arith === 'num-pow'
                      ? nanPower(left, right, mathPower(left, right))
                      : t.arith === 'xor'
                        ? `__pg_xor(${left}, ${right})`
                        : t.arith.startsWith('shift:')
                          ? `__pg_shift('${t.text}', ${t.arith.slice(6 + t.text.length)}, ${left}, ${right})`
                          : t.arith === 'starts'
                            ? `starts_with(${left}, ${right})`
                            : t.arith.startsWith('pat:')
                              ? `((${left}) COLLATE BINARY ${t.arith.slice(4)} (${right}))`
                              : t.arith === 'num%'
                                ? `__pg_mod(${left}, ${right})`
                                : t.arith === 'num/x'
                                  ? `__pg_numeric_div(${left}, ${right})`
                                  : t.arith === 'tsq||' || t.arith === 'tsv||'
                                    ? `${t.arith === 'tsq||' ? '__pg_tsquery_or' : '__pg_tsvector_concat'}(${left}, ${right})`
                                    : t.arith.startsWith('arr||')
                                      ? `__pg_array_cat('${t.arith.slice(5)}', ${left}, ${right})`
                                      : t.arith === 'jsonb||'
                                        ? `__pg_jsonb_concat(${left}, ${right})`
                                        : t.arith === 'bytea||'
                                          ? `__pg_bytea_concat(${left}, ${right})`
                                          : t.arith.startsWith('jsonb-')
                                            ? `__pg_jsonb_minus('${t.arith.slice(6)}', ${left}, ${right})`
                                            : t.arith.startsWith('txt||')
                                              ? textConcat(t.arith.slice(5), left, right)
                                              : t.arith === 'ord-jsonb'
                                                ? `__pg_jsonb_order(${left}, ${right}) ${t.text} 0`
                                                : t.arith.startsWith('date-cmp:')
                                                  ? dateComparison(t.arith, t.text, left, right)
                                                  : t.arith === 'iv-cmp'
                                                    ? `__pg_interval_key(${left}) ${t.text} __pg_interval_key(${right})`
                                                    : t.arith.startsWith('arr-cmp:')
                                                      ? arrayComparison(t.arith.slice(8), t.text, left, right)
                                                      : t.arith.startsWith('row-ord:')
                                                        ? value
                                                        : t.arith.startsWith('arr-ord:')
                                                          ? arrayComparison(
                                                              t.arith.slice(8),
                                                              t.text,
                                                              left,
                                                              right,
                                                              'sortkey',
                                                            )
                                                          : `__pg_date_arith(${quoteString(zonedArithmetic(t.arith))}, ${left}, ${right})`,
    });
    i = end;
  }
  return out;
}

/**
 * A date compared with a timestamp or timestamptz (`date-cmp:l:ts`, the date on the left): the date
 * as that type at midnight, a timestamptz's in the session's zone, as PostgreSQL's date_cmp_timestamp
 * casts it (their stored texts are compared then, as two timestamps' are).
 */
function dateComparison(kind: string, op: string, left: string, right: string): string {
  const [, side, type] = kind.split(':');
  const code = type === 'ts' ? 's' : 'z';
  return side === 'l' ? `${dateCast(code, left)} ${op} ${right}` : `${left} ${op} ${dateCast(code, right)}`;
}

/** `x BETWEEN a AND b` of dates beside timestamps ('date-between:' kinds, sql/typed-operators.ts): each comparison's date cast. */
function dateBetween(kind: string, x: string, low: string, high: string): string {
  const [xs, a, b] = kind.split(':');
  return `(${dateCast(xs[0], x)} >= ${dateCast(a, low)} AND ${dateCast(xs[1], x)} <= ${dateCast(b, high)})`;
}

/** A date as a timestamp ('s') or timestamptz ('z', at midnight in the session's zone), or as it is ('-'). */
function dateCast(code: string, x: string): string {
  if (code === 's') return `__pg_timestamp(${x})`;
  if (code !== 'z') return `(${x})`;
  const zone = sessionZone();
  return zone !== null ? `__pg_timestamptz_in(${x}, ${quoteString(zone)})` : `__pg_timestamptz(${x})`;
}

/** Numeric or boolean arrays compared by their elements' values (src/engine/pg-arrays.ts's __pg_array_key, __pg_array_sortkey). */
function arrayComparison(kind: string, op: string, left: string, right: string, key = 'key'): string {
  return `${arrayKey(kind, left, key)} ${op} ${arrayKey(kind, right, key)}`;
}

/** One side of arrayComparison: `__pg_array_key('kind', x)`, or `__pg_array_sortkey` (key 'sortkey'). */
function arrayKey(kind: string, x: string, key = 'sortkey'): string {
  // (a timetz beside a literal with no offset: the session zone's, as timetz input takes it)
  if (kind === 'timetz') kind = `timetz@${sessionZone() ?? 'UTC'}`;
  return `__pg_array_${key}('${kind}', ${x})`;
}

/**
 * A timestamptz ± interval with the session in a zone other than UTC: the zone goes with the kind
 * ('ts+iv@Europe/Paris'), whose months and days are added on that zone's clock, as PostgreSQL does.
 */
function zonedArithmetic(kind: string): string {
  const zone = sessionZone();
  return zone !== null && /^(tstz[+-]iv|iv\+tstz)$/.test(kind) ? `${kind}@${zone}` : kind;
}

/** Text `a || b` as PostgreSQL binds it, a side of a marked kind printed as its cast to text ('float8;', ';bool', ';'). */
function textConcat(kinds: string, left: string, right: string): string {
  const asText = (k: string, x: string) => (k ? textOfKind(k, x) : x);
  const [a, b] = kinds.split(';');
  // each side in parentheses: SQLite binds || tighter than the arithmetic PostgreSQL put inside it
  return `((${asText(a, left)}) || (${asText(b, right)}))`;
}

/**
 * concat(...), concat_ws(...), format(...) whose arguments the analysis typed (`textargs:k1,k2,...`,
 * sql/typed-operators.ts): each marked argument made text as PostgreSQL prints its type. Innermost first.
 */
export function rewriteTextArguments(toks: Tok[]): Tok[] {
  for (let i = toks.length - 2; i >= 0; i--) {
    const t = toks[i];
    if (!('arith' in t) || !t.arith?.startsWith('textargs:') || !isPunct(toks[i + 1], '(')) continue;
    const close = closer(toks, i + 1);
    const kinds = t.arith.slice(9).split(',');
    const items = close < 0 ? [] : topLevelItems(toks, i + 2, close);
    if (items.length !== kinds.length) continue;
    const args = items.map(([a, b], k) => {
      const text = joinTokens(rewriteDateArithmetic(toks.slice(a, b)));
      return kinds[k] === '-' ? text : textOfKind(kinds[k], text);
    });
    toks.splice(i + 1, close - i, { type: 'group', text: `(${args.join(', ')})` });
  }
  return toks;
}
