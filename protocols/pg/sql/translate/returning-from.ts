// RETURNING of `UPDATE ... FROM` and `DELETE ... USING` naming the other tables' columns
// (`UPDATE u SET label = t.name FROM t WHERE u.t_id = t.id RETURNING u.id, t.name`, `RETURNING *`
// or `t.*`): SQLite's RETURNING knows only the target table, so `t.name` was 42703 and `*` left the
// FROM tables' columns out. Each such reference becomes a subquery that finds the joined row again,
// `(SELECT t.name FROM t WHERE u.t_id = t.id LIMIT 1)`, run by SQLite for each returned row with the
// target's columns as they are returned. An UPDATE returns the new values, so the subquery keeps only
// the conditions that read a FROM item (the target's own filters are already met by a returned row),
// and a SET of a column those conditions read is 0A000: the join could no longer be found.
import { pgError } from '../../sqlstate';
import { NOT_FROM_ALIAS, type Tok, closer, identText, isPunct, isWord, topLevelItems, topLevelWord } from '../tokens';

const isName = (t: Tok | undefined) => t !== undefined && (t.type === 'word' || t.type === 'quoted');
const word = (text: string): Tok => ({ type: 'word', text });
const punct = (text: string): Tok => ({ type: 'punct', text });
const quoted = (name: string): Tok => ({ type: 'quoted', text: `"${name.replace(/"/g, '""')}"` });

/** A FROM item: its name in the statement, and its columns (null when not known here). */
interface Source {
  alias: string;
  columns: string[] | null;
}

/** What the pass asks of the schema and of SQLite. */
export interface ReturningSchema {
  /** A schema table's column names in order; null when no such table. */
  columns(table: string): string[] | null;
  /** The names of a subquery's columns (its tokens without the parentheses); null when unknown. */
  queryColumns(query: Tok[]): string[] | null;
}

/**
 * Rewrites the RETURNING list of an UPDATE with FROM or a DELETE with USING (before USING is
 * rewritten) as above. `at` is the index after the target and its alias; `names` are the target's
 * table name and alias. Other statements come back as they are.
 */
export function rewriteReturningFrom(
  toks: Tok[],
  at: number,
  table: string,
  alias: string | null,
  schema: ReturningSchema,
): Tok[] {
  const update = isWord(toks[0], 'UPDATE');
  const fromWord = update ? topLevelWord(toks, at, toks.length, 'FROM') : at;
  if (fromWord < 0 || !isWord(toks[fromWord], update ? 'FROM' : 'USING')) return toks;
  const ret = topLevelWord(toks, fromWord, toks.length, 'RETURNING');
  if (ret < 0) return toks;
  const where = topLevelWord(toks, fromWord, ret, 'WHERE');
  const fromToks = toks.slice(fromWord + 1, where >= 0 ? where : ret);
  const sources = fromSources(fromToks, schema);
  if (sources === null) return toks;
  const targetNames = new Set([table, ...(alias !== null ? [alias] : [])]);
  const targetColumns = new Set((schema.columns(table) ?? []).map((c) => c.toLowerCase()));
  const fromAliases = new Set(sources.map((s) => s.alias).filter((a) => !targetNames.has(a)));
  // an unqualified name that only a FROM item has (PostgreSQL's 42702 when two have it: SQLite says so too)
  const ownerOf = (ident: string): string | null => {
    const name = ident.toLowerCase();
    if (targetColumns.has(name)) return null;
    const owners = sources.filter((s) => s.columns?.some((c) => c.toLowerCase() === name));
    return owners.length === 1 ? owners[0].alias : null;
  };
  const list = toks.slice(ret + 1);
  const star = (t: Tok, k: number) =>
    t.text === '*' && (!isPunct(list[k - 1], '.') || fromAliases.has(identText(list[k - 2])));
  if (!list.some((t, k) => star(t, k) || readsFrom(list, k, fromAliases, ownerOf))) return toks;

  let cond = where >= 0 ? toks.slice(where + 1, ret) : [];
  if (update) cond = joinConditions(toks.slice(at, fromWord), cond, fromToks, targetNames, fromAliases, ownerOf);
  const lookup = (qualifier: string, column: Tok): Tok[] => [
    punct('('),
    word('SELECT'),
    word(qualifier),
    punct('.'),
    column,
    word('FROM'),
    ...fromToks,
    ...(cond.length > 0 ? [word('WHERE'), ...cond] : []),
    word('LIMIT'),
    { type: 'number', text: '1' },
    punct(')'),
  ];
  const spelled = (s: Source): Tok[] => {
    if (s.columns === null)
      throw pgError('0A000', `RETURNING ${s.alias}.* of a FROM item whose columns are not known here is not supported`);
    return s.columns.flatMap((c, k) => [
      ...(k > 0 ? [punct(',')] : []),
      ...lookup(s.alias, quoted(c)),
      word('AS'),
      quoted(c),
    ]);
  };

  const out: Tok[] = [];
  for (const [a, b] of topLevelItems(list, 0, list.length)) {
    if (out.length > 0) out.push(punct(','));
    const item = list.slice(a, b);
    // `*`: the target's columns (SQLite's `*`), then each FROM item's, as PostgreSQL spreads them
    if (item.length === 1 && item[0].text === '*') {
      out.push(item[0]);
      for (const s of sources) if (!targetNames.has(s.alias)) out.push(punct(','), ...spelled(s));
      continue;
    }
    if (item.length === 3 && isName(item[0]) && isPunct(item[1], '.') && item[2].text === '*') {
      const q = identText(item[0]);
      if (targetNames.has(q)) out.push(item[2]);
      else {
        const s = sources.find((x) => x.alias === q);
        out.push(...(s ? spelled(s) : item));
      }
      continue;
    }
    // a lone column keeps its name as the result column's (the subquery's would be `?column?`)
    const lone =
      (item.length === 3 && isName(item[0]) && isPunct(item[1], '.') && isName(item[2])) ||
      (item.length === 1 && isName(item[0]));
    let named = false;
    for (let k = 0; k < item.length; k++) {
      // a subquery's names are its own FROM's first: it is left as written
      if (isPunct(item[k], '(') && isWord(item[k + 1], 'SELECT')) {
        const end = closer(item, k);
        if (end > k) {
          out.push(...item.slice(k, end + 1));
          k = end;
          continue;
        }
      }
      if (!readsFrom(item, k, fromAliases, ownerOf)) {
        out.push(item[k]);
        continue;
      }
      named = lone;
      if (isPunct(item[k + 1], '.')) {
        out.push(...lookup(identText(item[k]), item[k + 2]));
        k += 2;
      } else out.push(...lookup(ownerOf(identText(item[k])) as string, item[k]));
    }
    if (named) out.push(word('AS'), quoted(identText(item[item.length - 1])));
  }
  return [...toks.slice(0, ret + 1), ...out];
}

