// A data-modifying WITH query (`WITH d AS (DELETE FROM t ... RETURNING *) INSERT INTO a SELECT *
// FROM d`), which SQLite has not: each INSERT, UPDATE or DELETE of the WITH runs first as a statement
// of its own with its RETURNING, and the statement around them runs last, reading each one's rows
// from a parameter that holds them (src/engine/fed-rows.ts), all as one statement on the writer.
//
// To be analysed (typed, translated) the statement around them sees each such query as a SELECT of
// its RETURNING list from its table (`d AS (SELECT * FROM t)`: the columns PostgreSQL's RETURNING
// gives, with their types); in its SQLite text that query then reads the fed rows instead. A WITH
// query that reads an earlier one's rows (`b AS (INSERT INTO a SELECT * FROM d RETURNING ...)`) is
// analysed the same way.
//
// PostgreSQL runs every part on one snapshot: the rest of the statement sees a table a WITH query
// changes as it was before, and its new rows only through RETURNING. Run in turn, a later part
// would see the changes, so a statement where a later part names a table an earlier WITH query
// writes is refused (0A000) rather than answered otherwise.
import type { Analyzed } from './analyzed';
import { type PgToken, identName, lexPg } from './lexer';
import { parseTree } from './parse';
import { pgError } from '../sqlstate';
import { isPunct, isWord, topLevelWord } from './tokens';
import { withQueries } from './translate/with-queries';
import { type Feed, fedColumn } from '../../../src/engine/fed-rows';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

const MODIFYING = new Set(['INSERT', 'UPDATE', 'DELETE']);

/** One WITH query of the statement: toks[start, close] is `name [(cols)] AS (query)`. */
interface Part {
  name: string;
  start: number;
  open: number;
  close: number;
  /** INSERT, UPDATE or DELETE; null for a SELECT (or VALUES). */
  modifying: string | null;
}

/**
 * The parameter a WITH query's rows are bound to: a $n past the last a client may bind (65535), so
 * that it reads as a parameter wherever the translated text is read again (a constraint error's DETAIL).
 */
const paramOf = (k: number) => String(65536 + k);

/**
 * The analysis of a statement with a data-modifying WITH query at its top, or null when it has
 * none. `analyze` analyses a statement's tokens (the analyzer's own pass), `columnNames` the
 * SQLite column names of a query text (from its prepared statement).
 */
export function analyzeModifyingWith(
  sig: PgToken[],
  text: string,
  analyze: (toks: PgToken[]) => Analyzed,
  columnNames: (sql: string) => string[],
): Analyzed | null {
  if (!isWord(sig[0], 'WITH')) return null;
  const parts = topParts(sig);
  if (!parts?.some((p) => p.modifying)) return null;
  checkOneSnapshot(text, parts);
  const recursive = isWord(sig[1], 'RECURSIVE');
  const last = parts[parts.length - 1].close;
  const rest = sig.slice(last + 1);
  // each WITH query as the later parts see it: a SELECT of its RETURNING list, or nothing without one
  const standIns = new Map<string, string | null>();
  const feeds: Feed[] = [];
  const analyses: Analyzed[] = [];
  const withText = (before: Part[], body: PgToken[]) => {
    const items = before.flatMap((p) => {
      if (!p.modifying) return [joined(sig.slice(p.start, p.close + 1))];
      const standIn = standIns.get(p.name);
      return standIn === null || standIn === undefined ? [] : [`${joined(sig.slice(p.start, p.open))} (${standIn})`];
    });
    return items.length > 0 ? `WITH ${recursive ? 'RECURSIVE ' : ''}${items.join(', ')} ${joined(body)}` : joined(body);
  };
  const fedSql = (sql: string, before: Part[]) => {
    let out = sql;
    for (const p of before)
      if (p.modifying && standIns.get(p.name)) out = fedQuery(out, p.name, paramOf(parts.indexOf(p)), columnNames);
    return out;
  };
  for (let k = 0; k < parts.length; k++) {
    const p = parts[k];
    if (!p.modifying) continue;
    const body = sig.slice(p.open + 1, p.close);
    const an = analyze(lexPg(withText(parts.slice(0, k), body)));
    analyses.push(an);
    feeds.push({ sql: fedSql(an.sql, parts.slice(0, k)), param: paramOf(k) });
    standIns.set(p.name, standInOf(p.modifying, body));
  }
  const outer = analyze(lexPg(withText(parts, rest)));
  const paramTypes = [...outer.paramTypes];
  for (const an of analyses)
    an.paramTypes.forEach((t, i) => {
      if (!paramTypes[i]) paramTypes[i] = t;
    });
  const upserts = analyses.filter((an) => an.upsertKeys);
  const { positional: _, ...around } = outer; // (positional: a read's point path, which this never takes)
  return {
    ...around,
    sql: fedSql(outer.sql, parts),
    readonly: false,
    local: false,
    paramTypes,
    feeds,
    ...(!outer.upsertKeys && upserts.length === 1 ? { upsertKeys: upserts[0].upsertKeys } : {}),
  };
}

