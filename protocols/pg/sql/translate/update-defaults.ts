// DEFAULT as an UPDATE's new value (`UPDATE t SET x = DEFAULT`, `SET (a, b) = (DEFAULT, 1)`, also
// in `ROW(...)` and in an upsert's `DO UPDATE SET`), which SQLite's grammar does not read (it was 42601 `near "DEFAULT"`): each becomes
// the column's default expression from the schema, NULL when it has none, as PostgreSQL sets it and
// as translate/insert-defaults.ts does for an INSERT's VALUES.
import { type Tok, closerAfter, identText, isOp, isPunct, isWord, topLevelItems, topLevelWord } from '../tokens';
import { clockDefault } from './clock-defaults';
import { insertTarget } from './insert-defaults';
import type { DialectContext } from './translate';

const isName = (t: Tok | undefined) => t !== undefined && (t.type === 'word' || t.type === 'quoted');

/** The SET list of an UPDATE or of an upsert's `DO UPDATE`: the table written and where the list starts and ends. */
export function setClause(toks: Tok[], ctx: DialectContext): { table: string; set: number; end: number } | null {
  const verb = isWord(toks[0], 'WITH') ? topLevelWord(toks, 1, toks.length, 'UPDATE') : 0;
  let table: string;
  let set: number;
  if (isWord(toks[verb], 'UPDATE')) {
    let i = verb + 1;
    if (isWord(toks[i], 'ONLY')) i++;
    if (isPunct(toks[i + 1], '.') && isName(toks[i + 2])) i += 2; // public.t
    if (!isName(toks[i])) return null;
    table = identText(toks[i]);
    set = topLevelWord(toks, i + 1, toks.length, 'SET');
  } else {
    // INSERT ... ON CONFLICT (k) DO UPDATE SET x = DEFAULT
    const target = insertTarget(toks, ctx);
    const conflict = target ? topLevelWord(toks, target.at, toks.length, 'CONFLICT') : -1;
    const update = conflict >= 0 ? topLevelWord(toks, conflict, toks.length, 'UPDATE') : -1;
    if (!target || update < 0 || !isWord(toks[update - 1], 'DO') || !isWord(toks[update + 1], 'SET')) return null;
    table = target.name;
    set = update + 1;
  }
  if (set < 0) return null;
  const ends = ['FROM', 'WHERE', 'RETURNING']
    .map((w) => topLevelWord(toks, set + 1, toks.length, w))
    .filter((k) => k >= 0);
  return { table, set, end: ends.length ? Math.min(...ends) : toks.length };
}

export function rewriteUpdateDefaults(toks: Tok[], ctx: DialectContext): Tok[] {
  if (!ctx.columns || !toks.some((t) => isWord(t, 'DEFAULT'))) return toks;
  const clause = setClause(toks, ctx);
  const columns = clause && ctx.columns(clause.table);
  if (!clause || !columns) return toks;
  const { table, set, end } = clause;
  /** The default of a column as tokens: its clock as PostgreSQL reads it, its expression, or NULL. */
  const defaultOf = (name: string): Tok[] => {
    const column = columns.find((c) => c.name.toLowerCase() === name.toLowerCase());
    const def = column?.defaultSql ?? null;
    const clock = column ? clockDefault(ctx.columnType?.(table, column.name) ?? null, def) : null;
    return clock ?? [{ type: 'group', text: def ? `(${def})` : 'NULL' }];
  };
  const out = toks.slice(0, set + 1);
  for (const [from, to] of topLevelItems(toks, set + 1, end)) {
    if (out.length > set + 1) out.push({ type: 'punct', text: ',' });
    const item = toks.slice(from, to);
    if (isName(item[0]) && isOp(item[1], '=') && item.length === 3 && isWord(item[2], 'DEFAULT')) {
      out.push(item[0], item[1], ...defaultOf(identText(item[0])));
      continue;
    }
    // (a, b) = (x, DEFAULT) and (a, b) = ROW(x, DEFAULT): the values in the places of the names
    if (isPunct(item[0], '(')) {
      const close = closerAfter(item, 0);
      const names = topLevelItems(item, 1, close).map(([a, b]) =>
        b === a + 1 && isName(item[a]) ? identText(item[a]) : null,
      );
      const open = isWord(item[close + 2], 'ROW') ? close + 3 : close + 2;
      if (isOp(item[close + 1], '=') && isPunct(item[open], '(') && closerAfter(item, open) === item.length - 1) {
        const values = topLevelItems(item, open + 1, item.length - 1);
        if (values.length === names.length) {
          out.push(...item.slice(0, open + 1));
          values.forEach(([a, b], k) => {
            if (k > 0) out.push({ type: 'punct', text: ',' });
            const name = names[k];
            if (b === a + 1 && isWord(item[a], 'DEFAULT') && name !== null) out.push(...defaultOf(name));
            else out.push(...item.slice(a, b));
          });
          out.push(item[item.length - 1]);
          continue;
        }
      }
    }
    out.push(...item);
  }
  return out.concat(toks.slice(end));
}
