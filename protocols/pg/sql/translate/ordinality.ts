// A set-returning function in FROM WITH ORDINALITY (`unnest($1::text[]) WITH ORDINALITY AS u(v, n)`,
// `jsonb_array_elements(t.doc) WITH ORDINALITY e(x, i)`): PostgreSQL adds a bigint column numbering
// the function's rows from 1; SQLite has no such clause (`near "ORDINALITY": syntax error`). The
// table-valued functions Patina gives these names (src/engine/) are better-sqlite3 tables, whose
// rowid is that number: it counts the rows of each call from 1, a correlated call's again for each
// outer row. So the clause goes, and the column becomes the call's rowid:
//  - right after FROM, the call is a subquery naming its columns as PostgreSQL does:
//      (SELECT "__pg_srf".value AS "v", "__pg_srf".rowid AS "n" FROM unnest(...) AS "__pg_srf") AS "u"
//    (unnest of several arrays, which unnest.ts zips in a subquery of its own, numbers them with
//    row_number() OVER (), in the zipped order);
//  - after JOIN, a comma or LATERAL (its arguments may read an earlier item, which a subquery could
//    not), the call stays a table-valued function `unnest(t.tags) AS u(v)` for function-columns.ts
//    and set-returning.ts to read, and `u.n` (or a bare `n` no schema table has) becomes `u.rowid`.
// The functions are those function-columns.ts names the columns of; another keeps the clause, which
// SQLite refuses and unsupported.ts answers with 0A000 naming it.
import type { PgToken } from '../lexer';
import { NOT_FROM_ALIAS, closer, identText, isPunct, isWord, topLevelItems } from '../tokens';
import { renameReferences } from './select-items';
import { pgError } from '../../sqlstate';

/** Functions of one value column, and of a key and a value (their SQLite columns). */
const COLUMNS: Record<string, string[]> = {};
for (const f of [
  'unnest', 'generate_series', 'json_array_elements', 'jsonb_array_elements', 'json_array_elements_text',
  'jsonb_array_elements_text', 'json_object_keys', 'jsonb_object_keys', 'regexp_split_to_table', 'jsonb_path_query',
]) COLUMNS[f] = ['value']; // biome-ignore format: a word list
for (const f of ['json_each', 'jsonb_each', 'json_each_text', 'jsonb_each_text']) COLUMNS[f] = ['key', 'value'];

/** Whether WITH ORDINALITY of a call to `name` is translated (unsupported.ts refuses the others). */
export function ordinalityTranslated(name: string): boolean {
  return Object.hasOwn(COLUMNS, name.toLowerCase());
}

const word = (text: string): PgToken => ({ type: 'word', text });
const punct = (text: string): PgToken => ({ type: 'punct', text });
const quoted = (name: string): PgToken => ({ type: 'quoted', text: `"${name.replace(/"/g, '""')}"` });
const isName = (t: PgToken | undefined) =>
  t !== undefined && ((t.type === 'word' && !NOT_FROM_ALIAS.has(t.text.toUpperCase())) || t.type === 'quoted');

