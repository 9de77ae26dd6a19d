// greatest() and least() ignore NULLs (SQLite's max(a, b) is NULL when one is); of intervals and
// timetz values they pick by length, or instant and offset (__pg_keyed_greatest), not by the text.
// SQLite would answer the same text otherwise, silently; test/pg/semantics-oracle.test.ts runs it on both.
// coalesce() of one argument, which PostgreSQL takes (its value) and SQLite refuses.
import { type Tok, closer, isPunct, isWord } from '../tokens';
import { quoteString } from '../lexer';
import { sessionZone } from '../session-zone';

/** greatest(a, b, ...) and least(...) as max()/min() of rotated coalesces, so that NULLs are skipped. */
export function rewriteGreatestLeast(toks: Tok[]): Tok[] {
  toks = oneArgumentCoalesce(toks);
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
    // numerics at their own scales, some handed over as text (sql/exact-columns.ts): by value
    const exact = 'arith' in t && (t.arith === 'num-greatest' || t.arith === 'num-least');
    // intervals by their length, timetz values by instant and offset (typed-operators.ts marks them)
    const keyed = 'arith' in t && /^key-(greatest|least):/.test(t.arith ?? '') ? t.arith!.split(':')[1] : null;
    if (keyed) {
      const kind = keyed === 'timetz' ? `timetz@${sessionZone() ?? 'UTC'}` : keyed;
      out.push({ type: 'word', text: `__pg_keyed_${fn === 'max' ? 'greatest' : 'least'}` }, open);
      out.push({ type: 'string', text: quoteString(kind) });
      for (const a of args) out.push(comma, ...a);
      out.push(close);
    } else if (exact) {
      out.push({ type: 'word', text: `__pg_numeric_${fn === 'max' ? 'greatest' : 'least'}` }, open);
      args.forEach((a, k) => out.push(...(k > 0 ? [comma] : []), ...a));
      out.push(close);
    } else if (args.length === 1) out.push(open, ...args[0], close);
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

/**
 * coalesce(x) as coalesce(x, NULL): PostgreSQL answers x (`coalesce(1)` is 1, typed as x), SQLite
 * has no coalesce of one argument (it was 42883 `function coalesce(...) does not exist`).
 */
function oneArgumentCoalesce(toks: Tok[]): Tok[] {
  if (!toks.some((t) => isWord(t, 'COALESCE'))) return toks;
  const out = toks.slice();
  // (from the end: an insertion leaves the places of the calls before it as they were)
  for (let i = out.length - 2; i >= 0; i--) {
    if (!isWord(out[i], 'COALESCE') || !isPunct(out[i + 1], '(') || isPunct(out[i - 1], '.')) continue;
    const c = closer(out, i + 1);
    if (c < 0 || c === i + 2) continue;
    let depth = 0;
    let one = true;
    for (let k = i + 2; k < c && one; k++) {
      if (isPunct(out[k], '(')) depth++;
      else if (isPunct(out[k], ')')) depth--;
      else if (depth === 0 && isPunct(out[k], ',')) one = false;
    }
    if (one) out.splice(c, 0, { type: 'punct', text: ',' }, { type: 'word', text: 'NULL' });
  }
  return out;
}