/** Whether list[k] starts a reference to a FROM item's column: `q.col` with q a FROM alias, or a name only one FROM item has. */
function readsFrom(
  list: readonly Tok[],
  k: number,
  fromAliases: ReadonlySet<string>,
  ownerOf: (name: string) => string | null,
): boolean {
  const t = list[k];
  if (!isName(t) || isPunct(list[k - 1], '.')) return false;
  if (isPunct(list[k + 1], '.')) return fromAliases.has(identText(t)) && isName(list[k + 2]);
  // not a call, an alias after AS, a type after ::, a keyword of an expression
  if (isPunct(list[k + 1], '(') || isWord(list[k - 1], 'AS') || list[k - 1]?.text === '::') return false;
  return ownerOf(identText(t)) !== null;
}

/**
 * The FROM list's items (tables, subqueries, functions, and the tables joined to them) with their
 * columns where known; null when the list has a form not read here.
 */
function fromSources(from: Tok[], schema: ReturningSchema): Source[] | null {
  const out: Source[] = [];
  let k = 0;
  const source = (): boolean => {
    if (isWord(from[k], 'LATERAL')) k++;
    let columns: string[] | null = null;
    let alias: string;
    if (isPunct(from[k], '(')) {
      const end = closer(from, k);
      if (end < 0) return false;
      columns = schema.queryColumns(from.slice(k + 1, end));
      alias = '';
      k = end + 1;
    } else if (isName(from[k])) {
      if (isPunct(from[k + 1], '.') && isName(from[k + 2])) k += 2; // public.t
      alias = identText(from[k]);
      k++;
      if (isPunct(from[k], '(')) {
        // a function: its columns are its alias's column list, if any
        const end = closer(from, k);
        if (end < 0) return false;
        k = end + 1;
      } else columns = schema.columns(alias);
    } else return false;
    if (isWord(from[k], 'AS')) k++;
    if (isName(from[k]) && !NOT_FROM_ALIAS.has(from[k].text.toUpperCase())) {
      alias = identText(from[k]);
      k++;
      if (isPunct(from[k], '(')) {
        const end = closer(from, k);
        if (end < 0) return false;
        columns = from
          .slice(k + 1, end)
          .filter(isName)
          .map(identText);
        k = end + 1;
      }
    }
    if (alias === '') return false;
    out.push({ alias, columns });
    return true;
  };
  for (const [a, b] of topLevelItems(from, 0, from.length)) {
    k = a;
    if (!source()) return null;
    // joins: skip their kind words and conditions, read each joined source
    while (k < b) {
      if (isWord(from[k], 'JOIN')) {
        k++;
        if (!source()) return null;
      } else if (isPunct(from[k], '(')) k = closer(from, k) + 1;
      else k++;
    }
  }
  return out;
}

