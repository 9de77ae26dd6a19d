// Operators marked by the analysis with what they compute (sql/typed-operators.ts reads their
// operand types off PostgreSQL's parse tree): `x AT TIME ZONE z` becomes __pg_at_zone(kind, x, z);
// `date + 1`, `date - date`, `interval * 2`, ... become __pg_date_arith('kind', left, right); `a ^ b`
// becomes power(a, b), `a # b` (XOR) __pg_xor(a, b), a numeric `a % b` __pg_mod(a, b); intervals
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
import { exactSortKey } from './exact-order';
import { negateIntervals, rewriteIntervalArithmetic } from './interval-arithmetic';

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
    const left = joinTokens(out.splice(operandStart(out)));
    out.push({ type: 'group', text: `__pg_at_zone('${kind}', ${left}, ${joinTokens(toks.slice(i + 3, end + 1))})` });
    i = end;
  }
  return out;
}

const COMPARISON_OPS = ['=', '<>', '!=', '<', '>', '<=', '>='];

const TIGHTER: Record<string, Set<string>> = {
  '^': new Set(),
  '*': new Set(['^']),
  '/': new Set(['^']),
  '%': new Set(['^']),
  '+': new Set(['^', '*', '/', '%']),
  '-': new Set(['^', '*', '/', '%']),
  // `#` (bitwise XOR) is one of PostgreSQL's other operators, looser than arithmetic
  '#': new Set(['^', '*', '/', '%', '+', '-']),
  '||': new Set(['^', '*', '/', '%', '+', '-']),
};
// comparisons bind looser than all of these
for (const op of COMPARISON_OPS) TIGHTER[op] = new Set(['^', '*', '/', '%', '+', '-', '#', '||']);

const SAME_LEVEL = new Set(['^', '*', '/', '%']);

const marked = (t: Tok | undefined, ops: string[]): t is Tok & { arith: string } =>
  t !== undefined && t.type === 'op' && 'arith' in t && t.arith !== undefined && ops.includes(t.text);

export function rewriteTypedArithmetic(toks: Tok[]): Tok[] {
  if (!toks.some((t) => 'arith' in t && t.arith !== undefined)) return toks;
  // a string literal compared with a number: the number PostgreSQL reads it as
  // and avg, stddev and variance of a result column, exact (src/engine/pg-exact-division.ts,
  // pg-exact-statistics.ts)
  toks = toks.map((t) =>
    t.type === 'string' && 'arith' in t && t.arith?.startsWith('num:')
      ? { type: 'number', text: t.arith.slice(4) }
      : t.type === 'number' && 'arith' in t && t.arith === 'numx-lit'
        ? { type: 'string', text: quoteString(t.text) }
        : t.type === 'string' && 'arith' in t && t.arith?.startsWith('str:')
          ? { type: 'string', text: quoteString(t.arith.slice(4)) }
          : t.type === 'word' && 'arith' in t && t.arith === 'avg-x'
            ? { type: 'word', text: '__pg_numeric_avg' }
            : t.type === 'word' && 'arith' in t && t.arith === 'stat-x'
              ? { type: 'word', text: `__pg_numeric_${t.text.toLowerCase()}` }
              : 'arith' in t && t.arith === 'num-order'
                ? { type: 'group', text: exactSortKey(t.text) }
                : t,
  );
  toks = rewriteNegations(rewriteColumnAggregates(toks));
  for (const ops of [['^'], ['*', '/', '%'], ['+', '-'], ['#', '||']]) toks = sweep(toks, ops);
  // BETWEEN binds looser than those and tighter than comparisons
  return sweep(rewriteIntervalIn(rewriteIntervalBetween(toks)), COMPARISON_OPS);
}

/** An operand's text with the marks inside it (in parentheses, a call's arguments) rewritten too. */
const operandText = (toks: Tok[]): string => joinTokens(rewriteTypedArithmetic(toks));

