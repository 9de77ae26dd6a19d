// A join `USING (jb)` or NATURAL over a jsonb column. PostgreSQL matches by jsonb's equality
// (`1.50` = `1.5`, objects whatever their keys' order); SQLite's USING compares the stored text. Such
// a SELECT's USING and NATURAL joins become `ON` (by __pg_jsonb_sortkey, one key for equal values,
// for a jsonb column; `=` for another), and its unqualified references to a merged column read the
// merged value as select-types.ts's joinSpread spreads it (the left side's after an inner or left
// join, the right side's after a right one, coalesce of both after a full one); its `*` is written
// out (analyze.ts's `edited`); a right side that is a join in parentheses gets its ON after the ')'.
// json has no equality: 42883 as PostgreSQL's.
// test/pg/jsonb-oracle.test.ts compares them with PostgreSQL 15.
import { pgError } from '../sqlstate';
import { type PgToken, lexPg } from './lexer';
import { closer, isPunct, isWord } from './tokens';
import { OID } from '../types/oids';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

/** A join written with `ON`: at the offset of its right side's table name. */
export interface OnJoin {
  /** `NATURAL` before it goes. */
  natural: boolean;
  /** The right side is a subquery (the offset is of its first token inside the parentheses, or after). */
  subquery: boolean;
  /** The table has an alias (`b AS x`, `b x (c1, c2)`) the ON goes after. */
  aliased: boolean;
  /**
   * The right side is a join in parentheses (`a JOIN (b JOIN c USING (jb)) USING (jb)`; the offset is
   * of its first table's name, or inside its first subquery): the ON goes after its ')'.
   */
  nested?: 'table' | 'subquery';
  on: string;
}

/** What the rewrite edits, each by a byte offset in the statement's text. */
export interface UsingEdits {
  ons: Map<number, OnJoin>;
  /** An unqualified reference to a merged column → the SQL that reads the merged value. */
  refs: Map<number, string>;
  /** A select item that is such a reference → its name, kept (`coalesce(...)` is no column's name). */
  names: Map<number, string>;
}

interface Pair {
  name: string;
  left: { ref: string; oid: number };
  right: { ref: string; oid: number };
  ref: string;
}

/**
 * The column names and the source names (aliases) a subquery's own FROM list gives it; null where it
 * holds a source whose columns are not known here (a subquery, a function).
 */
export type OwnColumns = (select: Node) => { names: Set<string>; sources: Set<string> } | null;

/**
 * The edits for one SELECT whose FROM list's joins merged `merges`, when one of them merges two
 * jsonb columns; null when none does, or when the SELECT is one this does not rewrite (a join with an
 * alias of its own or a subquery on its right, a merged name read inside a subquery whose own FROM
 * list is not known, or names a source as the SELECT does), left as before. A subquery (of the select
 * list, WHERE, ...) reads the merged value where its own FROM list has no column of that name.
 */
