// LATERAL subqueries of any number of rows (top-N per group, `CROSS JOIN LATERAL (SELECT ... WHERE
// b.a_id = a.id ORDER BY ... LIMIT 3) x`, PostgREST's and Hasura's embeddings), which SQLite has no
// syntax for: a subquery in FROM cannot read the FROM items before it, but a table-valued function's
// argument can. So the subquery's rows become a JSON array built by a correlated scalar subquery, and
// the join reads it through json_each:
//   a CROSS JOIN LATERAL (SELECT title, price FROM books b WHERE b.author_id = a.id LIMIT 2) AS x
// becomes
//   a CROSS JOIN json_each((SELECT json_group_array(json_array("title", "price"))
//                           FROM (SELECT title, price FROM books b WHERE ... LIMIT 2) AS __lj)) AS x
// and `x.title` becomes `json_extract(x.value, '$[0]')` (a bare `title` too, unless a table the
// statement names has such a column). LEFT JOIN LATERAL ... ON ... keeps its ON (no row: NULLs), a
// comma or CROSS JOIN drops an outer row the subquery gives nothing for, as in PostgreSQL. Values go
// through JSON: numbers, text and NULL as they were (a blob cannot: SQLite refuses it). The
// one-row forms that need no JSON are rewritten before (lateral.ts). `x.*` in a select list and
// `SELECT *` spread the subquery's columns by name (among the other FROM items' `a.*`); `x.*` inside
// an expression stays refused (0A000), and so does a subquery that selects `*` itself, unless `starColumns` (SQLite's names of the probe `SELECT * FROM <its FROM clause>`)
// lists them: then `SELECT *`, `SELECT u.*` inside are read by those names (refused still when the
// FROM clause reads the outer row other than as one function's call, outer-reads.ts, or two of the
// names are one). The bare `x`, a select item, is its row's record text. `row_to_json(x)`, `to_json(x)`,
// `to_jsonb(x)` of its whole row become json_object() of its columns by name.
import { identName, type PgToken } from '../lexer';
import {
  FROM_ENDS,
  NOT_FROM_ALIAS,
  closer,
  fromItemStarts,
  identText,
  isPunct,
  isWord,
  topLevelItems,
  topLevelWord,
} from '../tokens';
import { expressionEnd } from './having-alone';
import { outerReadsNulled } from './outer-reads';
import { SelectItems } from './select-items';

/**
 * The output names of a select list toks[from, to) as PostgreSQL names them, the name each is read by
 * from the subquery (`aliased`: its own name, else `__ljK` given to it) and the columns of a `*` or
 * `t.*` item (`stars`, by the item's tokens); null when a star's columns are not known.
 */
function outputNames(
  toks: PgToken[],
  from: number,
  to: number,
  stars: (item: PgToken[]) => string[] | null,
): { names: string[]; aliased: boolean[]; perItem: number[] } | null {
  const names: string[] = [];
  const aliased: boolean[] = [];
  const perItem: number[] = [];
  let starred = false;
  for (const [a, b] of topLevelItems(toks, from, to)) {
    const last = toks[b - 1];
    if (isStar(last)) {
      starred = true;
      const cols = stars(toks.slice(a, b));
      if (!cols) return null;
      names.push(...cols);
      aliased.push(...cols.map(() => true));
      perItem.push(cols.length);
      continue;
    }
    perItem.push(1);
    // `AS n`, or an alias without AS (`count(*) n`, `b.title t`)
    const named = b - a >= 3 && isWord(toks[b - 2], 'AS') && (last.type === 'word' || last.type === 'quoted');
    if (named || expressionEnd(toks, a, b) === b - 1) {
      names.push(identName(last));
      aliased.push(true);
      continue;
    }
    aliased.push(false);
    // a column (t.c or c), a call (its function's name), else ?column?
    if ((last.type === 'word' || last.type === 'quoted') && (b - a === 1 || isPunct(toks[b - 2], '.')))
      names.push(identName(last));
    else if (toks[a].type === 'word' && isPunct(toks[a + 1], '(')) names.push(toks[a].text.toLowerCase());
    else names.push('?column?');
  }
  // two columns read by one name cannot be told apart in the subquery's row
  const read = names.filter((_, k) => aliased[k]);
  if (starred && new Set(read).size < read.length) return null;
  return { names, aliased, perItem };
}

const isStar = (t: PgToken | undefined) => t !== undefined && t.text === '*' && (t.type === 'op' || t.type === 'punct');
const q = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * The names of a query's FROM items in order (an alias, else the table's name), from its top-level
 * FROM at `from`; null when an item is not of a form read here.
 */