/** `-x` of a numeric (marked 'num-neg'): __pg_num_neg(x), which keeps NaN (a sign binds tighter than any operator). */
function rewriteNegations(toks: Tok[]): Tok[] {
  if (!toks.some((t) => 'arith' in t && t.arith === 'num-neg')) return toks;
  const out: Tok[] = [];
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    const end = 'arith' in t && t.arith === 'num-neg' ? operandEnd(toks, i + 1) : -1;
    if (end < 0) {
      out.push(t);
      continue;
    }
    out.push({ type: 'group', text: `__pg_num_neg(${operandText(toks.slice(i + 1, end + 1))})` });
    i = end;
  }
  return out;
}

/** numeric's `+`, `-`, `*` (marked 'num+', ...): the functions that keep NaN (src/engine/pg-numeric-arith.ts). */
const NUMERIC_OPS: Record<string, string> = {
  'num+': '__pg_num_add',
  'num-': '__pg_num_sub',
  'num*': '__pg_num_mul',
  // of an exact result column (sql/exact-columns.ts): exactly, as text (src/engine/pg-exact-division.ts)
  'numx+': '__pg_numeric_add_exact',
  'numx-': '__pg_numeric_sub_exact',
  'numx*': '__pg_numeric_mul_exact',
};

/** `value` unless one of the operands (columns or parameters, cheap to read twice) is numeric's NaN: then NaN (NULL with a NULL). */
function nanGuarded(a: string | null, b: string | null, value: string): string {
  const test = [a, b].filter((x) => x !== null).map((x) => `${x} IS 'NaN'`);
  // (NULL with NaN is NULL: SQLite's own operator, reading NaN as 0, tells it)
  return `(CASE WHEN (${test.join(' OR ')}) AND (${value}) IS NOT NULL THEN 'NaN' ELSE ${value} END)`;
}

const COLUMN_CALLS = new Set(['num-sum-col', 'num-avg-col', 'num-fn-col']);

/**
 * sum(x) and avg(x) of a numeric column (marked 'num-sum-col', 'num-avg-col'): NaN when x held one;
 * abs(x), sqrt(x), ... ('num-fn-col'): NaN when x is.
 */
function rewriteColumnAggregates(toks: Tok[]): Tok[] {
  if (!toks.some((t) => 'arith' in t && COLUMN_CALLS.has(t.arith ?? ''))) return toks;
  const out: Tok[] = [];
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    const mark = 'arith' in t ? t.arith : undefined;
    const close = mark && COLUMN_CALLS.has(mark) && isPunct(toks[i + 1], '(') ? closer(toks, i + 1) : -1;
    if (close < 0) {
      out.push(t);
      continue;
    }
    const x = joinTokens(toks.slice(i + 2, close));
    const test = mark === 'num-fn-col' ? `${x} IS 'NaN'` : `max(${x} IS 'NaN')`;
    out.push({ type: 'group', text: `iif(${test}, 'NaN', ${t.text}(${x}))` });
    i = close;
  }
  return out;
}

const BOUND_OPS = new Set(['^', '*', '/', '%', '+', '-', '#', '||']);

/** Where the left operand of BETWEEN or IN that ends `out` starts: with the operators that bind tighter. */
function boundOperandStart(out: Tok[]): number {
  let start = operandStart(out);
  while (start >= 2 && out[start - 1].type === 'op' && BOUND_OPS.has(out[start - 1].text))
    start = operandStart(out.slice(0, start - 1));
  return start;
}

/** `x [NOT] IN (a, b)` of intervals (marked 'iv-in' on IN, or NOT): each by its length ('1 day' IN ('24 hours')). */
function rewriteIntervalIn(toks: Tok[]): Tok[] {
  if (!toks.some((t) => 'arith' in t && t.arith === 'iv-in')) return toks;
  const out: Tok[] = [];
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    const not = isWord(t, 'NOT') && isWord(toks[i + 1], 'IN');
    const at = not ? i + 1 : i;
    const open =
      'arith' in t && t.arith === 'iv-in' && isWord(toks[at], 'IN') && isPunct(toks[at + 1], '(') ? at + 1 : -1;
    const close = open < 0 || out.length === 0 ? -1 : closer(toks, open);
    if (close < 0) {
      out.push(t);
      continue;
    }
    const left = joinTokens(out.splice(boundOperandStart(out)));
    const items = topLevelItems(toks, open + 1, close).map(
      ([a, b]) => `__pg_interval_key(${joinTokens(toks.slice(a, b))})`,
    );
    out.push({ type: 'group', text: `__pg_interval_key(${left}) ${not ? 'NOT ' : ''}IN (${items.join(', ')})` });
    i = close;
  }
  return out;
}