export function rewriteOrdinality(toks: PgToken[], hasColumn: (table: string, column: string) => boolean): PgToken[] {
  if (!toks.some((t) => isWord(t, 'ORDINALITY'))) return toks;
  const out: PgToken[] = [];
  /** alias -> the ordinality column's name, of the calls left in a join. */
  const rowids = new Map<string, { alias: PgToken; name: string }>();
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    const fn = t.type === 'word' && isPunct(toks[i + 1], '(') ? t.text.toLowerCase() : '';
    const close = ordinalityTranslated(fn) ? closer(toks, i + 1) : -1;
    if (close < 0 || !isWord(toks[close + 1], 'WITH') || !isWord(toks[close + 2], 'ORDINALITY')) {
      out.push(t);
      continue;
    }
    // pg_catalog.unnest(...): the same function
    let before = toks[i - 1];
    if (isPunct(before, '.')) {
      if (!isWord(toks[i - 2], 'PG_CATALOG')) {
        out.push(t);
        continue;
      }
      out.splice(out.length - 2, 2);
      before = toks[i - 3];
    }
    // [AS] alias [(names)]
    let j = close + 3;
    if (isWord(toks[j], 'AS')) j++;
    let alias: PgToken | undefined;
    let names: string[] = [];
    if (isName(toks[j])) {
      alias = toks[j];
      if (isPunct(toks[j + 1], '(')) {
        const end = closer(toks, j + 1);
        names = topLevelItems(toks, j + 2, end).map(([a]) => identText(toks[a]));
        j = end;
      }
    } else j--;
    const call = toks.slice(i, close + 1);
    const args = topLevelItems(toks, i + 2, close).length;
    const zipped = fn === 'unnest' && args > 1;
    const columns = zipped ? Array.from({ length: args }, () => 'value') : COLUMNS[fn];
    const aliasName = alias ? identText(alias) : fn;
    // PostgreSQL's names: the list's, else the OUT parameters' (key, value), else a one-value
    // function's column is named by its alias (unnest's by the function without one)
    const own = columns.map(
      (c, k) => names[k] ?? (zipped ? fn : fn.includes('array_elements') || columns.length === 2 ? c : aliasName),
    );
    const ordinality = names[columns.length] ?? 'ordinality';
    const aliasTok = alias ?? quoted(fn);
    i = j;
    if (isWord(before, 'FROM') || zipped) {
      out.push(...wrap(call, zipped ? null : columns, own, ordinality), word('AS'), aliasTok);
      continue;
    }
    if (selectsStar(toks, aliasName))
      throw pgError(
        '0A000',
        `SELECT * over ${fn}(...) WITH ORDINALITY after JOIN or a comma is not supported: name its columns (${aliasName}.${ordinality})`,
      );
    // in a join: the table-valued function, its value columns named by function-columns.ts
    out.push(...call, word('AS'), aliasTok);
    if (names.length > 0) {
      out.push(punct('('));
      own.forEach((n, k) => out.push(...(k > 0 ? [punct(',')] : []), quoted(n)));
      out.push(punct(')'));
    }
    rowids.set(aliasName, { alias: aliasTok, name: ordinality });
  }
  return rowids.size === 0 ? out : readRowids(out, rowids, hasColumn);
}

/**
 * The subquery of a call right after FROM: its value columns under PostgreSQL's names, then the
 * ordinality. `columns` null: unnest of several arrays, whose subquery (unnest.ts) names them.
 */
function wrap(call: PgToken[], columns: string[] | null, own: string[], ordinality: string): PgToken[] {
  // (set-returning.ts leaves a call of this alias as it is)
  const src = '__pg_srf';
  const select: PgToken[] = [punct('('), word('SELECT')];
  if (columns === null) {
    select.push(quoted(src), punct('.'), { type: 'op', text: '*' }, punct(','));
    select.push(word('row_number'), punct('('), punct(')'), word('OVER'), punct('('), punct(')'));
  } else {
    columns.forEach((c, k) => select.push(quoted(src), punct('.'), word(c), word('AS'), quoted(own[k]), punct(',')));
    select.push(quoted(src), punct('.'), word('rowid'));
  }
  select.push(word('AS'), quoted(ordinality), word('FROM'), ...call, word('AS'), quoted(src));
  if (columns === null) {
    select.push(punct('('));
    own.forEach((c, k) => select.push(...(k > 0 ? [punct(',')] : []), quoted(c)));
    select.push(punct(')'));
  }
  select.push(punct(')'));
  return select;
}

/** Whether a select list of the statement holds `*` or `alias.*` (not count(*)). */
function selectsStar(toks: PgToken[], alias: string): boolean {
  return toks.some(
    (t, i) =>
      t.text === '*' &&
      (t.type === 'op' || t.type === 'punct') &&
      (isWord(toks[i - 1], 'SELECT') ||
        isWord(toks[i - 1], 'DISTINCT') ||
        isPunct(toks[i - 1], ',') ||
        (isPunct(toks[i - 1], '.') && toks[i - 2] !== undefined && identText(toks[i - 2]) === alias)),
  );
}

/** `alias.n`, and a bare `n` no schema table of the statement has, as `alias.rowid`. */
function readRowids(
  toks: PgToken[],
  rowids: Map<string, { alias: PgToken; name: string }>,
  hasColumn: (table: string, column: string) => boolean,
): PgToken[] {
  const byName = new Map([...rowids.values()].map((r) => [r.name, { alias: r.alias, column: 'rowid' }]));
  return renameReferences(
    toks,
    (alias, name) => (rowids.get(alias)?.name === name ? 'rowid' : undefined),
    (name) => byName.get(name),
    hasColumn,
  );
}
