// Division by zero as PostgreSQL reports it: the divisor of `/` and `%` goes through __pg_divisor,
// which raises 22012 where SQLite would answer NULL.
import {
  type Tok,
  closerIndex,
  endsOperand,
  isOp,
  isPunct,
  joinTokens,
  operandEnd,
  operandStart,
  ungroup,
} from '../tokens';

/** Operators of the level of `/` and `%` and tighter: a dividend runs back through them (`a * b / c`). */
const DIVIDEND_OPS = new Set(['*', '/', '%', '^']);

/**
 * The divisor of `/` and `%` goes through __pg_divisor, which raises 22012 division_by_zero where
 * SQLite would answer NULL. Both bind tighter than + and -, so the divisor is one operand: a sign,
 * then a literal, parameter, name, call, CASE ... END or parenthesized group (casts are groups by now).
 * A dividend that is no literal goes with it (__pg_divisor_of(b, a IS NULL)): PostgreSQL's division
 * is strict, so NULL / 0 is NULL, not 22012. A division inside a group an earlier pass wrote (a cast,
 * `(x % y)::text`; a `||` operand) is rewritten in the group's text (they answered NULL there).
 */
export function rewriteDivision(toks: Tok[]): Tok[] {
  for (let i = 0; i < toks.length; i++) {
    const g = toks[i];
    if (g.type === 'group' && /[/%]/.test(g.text)) toks[i] = divisionsInGroup(g);
  }
  for (let i = 1; i < toks.length - 1; i++) {
    const t = toks[i];
    if (!(isOp(t, '/') || isOp(t, '%')) || !endsOperand(toks[i - 1])) continue;
    if ('arith' in t && t.arith === 'num/') continue; // its divisor is __pg_real_divisor already
    if (DIVISOR_CALLS.test(toks[i + 1].text)) continue; // (a group's text read back: done already)
    const end = operandEnd(toks, i + 1);
    if (end < 0) continue;
    const operand = toks.slice(i + 1, end + 1);
    const dividend = dividendOf(toks, i);
    const literal = dividend.length === 1 && (dividend[0].type === 'number' || dividend[0].type === 'string');
    // (a dividend read twice must be cheap: no subquery, no division of its own, whose text it
    // would double at each step of a chain)
    const costly = dividend.some((d) => /\bSELECT\b|__pg_divisor/i.test(d.text)) || dividend.length > 40;
    const call: Tok[] =
      literal || costly || dividend.length === 0
        ? [
            { type: 'word', text: '__pg_divisor' },
            { type: 'punct', text: '(' },
            ...operand,
            { type: 'punct', text: ')' },
          ]
        : [
            { type: 'word', text: '__pg_divisor_of' },
            { type: 'punct', text: '(' },
            ...operand,
            { type: 'group', text: `, (${joinTokens(dividend)}) IS NULL` },
            { type: 'punct', text: ')' },
          ];
    toks.splice(i + 1, end - i, ...call);
  }
  return toks;
}

const DIVISOR_CALLS = /^__pg_(real_)?divisor(_of)?$/i;

/** A group's text with its divisions rewritten, read back into tokens and joined again; `g` when it has none. */
function divisionsInGroup(g: Tok): Tok {
  const inner = ungroup([g]);
  // (only a whole operand, `(...)` or `CAST(...)`: a group can be a fragment whose divisor's call
  // goes on after it, `, 1.0 / tan` + `(x)`)
  const open = isPunct(inner[0], '(') ? 0 : inner[0]?.type === 'word' && isPunct(inner[1], '(') ? 1 : -1;
  if (open < 0 || closerIndex(inner, open) !== inner.length - 1) return g;
  const divides = (t: Tok, k: number) =>
    (isOp(t, '/') || isOp(t, '%')) && !DIVISOR_CALLS.test(inner[k + 1]?.text ?? '');
  if (!inner.some(divides)) return g;
  return { type: 'group', text: joinTokens(rewriteDivision(inner)) };
}

/** The tokens of the dividend of the operator at toks[i]: its operand, through tighter operators and signs. */
function dividendOf(toks: Tok[], i: number): Tok[] {
  const before = toks.slice(0, i);
  let start = operandStart(before);
  while (
    start >= 2 &&
    before[start - 1].type === 'op' &&
    DIVIDEND_OPS.has(before[start - 1].text) &&
    endsOperand(before[start - 2])
  )
    start = operandStart(before.slice(0, start - 1));
  while (
    start >= 1 &&
    (isOp(before[start - 1], '-') || isOp(before[start - 1], '+')) &&
    !endsOperand(before[start - 2])
  )
    start--;
  return start < 0 ? [] : before.slice(start);
}
