// LIKE is case sensitive, and `\` escapes by default (SQLite's LIKE folds ASCII case and has no
// default escape): `a LIKE p` becomes `a GLOB __pg_like_glob(p)` (the pattern turned into a GLOB
// pattern by src/engine/pg-functions.ts); ILIKE likewise, with each letter as the class of its
// cases (`[aA]`), so that it folds Unicode case as PostgreSQL does in UTF8. `x SIMILAR TO p` becomes
// `x REGEXP __pg_similar(p)`, the SQL pattern turned into an anchored regular expression.
// SQLite would answer the same text otherwise, silently; test/pg/semantics-oracle.test.ts runs it on both.
import { pgError } from '../../sqlstate';
import { type Tok, closer, isOp, isPunct, isWord, operandStart } from '../tokens';
import { primaryEnd, primaryStart } from './primaries';
import { quantifiedTruth, valuesOf } from './quantified';
import { lookup } from '../../../../src/lookup';

/**
 * The end (exclusive) of the simple expression starting at toks[i]: literals, parameters, column
 * references, function calls and parenthesised groups joined by `||`, each with `::type` casts.
 * Returns i when there is no such expression there.
 */
function operandEnd(toks: Tok[], i: number): number {
  let j = primaryEnd(toks, i);
  while (j > i && isOp(toks[j], '||')) {
    const k = primaryEnd(toks, j + 1);
    if (k === j + 1) return i;
    j = k;
  }
  return j;
}

const byteaLike = (t: Tok) => 'arith' in t && t.arith === 'bytea-like';

/** The start of LIKE's left operand that ends `out`: primaries joined by `||`; -1 when none. */
function leftOperandStart(out: Tok[]): number {
  let s = primaryStart(out, out.length);
  while (s >= 2 && isOp(out[s - 1], '||')) {
    const before = primaryStart(out, s - 1);
    if (before < 0) return -1;
    s = before;
  }
  return s;
}

const LIKE_OPS: Record<string, { not: boolean; insensitive: boolean }> = lookup({
  '~~': { not: false, insensitive: false },
  '!~~': { not: true, insensitive: false },
  '~~*': { not: false, insensitive: true },
  '!~~*': { not: true, insensitive: true },
});

/** LIKE, ILIKE, their operators (~~, ~~*, !~~, !~~*) and SIMILAR TO, with PostgreSQL's case and escape rules. */
export function rewriteLike(toks: Tok[]): Tok[] {
  if (
    !toks.some(
      (t) => isWord(t, 'LIKE') || isWord(t, 'ILIKE') || isWord(t, 'SIMILAR') || (t.type === 'op' && LIKE_OPS[t.text]),
    )
  )
    return toks;
  const out: Tok[] = [];
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    const op = t.type === 'op' ? LIKE_OPS[t.text] : undefined;
    // x [NOT] SIMILAR TO p [ESCAPE e]: a regular expression made of the pattern by __pg_similar
    const similar = isWord(t, 'SIMILAR') && isWord(toks[i + 1], 'TO');
    if (similar) i++;
    if (!op && !similar && !isWord(t, 'LIKE') && !isWord(t, 'ILIKE')) {
      out.push(t);
      continue;
    }
    const insensitive = op ? op.insensitive : isWord(t, 'ILIKE');
    if (!similar && quantifier(toks[i + 1]) && isPunct(toks[i + 2], '(')) {
      i = likeQuantified(toks, i, out, insensitive, op?.not ?? false);
      continue;
    }
    const name = op ? `operator ${t.text}` : similar ? 'SIMILAR TO' : t.text.toUpperCase();
    const end = operandEnd(toks, i + 1);
    if (end === i + 1) {
      const what = toks[i + 1] ? `${toks[i + 1].text} after ${name}` : `${name} without a pattern`;
      throw pgError('0A000', `${what} is not supported: the pattern must be a value, parameter, column or || of these`);
    }
    if (toks[end]?.type === 'op' && !['=', '<>', '!=', '<', '>', '<=', '>='].includes(toks[end].text))
      throw pgError(
        '0A000',
        `operator ${toks[end].text} in a ${name} pattern is not supported: put the pattern in parentheses`,
      );
    const pattern = toks.slice(i + 1, end);
    let esc: Tok[] | null = null;
    let next = end;
    if (isWord(toks[end], 'ESCAPE')) {
      const e = operandEnd(toks, end + 1);
      if (e === end + 1) throw pgError('42601', 'syntax error: ESCAPE needs a character');
      esc = toks.slice(end + 1, e);
      next = e;
    }
    // bytea's LIKE (typed-operators.ts marks it, or the NOT of NOT LIKE): the bytes matched
    const before = out[out.length - 1];
    if (byteaLike(t) || (isWord(before, 'NOT') && byteaLike(before))) {
      const not = op?.not || isWord(before, 'NOT');
      if (isWord(before, 'NOT')) out.pop();
      const left = leftOperandStart(out);
      if (left < 0)
        throw pgError('0A000', `${name} of bytea here is not supported: put its left operand in parentheses`);
      const x = out.splice(left);
      if (not) out.push({ type: 'word', text: 'NOT' });
      out.push({ type: 'word', text: '__pg_bytea_like' }, { type: 'punct', text: '(' }, ...x, {
        type: 'punct',
        text: ',',
      });
      out.push(...pattern);
      if (esc) out.push({ type: 'punct', text: ',' }, ...esc);
      out.push({ type: 'punct', text: ')' });
      i = next - 1;
      continue;
    }
    if (op?.not) out.push({ type: 'word', text: 'NOT' });
    const fn = similar ? '__pg_similar' : insensitive ? '__pg_ilike_glob' : '__pg_like_glob';
    out.push(
      { type: 'word', text: similar ? 'REGEXP' : 'GLOB' },
      { type: 'word', text: fn },
      { type: 'punct', text: '(' },
    );
    out.push(...pattern);
    if (esc) out.push({ type: 'punct', text: ',' }, ...esc);
    out.push({ type: 'punct', text: ')' });
    i = next - 1;
  }
  return out;
}

