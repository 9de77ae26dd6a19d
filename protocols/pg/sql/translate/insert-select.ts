// INSERT ... SELECT as PostgreSQL runs it: the query's k-th column goes into the k-th column named
// (or of the table), converted as an assignment (numeric(p, s) rounded, varchar(n) and char(n)
// checked; typed-assignments.ts), the columns left out take their defaults, and ON CONFLICT may
// follow. SQLite has no way to name a query's columns by position, so the query becomes a CTE with
// a column list:
//
//   INSERT INTO t (a, b) WITH __pg_src(c1, c2) AS (<query>) SELECT c1, __pg_numeric(c2, 10, 2)
//   FROM __pg_src WHERE true [ON CONFLICT ...] [RETURNING ...]
//
// (`WHERE true` because SQLite would read ON CONFLICT after a FROM as a join's ON.) The query's
// width comes from SQLite itself (DialectContext.selectWidth prepares the translated query).
import { type Tok, closer, isPunct, isWord, topLevelItems } from '../tokens';
import type { InsertTarget } from './insert-defaults';
import { declaredModifier } from '../../types/oids';
import { quoteString } from '../lexer';
import type { DialectContext } from './translate';
import {
  assignment,
  checkWidth,
  checkWrittenLiteral,
  numberLiteral,
  textMark,
  withColumnList,
  zoneMark,
} from './assignment';
import { clockDefaults } from './clock-defaults';

/** Where the query of INSERT ... SELECT ends: ON CONFLICT, RETURNING or `;` outside parentheses. */
export function queryEnd(toks: Tok[], from: number): number {
  let depth = 0;
  for (let k = from; k < toks.length; k++) {
    const t = toks[k];
    if (isPunct(t, '(')) depth++;
    else if (isPunct(t, ')')) depth--;
    else if (
      depth === 0 &&
      ((isWord(t, 'ON') && isWord(toks[k + 1], 'CONFLICT')) || isWord(t, 'RETURNING') || isPunct(t, ';'))
    )
      return k;
  }
  return toks.length;
}

/** The items of a plain `SELECT [DISTINCT [ON (...)]] a, 'text', ...` (no set operation); none for any other query. */
function selectItems(query: Tok[]): Tok[][] {
  if (!isWord(query[0], 'SELECT')) return [];
  let from = 1;
  if (isWord(query[1], 'ALL')) from = 2;
  else if (isWord(query[1], 'DISTINCT')) {
    from = 2;
    if (isWord(query[2], 'ON') && isPunct(query[3], '(')) {
      const close = closer(query, 3);
      if (close < 0) return [];
      from = close + 1;
    }
  }
  let depth = 0;
  let end = query.length;
  for (let k = from; k < query.length; k++) {
    const t = query[k];
    if (isPunct(t, '(')) depth++;
    else if (isPunct(t, ')')) depth--;
    else if (depth === 0 && t.type === 'word') {
      const w = t.text.toUpperCase();
      if (w === 'UNION' || w === 'INTERSECT' || w === 'EXCEPT') return [];
      if (end === query.length && ['FROM', 'WHERE', 'GROUP', 'ORDER', 'LIMIT'].includes(w)) end = k;
    }
  }
  return topLevelItems(query, from, end).map(([a, b]) => query.slice(a, b));
}

/**
 * The items of the first query of a set operation (`SELECT a, b ... UNION ...`), whose first tokens
 * carry a column's conversion through the session's zone (sql/zoned-assignments.ts); none when
 * the query starts otherwise.
 */
function firstQueryItems(query: Tok[]): Tok[][] {
  if (!isWord(query[0], 'SELECT')) return [];
  let depth = 0;
  for (let k = 1; k < query.length; k++) {
    const t = query[k];
    if (isPunct(t, '(')) depth++;
    else if (isPunct(t, ')')) depth--;
    else if (depth === 0 && t.type === 'word' && /^(UNION|INTERSECT|EXCEPT)$/i.test(t.text))
      return selectItems(query.slice(0, k));
  }
  return [];
}

