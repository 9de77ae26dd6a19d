// A VALUES list or a subquery in FROM names its columns in its alias, `(VALUES (1, 'a')) AS v(n, s)`,
// `(SELECT id, name FROM t) AS s(k, v)`, which SQLite's grammar lacks. A VALUES list becomes
// `(SELECT column1 AS n, column2 AS s FROM (VALUES ...)) AS v`; a subquery a query over a CTE with
// a column list, `(WITH __pg_cols(k, v) AS (SELECT ...) SELECT * FROM __pg_cols) AS s`, which keeps
// the columns' affinity and may be correlated. Fewer names than columns name the first ones, the
// others keep the names SQLite gives them (DialectContext.selectColumns).
// test/pg/semantics-oracle.test.ts compares both with PostgreSQL 15.
import { pgError } from '../../sqlstate';
import { NOT_FROM_ALIAS, type Tok, closer, fromItemStarts, isPunct, isWord } from '../tokens';

/** The names of an alias's column list, `v(a, b)` from `alias` at j; null when there is none. */
function aliasNames(toks: Tok[], j: number): { names: Tok[]; end: number } | null {
  const alias = toks[j];
  if (!alias || !(alias.type === 'word' || alias.type === 'quoted') || !isPunct(toks[j + 1], '(')) return null;
  const end = closer(toks, j + 1);
  if (end < 0) return null;
  const names: Tok[] = [];
  for (let k = j + 2; k < end; k += 2) {
    const n = toks[k];
    if (!(n.type === 'word' || n.type === 'quoted') || !(k + 1 === end || isPunct(toks[k + 1], ','))) return null;
    names.push(n);
  }
  return names.length > 0 ? { names, end } : null;
}

const word = (text: string): Tok => ({ type: 'word', text });
const punct = (text: string): Tok => ({ type: 'punct', text });
const quoted = (name: string): Tok => ({ type: 'quoted', text: `"${name.replaceAll('"', '""')}"` });

/**
 * `query` read through a CTE with the column list `names` (the columns past them keep `known`'s
 * names), as `(WITH __pg_cols(names...) AS (query) SELECT * FROM __pg_cols) AS alias`; more names
 * than `known` columns is PostgreSQL's 42P10. `known` null: the names must be as many as the columns.
 */
function throughColumnList(query: Tok[], listed: Tok[], known: string[] | null, alias: Tok): Tok[] {
  const names = [...listed];
  if (known && known.length < names.length) {
    const name = alias.type === 'quoted' ? alias.text.slice(1, -1).replaceAll('""', '"') : alias.text;
    throw pgError(
      '42P10',
      `table "${name}" has ${known.length} columns available but ${names.length} columns specified`,
    );
  }
  if (known) for (const n of known.slice(names.length)) names.push(quoted(n));
  const out: Tok[] = [punct('('), word('WITH'), word('__pg_cols'), punct('(')];
  names.forEach((n, k) => out.push(...(k > 0 ? [punct(','), n] : [n])));
  out.push(punct(')'), word('AS'), punct('('), ...query, punct(')'));
  out.push(word('SELECT'), punct('*'), word('FROM'), word('__pg_cols'), punct(')'), word('AS'), alias);
  return out;
}

/**
 * `(SELECT ...) [AS] s(a, b)` in FROM (or after JOIN, LATERAL or a comma there) as a query over a
 * CTE with that column list. `columns` gives the query's column names as SQLite prepares it (null
 * when it does not prepare alone: then the names must be as many as its columns).
 */
export function rewriteSubqueryAlias(toks: Tok[], columns: (query: Tok[]) => string[] | null): Tok[] {
  if (!toks.some((t, i) => isPunct(t, '(') && (isWord(toks[i + 1], 'SELECT') || isWord(toks[i + 1], 'WITH'))))
    return toks;
  const out: Tok[] = [];
  let inFrom = false;
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (isWord(t, 'FROM') || isWord(t, 'JOIN')) inFrom = true;
    else if (isWord(t, 'WHERE') || isWord(t, 'SELECT') || isWord(t, 'GROUP') || isWord(t, 'ORDER')) inFrom = false;
    const before = toks[i - 1];
    const placed =
      isWord(before, 'FROM') || isWord(before, 'JOIN') || isWord(before, 'LATERAL') || (isPunct(before, ',') && inFrom);
    const c =
      placed && isPunct(t, '(') && (isWord(toks[i + 1], 'SELECT') || isWord(toks[i + 1], 'WITH'))
        ? closer(toks, i)
        : -1;
    if (c < 0) {
      out.push(t);
      continue;
    }
    const inner = rewriteSubqueryAlias(toks.slice(i + 1, c), columns);
    let j = c + 1;
    if (isWord(toks[j], 'AS')) j++;
    const list = aliasNames(toks, j);
    if (!list) {
      out.push(t, ...inner, toks[c]);
      i = c;
      continue;
    }
    out.push(...throughColumnList(inner, list.names, columns(inner), toks[j]));
    i = list.end;
  }
  return out;
}

