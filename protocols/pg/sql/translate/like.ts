// LIKE is case sensitive, and `\` escapes by default (SQLite's LIKE folds ASCII case and has no
// default escape): `a LIKE p` becomes `a GLOB __pg_like_glob(p)` (the pattern turned into a GLOB
// pattern by src/engine/pg-functions.ts); ILIKE likewise, with each letter as the class of its
// cases (`[aA]`), so that it folds Unicode case as PostgreSQL does in UTF8. `x SIMILAR TO p` becomes
// `x REGEXP __pg_similar(p)`, the SQL pattern turned into an anchored regular expression.
// SQLite would answer the same text otherwise, silently; test/pg/semantics-oracle.test.ts runs it on both.
import { pgError } from '../../sqlstate';
import { type Tok, isOp, isWord } from '../tokens';
import { primaryEnd } from './primaries';
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
    if (op?.not) out.push({ type: 'word', text: 'NOT' });
    const pattern = toks.slice(i + 1, end);
    let esc: Tok[] | null = null;
    let next = end;
    if (isWord(toks[end], 'ESCAPE')) {
      const e = operandEnd(toks, end + 1);
      if (e === end + 1) throw pgError('42601', 'syntax error: ESCAPE needs a character');
      esc = toks.slice(end + 1, e);
      next = e;
    }
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