/** The tokens' text, spaced. */
function joined(toks: PgToken[]): string {
  return toks.map((t) => t.text).join(' ');
}

/** The statement's own WITH queries (toks[0] is WITH), in order; null when they do not read as such. */
function topParts(sig: PgToken[]): Part[] | null {
  const queries = withQueries(sig, () => -1).filter((q) => q.level === -1);
  const parts: Part[] = [];
  let start = isWord(sig[1], 'RECURSIVE') ? 2 : 1;
  for (const q of queries) {
    // (a WITH inside one: levelOf is not told here, so the name's place tells)
    if (q.open < start || sig[start]?.type === 'punct' || identName(sig[start]) !== q.name) break;
    const first = sig[q.open + 1];
    const word = first?.type === 'word' ? first.text.toUpperCase() : '';
    parts.push({ name: q.name, start, open: q.open, close: q.close, modifying: MODIFYING.has(word) ? word : null });
    if (!isPunct(sig[q.close + 1], ',')) break;
    start = q.close + 2;
  }
  return parts.length > 0 ? parts : null;
}

/**
 * The SELECT that types a data-modifying query's RETURNING list: the list over its table (under its
 * alias) and, for UPDATE ... FROM and DELETE ... USING, the other tables; null without RETURNING.
 */
function standInOf(kind: string, body: PgToken[]): string | null {
  const returning = topLevelWord(body, 0, body.length, 'RETURNING');
  if (returning < 0) return null;
  const list = joined(body.slice(returning + 1));
  const end = (from: number, words: string[]) => {
    const at = words.map((w) => topLevelWord(body, from, returning, w)).filter((k) => k >= 0);
    return at.length > 0 ? Math.min(...at) : returning;
  };
  let from: string;
  if (kind === 'INSERT') {
    // INSERT INTO name [AS alias]
    let k = 2;
    while (isPunct(body[k + 1], '.')) k += 2;
    from = joined(body.slice(2, k + 1));
    if (isWord(body[k + 1], 'AS')) from += ` AS ${body[k + 2].text}`;
  } else {
    const target = kind === 'UPDATE' ? 1 : 2; // UPDATE name ..., DELETE FROM name ...
    const skip = isWord(body[target], 'ONLY') ? target + 1 : target;
    const targetEnd = kind === 'UPDATE' ? end(skip, ['SET']) : end(skip, ['USING', 'WHERE']);
    from = joined(body.slice(skip, targetEnd));
    const other = kind === 'UPDATE' ? topLevelWord(body, targetEnd, returning, 'FROM') : end(skip, ['USING']);
    if (other >= 0 && other < returning && (kind === 'UPDATE' || isWord(body[other], 'USING')))
      from += `, ${joined(body.slice(other + 1, end(other, ['WHERE'])))}`;
  }
  return `SELECT ${list} FROM ${from}`;
}

/**
 * `sql` (a translation) with the WITH query `name` reading the rows bound to `param` in place of its
 * stand-in, each column under the name SQLite gave the stand-in's.
 */