function fromItems(toks: PgToken[], from: number): string[] | null {
  const names: string[] = [];
  let i = from + 1;
  for (;;) {
    // one item: name [. name], (subquery), or name(args); then [AS] alias [(columns)]
    let last: PgToken | undefined;
    if (isPunct(toks[i], '(')) {
      i = closer(toks, i) + 1;
      if (i === 0) return null;
    } else if (toks[i]?.type === 'word' || toks[i]?.type === 'quoted') {
      last = toks[i++];
      while (isPunct(toks[i], '.') && (toks[i + 1]?.type === 'word' || toks[i + 1]?.type === 'quoted')) {
        last = toks[i + 1];
        i += 2;
      }
      if (isPunct(toks[i], '(')) {
        i = closer(toks, i) + 1;
        if (i === 0) return null;
      }
    } else return null;
    if (isWord(toks[i], 'AS')) i++;
    const a = toks[i];
    const upper = a?.type === 'word' ? a.text.toUpperCase() : '';
    if ((a?.type === 'word' && !NOT_FROM_ALIAS.has(upper)) || a?.type === 'quoted') {
      last = a;
      i++;
      if (isPunct(toks[i], '(')) i = closer(toks, i) + 1;
    }
    if (!last) return null;
    names.push(identText(last));
    // ON ... / USING (...) up to the next item
    let depth = 0;
    for (; i < toks.length; i++) {
      const t = toks[i];
      if (isPunct(t, '(')) depth++;
      else if (isPunct(t, ')')) {
        if (depth-- === 0) return names;
      } else if (depth === 0 && (isPunct(t, ',') || isPunct(t, ';'))) break;
      else if (depth === 0 && t.type === 'word' && (FROM_ENDS.has(t.text.toUpperCase()) || isWord(t, 'JOIN'))) break;
    }
    if (i >= toks.length || isPunct(toks[i], ';')) return names;
    if (toks[i].type === 'word' && FROM_ENDS.has(toks[i].text.toUpperCase())) return names;
    i++; // past the comma or JOIN
  }
}

/** Where a FROM clause starting at `from` ends (its first top-level clause word), before `to`. */
function clauseEnd(toks: PgToken[], from: number, to: number): number {
  let depth = 0;
  for (let k = from; k < to; k++) {
    if (isPunct(toks[k], '(')) depth++;
    else if (isPunct(toks[k], ')')) depth--;
    else if (depth === 0 && toks[k].type === 'word' && FROM_ENDS.has(toks[k].text.toUpperCase())) return k;
  }
  return to;
}

const word = (text: string): PgToken => ({ type: 'word', text });
const str = (text: string): PgToken => ({ type: 'string', text: `'${text.replace(/'/g, "''")}'` });

/** The calls of a whole row that give its columns as a JSON object. */
const WHOLE_ROW_JSON = new Set(['row_to_json', 'to_json', 'to_jsonb']);
const punct = (text: string): PgToken => ({ type: 'punct', text });

/**
 * `starColumns`: the names of a query's columns (PostgreSQL tokens) as SQLite prepares it, null when
 * it does not prepare.
 */