export function jsonbUsingEdits(
  s: Node,
  merges: { join: Node; pairs: Pair[] }[],
  named: boolean,
  cols: { ref: string; oid: number }[],
  into: UsingEdits,
  own: OwnColumns = () => null,
  sources: ReadonlySet<string> = new Set(),
): boolean {
  for (const m of merges)
    for (const p of m.pairs) {
      const [l, r] = [p.left.oid, p.right.oid];
      // (json beside jsonb is PostgreSQL's XX000 `failed to find conversion function`: left to run)
      if (l === OID.json && r === OID.json) throw pgError('42883', 'operator does not exist: json = json');
    }
  if (!merges.some((m) => m.pairs.some((p) => p.left.oid === OID.jsonb && p.right.oid === OID.jsonb))) return false;
  if (!named || merges.some((m) => m.join.alias || rightAt(m.join.rarg) < 0)) return false;
  // the name each unqualified reference reads: the outermost join's merged value (joinSpread pushes inner joins first)
  const merged = new Map<string, string>();
  const pairs = new Map<string, Pair>();
  for (const m of merges)
    for (const p of m.pairs) {
      merged.set(p.name, p.ref);
      pairs.set(p.name, p);
    }
  const outputs = new Set(
    ((s.targetList ?? []) as Node[]).map((t) => t.ResTarget?.name?.toLowerCase()).filter((n) => n !== undefined),
  );
  const refs = new Map<number, string>();
  let nested = false;
  const NONE = new Set<string>();
  // (`hidden`: the merged names a subquery's own FROM list has a column of, its own there)
  const refName = (n: Node, hidden: ReadonlySet<string> = NONE): string | null => {
    const f = n?.ColumnRef?.fields;
    if (f?.length !== 1 || !f[0].String) return null;
    const name = String(f[0].String.sval).toLowerCase();
    return merged.has(name) && !hidden.has(name) ? name : null;
  };
  const reads = (n: Node, hidden: ReadonlySet<string> = NONE): boolean => {
    if (n === null || typeof n !== 'object') return false;
    if (refName(n, hidden)) return true;
    for (const k in n) if (reads(n[k], hidden)) return true;
    return false;
  };
  const walk = (n: Node, order = false, hidden: ReadonlySet<string> = NONE): void => {
    if (n === null || typeof n !== 'object' || nested) return;
    if (Array.isArray(n)) {
      for (const x of n) walk(x, order, hidden);
      return;
    }
    if (n.SubLink) {
      walk(n.SubLink.testexpr, false, hidden);
      const sub = n.SubLink.subselect?.SelectStmt;
      if (!reads(n.SubLink.subselect, hidden)) return;
      // a subquery reads the merged value where its own FROM list has no column of the name (the
      // merged value's qualified name must not be one of its own sources there)
      const mine = sub && (!sub.op || sub.op === 'SETOP_NONE') && !sub.withClause ? own(sub) : null;
      const inner = new Set([...hidden, ...[...merged.keys()].filter((k) => mine?.names.has(k))]);
      if (mine && !reads(n.SubLink.subselect, inner)) return;
      if (!mine || [...mine.sources].some((x) => sources.has(x))) {
        nested = true;
        return;
      }
      for (const k in sub) walk(sub[k], false, inner);
      return;
    }
    if (n.RangeSubselect || n.RangeFunction || n.SelectStmt) {
      if (reads(n, hidden)) nested = true;
      return;
    }
    const name = refName(n, hidden);
    if (name !== null) {
      const at = n.ColumnRef.location;
      if (typeof at !== 'number' || at < 0) nested = true;
      // (`ORDER BY jb` of an item named jb reads the item, in SQLite as in PostgreSQL)
      else if (!(order && outputs.has(name))) refs.set(at, merged.get(name)!);
      return;
    }
    for (const k in n) walk(n[k], order, hidden);
  };
  const walkFrom = (f: Node): void => {
    if (f?.JoinExpr) {
      walkFrom(f.JoinExpr.larg);
      walkFrom(f.JoinExpr.rarg);
      walk(f.JoinExpr.quals);
    } else if (f?.RangeSubselect && !f.RangeSubselect.lateral) {
      // (a subquery that is no LATERAL one sees none of the join's columns)
    } else if (f && reads(f)) nested = true;
  };
  for (const f of s.fromClause ?? []) walkFrom(f);
  for (const k of ['targetList', 'whereClause', 'groupClause', 'havingClause', 'windowClause', 'distinctClause'])
    walk(s[k]);
  walk(s.sortClause, true);
  if (nested) return false;
  // (SELECT DISTINCT of a full join's merged column: its alias would go along into the GROUP BY
  // translate/ makes of the item; left as before)
  if (s.distinctClause && [...refs.values()].some((r) => r.startsWith('coalesce('))) return false;
  // `ORDER BY 1` (or GROUP BY) of a jsonb item: by the value it reads (null-order.ts sorts a
  // position by the item's name, which is two columns' after the join is written with ON)
  const items: ({ ref: string; oid: number } | null)[] = [];
  for (const t of (s.targetList ?? []) as Node[]) {
    const f = t.ResTarget?.val?.ColumnRef?.fields;
    if (f?.length === 1 && f[0].A_Star) items.push(...cols);
    else {
      const name = refName(t.ResTarget?.val);
      const pair = name === null ? undefined : pairs.get(name);
      items.push(
        pair && pair.left.oid === OID.jsonb && pair.right.oid === OID.jsonb ? { ref: pair.ref, oid: OID.jsonb } : null,
      );
    }
  }
  for (const g of [...(s.sortClause ?? []).map((x: Node) => x.SortBy?.node), ...(s.groupClause ?? [])]) {
    const k = g?.A_Const?.ival?.ival;
    const item = typeof k === 'number' ? items[k - 1] : undefined;
    if (item?.oid === OID.jsonb && g.A_Const.location >= 0) refs.set(g.A_Const.location, item.ref);
  }
  for (const m of merges) {
    const sub = !!m.join.rarg.RangeSubselect;
    const on = m.pairs
      .map((p) =>
        p.left.oid === OID.jsonb && p.right.oid === OID.jsonb
          ? `__pg_jsonb_sortkey(${p.left.ref}) = __pg_jsonb_sortkey(${p.right.ref})`
          : `${p.left.ref} = ${p.right.ref}`,
      )
      .join(' AND ');
    let first = m.join.rarg;
    while (first?.JoinExpr) first = first.JoinExpr.larg;
    const nested = !m.join.rarg.JoinExpr ? undefined : first.RangeSubselect ? 'subquery' : 'table';
    const aliased = sub || (!nested && !!m.join.rarg.RangeVar.alias);
    into.ons.set(rightAt(m.join.rarg), {
      natural: !!m.join.isNatural,
      aliased,
      subquery: sub,
      nested,
      on: on || 'true',
    });
  }
  for (const [at, ref] of refs) into.refs.set(at, ref);
  for (const t of (s.targetList ?? []) as Node[]) {
    const name = refName(t.ResTarget?.val);
    // (`"a"."jb"` is named jb already; an alias beside it would go along where translate/ copies the item)
    const ref = name === null ? undefined : refs.get(t.ResTarget.val.ColumnRef.location);
    if (ref?.startsWith('coalesce(') && !t.ResTarget.name)
      into.names.set(t.ResTarget.val.ColumnRef.location, t.ResTarget.val.ColumnRef.fields[0].String.sval);
  }
  return true;
}

