// What PostgreSQL does to a value written into a column with a type modifier: numeric(p, s) rounds
// it to s digits (22003 when it needs more than p - s before the point), varchar(n) and char(n)
// refuse one longer than n characters (22001; trailing spaces are cut instead). SQLite keeps any
// value, so the values of INSERT ... VALUES, INSERT ... SELECT (insert-select.ts) and of UPDATE's
// and ON CONFLICT's SET go through __pg_numeric, __pg_varchar and __pg_char
// (src/engine/pg-functions.ts) for such columns. COPY FROM does the same (copy/format.ts).
import { type Tok, closer, identText, isOp, isPunct, isWord, topLevelItems, topLevelWord } from '../tokens';
import { assignment, checkWidth, textMark, withColumnList } from './assignment';
import { type InsertTarget, insertTarget } from './insert-defaults';
import { clockDefaults } from './clock-defaults';
import { rewriteInsertSelect } from './insert-select';
import type { DialectContext } from './translate';

/** Rewrites toks[from, to) (a SET list) in place of itself: `col = expr` with expr wrapped for typmod columns. */
function setList(toks: Tok[], from: number, to: number, table: string, ctx: DialectContext): Tok[] {
  const out: Tok[] = [];
  for (const [a, b] of topLevelItems(toks, from, to)) {
    if (out.length) out.push({ type: 'punct', text: ',' });
    const row = rowAssignment(toks, a, b, table, ctx);
    if (row) {
      out.push(...row);
      continue;
    }
    let col = a;
    if (isPunct(toks[a + 1], '.')) col = a + 2; // alias.col
    // (a value for a string column marked to be printed as its type prints it: sql/zoned-assignments.ts)
    const printed = textMark(toks.slice(col + 2, b)) !== undefined;
    const wrap = isOp(toks[col + 1], '=')
      ? assignment(ctx.columnType?.(table, identText(toks[col])) ?? null, printed)
      : null;
    if (!wrap || col + 2 >= b || isWord(toks[col + 2], 'DEFAULT')) out.push(...toks.slice(a, b));
    else out.push(...toks.slice(a, col + 2), ...wrap(toks.slice(col + 2, b)));
  }
  return out;
}

/**
 * `(a, b) = (x, y)` or `(a, b) = ROW(x, y)` at toks[a, b): each value converted for its column as
 * `a = x` is; null for any other item (`(a, b) = (SELECT ...)`, `(WITH ...)`, runs as written).
 */
function rowAssignment(toks: Tok[], a: number, b: number, table: string, ctx: DialectContext): Tok[] | null {
  if (!isPunct(toks[a], '(')) return null;
  const names = closer(toks, a);
  if (names < 0 || !isOp(toks[names + 1], '=')) return null;
  const open = isWord(toks[names + 2], 'ROW') ? names + 3 : names + 2;
  if (!isPunct(toks[open], '(') || closer(toks, open) !== b - 1) return null;
  if (isWord(toks[open + 1], 'SELECT') || isWord(toks[open + 1], 'WITH')) return null;
  const columns = topLevelItems(toks, a + 1, names);
  const values = topLevelItems(toks, open + 1, b - 1);
  if (columns.length !== values.length) return null;
  const out: Tok[] = toks.slice(a, open + 1);
  values.forEach(([x, y], k) => {
    if (k > 0) out.push({ type: 'punct', text: ',' });
    const value = toks.slice(x, y);
    const [c, d] = columns[k];
    const name = toks[d - 1] && d - c <= 3 ? identText(toks[d - 1]) : '';
    const wrap = assignment(ctx.columnType?.(table, name) ?? null, textMark(value) !== undefined);
    out.push(...(wrap && !isWord(value[0], 'DEFAULT') && value.length > 0 ? wrap(value) : value));
  });
  out.push(toks[b - 1]);
  return out;
}

/** toks[set + 1, end) is a SET list: `end` where it stops (FROM, WHERE, RETURNING, `;` outside parentheses). */
function setListEnd(toks: Tok[], set: number, ends: ReadonlySet<string>): number {
  let depth = 0;
  for (let k = set + 1; k < toks.length; k++) {
    if (isPunct(toks[k], '(')) depth++;
    else if (isPunct(toks[k], ')')) depth--;
    else if (
      depth === 0 &&
      (isPunct(toks[k], ';') || (toks[k].type === 'word' && ends.has(toks[k].text.toUpperCase())))
    )
      return k;
  }
  return toks.length;
}

