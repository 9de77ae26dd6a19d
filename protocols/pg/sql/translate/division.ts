// Division by zero as PostgreSQL reports it: the divisor of `/` and `%` goes through __pg_divisor,
// which raises 22012 where SQLite would answer NULL.
import { type Tok, closerAfter, endsOperand, isOp, isPunct, isWord } from '../tokens';

/**
 * The divisor of `/` and `%` goes through __pg_divisor, which raises 22012 division_by_zero where
 * SQLite would answer NULL. Both bind tighter than + and -, so the divisor is one operand: a sign,
 * then a literal, parameter, name, call, CASE ... END or parenthesized group (casts are groups by now).
 */
export function rewriteDivision(toks: Tok[]): Tok[] {
  for (let i = 1; i < toks.length - 1; i++) {
    if (!(isOp(toks[i], '/') || isOp(toks[i], '%')) || !endsOperand(toks[i - 1])) continue;
    let j = i + 1;
    while (isOp(toks[j], '-') || isOp(toks[j], '+')) j++;
    const t = toks[j];
    if (t === undefined) continue;
    let end = j;
    if (isPunct(t, '(')) end = closerAfter(toks, j);
    else if (isWord(t, 'CASE')) {
      for (let depth = 0; end < toks.length; end++) {
        if (isWord(toks[end], 'CASE')) depth++;
        else if (isWord(toks[end], 'END') && --depth === 0) break;
      }
    } else if (t.type === 'word' || t.type === 'quoted') {
      while (
        isPunct(toks[end + 1], '.') &&
        toks[end + 2] &&
        (toks[end + 2].type === 'word' || toks[end + 2].type === 'quoted')
      )
        end += 2;
      if (isPunct(toks[end + 1], '(')) end = closerAfter(toks, end + 1);
    }
    const operand = toks.slice(i + 1, end + 1);
    toks.splice(i + 1, end - i, { type: 'word', text: '__pg_divisor' }, { type: 'punct', text: '(' }, ...operand, {
      type: 'punct',
      text: ')',
    });
  }
  return toks;
}