/**
 * The offset of a join's right side: its table's name, or a subquery's first located token, or of a
 * join in parentheses (with no alias) its first table's name; -1 for another.
 */
function rightAt(n: Node): number {
  if (n?.JoinExpr && !n.JoinExpr.alias) {
    let first = n.JoinExpr.larg;
    while (first?.JoinExpr && !first.JoinExpr.alias) first = first.JoinExpr.larg;
    return first?.JoinExpr ? -1 : rightAt(first);
  }
  if (n?.RangeVar) return n.RangeVar.location >= 0 ? n.RangeVar.location : -1;
  if (!n?.RangeSubselect?.alias || n.RangeSubselect.lateral) return -1;
  let least = -1;
  const visit = (x: Node): void => {
    if (x === null || typeof x !== 'object') return;
    if (typeof x.location === 'number' && x.location >= 0 && (least < 0 || x.location < least)) least = x.location;
    for (const k in x) visit(x[k]);
  };
  visit(n.RangeSubselect.subquery);
  return least;
}

/** The '(' that opens the subquery around tokens[i]: the nearest unmatched one before it that a query follows. */
function subqueryOpener(tokens: PgToken[], i: number): number {
  let depth = 0;
  for (let k = i - 1; k >= 0; k--) {
    if (isPunct(tokens[k], ')')) depth++;
    else if (isPunct(tokens[k], '(')) {
      if (depth > 0) depth--;
      else if (['SELECT', 'VALUES', 'WITH', 'TABLE'].some((w) => isWord(tokens[next(tokens, k)], w))) return k;
    }
  }
  return -1;
}

