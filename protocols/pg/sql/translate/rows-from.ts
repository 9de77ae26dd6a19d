// `ROWS FROM (f(...), g(...))` in FROM: PostgreSQL's form for set-returning functions zipped side by
// side, as many rows as the longest gives, the shorter ones NULL past their end (SQLite read it as
// `near "FROM": syntax error`). Of one function it is that function's rows (`FROM ROWS FROM
// (generate_series(1, 3)) AS x(a)` is `FROM generate_series(1, 3) AS x(a)`), which the passes after
// this one translate. Of several one-value functions it is __pg_srf_zip (srf-zip.ts), which runs
// them in step as it does for several calls in one select list; WITH ORDINALITY is its rowid, which
// counts its rows from 1 (ordinality.ts reads a table-valued function's rowid so too):
//  - right after FROM, a subquery naming the columns as PostgreSQL does (the alias list's names,
//    else each function's: `generate_series`, `unnest`, jsonb_array_elements' `value`):
//      (SELECT "__pg_srf".v1 AS "n", "__pg_srf".v2 AS "s" FROM __pg_srf_zip(...) AS "__pg_srf") AS x
//  - after a comma, JOIN or LATERAL (its arguments may read an earlier item, which a subquery could
//    not), the table-valued function `__pg_srf_zip(...) AS x`, and `x.n` (or a bare `n` no schema
//    table has) becomes `x.v1`, `x.*` its columns by name; `*` over it is 0A000 naming it.
// Other functions (of several columns, or not run in step), or more than ZIP_CALLS, are 0A000 by name.
import { ZIPPED_IN_FROM, ZIP_CALLS } from '../../../../src/engine/pg-arrays';
import { pgError } from '../../sqlstate';
import { NOT_FROM_ALIAS, type Tok, closerAfter, identText, isPunct, isWord, topLevelItems } from '../tokens';
import { renameReferences } from './select-items';
import { zipCall } from './srf-zip';

const word = (text: string): Tok => ({ type: 'word', text });
const punct = (text: string): Tok => ({ type: 'punct', text });
const quoted = (name: string): Tok => ({ type: 'quoted', text: `"${name.replace(/"/g, '""')}"` });
const isName = (t: Tok | undefined) =>
  t !== undefined && ((t.type === 'word' && !NOT_FROM_ALIAS.has(t.text.toUpperCase())) || t.type === 'quoted');

/** `ROWS FROM (f(...))` as `f(...)`; of several functions run in step; others refused by name. */
export function rewriteRowsFrom<T extends Tok>(toks: T[], hasColumn: (table: string, column: string) => boolean): T[] {
  const rowsFrom = (i: number) => isWord(toks[i], 'ROWS') && isWord(toks[i + 1], 'FROM') && isPunct(toks[i + 2], '(');
  const unnests = (i: number) => isWord(toks[i], 'UNNEST') && isPunct(toks[i + 1], '(');
  if (!toks.some((_, i) => rowsFrom(i) || unnests(i))) return toks;
  const out: Tok[] = [];
  /** alias -> its columns' names and the zip's columns, of the calls left in a join. */
  const renames = new Map<string, { alias: Tok; columns: [string, string][] }>();
  for (let i = 0; i < toks.length; i++) {
    let close: number;
    const unnest = unnests(i);
    let calls: { fn: string; args: Tok[][] }[];
    if (unnest && afterFromItem(toks, i)) {
      // unnest(t.a, t.b) after a comma, JOIN or LATERAL: ROWS FROM (unnest(t.a), unnest(t.b)) (right
      // after FROM unnest.ts zips it in a subquery, which could not read t)
      close = closerAfter(toks, i + 1);
      calls = topLevelItems(toks, i + 2, close).map(([a, b]) => ({ fn: 'unnest', args: [toks.slice(a, b)] }));
      if (calls.length < 2) {
        out.push(toks[i]);
        continue;
      }
    } else if (rowsFrom(i)) {
      close = closerAfter(toks, i + 2);
      // one call: a name and its parenthesized arguments filling the list
      const call = isPunct(toks[i + 4], '(') ? closerAfter(toks, i + 4) : -1;
      if (call === close - 1) {
        out.push(...toks.slice(i + 3, close));
        i = close;
        continue;
      }
      calls = topLevelItems(toks, i + 3, close).map(([start, b]) => {
        // (pg_catalog.unnest: the same function)
        const a = isWord(toks[start], 'PG_CATALOG') && isPunct(toks[start + 1], '.') ? start + 2 : start;
        const fn = toks[a].type === 'word' ? toks[a].text.toLowerCase() : '';
        const end = isPunct(toks[a + 1], '(') ? closerAfter(toks, a + 1) : -1;
        const args = end > a + 2 ? topLevelItems(toks, a + 2, end).map(([x, y]) => toks.slice(x, y)) : [];
        if (end !== b - 1 || !ZIPPED_IN_FROM.has(fn) || args.length > 3)
          throw pgError(
            '0A000',
            `ROWS FROM (...) of ${fn && end === b - 1 ? `${fn}(...) beside other functions` : 'this item'} is not supported: it runs ${[...ZIPPED_IN_FROM].join(', ')} side by side (or one function of any kind)`,
          );
        return { fn, args };
      });
    } else {
      out.push(toks[i]);
      continue;
    }
    if (calls.length > ZIP_CALLS)
      throw pgError('0A000', `ROWS FROM (...) of more than ${ZIP_CALLS} functions is not supported`);
    // [WITH ORDINALITY] [AS] alias [(names)]
    let j = close + 1;
    const ordinality = isWord(toks[j], 'WITH') && isWord(toks[j + 1], 'ORDINALITY');
    if (ordinality) j += 2;
    if (isWord(toks[j], 'AS')) j++;
    // (without an alias PostgreSQL's ROWS FROM has no name to qualify its columns with)
    let alias: Tok = quoted(unnest ? 'unnest' : '__pg_rows_from');
    let names: string[] = [];
    if (isName(toks[j])) {
      alias = toks[j];
      if (isPunct(toks[j + 1], '(')) {
        const end = closerAfter(toks, j + 1);
        const items = topLevelItems(toks, j + 2, end);
        if (items.some(([a, b]) => b !== a + 1))
          throw pgError(
            '42601',
            unnest
              ? 'UNNEST() with multiple arguments cannot have a column definition list'
              : 'ROWS FROM() with multiple functions cannot have a column definition list',
          );
        names = items.map(([a]) => identText(toks[a]));
        j = end;
      }
    } else j--;
    if (names.length > calls.length + (ordinality ? 1 : 0))
      throw pgError(
        '42P10',
        `table "${identText(alias)}" has ${calls.length + (ordinality ? 1 : 0)} columns available but ${names.length} columns specified`,
      );
    // PostgreSQL's names: the list's, else each function's (jsonb_array_elements' its OUT parameter's)
    const own = calls.map(({ fn }, k) => names[k] ?? (fn.includes('array_elements') ? 'value' : fn));
    const columns = own.map((_, k) => `v${k + 1}`);
    if (ordinality) {
      own.push(names[calls.length] ?? 'ordinality');
      columns.push('rowid');
    }
    const zip = zipCall(calls);
    const before = toks[i - 1];
    i = j;
    if (isWord(before, 'FROM')) {
      const src = quoted('__pg_srf');
      out.push(punct('('), word('SELECT'));
      columns.forEach((c, k) =>
        out.push(...(k > 0 ? [punct(',')] : []), src, punct('.'), word(c), word('AS'), quoted(own[k])),
      );
      out.push(word('FROM'), ...zip, word('AS'), src, punct(')'), word('AS'), alias);
      continue;
    }
    out.push(...zip, word('AS'), alias);
    renames.set(identText(alias), { alias, columns: own.map((n, k) => [n, columns[k]]) });
  }
  return (renames.size === 0 ? out : readColumns(out, renames, hasColumn)) as T[];
}