const quantifier = (t: Tok | undefined) => isWord(t, 'ANY') || isWord(t, 'SOME') || isWord(t, 'ALL');

/**
 * `x [NOT] LIKE ANY (array or subquery)`, `x ILIKE ALL (...)`, `x !~~ ANY (...)`: whether the match
 * (or its negation) holds for some or every element, NULL when none decides and one compared NULL;
 * over no elements ANY is false and ALL true, as in PostgreSQL. The left operand is taken back off
 * `out`; returns the index of the closing parenthesis.
 */
function likeQuantified(toks: Tok[], i: number, out: Tok[], insensitive: boolean, notOp: boolean): number {
  const all = isWord(toks[i + 1], 'ALL');
  const close = closer(toks, i + 2);
  if (close < 0) throw pgError('42601', 'syntax error at end of input');
  let not = notOp;
  if (isWord(out[out.length - 1], 'NOT')) {
    not = true;
    out.pop();
  }
  let start = operandStart(out);
  while (start > 0 && (isOp(out[start - 1], '::') || isOp(out[start - 1], '||')))
    start = operandStart(out.slice(0, start - 1));
  if (start < 0 || start >= out.length) throw pgError('42601', `syntax error at or near "${toks[i].text}"`);
  const left = out.splice(start);
  const inner = toks.slice(i + 3, close);
  const query = isWord(inner[0], 'SELECT') || isWord(inner[0], 'WITH') || isWord(inner[0], 'VALUES');
  const w = (text: string): Tok => ({ type: 'word', text });
  const pu = (text: string): Tok => ({ type: 'punct', text });
  const match = (): Tok[] => [
    pu('('),
    ...(not ? [w('NOT')] : []),
    pu('('),
    ...left,
    w('GLOB'),
    w(insensitive ? '__pg_ilike_glob' : '__pg_like_glob'),
    pu('('),
    w('__pg_e'),
    pu(')'),
    pu(')'),
    pu(')'),
  ];
  out.push(
    pu('('),
    // the array's elements as the rows of a query (arrays.ts makes ARRAY[...] and the unnest)
    ...valuesOf(
      '__pg_e',
      query
        ? inner
        : [w('SELECT'), w('__pg_v'), w('FROM'), w('unnest'), pu('('), ...inner, pu(')'), w('AS'), w('__pg_v')],
    ),
    ...quantifiedTruth(all, match, [w('__pg_q')]),
    pu(')'),
  );
  return close;
}