/** The '(' right after a JOIN that opens the parentheses before tokens[i], the first side of a join there; -1 when there is none. */
function joinOpener(tokens: PgToken[], i: number): number {
  for (let k = next(tokens, i, -1); isPunct(tokens[k], '('); k = next(tokens, k, -1))
    if (isWord(tokens[next(tokens, k, -1)], 'JOIN')) return k;
  return -1;
}

const SPACE: PgToken = { type: 'space', text: ' ' };

/** The index of the next token after i that is neither space nor comment (or past the end). */
function next(tokens: PgToken[], i: number, step = 1): number {
  let k = i + step;
  while (tokens[k] && (tokens[k].type === 'space' || tokens[k].type === 'comment')) k += step;
  return k;
}

/**
 * analyze.ts's `edited` for UsingEdits: `NATURAL` dropped and `USING (...)` replaced by the join's
 * `ON`, each unqualified reference by the SQL that reads the merged value (marks kept on its first token).
 */
export function onJoinEdits(
  tokens: PgToken[],
  usings: UsingEdits,
  before: Map<number, PgToken[]>,
  after: Map<number, PgToken[]>,
  replace: Map<number, PgToken>,
): void {
  let offset = 0;
  for (let i = 0; i < tokens.length; offset += Buffer.byteLength(tokens[i++].text) + 1) {
    const ref = usings.refs.get(offset);
    if (ref !== undefined) {
      const lexed = lexPg(ref);
      const { type: _t, text: _x, ...marks } = tokens[i] as PgToken & Record<string, unknown>;
      lexed[0] = { ...lexed[0], ...marks } as PgToken;
      before.set(i, [...(before.get(i) ?? []), ...lexed]);
      replace.set(i, SPACE);
      continue;
    }
    const join = usings.ons.get(offset);
    if (!join) continue;
    const first = join.subquery || join.nested === 'subquery' ? subqueryOpener(tokens, i) : i;
    const open = join.nested && first >= 0 ? joinOpener(tokens, first) : first;
    if (open < 0) continue;
    if (join.natural) {
      let k = next(tokens, open, -1); // JOIN
      if (isWord(tokens[next(tokens, k, -1)], 'OUTER')) k = next(tokens, k, -1);
      const side = tokens[next(tokens, k, -1)];
      if (['LEFT', 'RIGHT', 'FULL', 'INNER'].some((w) => isWord(side, w))) k = next(tokens, k, -1);
      k = next(tokens, k, -1);
      if (isWord(tokens[k], 'NATURAL')) replace.set(k, SPACE);
    }
    // the table's name (`s.t` too), then its alias and its alias's column list
    let end = join.subquery || join.nested ? closer(tokens, open) : i;
    while (!join.subquery && !join.nested && tokens[next(tokens, end)]?.text === '.')
      end = next(tokens, next(tokens, end));
    if (join.aliased) {
      end = next(tokens, end);
      if (isWord(tokens[end], 'AS')) end = next(tokens, end);
      if (isPunct(tokens[next(tokens, end)], '(')) end = closer(tokens, next(tokens, end));
    }
    if (!join.natural) {
      const using = next(tokens, end);
      const close = isWord(tokens[using], 'USING') ? closer(tokens, next(tokens, using)) : -1;
      for (let k = using; k <= close; k++) replace.set(k, SPACE);
    }
    after.set(end, [...(after.get(end) ?? []), ...lexPg(` ON ${join.on} `)]);
  }
  // a select item that is such a reference keeps its name
  offset = 0;
  for (let i = 0; i < tokens.length; offset += Buffer.byteLength(tokens[i++].text) + 1) {
    const name = usings.names.get(offset);
    if (name !== undefined) after.set(i, [...(after.get(i) ?? []), ...lexPg(` AS "${name.replace(/"/g, '""')}"`)]);
  }
}