export function rewriteLateralJson(
  toks: PgToken[],
  hasColumn: (table: string, column: string) => boolean,
  starColumns: (query: PgToken[]) => string[] | null = () => null,
): PgToken[] {
  if (!toks.some((t, i) => isWord(t, 'LATERAL') && isPunct(toks[i + 1], '('))) return toks;
  for (let i = 0; i < toks.length; i++) {
    if (!isWord(toks[i], 'LATERAL') || !isPunct(toks[i + 1], '(') || !isWord(toks[i + 2], 'SELECT')) continue;
    if (!(isWord(toks[i - 1], 'JOIN') || isPunct(toks[i - 1], ','))) continue;
    const close = closer(toks, i + 1);
    if (close < 0) continue;
    // the subquery's select list (of its first SELECT, before any UNION)
    let depth = 0;
    let listEnd = close;
    for (let k = i + 3; k < close; k++) {
      if (isPunct(toks[k], '(')) depth++;
      else if (isPunct(toks[k], ')')) depth--;
      else if (
        depth === 0 &&
        toks[k].type === 'word' &&
        ['FROM', 'WHERE', 'GROUP', 'ORDER', 'LIMIT', 'UNION', 'HAVING', 'WINDOW'].includes(toks[k].text.toUpperCase())
      ) {
        listEnd = k;
        break;
      }
    }
    const listStart = isWord(toks[i + 3], 'DISTINCT') ? i + 4 : i + 3;
    // a star item's columns: SQLite's names of it over the subquery's FROM clause alone
    const fromEnd = isWord(toks[listEnd], 'FROM') ? clauseEnd(toks, listEnd + 1, close) : -1;
    const stars = (item: PgToken[]) => {
      if (fromEnd < 0) return null;
      const clause = toks.slice(listEnd, fromEnd);
      const found = starColumns([word('SELECT'), ...item, ...clause]);
      // (a clause reading the row beside it: its names with those reads NULL, outer-reads.ts)
      const nulled = found ? null : outerReadsNulled(clause);
      return found ?? (nulled && starColumns([word('SELECT'), ...item, ...nulled]));
    };
    const out = outputNames(toks, listStart, listEnd, stars);
    let j = close + 1;
    if (isWord(toks[j], 'AS')) j++;
    const alias = toks[j];
    if (
      !out ||
      !alias ||
      (alias.type !== 'word' && alias.type !== 'quoted') ||
      NOT_FROM_ALIAS.has(alias.text.toUpperCase())
    )
      continue;
    let end = j + 1;
    let names = out.names;
    if (isPunct(toks[end], '(')) {
      const c = closer(toks, end);
      const given = topLevelItems(toks, end + 1, c).map(([a]) => identName(toks[a]));
      names = names.map((n, k) => given[k] ?? n);
      end = c + 1;
    }
    // the subquery with a name for each unnamed column, read by name into a JSON array per row
    const inner: PgToken[] = [];
    const items = topLevelItems(toks, listStart, listEnd);
    inner.push(...toks.slice(i + 2, listStart));
    let column = 0;
    items.forEach(([a, b], k) => {
      if (k > 0) inner.push({ type: 'punct', text: ',' });
      inner.push(...toks.slice(a, b));
      if (!out.aliased[column]) inner.push({ type: 'word', text: 'AS' }, { type: 'quoted', text: q(`__lj${column}`) });
      column += out.perItem[k];
    });
    inner.push(...toks.slice(listEnd, close));
    const cols: PgToken[] = [];
    out.names.forEach((n, k) => {
      if (k > 0) cols.push(punct(','));
      cols.push({ type: 'quoted', text: out.aliased[k] ? q(n) : q(`__lj${k}`) });
    });
    const name = identText(alias);
    const replaced: PgToken[] = [
      { type: 'quoted', text: '"json_each"' }, // SQLite's own (words.ts renames the bare name to PostgreSQL's)
      punct('('),
      punct('('),
      word('SELECT'),
      word('json_group_array'),
      punct('('),
      word('json_array'),
      punct('('),
      ...cols,
      punct(')'),
      punct(')'),
      word('FROM'),
      punct('('),
      ...inner,
      punct(')'),
      word('AS'),
      word('__lj'),
      punct(')'),
      punct(')'),
      word('AS'),
      { type: 'quoted', text: q(name) },
    ];
    const rest = [...toks.slice(0, i), ...replaced, ...toks.slice(end)];
    const from = i;
    const to = i + replaced.length;
    // the references to its columns, outside the subquery itself
    const named = new Set(rest.filter((t) => t.type === 'word' || t.type === 'quoted').map(identText));
    const isColumn = (column: string) => [...named].some((table) => hasColumn(table, column));
    const result: PgToken[] = [];
    const extract = (k: number): PgToken[] => [
      word('json_extract'),
      punct('('),
      { type: 'quoted', text: q(name) },
      punct('.'),
      word('value'),
      punct(','),
      { type: 'string', text: `'$[${k}]'` },
      punct(')'),
    ];
    const allColumns = (): PgToken[] =>
      names.flatMap((n, k) => [
        ...(k > 0 ? [punct(',')] : []),
        ...extract(k),
        word('AS'),
        { type: 'quoted', text: q(n) } as PgToken,
      ]);
    /** Of the whole row: `json_object` of its names and values, or `__pg_record` of its values. */
    const wholeRow = (
      call: PgToken = { type: 'quoted', text: '"json_object"' }, // SQLite's own
      keys: string[] = names,
    ): PgToken[] => [
      word('CASE'),
      word('WHEN'),
      { type: 'quoted', text: q(name) },
      punct('.'),
      word('value'),
      word('IS'),
      word('NULL'),
      word('THEN'),
      word('NULL'),
      word('ELSE'),
      call,
      punct('('),
      ...names.flatMap((n, k) => [
        ...(k > 0 ? [punct(',')] : []),
        ...(keys.length ? [str(n), punct(',')] : []),
        ...extract(k),
      ]),
      punct(')'),
      word('END'),
    ];
    const selectItems = new SelectItems();
    // (where FROM items start: a table's alias after its name, `books b`, is no column)
    const starts = fromItemStarts();
    const itemStart = rest.map((_, k) => starts(rest, k));
    const aliasAt = (k: number) =>
      (rest[k - 1]?.type === 'word' || rest[k - 1]?.type === 'quoted') &&
      (itemStart[k - 1] || (isPunct(rest[k - 2], '.') && itemStart[k - 3]));
    for (let k = 0; k < rest.length; k++) {
      const t = rest[k];
      selectItems.step(rest, k);
      if (k >= from && k < to) {
        result.push(t);
        continue;
      }
      const isName = t.type === 'word' || t.type === 'quoted';
      const call = rest[k - 2];
      if (
        isName &&
        identText(t) === name &&
        isPunct(rest[k - 1], '(') &&
        isPunct(rest[k + 1], ')') &&
        call?.type === 'word' &&
        WHOLE_ROW_JSON.has(call.text.toLowerCase()) &&
        !isPunct(rest[k - 3], '.')
      ) {
        // row_to_json(x), to_json(x), to_jsonb(x): the object of its columns by name (it was
        // json_each's row, {"key":0,"value":[...]}), NULL where a LEFT JOIN found no row
        result.splice(result.length - 2, 2, ...wholeRow());
        k += 1;
        continue;
      }
      if (
        isName &&
        identText(t) === name &&
        selectItems.inList() &&
        (isWord(rest[k - 1], 'SELECT') || isWord(rest[k - 1], 'DISTINCT') || isPunct(rest[k - 1], ',')) &&
        (isPunct(rest[k + 1], ',') || isWord(rest[k + 1], 'FROM') || isWord(rest[k + 1], 'AS') || k + 1 === rest.length)
      ) {
        // the bare x, a select item: its whole row as PostgreSQL's record text, `(A,1)` (it was
        // 0A000), NULL where a LEFT JOIN found no row
        result.push(...wholeRow(word('__pg_record'), []), ...(selectItems.keepName(rest, k, 1, name) as PgToken[]));
        continue;
      }
      if (isName && identText(t) === name && isPunct(rest[k + 1], '.') && !isPunct(rest[k - 1], '.')) {
        const col = rest[k + 2];
        if (isStar(col)) {
          // x.*: each of its columns, by name
          if (!selectItems.inList()) return toks; // (count(x.*) and the like: refused as before)
          result.push(...allColumns());
          k += 2;
          continue;
        }
        const at = col && (col.type === 'word' || col.type === 'quoted') ? names.indexOf(identText(col)) : -1;
        if (at >= 0) {
          result.push(...extract(at), ...(selectItems.keepName(rest, k, 3, names[at]) as PgToken[]));
          k += 2;
          continue;
        }
      }
      const at =
        isName &&
        !isPunct(rest[k - 1], '.') &&
        !isPunct(rest[k + 1], '.') &&
        !isPunct(rest[k + 1], '(') &&
        !isWord(rest[k - 1], 'AS') &&
        !aliasAt(k)
          ? names.indexOf(identText(t))
          : -1;
      if (at >= 0 && !isColumn(identText(t))) {
        result.push(...extract(at), ...(selectItems.keepName(rest, k, 1, names[at]) as PgToken[]));
        continue;
      }
      result.push(t);
    }
    // SELECT *: each FROM item's columns in order, the subquery's by name (refused when an item's
    // name is not found)
    const top = topLevelWord(result, 0, result.length, 'FROM');
    const star =
      top > 0
        ? result.findIndex(
            (t, k) =>
              k < top &&
              isStar(t) &&
              ['SELECT', 'DISTINCT', 'ALL'].some((w) => isWord(result[k - 1], w) || isPunct(result[k - 1], ',')),
          )
        : -1;
    if (star >= 0) {
      const items = fromItems(result, top);
      if (!items) return toks;
      const spread = items.flatMap((a, k) => [
        ...(k > 0 ? [punct(',')] : []),
        ...(a === name ? allColumns() : [{ type: 'quoted', text: q(a) } as PgToken, punct('.'), punct('*')]),
      ]);
      result.splice(star, 1, ...spread);
    }
    return rewriteLateralJson(result, hasColumn, starColumns);
  }
  return toks;
}
