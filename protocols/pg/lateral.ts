// LATERAL subqueries of one row, which SQLite has no syntax for. pgbench's catalog probe (PostgreSQL
// 15, before every built-in workload) joins
//   CROSS JOIN LATERAL (SELECT pg_catalog.array_position(pg_catalog.current_schemas(true), n.nspname)) AS o(n)
// and reads o.n. A FROM-less select yields exactly one row per outer row, so the join changes no row
// count and each `o.n` is its expression: the join is dropped and every `o.col` becomes `(expr)`.
import type { PgToken } from './lexer';
import { identName } from './lexer';
import { closer, isPunct, isWord } from './sql/tokens';

/** The top-level comma-separated items of toks[from, to). */
function items(toks: PgToken[], from: number, to: number): PgToken[][] {
  const out: PgToken[][] = [[]];
  let depth = 0;
  for (let i = from; i < to; i++) {
    const t = toks[i];
    if (isPunct(t, '(')) depth++;
    else if (isPunct(t, ')')) depth--;
    if (depth === 0 && isPunct(t, ',')) out.push([]);
    else out[out.length - 1].push(t);
  }
  return out;
}

/**
 * Rewrites `[CROSS] JOIN LATERAL (SELECT e1, ...) [AS] alias (c1, ...)` (no FROM in the subquery)
 * into references to the expressions themselves; tokens without a LATERAL come back unchanged.
 */
export function inlineLateralRows(toks: PgToken[]): PgToken[] {
  if (!toks.some((t) => isWord(t, 'LATERAL'))) return toks;
  for (let i = 0; i < toks.length; i++) {
    if (!isWord(toks[i], 'LATERAL') || !isPunct(toks[i + 1], '(') || !isWord(toks[i + 2], 'SELECT')) continue;
    const start = isWord(toks[i - 1], 'JOIN') ? (isWord(toks[i - 2], 'CROSS') ? i - 2 : i - 1) : -1;
    const close = closer(toks, i + 1);
    if (start < 0 || close < 0) continue;
    const body = items(toks, i + 3, close);
    let depth = 0;
    const hasFrom = toks
      .slice(i + 3, close)
      .some((t) =>
        isPunct(t, '(') ? (depth++, false) : isPunct(t, ')') ? (depth--, false) : depth === 0 && isWord(t, 'FROM'),
      );
    let j = close + 1;
    if (isWord(toks[j], 'AS')) j++;
    const alias = toks[j];
    if (hasFrom || !alias || (alias.type !== 'word' && alias.type !== 'quoted') || !isPunct(toks[j + 1], '(')) continue;
    const colsEnd = closer(toks, j + 1);
    if (colsEnd < 0) continue;
    const cols = items(toks, j + 2, colsEnd).map((c) => (c.length === 1 ? identName(c[0]) : ''));
    if (cols.length !== body.length || cols.includes('')) continue;
    let end = colsEnd + 1;
    if (isWord(toks[end], 'ON') && isWord(toks[end + 1], 'TRUE')) end += 2;
    const name = identName(alias);
    const rest = [...toks.slice(0, start), ...toks.slice(end)];
    const out: PgToken[] = [];
    for (let k = 0; k < rest.length; k++) {
      const t = rest[k];
      const col =
        (t.type === 'word' || t.type === 'quoted') && identName(t) === name && isPunct(rest[k + 1], '.') && rest[k + 2]
          ? cols.indexOf(identName(rest[k + 2]))
          : -1;
      if (col >= 0) {
        out.push({ type: 'punct', text: '(' }, ...body[col], { type: 'punct', text: ')' });
        k += 2;
      } else out.push(t);
    }
    return inlineLateralRows(out);
  }
  return toks;
}
