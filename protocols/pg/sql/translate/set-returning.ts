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
  sql = sql.replace(
    /\b(FROM|JOIN|,) unnest\(([^()]*)\) (?:AS )?("?\w+"?)/gi,
    (_m, kw: string, x: string, a: string) => `${kw} (SELECT value AS ${a} FROM unnest(${x})) ${a}`,
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
  const re = /(\bFROM|\bJOIN|,) (generate_series|string_to_array|unnest)\(/gi;
  let out = '';
  let last = 0;
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
    out +=
      sql.slice(last, m.index) +
      `${m[1]} ` +
      (m[2].toLowerCase() !== 'string_to_array'
        ? `(SELECT value AS ${a} FROM ${call}) ${a}`
        : `(SELECT ${call} AS ${a}) ${a}`);
    last = j + 1 + alias[0].length;
    re.lastIndex = last;
  }
  return out + sql.slice(last);
}