/** `(VALUES ...) [AS] v(a, b)` as a subquery that names SQLite's column1, column2, ... a, b. */
export function rewriteValuesAlias(toks: Tok[]): Tok[] {
  if (!toks.some((t, i) => isWord(t, 'VALUES') && isPunct(toks[i - 1], '('))) return toks;
  const out: Tok[] = [];
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    const c = isPunct(t, '(') && isWord(toks[i + 1], 'VALUES') ? closer(toks, i) : -1;
    if (c < 0) {
      out.push(t);
      continue;
    }
    let j = c + 1;
    if (isWord(toks[j], 'AS')) j++;
    const alias = toks[j];
    const names: Tok[] = [];
    const listEnd =
      alias && (alias.type === 'word' || alias.type === 'quoted') && isPunct(toks[j + 1], '(')
        ? closer(toks, j + 1)
        : -1;
    if (listEnd > 0) {
      for (let k = j + 2; k < listEnd; k += 2) {
        const n = toks[k];
        if (!(n.type === 'word' || n.type === 'quoted') || !(k + 1 === listEnd || isPunct(toks[k + 1], ','))) {
          names.length = 0;
          break;
        }
        names.push(n);
      }
    }
    if (names.length === 0) {
      // no column names: the inner tokens go on as they are (nested VALUES lists included)
      out.push(t, ...rewriteValuesAlias(toks.slice(i + 1, c)), toks[c]);
      i = c;
      continue;
    }
    out.push(punct('('), word('SELECT'));
    names.forEach((n, k) => {
      if (k > 0) out.push(punct(','));
      out.push(word(`column${k + 1}`), word('AS'), n);
    });
    out.push(word('FROM'), ...toks.slice(i, c + 1), punct(')'), word('AS'), alias);
    i = listEnd;
  }
  return out;
}

/**
 * A table in FROM whose alias names its columns, `t [AS] x(a, b)` (PostgreSQL renames the first
 * columns; SQLite's grammar has no such list: it was 42601): the table read through a CTE with that
 * column list, `(WITH __pg_cols(a, b, rest...) AS (SELECT * FROM t) SELECT * FROM __pg_cols) AS x`.
 * `columns` gives a schema table's column names in order (null for no such table: left as written).
 */
export function rewriteTableAlias(toks: Tok[], columns: (table: string) => string[] | null): Tok[] {
  const out: Tok[] = [];
  const itemStart = fromItemStarts();
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    // (the tokens skipped below, an alias's column list, are balanced: the FROM tracking holds)
    if (
      !itemStart(toks, i) ||
      !(t.type === 'word' || t.type === 'quoted') ||
      isPunct(toks[i + 1], '(') ||
      isPunct(toks[i + 1], '.')
    ) {
      out.push(t);
      continue;
    }
    let j = i + 1;
    if (isWord(toks[j], 'AS')) j++;
    // (a word that goes on the FROM clause is no alias: `t USING (id)`, `t WHERE (a, b) = ...`)
    const next = toks[j];
    const clause = next?.type === 'word' && j === i + 1 && NOT_FROM_ALIAS.has(next.text.toUpperCase());
    const list = clause ? null : aliasNames(toks, j);
    const table = t.type === 'quoted' ? t.text.slice(1, -1).replaceAll('""', '"') : t.text.toLowerCase();
    const known = list ? columns(table) : null;
    if (!list || !known) {
      out.push(t);
      continue;
    }
    out.push(...throughColumnList([word('SELECT'), punct('*'), word('FROM'), t], list.names, known, toks[j]));
    i = list.end;
  }
  return out;
}