/**
 * The query with each number literal item for a numeric(p, s) column written as its text
 * (`SELECT 1, 1234567890.123456` into numeric(20, 6)): __pg_numeric reads the text exactly, where
 * the double SQLite makes of the literal keeps 15 digits (it stored 1234567890.12346).
 */
function literalsAsText(query: Tok[], items: Tok[][], modifier: (k: number) => string | undefined): Tok[] {
  let out = query;
  items.forEach((item, k) => {
    const literal = numberLiteral(item);
    if (literal === null || modifier(k) !== 'numeric') return;
    const at = out.indexOf(item[0]);
    if (at < 0) return;
    if (out === query) out = [...query];
    out.splice(at, item.length, { type: 'string', text: quoteString(literal) });
  });
  return out;
}

/** Whether an item is a string literal alone (with its alias). */
function isLiteralItem(item: Tok[]): boolean {
  const alias = isWord(item[1], 'AS') ? 3 : 2;
  return item[0]?.type === 'string' && (item.length === 1 || item.length === alias);
}

const word = (text: string): Tok => ({ type: 'word', text });
const punct = (text: string): Tok => ({ type: 'punct', text });

/** INSERT ... SELECT (or WITH ... / a parenthesised query) rewritten as above; the tokens as they are when nothing needs it. */
export function rewriteInsertSelect(toks: Tok[], target: InsertTarget, ctx: DialectContext): Tok[] {
  const end = queryEnd(toks, target.at);
  let query = toks.slice(target.at, end);
  if (isPunct(query[0], '(') && closer(query, 0) === query.length - 1) query = query.slice(1, -1);
  // the query with the statement's own WITH clause, which it may read
  const width = ctx.selectWidth?.([...toks.slice(0, target.verb), ...query]) ?? null;
  if (width === null) return toks; // it does not prepare: SQLite's error will say why
  checkWidth(target, width);
  const names = target.names.slice(0, width);
  const items = selectItems(query);
  const firstItems = items.length > 0 ? items : firstQueryItems(query);
  // (a string column whose item is marked to be printed as its type prints it: sql/zoned-assignments.ts)
  const wraps = names.map((n, k) =>
    assignment(ctx.columnType?.(target.name, n) ?? null, textMark(firstItems[k] ?? []) !== undefined),
  );
  names.forEach((n, k) => checkWrittenLiteral(ctx.columnType?.(target.name, n) ?? null, items[k] ?? []));
  query = literalsAsText(query, items, (k) => declaredModifier(ctx.columnType?.(target.name, names[k]) ?? '')?.type);
  const onConflict = isWord(toks[end], 'ON');
  // the columns left out whose default is the clock, given PostgreSQL's value (clock-defaults.ts)
  const clocks = clockDefaults(target, names, ctx);
  const added = clocks.map(([n]) => n);
  if (!wraps.some(Boolean) && !onConflict && clocks.length === 0)
    return target.listed || width === target.columns.length
      ? toks
      : [...withColumnList(toks, target, names), ...toks.slice(target.at)];
  const cols = names.map((_, k) => `c${k + 1}`);
  const out: Tok[] = [...withColumnList(toks, target, names, added), word('WITH'), word('__pg_src'), punct('(')];
  cols.forEach((c, k) => out.push(...(k > 0 ? [punct(','), word(c)] : [word(c)])));
  out.push(punct(')'), word('AS'), punct('('), ...query, punct(')'), word('SELECT'));
  cols.forEach((c, k) => {
    if (k > 0) out.push(punct(','));
    const wrap = wraps[k];
    const item = items[k] ?? [];
    out.push(...(wrap ? wrap([word(c)], isLiteralItem(item), zoneMark(firstItems[k] ?? [])) : [word(c)]));
  });
  for (const [, value] of clocks) out.push(punct(','), ...value);
  out.push(word('FROM'), word('__pg_src'), word('WHERE'), word('true'));
  return out.concat(toks.slice(end));
}
