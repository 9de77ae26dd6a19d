// A join's USING with an alias of its own, `t1 JOIN t2 USING (id) AS j` (PostgreSQL 14's
// join_using_alias), which SQLite's grammar lacks (it was 42601 near "AS"). The alias names only the
// merged columns, whose value is the left side's after an inner or left join, the right side's
// after a right one and the first of them not NULL after a full one: the alias goes and each `j.id`
// reads that side's column (`coalesce(l.id, r.id)` after a full join). Only where the sides are
// FROM items named right beside the JOIN (a table or its alias) and the reference names a USING
// column; anything else (`j.*`) is left for the refusal it was.
import type { PgToken } from '../lexer';
import { identText, isPunct, isWord } from '../tokens';

const isName = (t: PgToken | undefined) => t !== undefined && (t.type === 'word' || t.type === 'quoted');

export function rewriteUsingAlias(toks: PgToken[]): PgToken[] {
  if (!toks.some((t, i) => isWord(t, 'USING') && isPunct(toks[i + 1], '('))) return toks;
  for (let i = 0; i < toks.length; i++) {
    if (!isWord(toks[i], 'USING') || !isPunct(toks[i + 1], '(')) continue;
    let close = i + 2;
    const cols: string[] = [];
    while (isName(toks[close]) && (isPunct(toks[close + 1], ',') || isPunct(toks[close + 1], ')'))) {
      cols.push(identText(toks[close]));
      close += isPunct(toks[close + 1], ')') ? 1 : 2;
      if (isPunct(toks[close], ')')) break;
    }
    if (!isPunct(toks[close], ')') || !isWord(toks[close + 1], 'AS') || !isName(toks[close + 2])) continue;
    const alias = identText(toks[close + 2]);
    // the JOIN of this USING: its right item is `name [[AS] alias]` just before USING
    let r = i - 1;
    const right = toks[r];
    if (!isName(right)) continue;
    r--;
    if (isWord(toks[r], 'AS')) r--;
    if (isName(toks[r]) && !isWord(toks[r], 'JOIN')) r--;
    if (isPunct(toks[r], '.')) continue;
    if (!isWord(toks[r], 'JOIN')) continue;
    let k = r - 1;
    const kinds: string[] = [];
    while (['INNER', 'LEFT', 'RIGHT', 'FULL', 'OUTER'].some((w) => isWord(toks[k], w)))
      kinds.push(toks[k--].text.toUpperCase());
    const left = toks[k];
    // (the left item is `name [[AS] alias]` right after FROM or a comma, not an ON condition's end)
    let p = k - 1;
    if (isWord(toks[p], 'AS')) p--;
    if (isName(toks[p]) && !isWord(toks[p], 'FROM')) p--;
    if (!isName(left) || !(isWord(toks[p], 'FROM') || isPunct(toks[p], ','))) continue;
    const full = kinds.includes('FULL');
    const side = kinds.includes('RIGHT') ? right : left;
    const out: PgToken[] = [];
    let ok = true;
    for (let n = 0; n < toks.length; n++) {
      if (n === close + 1) {
        n++; // AS alias
        continue;
      }
      const t = toks[n];
      if (isName(t) && identText(t) === alias && isPunct(toks[n + 1], '.') && !isPunct(toks[n - 1], '.')) {
        const col = toks[n + 2];
        if (!isName(col) || !cols.includes(identText(col))) {
          ok = false;
          break;
        }
        if (full) {
          // coalesce(l.id, r.id)
          const dot = toks[n + 1];
          const comma = { type: 'punct', text: ',' } as PgToken;
          out.push({ type: 'word', text: 'coalesce' } as PgToken, { type: 'punct', text: '(' } as PgToken);
          out.push(left, dot, col, comma, right, dot, col, { type: 'punct', text: ')' } as PgToken);
          n += 2;
        } else out.push(side);
        continue;
      }
      out.push(t);
    }
    if (ok) return rewriteUsingAlias(out);
  }
  return toks;
}