const UPDATE_SET_ENDS = new Set(['FROM', 'WHERE', 'RETURNING']);
const CONFLICT_SET_ENDS = new Set(['WHERE', 'RETURNING']);

/** INSERT ... VALUES: each value for a typmod column wrapped, a column list added when rows are short. */
function valuesRows(toks: Tok[], target: InsertTarget, ctx: DialectContext): Tok[] {
  let i = target.at + 1;
  if (!isPunct(toks[i], '(')) return toks;
  const first = closer(toks, i);
  if (first < 0) return toks;
  const width = topLevelItems(toks, i + 1, first).length;
  checkWidth(target, width);
  const names = target.names.slice(0, width);
  // (values for string columns marked to be printed as their types print them: sql/zoned-assignments.ts)
  const printed = textMark(toks.slice(i)) !== undefined;
  const wraps = names.map((n) => assignment(ctx.columnType?.(target.name, n) ?? null, printed));
  // the columns left out whose default is the clock, given PostgreSQL's value (clock-defaults.ts)
  const clocks = clockDefaults(target, names, ctx);
  if (!wraps.some(Boolean) && clocks.length === 0 && (target.listed || width === target.columns.length)) return toks;
  const out = [
    ...withColumnList(
      toks,
      target,
      names,
      clocks.map(([n]) => n),
    ),
    toks[target.at],
  ];
  while (isPunct(toks[i], '(')) {
    const close = closer(toks, i);
    if (close < 0) return toks;
    out.push(toks[i]);
    topLevelItems(toks, i + 1, close).forEach(([a, b], k) => {
      if (k > 0) out.push({ type: 'punct', text: ',' });
      const wrap = wraps[k];
      out.push(...(wrap && !isWord(toks[a], 'DEFAULT') && b > a ? wrap(toks.slice(a, b)) : toks.slice(a, b)));
    });
    for (const [, value] of clocks) out.push({ type: 'punct', text: ',' }, ...value);
    out.push(toks[close]);
    i = close + 1;
    if (!isPunct(toks[i], ',')) break;
    out.push(toks[i]);
    i++;
  }
  return out.concat(toks.slice(i));
}

export function rewriteTypedAssignments(toks: Tok[], ctx: DialectContext): Tok[] {
  if (!ctx.columnType || !ctx.columns) return toks;
  const update = isWord(toks[0], 'WITH') ? topLevelWord(toks, 1, toks.length, 'UPDATE') : 0;
  if (update >= 0 && isWord(toks[update], 'UPDATE')) {
    let i = update + 1;
    if (isWord(toks[i], 'ONLY')) i++;
    if (isPunct(toks[i + 1], '.')) i += 2;
    const table = toks[i] ? identText(toks[i]) : '';
    if (!ctx.columns(table)) return toks;
    const set = toks.findIndex((t, k) => k > i && isWord(t, 'SET'));
    if (set < 0) return toks;
    const end = setListEnd(toks, set, UPDATE_SET_ENDS);
    return [...toks.slice(0, set + 1), ...setList(toks, set + 1, end, table, ctx), ...toks.slice(end)];
  }
  const target = insertTarget(toks, ctx);
  if (!target) return toks;
  const source = toks[target.at];
  let out = toks;
  if (isWord(source, 'VALUES')) out = valuesRows(toks, target, ctx);
  else if (isWord(source, 'SELECT') || isWord(source, 'WITH') || isPunct(source, '('))
    out = rewriteInsertSelect(toks, target, ctx);
  // ON CONFLICT ... DO UPDATE SET ...
  const doAt = out.findIndex((t, k) => isWord(t, 'DO') && isWord(out[k + 1], 'UPDATE') && isWord(out[k + 2], 'SET'));
  if (doAt < 0) return out;
  const set = doAt + 2;
  const end = setListEnd(out, set, CONFLICT_SET_ENDS);
  return [...out.slice(0, set + 1), ...setList(out, set + 1, end, target.name, ctx), ...out.slice(end)];
}