function fedQuery(sql: string, name: string, param: string, columnNames: (sql: string) => string[]): string {
  const toks = lexPg(sql);
  const sig: number[] = [];
  toks.forEach((t, k) => {
    if (t.type !== 'space' && t.type !== 'comment') sig.push(k);
  });
  const s = sig.map((k) => toks[k]);
  const q = isWord(s[0], 'WITH')
    ? withQueries(s, () => -1).find((w) => w.name === name && w.open > 0 && isTopLevel(s, w.open))
    : undefined;
  if (!q) throw pgError('0A000', `a data-modifying statement in WITH whose query "${name}" Patina could not place`);
  const prefix = toks.slice(0, sig[q.close] + 1).map((t) => t.text);
  const names = columnNames(`${prefix.join('')} SELECT * FROM "${name.replace(/"/g, '""')}"`);
  const body = `(SELECT ${names.map((n, i) => `${fedColumn(i)} AS "${n.replace(/"/g, '""')}"`).join(', ')} FROM json_each($${param}))`;
  const before = toks
    .slice(0, sig[q.open])
    .map((t) => t.text)
    .join('');
  const after = toks
    .slice(sig[q.close] + 1)
    .map((t) => t.text)
    .join('');
  return `${before}${body}${after}`;
}

/** Whether toks[k] is outside every parenthesis. */
function isTopLevel(toks: PgToken[], k: number): boolean {
  let depth = 0;
  for (let i = 0; i < k; i++) {
    if (isPunct(toks[i], '(')) depth++;
    else if (isPunct(toks[i], ')')) depth--;
  }
  return depth === 0;
}

/**
 * Refuses (0A000) a statement where a part names a table that a data-modifying WITH query before it
 * writes: run in turn, that part would see the changes PostgreSQL's one snapshot hides from it.
 */
function checkOneSnapshot(text: string, parts: Part[]): void {
  const stmt = parseTree(text).stmts?.[0]?.stmt ?? {};
  const top: Node = Object.values(stmt)[0] ?? {};
  const ctes: Node[] = (top.withClause?.ctes ?? []).map((c: Node) => c.CommonTableExpr);
  const names = new Set(ctes.map((c) => c?.ctename));
  const { withClause: _, ...main } = top;
  // every part's tables: the WITH queries' in order, the statement's own last
  const tables = [...ctes.map((c) => relations(c?.ctequery, names)), relations(main, names)];
  const reads = [...ctes.map((c) => relations(c?.ctequery, new Set())), relations(main, new Set())];
  ctes.forEach((c, k) => {
    const q = c?.ctequery;
    const modifying = q?.InsertStmt ?? q?.UpdateStmt ?? q?.DeleteStmt;
    // its rows are its RETURNING's: without one, no other part may read it (PostgreSQL's 0A000)
    if (
      modifying &&
      !(modifying.returningClause?.exprs ?? modifying.returningList)?.length &&
      reads.some((r, j) => j !== k && r.has(c.ctename))
    )
      throw pgError('0A000', `WITH query "${c.ctename}" does not have a RETURNING clause`);
    const target = modifying?.relation?.relname;
    if (!target || !parts[k]?.modifying) return;
    // (a data-modifying query before it runs before it; a SELECT's runs with the statement, last)
    for (let j = 0; j < tables.length; j++)
      if (j !== k && !(j < k && parts[j]?.modifying) && tables[j].has(target))
        throw pgError(
          '0A000',
          `a data-modifying statement in WITH whose table "${target}" another part of the statement also reads or writes is not supported: PostgreSQL runs every part on one snapshot, where that part sees "${target}" as it was; Patina runs the WITH query first (run the parts as statements of their own)`,
        );
  });
}

/** The table names a tree reads or writes, without the WITH queries' own names. */
function relations(n: Node, ctes: Set<string>, out = new Set<string>()): Set<string> {
  if (Array.isArray(n)) for (const x of n) relations(x, ctes, out);
  else if (n !== null && typeof n === 'object') {
    if (n.RangeVar && !(n.RangeVar.schemaname === undefined && ctes.has(n.RangeVar.relname)))
      out.add(n.RangeVar.relname);
    if (n.relation?.relname && !ctes.has(n.relation.relname)) out.add(n.relation.relname);
    for (const k of Object.keys(n)) relations(n[k], ctes, out);
  }
  return out;
}
