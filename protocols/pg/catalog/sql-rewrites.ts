import { CATALOG_RELATION_OIDS } from './relation-oids';

// Catalog queries use PostgreSQL syntax SQLite lacks: column alias lists on set-returning functions,
// TRIM(BOTH x FROM y), SUBSTRING(x FROM a FOR b) and pgjdbc's set-returning _pg_expandarray in a
// select list. These rewrites run on the translated text of statements for the catalog connection.

/** Index just past the parenthesis that closes the one at `open`, skipping quoted text. */
export function closingParen(sql: string, open: number): number {
  let depth = 0;
  for (let i = open; i < sql.length; i++) {
    const ch = sql[i];
    if (ch === "'" || ch === '"') {
      const end = sql.indexOf(ch, i + 1);
      i = end < 0 ? sql.length : end;
    } else if (ch === '(') depth++;
    else if (ch === ')' && --depth === 0) return i + 1;
  }
  return sql.length;
}

/** Top-level positions of a word (case-insensitive, whole word) inside sql[from, to). */
function topLevelWord(sql: string, word: string, from: number, to: number): number[] {
  const at: number[] = [];
  let depth = 0;
  for (let i = from; i < to; i++) {
    const ch = sql[i];
    if (ch === "'" || ch === '"') {
      const end = sql.indexOf(ch, i + 1);
      i = end < 0 ? to : end;
    } else if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if (
      depth === 0 &&
      sql.slice(i, i + word.length).toLowerCase() === word &&
      !/\w/.test(sql[i - 1] ?? ' ') &&
      !/\w/.test(sql[i + word.length] ?? ' ')
    )
      at.push(i);
  }
  return at;
}

/**
 * `FROM unnest(x) AS a(c)`, `generate_series(1, n) s(r)`: the alias list names the function's one
 * column, so the call becomes a subquery whose column has that name; `FROM unnest(x)` alone names
 * it `unnest`.
 */
function aliasColumnLists(sql: string): string {
  const re = /(\bFROM|\bJOIN|,)\s+(unnest|generate_series)\(/gi;
  for (let m = re.exec(sql); m; m = re.exec(sql)) {
    const start = m.index + m[1].length;
    const callStart = sql.indexOf(m[2], start);
    const end = closingParen(sql, callStart + m[2].length);
    const call = sql.slice(callStart, end);
    const alias = /^\s+(?:as\s+)?("?\w+"?)\(("?\w+"?)\)/i.exec(sql.slice(end));
    // no alias at all: PostgreSQL names the column after the function
    const bare = alias ? null : /^(?=\s*(?:$|;|\)|(?:where|order|group|limit|union)\b))/i.exec(sql.slice(end));
    if (!alias && !bare) continue;
    const [table, column] = alias ? [alias[1], alias[2]] : [m[2].toLowerCase(), m[2].toLowerCase()];
    const replacement = ` (SELECT value AS ${column} FROM ${call}) ${table}`;
    sql = sql.slice(0, start) + replacement + sql.slice(end + (alias ?? bare)![0].length);
    re.lastIndex = start + replacement.length;
  }
  return sql;
}

/** TRIM(BOTH 'x' FROM y) → __pg_trim_both('x', y); LEADING and TRAILING alike. */
function trimFrom(sql: string): string {
  return sql.replace(
    /\btrim\(\s*(both|leading|trailing)\s+('(?:[^']|'')*')\s+from\s+/gi,
    (_m, side: string, chars: string) => `__pg_trim_${side.toLowerCase()}(${chars}, `,
  );
}

