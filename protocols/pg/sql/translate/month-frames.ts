// A window call whose RANGE frame has an offset of months (marked 'frame-months:' by the analysis,
// sql/month-frames.ts, with the outer FROM item's name and the frame's condition) becomes a
// correlated subquery over the query's own FROM item and WHERE:
//   sum(x) OVER (...)  ->  (SELECT sum(x) FROM <the FROM item> AS __pg_rf WHERE (<where>) AND <cond>)
// the FROM item's alias (or, for a table named bare, the table's name) read as __pg_rf in what is
// copied. On PostgreSQL's tokens before the other passes, which translate the subquery as any.
import { lexPg } from '../lexer';
import { type Tok, closer, identText, isPunct, isWord, selectOpen } from '../tokens';

const PREFIX = 'frame-months:';
const mark = (t: Tok | undefined) => (t && 'sortKey' in t ? t.sortKey : undefined);
const CLAUSE_ENDS = new Set([
  'GROUP',
  'HAVING',
  'WINDOW',
  'ORDER',
  'LIMIT',
  'OFFSET',
  'FETCH',
  'FOR',
  'UNION',
  'INTERSECT',
  'EXCEPT',
  'RETURNING',
]);

export function rewriteMonthFrames<T extends Tok>(toks: T[]): T[] {
  if (!toks.some((t) => mark(t)?.startsWith(PREFIX))) return toks;
  let out: Tok[] = toks;
  // from the last (a rewrite moves what follows it)
  for (let i = out.length - 1; i >= 0; i--) {
    const m = mark(out[i]);
    if (!m?.startsWith(PREFIX) || !isPunct(out[i + 1], '(')) continue;
    const { outer, cond } = JSON.parse(m.slice(PREFIX.length)) as { outer: string; cond: string };
    const argsEnd = closer(out, i + 1);
    if (argsEnd < 0 || !isWord(out[argsEnd + 1], 'OVER') || !isPunct(out[argsEnd + 2], '(')) continue;
    const overEnd = closer(out, argsEnd + 2);
    const open = selectOpen(out, i);
    const end = open < 0 ? out.length : closer(out, open);
    const from = topWord(out, overEnd + 1, end, (t) => isWord(t, 'FROM'));
    if (from < 0) continue;
    const where = topWord(out, from + 1, end, (t) => isWord(t, 'WHERE'));
    const stop = topWord(
      out,
      from + 1,
      end,
      (t) => isPunct(t, ';') || (isWord(t) && CLAUSE_ENDS.has(t.text.toUpperCase())),
    );
    const fromEnd = where >= 0 ? where : stop >= 0 ? stop : end;
    const whereEnd = stop >= 0 ? stop : end;
    const renamed = (a: number, b: number) =>
      out.slice(a, b).map((t, k, all) => {
        const { sortKey: _, ...plain } = t as Tok & { sortKey?: string };
        const named = (t.type === 'word' || t.type === 'quoted') && identText(t) === outer;
        return named && isPunct(all[k + 1], '.') && !isPunct(all[k - 1], '.') ? word('__pg_rf') : k === 0 ? plain : t;
      });
    // the FROM item with its alias read as __pg_rf (a table named bare: AS __pg_rf after it)
    const item = out.slice(from + 1, fromEnd);
    const alias = lastTopName(item, outer);
    const inner =
      alias > 0 && !isPunct(item[alias - 1], '.')
        ? [...item.slice(0, alias), word('__pg_rf'), ...item.slice(alias + 1)]
        : [...item, word('AS'), word('__pg_rf')];
    const condToks = lexPg(cond).filter((t) => t.type !== 'space' && t.type !== 'comment');
    const sub: Tok[] = [
      punct('('),
      word('SELECT'),
      ...renamed(i, argsEnd + 1),
      word('FROM'),
      ...inner,
      word('WHERE'),
      ...(where >= 0 ? [punct('('), ...renamed(where + 1, whereEnd), punct(')'), word('AND')] : []),
      ...condToks,
      punct(')'),
    ];
    out = [...out.slice(0, i), ...sub, ...out.slice(overEnd + 1)];
  }
  return out as T[];
}

const word = (text: string): Tok => ({ type: 'word', text });
const punct = (text: string): Tok => ({ type: 'punct', text });

/** The first token of toks[from, to) outside parentheses that `take` takes, or -1. */
function topWord(toks: Tok[], from: number, to: number, take: (t: Tok) => boolean): number {
  let depth = 0;
  for (let k = from; k < to; k++) {
    if (isPunct(toks[k], '(')) depth++;
    else if (isPunct(toks[k], ')')) depth--;
    else if (depth === 0 && take(toks[k])) return k;
  }
  return -1;
}

/** The last name `name` of a FROM item outside parentheses (its alias), or -1. */
function lastTopName(item: Tok[], name: string): number {
  let depth = 0;
  for (let k = item.length - 1; k >= 0; k--) {
    if (isPunct(item[k], ')')) depth++;
    else if (isPunct(item[k], '(')) depth--;
    else if (depth === 0 && (item[k].type === 'word' || item[k].type === 'quoted') && identText(item[k]) === name)
      return k;
  }
  return -1;
}
