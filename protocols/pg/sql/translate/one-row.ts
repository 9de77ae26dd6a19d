// A scalar subquery that may give more than one row: one an aggregate of the outer query's columns
// makes many rows, one per row of its FROM (`SELECT (SELECT sum(t.v) FROM u) FROM t`: sum(t.v) is
// the outer query's aggregate, as PostgreSQL and SQLite both read it; sql/grouping.ts), or one
// nothing holds to one row (`(SELECT x FROM u)`; sql/scalar-subqueries.ts). PostgreSQL refuses more
// than one row there with 21000; SQLite takes the first. The subquery (its '(' marked 'one-row')
// becomes `(SELECT CASE WHEN (SELECT count(*) FROM (SELECT 1 FROM ... LIMIT 2)) > 1 THEN
// __pg_raise('21000', ...) ELSE x END FROM ...)`: its FROM and WHERE run again, for two rows at most.
// One whose rows are not its FROM's (SELECT DISTINCT, a set operation, a WITH clause, VALUES; its '('
// marked 'one-row-whole') becomes `(SELECT CASE WHEN (SELECT count(*) FROM (SELECT 1 FROM (query)
// LIMIT 2)) > 1 THEN __pg_raise(...) ELSE (query) END)`: the query runs again, for two rows at most.
// translate/json-values.ts reads a guarded subquery's value through the CASE.
import { type PgToken, quoteString } from '../lexer';
import { closer, isPunct, isWord, topLevelWord } from '../tokens';

const word = (text: string): PgToken => ({ type: 'word', text });
const punct = (text: string): PgToken => ({ type: 'punct', text });

/** `CASE WHEN <count> > 1 THEN __pg_raise('21000', ...) ELSE`: the guard's head, after the count. */
const raise = (): PgToken[] => [
  punct(')'),
  { type: 'op', text: '>' },
  { type: 'number', text: '1' },
  word('THEN'),
  word('__pg_raise'),
  punct('('),
  { type: 'string', text: quoteString('21000') },
  punct(','),
  { type: 'string', text: quoteString('more than one row returned by a subquery used as an expression') },
  punct(')'),
  word('ELSE'),
];

/**
 * `(SELECT CASE WHEN (SELECT count(*) FROM (SELECT 1 <rows> LIMIT 2)) > 1 THEN __pg_raise(...) ELSE
 * (<value>) END`: `rows` (from its FROM on) counted to two at most, else the value.
 */
const guard = (rows: PgToken[], value: PgToken[]): PgToken[] => [
  punct('('),
  word('SELECT'),
  word('CASE'),
  word('WHEN'),
  punct('('),
  word('SELECT'),
  word('count'),
  punct('('),
  { type: 'op', text: '*' },
  punct(')'),
  word('FROM'),
  punct('('),
  word('SELECT'),
  { type: 'number', text: '1' },
  ...rows,
  word('LIMIT'),
  { type: 'number', text: '2' },
  punct(')'),
  ...raise(),
  punct('('),
  ...value,
  punct(')'),
  word('END'),
];

export function rewriteOneRow(toks: PgToken[]): PgToken[] {
  if (!toks.some((t) => 'arith' in t && (t.arith === 'one-row' || t.arith === 'one-row-whole'))) return toks;
  const out = toks.slice();
  for (let i = out.length - 1; i >= 0; i--) {
    const t = out[i];
    if ('arith' in t && t.arith === 'one-row-whole' && isPunct(t, '(')) {
      const close = closer(out, i);
      if (close < 0) continue;
      const query = out.slice(i + 1, close);
      // the query counted to two, then its value: `(SELECT CASE WHEN ... ELSE (query) END)`
      out.splice(i, close + 1 - i, ...guard([word('FROM'), punct('('), ...query, punct(')')], query), punct(')'));
      continue;
    }
    if (!('arith' in t && t.arith === 'one-row') || !isPunct(t, '(') || !isWord(out[i + 1], 'SELECT')) continue;
    const close = closer(out, i);
    const from = close < 0 ? -1 : topLevelWord(out, i + 2, close, 'FROM');
    if (from < 0) continue;
    let item = out.slice(i + 2, from);
    let alias: PgToken[] = [];
    const n = item.length;
    if (n > 2 && isWord(item[n - 2], 'AS')) [item, alias] = [item.slice(0, n - 2), item.slice(n - 2)];
    else if (n > 1 && (item[n - 1].type === 'word' || item[n - 1].type === 'quoted') && isPunct(item[n - 2], ')'))
      [item, alias] = [item.slice(0, n - 1), item.slice(n - 1)];
    const order = topLevelWord(out, from, close, 'ORDER');
    const rows = out.slice(from, order < 0 ? close : order);
    const guarded = [...guard(rows, item), ...alias, ...out.slice(from, close + 1)];
    out.splice(i, close + 1 - i, ...guarded);
  }
  return out;
}
