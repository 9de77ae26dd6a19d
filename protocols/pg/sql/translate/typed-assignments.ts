// What PostgreSQL does to a value written into a column with a type modifier: numeric(p, s) rounds
// it to s digits (22003 when it needs more than p - s before the point) and varchar(n) refuses one
// longer than n characters (22001; trailing spaces are cut instead). SQLite keeps any value, so the
// values of INSERT ... VALUES and of UPDATE's and ON CONFLICT's SET go through __pg_numeric and
// __pg_varchar (src/engine/pg-functions.ts) for such columns. INSERT ... SELECT is left as it is.
import { type Tok, closer, identText, isOp, isPunct, isWord, topLevelItems } from '../tokens';
import { insertTarget } from './insert-defaults';
import type { DialectContext } from './translate';

/** The call that gives a value PostgreSQL's meaning in a column of this declared type; null for none. */
function assignment(decl: string | null): ((v: Tok[]) => Tok[]) | null {
  if (!decl) return null;
  const m = /^\s*(numeric|decimal|varchar|character varying)\s*\(\s*(\d+)\s*(?:,\s*(\d+)\s*)?\)\s*$/i.exec(decl);
  if (!m) return null;
  const numeric = /^(numeric|decimal)$/i.test(m[1]);
  const args = numeric ? `, ${m[2]}, ${m[3] ?? 0})` : `, ${m[2]})`;
  return (v) => [
    { type: 'word', text: numeric ? '__pg_numeric' : '__pg_varchar' },
    { type: 'punct', text: '(' },
    ...v,
    { type: 'group', text: args },
  ];
}

/** Rewrites toks[from, to) (a SET list) in place of itself: `col = expr` with expr wrapped for typmod columns. */
function setList(toks: Tok[], from: number, to: number, table: string, ctx: DialectContext): Tok[] {
  const out: Tok[] = [];
  for (const [a, b] of topLevelItems(toks, from, to)) {
    if (out.length) out.push({ type: 'punct', text: ',' });
    let col = a;
    if (isPunct(toks[a + 1], '.')) col = a + 2; // alias.col
    const wrap = isOp(toks[col + 1], '=') ? assignment(ctx.columnType?.(table, identText(toks[col])) ?? null) : null;
    if (!wrap || col + 2 >= b || isWord(toks[col + 2], 'DEFAULT')) out.push(...toks.slice(a, b));
    else out.push(...toks.slice(a, col + 2), ...wrap(toks.slice(col + 2, b)));
  }
  return out;
}

const SET_ENDS = new Set(['FROM', 'WHERE', 'RETURNING']);

export function rewriteTypedAssignments(toks: Tok[], ctx: DialectContext): Tok[] {
  if (!ctx.columnType || !ctx.columns) return toks;
  if (isWord(toks[0], 'UPDATE')) {
    let i = 1;
    if (isWord(toks[i], 'ONLY')) i++;
    if (isPunct(toks[i + 1], '.')) i += 2;
    const table = toks[i] ? identText(toks[i]) : '';
    if (!ctx.columns(table)) return toks;
    const set = toks.findIndex((t, k) => k > i && isWord(t, 'SET'));
    if (set < 0) return toks;
    let end = toks.length;
    let depth = 0;
    for (let k = set + 1; k < toks.length; k++) {
      if (isPunct(toks[k], '(')) depth++;
      else if (isPunct(toks[k], ')')) depth--;
      else if (
        depth === 0 &&
        (isPunct(toks[k], ';') || (toks[k].type === 'word' && SET_ENDS.has(toks[k].text.toUpperCase())))
      ) {
        end = k;
        break;
      }
    }
    return [...toks.slice(0, set + 1), ...setList(toks, set + 1, end, table, ctx), ...toks.slice(end)];
  }
  const target = insertTarget(toks, ctx);
  if (!target) return toks;
  const table = target.name;
  const names = target.names;
  let i = target.at;
  const wraps = names.map((n) => assignment(ctx.columnType?.(table, n) ?? null));
  let out = toks;
  if (wraps.some(Boolean) && isWord(toks[i], 'VALUES')) {
    out = toks.slice(0, i + 1);
    i++;
    while (isPunct(toks[i], '(')) {
      const close = closer(toks, i);
      if (close < 0) return toks;
      out.push(toks[i]);
      topLevelItems(toks, i + 1, close).forEach(([a, b], k) => {
        if (k > 0) out.push({ type: 'punct', text: ',' });
        const wrap = wraps[k];
        out.push(...(wrap && !isWord(toks[a], 'DEFAULT') && b > a ? wrap(toks.slice(a, b)) : toks.slice(a, b)));
      });
      out.push(toks[close]);
      i = close + 1;
      if (!isPunct(toks[i], ',')) break;
      out.push(toks[i]);
      i++;
    }
    out = out.concat(toks.slice(i));
  }
  // ON CONFLICT ... DO UPDATE SET ...
  const doAt = out.findIndex((t, k) => isWord(t, 'DO') && isWord(out[k + 1], 'UPDATE') && isWord(out[k + 2], 'SET'));
  if (doAt < 0) return out;
  const set = doAt + 2;
  let end = out.length;
  let depth = 0;
  for (let k = set + 1; k < out.length; k++) {
    if (isPunct(out[k], '(')) depth++;
    else if (isPunct(out[k], ')')) depth--;
    else if (depth === 0 && (isPunct(out[k], ';') || isWord(out[k], 'WHERE') || isWord(out[k], 'RETURNING'))) {
      end = k;
      break;
    }
  }
  return [...out.slice(0, set + 1), ...setList(out, set + 1, end, table, ctx), ...out.slice(end)];
}