/**
 * An UPDATE's WHERE conjuncts (top-level AND) that read a FROM item, for finding the joined row
 * after the update; 0A000 when one of them reads a column the SET assigns.
 */
function joinConditions(
  set: Tok[],
  cond: Tok[],
  from: Tok[],
  targetNames: ReadonlySet<string>,
  fromAliases: ReadonlySet<string>,
  ownerOf: (name: string) => string | null,
): Tok[] {
  const assigned = assignedColumns(set);
  const parts: Tok[][] = [];
  let depth = 0;
  let start = 0;
  for (let k = 0; k <= cond.length; k++) {
    const t = cond[k];
    if (isPunct(t, '(')) depth++;
    else if (isPunct(t, ')')) depth--;
    // (BETWEEN a AND b is one conjunct)
    else if (k === cond.length || (depth === 0 && isWord(t, 'AND') && !betweenOpen(cond, start, k))) {
      parts.push(cond.slice(start, k));
      start = k + 1;
    }
  }
  const kept = parts.filter((p) => p.some((_, k) => readsFrom(p, k, fromAliases, ownerOf)));
  // the FROM list's own ON conditions read the target too (`JOIN x ON x.id = u.x_id`)
  for (const p of [...kept, ...onConditions(from)])
    for (let k = 0; k < p.length; k++) {
      const t = p[k];
      if (!isName(t) || isPunct(p[k - 1], '.')) continue;
      const qualified = isPunct(p[k + 1], '.') && isName(p[k + 2]);
      const target = qualified ? targetNames.has(identText(t)) : !fromAliases.has(identText(t));
      const column = qualified ? identText(p[k + 2]) : identText(t);
      if (target && assigned.has(column) && (qualified || ownerOf(column) === null))
        throw pgError(
          '0A000',
          `RETURNING a FROM item's column of an UPDATE that sets "${column}", which its join condition reads, is not supported`,
        );
    }
  return kept.flatMap((p, k) => (k > 0 ? [word('AND'), ...p] : p));
}

const JOIN_WORDS = new Set(['JOIN', 'LEFT', 'RIGHT', 'INNER', 'FULL', 'CROSS', 'NATURAL']);

/** The ON conditions of a FROM list's joins. */
function onConditions(from: Tok[]): Tok[][] {
  const out: Tok[][] = [];
  for (let k = 0; k < from.length; k++) {
    if (!isWord(from[k], 'ON')) continue;
    let depth = 0;
    let e = k + 1;
    for (; e < from.length; e++) {
      const t = from[e];
      if (isPunct(t, '(')) depth++;
      else if (isPunct(t, ')')) {
        if (--depth < 0) break;
      } else if (depth === 0 && (isPunct(t, ',') || (t.type === 'word' && JOIN_WORDS.has(t.text.toUpperCase())))) break;
    }
    out.push(from.slice(k + 1, e));
  }
  return out;
}

/** Whether an AND at cond[k] is a BETWEEN's (`x BETWEEN a AND b`), reading from the conjunct's start. */
function betweenOpen(cond: Tok[], start: number, k: number): boolean {
  let open = 0;
  let depth = 0;
  for (let i = start; i < k; i++) {
    if (isPunct(cond[i], '(')) depth++;
    else if (isPunct(cond[i], ')')) depth--;
    else if (depth === 0 && isWord(cond[i], 'BETWEEN')) open++;
    else if (depth === 0 && isWord(cond[i], 'AND')) open--;
  }
  return open > 0;
}

/** The columns a SET clause assigns (`SET a = ..., (b, c) = ...`), lower case. */
function assignedColumns(set: Tok[]): Set<string> {
  const out = new Set<string>();
  const s = set.findIndex((t) => isWord(t, 'SET'));
  if (s < 0) return out;
  for (const [a, b] of topLevelItems(set, s + 1, set.length)) {
    if (isPunct(set[a], '(')) {
      const end = closer(set, a);
      for (const t of set.slice(a + 1, end)) if (isName(t)) out.add(identText(t));
    } else if (isName(set[a]) && a < b) out.add(identText(set[a]));
  }
  return out;
}

/**
 * `RETURNING t.*` of the target (by its name or alias) → `RETURNING *`: SQLite's RETURNING refuses
 * `t.*` (42000 there) and has no other table whose columns `*` could spread.
 */
export function targetStars(toks: Tok[], names: ReadonlySet<string>): Tok[] {
  const ret = topLevelWord(toks, 0, toks.length, 'RETURNING');
  if (ret < 0) return toks;
  const out = toks.slice(0, ret + 1);
  for (const [a, b] of topLevelItems(toks, ret + 1, toks.length)) {
    if (out.length > ret + 1) out.push(punct(','));
    const item = toks.slice(a, b);
    const own = item.length === 3 && isName(item[0]) && isPunct(item[1], '.') && item[2].text === '*';
    out.push(...(own && names.has(identText(item[0])) ? [item[2]] : item));
  }
  return out;
}