/** SUBSTRING(x [FROM a] [FOR b]) → substr(x, a[, b]) (both count from 1 and clip a start below 1 alike). */
function substringFrom(sql: string): string {
  const re = /\bsubstring\(/gi;
  for (let m = re.exec(sql); m; m = re.exec(sql)) {
    const open = m.index + m[0].length - 1;
    const end = closingParen(sql, open);
    const from = topLevelWord(sql, 'from', open + 1, end - 1);
    const forAt = topLevelWord(sql, 'for', from[0] ?? open + 1, end - 1);
    if (from.length > 1 || (from.length === 0 && forAt.length !== 1)) continue;
    const x = sql.slice(open + 1, from[0] ?? forAt[0]).trim();
    const a = from.length ? sql.slice(from[0] + 4, forAt[0] ?? end - 1).trim() : '1';
    const b = forAt.length ? `, ${sql.slice(forAt[0] + 3, end - 1).trim()}` : '';
    const replacement = `substr(${x}, ${a}${b})`;
    sql = sql.slice(0, m.index) + replacement + sql.slice(end);
    re.lastIndex = m.index + replacement.length;
  }
  return sql;
}

const CLAUSE_END = ['where', 'group', 'order', 'limit', 'having', 'union', 'window', 'offset'];

/**
 * pgjdbc's getPrimaryKeys and getIndexInfo select `(information_schema._pg_expandarray(i.indkey)).n`:
 * a set-returning call in the select list, one row per element. It becomes a join with __pg_elems
 * (value, 0-based key) at the end of that SELECT's FROM clause.
 */
function expandArrayInSelectList(sql: string): string {
  const CALL = 'information_schema._pg_expandarray(';
  for (let n = 0; ; n++) {
    const at = sql.toLowerCase().indexOf(CALL);
    if (at < 0) return sql;
    const argEnd = closingParen(sql, at + CALL.length - 1);
    const arg = sql.slice(at + CALL.length, argEnd - 1);
    // the SELECT this call belongs to: the innermost enclosing parenthesis (or the statement)
    let depth = 0;
    let open = -1;
    for (let i = at - 1; i >= 0; i--) {
      if (sql[i] === ')') depth++;
      else if (sql[i] === '(' && depth-- === 0 && /^\(\s*select\b/i.test(sql.slice(i))) {
        open = i;
        break;
      } else if (sql[i] === '(' && depth < 0) depth = 0;
    }
    const scopeEnd = open < 0 ? sql.length : closingParen(sql, open) - 1;
    const from = topLevelWord(sql, 'from', open + 1, scopeEnd).find((p) => p > at);
    if (from === undefined) return sql;
    const ends = CLAUSE_END.flatMap((w) => topLevelWord(sql, w, from, scopeEnd));
    const fromEnd = Math.min(scopeEnd, ...ends);
    const e = `__x${n}`;
    const join = ` JOIN __pg_elems(${arg}) ${e} `;
    let select = sql.slice(0, fromEnd) + join + sql.slice(fromEnd);
    const esc = CALL.replace(/[.()]/g, '\\$&') + arg.replace(/[.()[\]$]/g, '\\$&') + '\\)';
    select = select
      .replace(new RegExp(`\\(${esc}\\)\\.n\\b`, 'gi'), `(${e}.key + 1)`)
      .replace(new RegExp(`\\(${esc}\\)\\.x\\b`, 'gi'), `${e}.value`)
      .replace(
        new RegExp(`${esc} AS "(\\w+)"`, 'gi'),
        (_m, k: string) => `${e}.value AS "${k}.x", ${e}.key + 1 AS "${k}.n"`,
      );
    if (select.toLowerCase().indexOf(CALL) === at) return sql; // nothing we know how to move
    sql = select;
  }
}

/**
 * `c.tableoid` (pg_dump keys every object by it) is a system column: it is not part of `c.*`, so
 * it is no column of the catalog tables either. It becomes the OID of the catalog table the alias
 * names; a bare `tableoid` that of the first catalog table the statement reads.
 */
function tableOids(sql: string): string {
  if (!/\btableoid\b/i.test(sql)) return sql;
  const aliases = new Map<string, number>();
  let first: number | undefined;
  const re = /(?:\bFROM|\bJOIN|,)\s+(?:pg_catalog\.)?(pg_\w+)(?:\s+(?:AS\s+)?("?\w+"?))?/gi;
  for (let m = re.exec(sql); m; m = re.exec(sql)) {
    const oid = CATALOG_RELATION_OIDS[m[1].toLowerCase()];
    if (oid === undefined) continue;
    first ??= oid;
    aliases.set(m[1].toLowerCase(), oid);
    if (m[2] && !/^(on|where|join|left|right|inner|cross|order|group|limit|using)$/i.test(m[2]))
      aliases.set(m[2].replace(/"/g, '').toLowerCase(), oid);
  }
  return sql.replace(/(\b[\w"]+\.)?\btableoid\b/gi, (whole, qual: string | undefined) => {
    const oid = qual ? aliases.get(qual.slice(0, -1).replace(/"/g, '').toLowerCase()) : first;
    return oid === undefined ? whole : String(oid);
  });
}

/** The rewrites above, in the order they need. */
/**
 * `proc.oid = typ.typreceive` (Npgsql's type loading query, what .NET clients and Power BI run when
 * they connect): pg_type's function columns hold the function's name here (a regproc prints as
 * one), so the join compares pg_proc's name. Both orders.
 */
function procJoins(sql: string): string {
  return sql
    .replace(/([\w"]+)\.oid\s*=\s*([\w"]+)\.(typinput|typoutput|typreceive|typsend)\b/gi, '$1.proname = $2.$3')
    .replace(/([\w"]+)\.(typinput|typoutput|typreceive|typsend)\s*=\s*([\w"]+)\.oid\b/gi, '$1.$2 = $3.proname');
}

export function rewriteCatalogSyntax(sql: string): string {
  return procJoins(tableOids(expandArrayInSelectList(substringFrom(trimFrom(aliasColumnLists(sql))))));
}
