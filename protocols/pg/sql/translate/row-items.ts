// ROW(a, b) or (a, b) as a result column (marked `row:k1,k2` by sql/typed-operators.ts at the ROW
// or the parenthesis): PostgreSQL's record text, `(1,abc)`, by __pg_record of the fields, each made
// text as its type prints it (rewriteTextArguments, after this). SQLite has row values only in
// comparisons (`row value misused` elsewhere); it was 0A000.
import { type Tok, isPunct, isWord } from '../tokens';

export function rewriteRowItems(toks: Tok[]): Tok[] {
  for (let i = toks.length - 1; i >= 0; i--) {
    const t = toks[i];
    if (!('arith' in t) || !t.arith?.startsWith('row:')) continue;
    const kinds = `textargs:${t.arith.slice(4)}`;
    if (isWord(t, 'ROW') && isPunct(toks[i + 1], '(')) toks[i] = { type: 'word', text: '__pg_record', arith: kinds };
    else if (isPunct(t, '('))
      toks.splice(i, 1, { type: 'word', text: '__pg_record', arith: kinds }, { type: 'punct', text: '(' });
  }
  return toks;
}
