// Set-returning functions as SQLite can run them, on the translated text: unnest, generate_series
// and string_to_array in FROM with their alias naming the value, information_schema._pg_expandarray
// (pgjdbc's getPrimaryKeys) and unnest with generate_subscripts in a select list (SQLAlchemy's
// primary-key query) as joins with the table-valued __pg_elems.

/**
 * `SELECT unnest(x) a, generate_subscripts(x, 1) b FROM t u ...` (SQLAlchemy's primary-key query):
 * set-returning functions in a select list become a join with the table-valued __pg_elems.
 */
export function rewriteSetReturning(sql: string): string {
  // FROM unnest(x) a: the alias names the element, as in PostgreSQL
  sql = sql.replace(/\b(FROM|JOIN|,) unnest\(([^()]*)\) (?:AS )?("?\w+"?)/gi, (m, kw: string, x: string, a: string) =>
    (kw.toUpperCase() !== 'FROM' && correlated(`unnest(${x})`)) || a === '"__pg_srf"'
      ? m
      : `${kw} (SELECT value AS ${a} FROM unnest(${x})) ${a}`,
  );
  sql = aliasFromFunctions(sql);
  // pgjdbc's getPrimaryKeys: information_schema._pg_expandarray(indkey) AS keys ... (i.keys).x, (i.keys).n
  sql = sql.replace(
    /information_schema\._pg_expandarray\(([\w.]+)\) AS "(\w+)" FROM ([\w."]+) (\w+)/gi,
    (_m, x: string, k: string, t: string, a: string) =>
      `__e.value AS "${k}.x", __e.key + 1 AS "${k}.n" FROM ${t} ${a}, __pg_elems(${x}) __e`,
  );
  sql = sql.replace(/\((\w+)\.(\w+)\)\.(x|n)\b/g, (_m, a: string, k: string, f: string) => `${a}."${k}.${f}"`);
  return sql.replace(
    /SELECT unnest\(([\w.]+)\) (\w+), generate_subscripts\(\1, 1\) (\w+) FROM ([\w.]+) (\w+)/i,
    (_m, x: string, a: string, b: string, t: string, u: string) =>
      `SELECT __e.value AS ${a}, __e.key + 1 AS ${b} FROM ${t} ${u}, __pg_elems(${x}) __e`,
  );
}

/**
 * `FROM generate_series(a, b) AS i, string_to_array(x, ',') s` (Grafana), `FROM unnest(ARRAY[...]) u`: in PostgreSQL the alias
 * of a function in FROM names its value, so each becomes a subquery with one column of that name.
 */
function aliasFromFunctions(sql: string): string {
  const re =
    /(\bFROM|\bJOIN|,) (generate_series|string_to_array|unnest|regexp_split_to_table|__pg_jsonb?_array_elements(?:_text)?|__pg_jsonb?_object_keys|__pg_regexp_matches)\(/gi;
  let out = '';
  let last = 0;
  const renames: string[] = [];
  for (let m = re.exec(sql); m; m = re.exec(sql)) {
    let depth = 0;
    let j = m.index + m[0].length - 1;
    for (; j < sql.length; j++) {
      const ch = sql[j];
      if (ch === "'") j = sql.indexOf("'", j + 1) < 0 ? sql.length : sql.indexOf("'", j + 1);
      else if (ch === '(') depth++;
      else if (ch === ')' && --depth === 0) break;
    }
    const alias = /^ (?:AS )?("?\w+"?)(?=\s*(?:,|\)|$| WHERE| ORDER| JOIN| LEFT| GROUP))/i.exec(sql.slice(j + 1));
    if (!alias || /^(WHERE|ORDER|JOIN|LEFT|GROUP|ON)$/i.test(alias[1])) continue;
    const call = sql.slice(m.index + m[1].length + 1, j + 1);
    const a = alias[1];
    if (a === '"__pg_srf"') continue; // a select list's call made a join (standard-forms.ts): read as __pg_srf.value
    if (m[2].toLowerCase() !== 'string_to_array' && m[1].toUpperCase() !== 'FROM' && correlated(call)) {
      // arguments from the row of an earlier FROM item (jsonb_array_elements(t.tags) e): SQLite runs
      // the table-valued function per row as it stands, and a subquery could not see t, so the
      // function keeps its alias and a bare `e` elsewhere reads its value
      renames.push(a);
      continue;
    }
    out +=
      sql.slice(last, m.index) +
      `${m[1]} ` +
      (m[2].toLowerCase() !== 'string_to_array'
        ? `(SELECT value AS ${a} FROM ${call}) ${a}`
        : `(SELECT ${call} AS ${a}) ${a}`);
    last = j + 1 + alias[0].length;
    re.lastIndex = last;
  }
  let result = out + sql.slice(last);
  for (const a of renames) result = renameAlias(result, a);
  return result;
}

/**
 * Whether a call's arguments name a column (an identifier that is no function name), outside strings:
 * after `,` or JOIN, a column of an earlier FROM item.
 */
function correlated(call: string): boolean {
  const args = call.slice(call.indexOf('(') + 1, -1).replace(/'(?:[^']|'')*'/g, "''");
  return /(?:^|[^\w$."])(?:"[^"]+"|[A-Za-z_]\w*)(?!\w|\s*\(|")/.test(args);
}

/** `a` read as a column outside strings (not `a.x`, not `x.a`, no call, not its definition `) [AS] a`): `a.value`. */
function renameAlias(sql: string, a: string): string {
  const name = a.replace(/"/g, '').replace(/[^\w]/g, '');
  const pattern = `(?:"${name}"|\\b${name}\\b)`;
  const re = new RegExp(`(?<![.\\w"])(?<!\\)\\s(?:AS\\s)?)${pattern}(?![.\\w"(])`, 'gi');
  return sql
    .split(/('(?:[^']|'')*')/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(re, `${a}.value`)))
    .join('');
}
