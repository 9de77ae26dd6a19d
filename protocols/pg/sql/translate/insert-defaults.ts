// DEFAULT in an INSERT's VALUES, which SQLite does not read: each becomes the column's default
// expression from the schema (NULL when it has none, as in PostgreSQL). ORMs send it for a column
// left out (Drizzle, Kysely).
import { type Tok, closerAfter, identText, isPunct, isWord, topLevelWord } from '../tokens';
import type { DialectContext } from './translate';
import { clockDefault } from './clock-defaults';

/** The target of `[WITH ...] INSERT INTO t [AS a] [(cols)]`: the table's name and columns, the names written to, and where the rest starts. */
export interface InsertTarget {
  name: string;
  columns: { name: string; defaultSql: string | null }[];
  /** The columns named in the list, else all the table's. */
  names: string[];
  /** Whether the statement names its columns. */
  listed: boolean;
  /** The index of INSERT (after a WITH clause). */
  verb: number;
  /** The index of the token after the column list (VALUES, SELECT, DEFAULT VALUES, ...). */
  at: number;
}

export function insertTarget(toks: Tok[], ctx: DialectContext): InsertTarget | null {
  if (!ctx.columns) return null;
  const verb = isWord(toks[0], 'WITH') ? topLevelWord(toks, 1, toks.length, 'INSERT') : 0;
  if (verb < 0 || !isWord(toks[verb], 'INSERT')) return null;
  let i = verb + 1;
  while (i < toks.length && !isWord(toks[i], 'INTO')) i++;
  i++;
  if (toks[i + 1] && isPunct(toks[i + 1], '.')) i += 2; // public.t
  const nameTok = toks[i];
  if (!nameTok || (nameTok.type !== 'word' && nameTok.type !== 'quoted')) return null;
  const name = identText(nameTok);
  const columns = ctx.columns(name);
  if (!columns) return null;
  i++;
  if (isWord(toks[i], 'AS')) i += 2;
  let names = columns.map((c) => c.name);
  const listed = isPunct(toks[i], '(') && !isWord(toks[i + 1], 'SELECT') && !isWord(toks[i + 1], 'WITH');
  if (listed) {
    const close = closerAfter(toks, i);
    names = toks
      .slice(i + 1, close)
      .filter((t) => t.type === 'word' || t.type === 'quoted')
      .map(identText);
    i = close + 1;
  }
  return { name, columns, names, listed, verb, at: i };
}

/**
 * `INSERT INTO t (a, b) VALUES (1, DEFAULT)`: SQLite has no DEFAULT in VALUES, so each DEFAULT
 * becomes the column's default expression from the schema (NULL when it has none, as in
 * PostgreSQL). What ORMs send for a column left out (Drizzle, Kysely).
 */
export function rewriteInsertDefaults(toks: Tok[], ctx: DialectContext): Tok[] {
  if (!toks.some((t) => isWord(t, 'DEFAULT'))) return toks;
  const target = insertTarget(toks, ctx);
  if (!target) return toks;
  const table = target.columns;
  const names = target.names;
  let i = target.at;
  if (!isWord(toks[i], 'VALUES')) return toks;
  const out = toks.slice(0, i + 1);
  i++;
  while (isPunct(toks[i], '(')) {
    const close = closerAfter(toks, i);
    out.push(toks[i]);
    let col = 0;
    let depth = 0;
    for (let k = i + 1; k < close; k++) {
      const t = toks[k];
      if (isPunct(t, '(') || isPunct(t, '[')) depth++;
      else if (isPunct(t, ')') || isPunct(t, ']')) depth--;
      if (depth === 0 && isPunct(t, ',')) col++;
      const alone = isPunct(toks[k - 1], '(') || isPunct(toks[k - 1], ',');
      const ends = k + 1 === close || isPunct(toks[k + 1], ',');
      if (depth === 0 && isWord(t, 'DEFAULT') && alone && ends) {
        const column = table.find((c) => c.name.toLowerCase() === names[col]?.toLowerCase());
        const def = column?.defaultSql;
        // (the clock as PostgreSQL's default reads it, converted for the column by typed-assignments.ts)
        const clock = column ? clockDefault(ctx.columnType?.(target.name, column.name) ?? null, def ?? null) : null;
        if (clock) out.push(...clock);
        else out.push({ type: 'group', text: def ? `(${def})` : 'NULL' });
      } else out.push(t);
    }
    out.push(toks[close]);
    i = close + 1;
    if (!isPunct(toks[i], ',')) break;
    out.push(toks[i]);
    i++;
  }
  return out.concat(toks.slice(i));
}