/** `x [NOT] BETWEEN a AND b` of intervals (marked 'iv-between' on BETWEEN, or NOT): each side by its length. */
function rewriteIntervalBetween(toks: Tok[]): Tok[] {
  if (!toks.some((t) => 'arith' in t && t.arith === 'iv-between')) return toks;
  const out: Tok[] = [];
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    const not = isWord(t, 'NOT') && isWord(toks[i + 1], 'BETWEEN');
    const b = not ? i + 1 : i;
    const and =
      'arith' in t && t.arith === 'iv-between' && isWord(toks[b], 'BETWEEN')
        ? topLevelWord(toks, b + 1, toks.length, 'AND')
        : -1;
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
    const key = (x: Tok[]) => `__pg_interval_key(${joinTokens(x)})`;
    out.push({
      type: 'group',
      text: `__pg_interval_key(${left}) ${not ? 'NOT ' : ''}BETWEEN ${key(toks.slice(b + 1, and))} AND ${key(toks.slice(and + 1, end + 1))}`,
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
    if (t.arith === 'num/') {
      // a numeric division: the divisor as a double, so SQLite does not divide integers; its left
      // operand stays as it is (`a * b / c` is still (a * b) / c)
      const end = operandEnd(toks, i + 1);
      if (end < 0) {
        out.push(t);
        continue;
      }
      out.push(t, { type: 'group', text: `__pg_real_divisor(${operandText(toks.slice(i + 1, end + 1))})` });
      i = end;
      continue;
    }
    // an exact division is a result column's whole expression: its left operand runs to the start
    const tighter = t.arith === 'num/x' ? SAME_LEVEL : TIGHTER[t.text];
    // the left operand, with the tighter operators it ends in (`a * b + d`: a * b)
    let start = operandStart(out);
    while (start >= 2 && out[start - 1].type === 'op' && tighter.has(out[start - 1].text))
      start = operandStart(out.slice(0, start - 1));
    // a sign binds tighter than any of these (`-2 ^ 2` is 4)
    while (start >= 1 && (isOp(out[start - 1], '-') || isOp(out[start - 1], '+')) && !endsOperand(out[start - 2]))
      start--;
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
    const left = operandText(out.splice(start));
    const right = operandText(toks.slice(i + 1, end + 1));
    const guarded = /^num[-+*]:/.test(t.arith) ? t.arith.slice(5) : undefined;
    out.push({
      type: 'group',
      text: guarded
        ? nanGuarded(
            guarded.includes('l') ? left : null,
            guarded.includes('r') ? right : null,
            `${left} ${t.text} ${right}`,
          )
        : NUMERIC_OPS[t.arith]
          ? `${NUMERIC_OPS[t.arith]}(${left}, ${right})`
          : t.arith === 'pow'
            ? `power(${left}, ${right})`
            : t.arith === 'xor'
              ? `__pg_xor(${left}, ${right})`
              : t.arith === 'num%'
                ? `__pg_mod(${left}, ${right})`
                : t.arith === 'num/x'
                  ? `__pg_numeric_div(${left}, ${right})`
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
                            : t.arith === 'iv-cmp'
                              ? `__pg_interval_key(${left}) ${t.text} __pg_interval_key(${right})`
                              : `__pg_date_arith('${t.arith}', ${left}, ${right})`,
    });
    i = end;
  }
  return out;
}

/** Text `a || b` as PostgreSQL binds it, a side of a marked kind printed as its cast to text ('float8;', ';bool', ';'). */
function textConcat(kinds: string, left: string, right: string): string {
  const asText = (k: string, x: string) => (k ? `__pg_text('${k}', ${x})` : x);
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
      return kinds[k] === '-' ? text : `__pg_text('${kinds[k]}', ${text})`;
    });
    toks.splice(i + 1, close - i, { type: 'group', text: `(${args.join(', ')})` });
  }
  return toks;
}
