// Forms of UPDATE, DELETE and INSERT that PostgreSQL reads and SQLite's grammar does not, as ORMs
// send them: a target alias without AS (`UPDATE posts p SET ...`), `DELETE ... USING`, an alias in
// RETURNING (`INSERT INTO users AS u ... RETURNING u.id`: SQLite's RETURNING knows only the table's
// own name) and `ON CONFLICT ON CONSTRAINT t_pkey` (the primary key is a table's one unique constraint).
import { pgError } from '../../sqlstate';
import { type Tok, isPunct, isWord } from '../tokens';
import { type ReturningSchema, rewriteReturningFrom, targetStars } from './returning-from';

const isName = (t: Tok | undefined) => t !== undefined && (t.type === 'word' || t.type === 'quoted');
const nameOf = (t: Tok) => (t.type === 'quoted' ? t.text.slice(1, -1).replace(/""/g, '"') : t.text.toLowerCase());

/** Words that may follow a target table and are no alias. */
const NOT_ALIAS = new Set([
  'SET',
  'WHERE',
  'USING',
  'RETURNING',
  'AS',
  'VALUES',
  'DEFAULT',
  'SELECT',
  'ON',
  'OVERRIDING',
]);

/** The index of the top-level word `w` from toks[i] on, or -1. */
function topLevelWord(toks: readonly Tok[], i: number, w: string): number {
  let depth = 0;
  for (; i < toks.length; i++) {
    if (isPunct(toks[i], '(')) depth++;
    else if (isPunct(toks[i], ')')) depth--;
    else if (depth === 0 && isWord(toks[i], w)) return i;
  }
  return -1;
}

/** Rewrites the target of an UPDATE, DELETE or INSERT as described above; other statements come back as they are. */
export function rewriteDmlForms(toks: Tok[], schema?: ReturningSchema): Tok[] {
  const verb = toks[0];
  let i: number;
  if (isWord(verb, 'UPDATE')) i = 1;
  else if (isWord(verb, 'DELETE') && isWord(toks[1], 'FROM')) i = 2;
  else if (isWord(verb, 'INSERT') && isWord(toks[1], 'INTO')) i = 2;
  else return toks;
  if (isWord(toks[i], 'ONLY')) toks.splice(i, 1);
  if (isPunct(toks[i + 1], '.') && isName(toks[i + 2])) i += 2; // public.t
  const table = toks[i];
  if (!isName(table)) return toks;
  let alias: string | null = null;
  let at = i + 1;
  if (isWord(toks[at], 'AS') && isName(toks[at + 1])) {
    alias = nameOf(toks[at + 1]);
    at += 2;
  } else if (!isWord(verb, 'INSERT') && isName(toks[at]) && !NOT_ALIAS.has(toks[at].text.toUpperCase())) {
    alias = nameOf(toks[at]);
    toks.splice(at, 0, { type: 'word', text: 'AS' });
    at += 2;
  }
  // (the other tables' columns in RETURNING first: they read USING as written)
  if (schema && !isWord(verb, 'INSERT')) toks = rewriteReturningFrom(toks, at, nameOf(table), alias, schema);
  toks = targetStars(toks, new Set([nameOf(table), ...(alias !== null ? [alias] : [])]));
  if (isWord(verb, 'DELETE') && isWord(toks[at], 'USING')) toks = deleteUsing(toks, at);
  if (isWord(verb, 'INSERT')) toks = onConstraint(toks, nameOf(table));
  if (alias !== null) {
    const ret = topLevelWord(toks, at, 'RETURNING');
    if (ret >= 0)
      for (let k = ret + 1; k < toks.length; k++)
        if (isName(toks[k]) && nameOf(toks[k]) === alias && isPunct(toks[k + 1], '.') && !isPunct(toks[k - 1], '.'))
          toks[k] = table;
  }
  return toks;
}

/** DELETE FROM t AS a USING x, y WHERE c → DELETE FROM t AS a WHERE EXISTS (SELECT 1 FROM x, y WHERE c). */
function deleteUsing(toks: Tok[], using: number): Tok[] {
  const where = topLevelWord(toks, using, 'WHERE');
  const ret = topLevelWord(toks, using, 'RETURNING');
  const end = ret >= 0 ? ret : toks.length;
  const from = toks.slice(using + 1, where >= 0 ? where : end);
  const cond = where >= 0 ? toks.slice(where + 1, end) : [];
  const exists: Tok[] = [
    { type: 'word', text: 'WHERE' },
    { type: 'word', text: 'EXISTS' },
    { type: 'punct', text: '(' },
    { type: 'word', text: 'SELECT' },
    { type: 'number', text: '1' },
    { type: 'word', text: 'FROM' },
    ...from,
    ...(cond.length ? [{ type: 'word', text: 'WHERE' } as Tok, ...cond] : []),
    { type: 'punct', text: ')' },
  ];
  return [...toks.slice(0, using), ...exists, ...toks.slice(end)];
}

/**
 * ON CONFLICT ON CONSTRAINT t_pkey → ON CONFLICT (no target): the primary key is the table's only
 * unique constraint (docs/schema.md), so the two mean the same. Another name is PostgreSQL's 42704.
 */
function onConstraint(toks: Tok[], table: string): Tok[] {
  const on = topLevelWord(toks, 0, 'CONFLICT');
  if (on < 0 || !isWord(toks[on + 1], 'ON') || !isWord(toks[on + 2], 'CONSTRAINT') || !isName(toks[on + 3]))
    return toks;
  const name = nameOf(toks[on + 3]);
  if (name !== `${table}_pkey`) throw pgError('42704', `constraint "${name}" for table "${table}" does not exist`);
  toks.splice(on + 1, 3);
  return toks;
}

/**
 * `FROM ONLY t` and `JOIN ONLY t` (pg_dump --inserts reads `FROM ONLY public.t`): ONLY keeps a
 * parent table's children out, and Patina's tables have none, so the word goes.
 */
export function dropOnly(toks: Tok[]): Tok[] {
  if (!toks.some((t) => isWord(t, 'ONLY'))) return toks;
  return toks.filter(
    (t, i) =>
      !(isWord(t, 'ONLY') && (isWord(toks[i - 1], 'FROM') || isWord(toks[i - 1], 'JOIN')) && isName(toks[i + 1])),
  );
}

/**
 * `INSERT INTO t (id, v) OVERRIDING SYSTEM VALUE VALUES ...` (and `OVERRIDING USER VALUE`): the
 * clause says whether values written to an identity column are kept or replaced by its sequence's,
 * and Patina's tables have no identity columns (docs/schema.md), so PostgreSQL keeps every value
 * either way, as the statement without the clause does; the words go.
 */
export function dropOverriding(toks: Tok[]): Tok[] {
  if (!toks.some((t) => isWord(t, 'OVERRIDING')) || !toks.some((t) => isWord(t, 'INSERT'))) return toks;
  return toks.filter((t, i) => {
    const at = isWord(t, 'OVERRIDING')
      ? i
      : isWord(t, 'VALUE')
        ? i - 2
        : isWord(toks[i - 1], 'OVERRIDING')
          ? i - 1
          : -1;
    return !(
      at >= 0 &&
      isWord(toks[at], 'OVERRIDING') &&
      (isWord(toks[at + 1], 'SYSTEM') || isWord(toks[at + 1], 'USER')) &&
      isWord(toks[at + 2], 'VALUE') &&
      (isPunct(toks[at - 1], ')') || isName(toks[at - 1]))
    );
  });
}
