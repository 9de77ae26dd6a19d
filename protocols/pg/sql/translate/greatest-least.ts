// greatest() and least() ignore NULLs (SQLite's max(a, b) is NULL when one is).
// SQLite would answer the same text otherwise, silently; test/pg/semantics-oracle.test.ts runs it on both.
import { type Tok, closer, isPunct, isWord } from '../tokens';

/** greatest(a, b, ...) and least(...) as max()/min() of rotated coalesces, so that NULLs are skipped. */
export function rewriteGreatestLeast(toks: Tok[]): Tok[] {
  if (!toks.some((t) => isWord(t, 'GREATEST') || isWord(t, 'LEAST'))) return toks;
  const out: Tok[] = [];
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    const c = isPunct(toks[i + 1], '(') && !isPunct(toks[i - 1], '.') ? closer(toks, i + 1) : -1;
    if (!(isWord(t, 'GREATEST') || isWord(t, 'LEAST')) || c < 0) {
      out.push(t);
      continue;
    }
    const args: Tok[][] = [[]];
    let depth = 0;
    for (const a of rewriteGreatestLeast(toks.slice(i + 2, c))) {
      if (isPunct(a, '(')) depth++;
      else if (isPunct(a, ')')) depth--;
      if (depth === 0 && isPunct(a, ',')) args.push([]);
      else args[args.length - 1].push(a);
    }
    const fn = isWord(t, 'GREATEST') ? 'max' : 'min';
    const open: Tok = { type: 'punct', text: '(' };
    const close: Tok = { type: 'punct', text: ')' };
    const comma: Tok = { type: 'punct', text: ',' };
    if (args.length === 1) out.push(open, ...args[0], close);
    else {
      out.push({ type: 'word', text: fn }, open);
      args.forEach((_, k) => {
        if (k > 0) out.push(comma);
        out.push({ type: 'word', text: 'coalesce' }, open);
        for (let m = 0; m < args.length; m++) {
          if (m > 0) out.push(comma);
          out.push(open, ...args[(k + m) % args.length], close);
        }
        out.push(close);
      });
      out.push(close);
    }
    i = c;
  }
  return out;
}