/** `x.n`, and a bare `n`, as the zip's column; `*` or `x.*` over it refused. */
function readColumns(
  toks: Tok[],
  renames: Map<string, { alias: Tok; columns: [string, string][] }>,
  hasColumn: (table: string, column: string) => boolean,
): Tok[] {
  // (a bare name a schema table of the statement has is the table's: PostgreSQL would call it ambiguous)
  const bareNames = new Map<string, { alias: Tok; column: string }>();
  for (const r of renames.values())
    for (const [n, c] of r.columns) if (!bareNames.has(n)) bareNames.set(n, { alias: r.alias, column: c });
  const star = (k: number) => toks[k]?.text === '*' && (toks[k].type === 'op' || toks[k].type === 'punct');
  return renameReferences(
    toks,
    (alias, name) => renames.get(alias)?.columns.find(([n]) => n === name)?.[1],
    (name) => bareNames.get(name),
    hasColumn,
    (i, out) => {
      const t = toks[i];
      const isRef = t.type === 'word' || t.type === 'quoted';
      // `x.*` in a select list: its columns by name (`x.v1 AS "a", x.v2 AS "b"`)
      const spread = isRef && isPunct(toks[i + 1], '.') && star(i + 2) ? renames.get(identText(t)) : undefined;
      if (spread && (isWord(toks[i - 1], 'SELECT') || isPunct(toks[i - 1], ','))) {
        spread.columns.forEach(([n, c], k) =>
          out.push(...(k > 0 ? [punct(',')] : []), t, punct('.'), word(c), word('AS'), quoted(n)),
        );
        return i + 2;
      }
      if (star(i) && (isWord(toks[i - 1], 'SELECT') || isWord(toks[i - 1], 'DISTINCT') || isPunct(toks[i - 1], ',')))
        throw pgError(
          '0A000',
          'SELECT * over ROWS FROM (...) of several functions after JOIN or a comma is not supported: name its columns (or x.*)',
        );
      return undefined;
    },
  );
}

/** Whether toks[i] follows JOIN, LATERAL or a comma of a FROM clause (not of a select list or call). */
function afterFromItem(toks: Tok[], i: number): boolean {
  if (isWord(toks[i - 1], 'JOIN') || isWord(toks[i - 1], 'LATERAL')) return true;
  if (!isPunct(toks[i - 1], ',')) return false;
  let depth = 0;
  for (let k = i - 2; k >= 0; k--) {
    if (isPunct(toks[k], ')')) depth++;
    else if (isPunct(toks[k], '(')) {
      if (depth === 0) return false;
      depth--;
    } else if (depth === 0 && toks[k].type === 'word') {
      const up = toks[k].text.toUpperCase();
      if (up === 'FROM') return true;
      if (['SELECT', 'WHERE', 'ON', 'GROUP', 'ORDER', 'HAVING', 'SET', 'VALUES', 'RETURNING'].includes(up))
        return false;
    }
  }
  return false;
}
