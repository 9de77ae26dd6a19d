// GROUP BY ROLLUP(...), CUBE(...) and GROUPING SETS (...), which SQLite lacks, as one grouped query
// per grouping joined by UNION ALL, as PostgreSQL defines them:
//   SELECT a, b, sum(x) FROM t GROUP BY ROLLUP(a, b) ORDER BY a, b
// becomes
//   SELECT a, b, sum(x) FROM t GROUP BY a, b UNION ALL SELECT a, NULL AS "b", sum(x) FROM t GROUP BY a
//   UNION ALL SELECT NULL AS "a", NULL AS "b", sum(x) FROM t ORDER BY 1, 2
// In each query a grouped expression outside that grouping is NULL (outside aggregates' arguments),
// GROUPING(a, b) is its bit mask, and the ORDER BY names result columns by position. The empty
// grouping yields one row even from no rows, as PostgreSQL's does. Done for each SELECT (subqueries
// and WITH queries too), SELECT DISTINCT as UNION, GROUP BY DISTINCT with each grouping once.
// Window functions (which must see every grouping's rows) and ORDER BY terms naming no result
// column put the joined queries in a subquery:
//   SELECT a, rank() OVER (ORDER BY sum(x)) FROM t GROUP BY ROLLUP(a) ORDER BY count(*)
// becomes
//   SELECT "__pg_gs_c1" AS "a", rank() OVER (ORDER BY "__pg_gs_h1") AS "rank" FROM (SELECT a AS
//   "__pg_gs_c1", sum(x) AS "__pg_gs_h1", count(*) AS "__pg_gs_h2" FROM t GROUP BY a UNION ALL
//   SELECT NULL ..., sum(x) ..., count(*) ... FROM t) AS "__pg_gs" ORDER BY "__pg_gs_h2"
// where each aggregate, GROUPING(), subquery and grouped expression the window or the ORDER BY
// names is a hidden column of each grouping's query (a WINDOW clause's windows too). Grouping
// sets in a set operation's branch or with DISTINCT ON are refused (0A000, by sql/unsupported.ts
// when SQLite refuses the text).
// test/pg/grouping-sets-oracle.test.ts compares them with PostgreSQL 15.
import { pgError } from '../../sqlstate';
import { AGGREGATES } from '../grouping';
import { type GroupElement, expandGroupingSets } from '../grouping-sets';
import { NOT_FROM_ALIAS, type Tok, closer, closerAfter, identText, isPunct, isWord, topLevelItems } from '../tokens';

const word = (text: string): Tok => ({ type: 'word', text });
const punct = (text: string): Tok => ({ type: 'punct', text });
const NULL: Tok = { type: 'word', text: 'NULL' };

/** Words that start a clause of a SELECT at its top level. */
const CLAUSES = new Set(['FROM', 'WHERE', 'GROUP', 'HAVING', 'WINDOW', 'ORDER', 'LIMIT', 'OFFSET', 'FETCH', 'FOR']);
const SET_OPS = new Set(['UNION', 'INTERSECT', 'EXCEPT']);
/** Words that end an expression and are no alias. */
const NOT_ALIAS = new Set(['END', 'NULL', 'TRUE', 'FALSE', 'ASC', 'DESC', 'AND', 'OR', 'NOT', 'IS']);
/** Words after an ORDER BY term's expression. */
const TERM_TAIL = new Set(['ASC', 'DESC', 'NULLS', 'USING']);

/** A token's text for comparing expressions: names as PostgreSQL folds them. */
const norm = (t: Tok) => (t.type === 'word' || t.type === 'quoted' ? `w:${identText(t)}` : `${t.type}:${t.text}`);
const sameTokens = (a: Tok[], b: Tok[]) => a.length === b.length && a.every((t, k) => norm(t) === norm(b[k]));

/** A (dotted) column name's parts, or null when the tokens are something else. */
function columnName(e: Tok[]): string[] | null {
  if (e.length % 2 === 0) return null;
  const parts: string[] = [];
  for (let k = 0; k < e.length; k++) {
    if (k % 2 === 1) {
      if (!isPunct(e[k], '.')) return null;
    } else if (e[k].type === 'word' || e[k].type === 'quoted') parts.push(identText(e[k]));
    else return null;
  }
  return parts;
}

/** Whether two grouped expressions are the same: equal tokens, or the same column with or without its table. */
function sameExpr(a: Tok[], b: Tok[]): boolean {
  if (sameTokens(a, b)) return true;
  const x = columnName(a);
  const y = columnName(b);
  if (!x || !y || x[x.length - 1] !== y[y.length - 1]) return false;
  return x.length === 1 || y.length === 1;
}

/** The GROUP BY list's elements; null when one is not understood here. */
function groupElements(toks: Tok[], from: number, to: number): GroupElement<Tok[]>[] | null {
  const out: GroupElement<Tok[]>[] = [];
  for (const [a, b] of topLevelItems(toks, from, to)) {
    const e = groupElement(toks, a, b, true);
    if (!e) return null;
    out.push(e);
  }
  return out;
}

function groupElement(toks: Tok[], a: number, b: number, nested: boolean): GroupElement<Tok[]> | null {
  if (a >= b) return null;
  const t = toks[a];
  const kind = isWord(t, 'ROLLUP') ? 'rollup' : isWord(t, 'CUBE') ? 'cube' : null;
  if (kind && isPunct(toks[a + 1], '(') && closer(toks, a + 1) === b - 1) {
    const content: GroupElement<Tok[]>[] = [];
    for (const [x, y] of topLevelItems(toks, a + 2, b - 1)) {
      const e = groupElement(toks, x, y, false);
      if (!e) return null;
      content.push(e);
    }
    return { kind, content };
  }
  if (
    isWord(t, 'GROUPING') &&
    isWord(toks[a + 1], 'SETS') &&
    isPunct(toks[a + 2], '(') &&
    closer(toks, a + 2) === b - 1
  ) {
    if (!nested) return null;
    const content: GroupElement<Tok[]>[] = [];
    for (const [x, y] of topLevelItems(toks, a + 3, b - 1)) {
      const e = groupElement(toks, x, y, true);
      if (!e) return null;
      content.push(e);
    }
    return { kind: 'sets', content };
  }
  if (isPunct(t, '(') && closer(toks, a) === b - 1) {
    if (b - a === 2) return { kind: 'empty' };
    // () the empty grouping, (a, b) and (a) a grouping of these expressions
    return { row: topLevelItems(toks, a + 1, b - 1).map(([x, y]) => toks.slice(x, y)) };
  }
  return { expr: toks.slice(a, b) };
}

/**
 * `e` for one grouping: each grouped expression outside it NULL, GROUPING(...) its bit mask, the
 * arguments of aggregates and subqueries left as they are. `all` is every grouped expression.
 */
function forGrouping(e: Tok[], all: Tok[][], set: Tok[][]): Tok[] {
  const out: Tok[] = [];
  for (let i = 0; i < e.length; i++) {
    const t = e[i];
    if (isPunct(t, '(') && isWord(e[i + 1], 'SELECT')) {
      const end = closerAfter(e, i);
      out.push(...outerRefsForGrouping(e.slice(i, end + 1), all, set));
      i = end;
      continue;
    }
    if (t.type === 'word' && isPunct(e[i + 1], '(') && !isPunct(e[i - 1], '.')) {
      const name = t.text.toLowerCase();
      if (name === 'grouping') {
        // GROUPING(a, b): a bit per argument, the first the highest, set when it is not grouped here
        const end = closer(e, i + 1);
        const args = topLevelItems(e, i + 2, end).map(([x, y]) => e.slice(x, y));
        const mask = args.reduce((m, arg) => m * 2 + (set.some((g) => sameExpr(g, arg)) ? 0 : 1), 0);
        out.push({ type: 'number', text: String(mask) });
        i = end;
        continue;
      }
      if (AGGREGATES.has(name)) {
        let end = closer(e, i + 1);
        // FILTER (WHERE ...) belongs to the aggregate too
        if (isWord(e[end + 1], 'FILTER') && isPunct(e[end + 2], '(')) end = closer(e, end + 2);
        out.push(...e.slice(i, end + 1));
        i = end;
        continue;
      }
    }
    // a grouped expression outside this grouping, starting here (not the tail of a dotted name)
    const g = isPunct(e[i - 1], '.') ? undefined : all.find((x) => matchAt(e, i, x) > 0);
    if (g) {
      const n = matchAt(e, i, g);
      if (!set.some((s) => sameExpr(s, e.slice(i, i + n)))) {
        out.push(NULL);
        i += n - 1;
        continue;
      }
      out.push(...e.slice(i, i + n));
      i += n - 1;
      continue;
    }
    out.push(t);
  }
  return out;
}

/**
 * A subquery for one grouping: its qualified references to a grouped column of the query outside
 * (`t.a`, `t` no FROM item of the subquery) NULL where this grouping rolls the column up, as
 * PostgreSQL's are. Unqualified names are left (they may be the subquery's own columns).
 */
function outerRefsForGrouping(q: Tok[], all: Tok[][], set: Tok[][]): Tok[] {
  // the names the subquery's FROM items take (an alias hides its table's name); after a comma
  // of a select list too, which only makes fewer references count as outer
  const own = new Set<string>();
  const isName = (x: Tok | undefined) => x !== undefined && (x.type === 'word' || x.type === 'quoted');
  q.forEach((t, k) => {
    if (!(isWord(t, 'FROM') || isWord(t, 'JOIN') || isPunct(t, ',')) || !isName(q[k + 1])) return;
    const alias = isWord(q[k + 2], 'AS') ? q[k + 3] : q[k + 2];
    const aliased = isName(alias) && !(alias!.type === 'word' && NOT_FROM_ALIAS.has(alias!.text.toUpperCase()));
    own.add(identText(aliased ? alias! : q[k + 1]));
  });
  const out: Tok[] = [];
  for (let k = 0; k < q.length; k++) {
    const ref = q.slice(k, k + 3);
    const name = isPunct(q[k - 1], '.') || isPunct(q[k + 3], '.') || isPunct(q[k + 3], '(') ? null : columnName(ref);
    if (name?.length === 2 && !own.has(name[0])) {
      const grouped = all.some((g) => sameExpr(g, ref));
      if (grouped && !set.some((g) => sameExpr(g, ref))) {
        out.push(NULL);
        k += 2;
        continue;
      }
    }
    out.push(q[k]);
  }
  return out;
}

/** How many tokens of e from i are the grouped expression g (0 when they are not). */
function matchAt(e: Tok[], i: number, g: Tok[]): number {
  const follows = (n: number) => !isPunct(e[i + n], '.') && !isPunct(e[i + n], '(');
  if (sameTokens(e.slice(i, i + g.length), g) && follows(g.length)) return g.length;
  // a column grouped by its name alone, here with its table (t.a), or the other way round
  const name = columnName(g);
  if (!name) return 0;
  for (const n of [1, 3, 5]) {
    const here = e.slice(i, i + n);
    if (here.length === n && columnName(here) && sameExpr(here, g) && follows(n)) return n;
  }
  return 0;
}

/**
 * A grouped expression that names a result column, by position (`ROLLUP (1, 2)`) or by its alias
 * where no table has a column of that name (PostgreSQL looks for an input column first): that
 * column's expression. It was grouped as the constant or, the alias, 42703 from SQLite.
 */
function resultColumn(
  g: Tok[],
  items: { expr: Tok[]; alias: string | null }[],
  isColumn: (name: string) => boolean,
): Tok[] {
  if (g.length !== 1) return g;
  if (g[0].type === 'number' && /^\d+$/.test(g[0].text)) {
    const position = Number(g[0].text);
    if (!(position >= 1 && position <= items.length))
      throw pgError('42P10', `GROUP BY position ${g[0].text} is not in select list`);
    return items[position - 1].expr;
  }
  if (g[0].type !== 'word' && g[0].type !== 'quoted') return g;
  const name = identText(g[0]);
  const item = items.find((it) => it.alias === name);
  return item && !isColumn(name) ? item.expr : g;
}

/** An item's expression and the name its result column takes (its alias, or a column's name). */
function selectItem(e: Tok[]): { expr: Tok[]; alias: string | null; name: string | null } {
  const last = e[e.length - 1];
  const named = last && (last.type === 'word' || last.type === 'quoted');
  if (named && e.length > 2 && isWord(e[e.length - 2], 'AS'))
    return { expr: e.slice(0, -2), alias: identText(last), name: identText(last) };
  const column = columnName(e);
  if (column) return { expr: e, alias: null, name: column[column.length - 1] };
  // `count(*) n`, `'x' label`, `a b`: an alias without AS
  const before = e[e.length - 2];
  const bare =
    named &&
    !(last.type === 'word' && NOT_ALIAS.has(last.text.toUpperCase())) &&
    (isPunct(before, ')') ||
      before?.type === 'number' ||
      before?.type === 'string' ||
      (e.length === 2 && (before.type === 'word' || before.type === 'quoted')));
  if (bare) return { expr: e.slice(0, -1), alias: identText(last), name: identText(last) };
  return { expr: e, alias: null, name: null };
}

const quote = (name: string): Tok => ({ type: 'quoted', text: `"${name.replace(/"/g, '""')}"` });

export function rewriteGroupingSets(toks: Tok[], isColumn: (name: string) => boolean = () => true): Tok[] {
  if (
    !toks.some(
      (t, i) =>
        ((isWord(t, 'ROLLUP') || isWord(t, 'CUBE') || (isWord(t, 'GROUPING') && isWord(toks[i + 1], 'SETS'))) &&
          (isPunct(toks[i + 1], '(') || isWord(toks[i + 1], 'SETS'))) ||
        // (the empty grouping as a GROUP BY term of its own: `GROUP BY ()`, `GROUP BY (), a`)
        (isPunct(t, '(') && isPunct(toks[i + 1], ')') && (isWord(toks[i - 1], 'BY') || isPunct(toks[i - 1], ','))),
    )
  )
    return toks;
  return rewriteQuery(toks, isColumn);
}

/** A query and, first, each query in parentheses within it (subqueries, WITH queries). */
function rewriteQuery(toks: Tok[], isColumn: (name: string) => boolean): Tok[] {
  const inner: Tok[] = [];
  for (let i = 0; i < toks.length; i++) {
    const end =
      isPunct(toks[i], '(') && (isWord(toks[i + 1], 'SELECT') || isWord(toks[i + 1], 'WITH')) ? closer(toks, i) : -1;
    if (end < 0) {
      inner.push(toks[i]);
      continue;
    }
    inner.push(toks[i], ...rewriteQuery(toks.slice(i + 1, end), isColumn), toks[end]);
    i = end;
  }
  return rewriteSelect(inner, isColumn);
}

/** One SELECT (after its WITH queries) whose GROUP BY has grouping sets, as a query per grouping. */
function rewriteSelect(toks: Tok[], isColumn: (name: string) => boolean): Tok[] {
  // the SELECT and its clauses, at the top level
  let select = -1;
  const at = new Map<string, number>();
  let depth = 0;
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (isPunct(t, '(')) depth++;
    else if (isPunct(t, ')')) depth--;
    else if (depth === 0 && t.type === 'word') {
      const w = t.text.toUpperCase();
      if (select < 0) {
        if (w === 'SELECT') select = i;
      } else if (SET_OPS.has(w) || w === 'FOR') return toks;
      else if (CLAUSES.has(w) && !at.has(w) && !(w === 'GROUP' && isWord(toks[i - 1], 'WITHIN'))) at.set(w, i);
    }
  }
  const group = at.get('GROUP');
  if (select < 0 || group === undefined || !isWord(toks[group + 1], 'BY')) return toks;
  // SELECT DISTINCT: the queries joined by UNION, which removes repeats across them all
  const distinct = isWord(toks[select + 1], 'DISTINCT');
  if (distinct && isWord(toks[select + 2], 'ON')) return toks;
  const listFrom = distinct || isWord(toks[select + 1], 'ALL') ? select + 2 : select + 1;
  const ends = [...at.values()].sort((a, b) => a - b);
  const end = (start: number) => ends.find((k) => k > start) ?? toks.length;

  // GROUP BY DISTINCT: each grouping once (in any order of its expressions)
  const distinctSets = isWord(toks[group + 2], 'DISTINCT');
  const groupFrom = distinctSets || isWord(toks[group + 2], 'ALL') ? group + 3 : group + 2;
  const elements = groupElements(toks, groupFrom, end(group));
  if (!elements?.some((e) => 'kind' in e)) return toks; // a plain GROUP BY
  const listEnd = end(select);
  const items = topLevelItems(toks, listFrom, listEnd).map(([a, b]) => selectItem(toks.slice(a, b)));
  if (items.some((it) => it.expr.length === 0 || (it.expr.length === 1 && it.expr[0].text === '*'))) return toks;
  let sets = expandGroupingSets(elements)?.map((set) => set.map((g) => resultColumn(g, items, isColumn)));
  if (!sets) return toks;
  if (distinctSets)
    sets = sets.filter(
      (set, k) =>
        !sets!
          .slice(0, k)
          .some(
            (o) =>
              set.every((g) => o.some((x) => sameTokens(x, g))) && o.every((x) => set.some((g) => sameTokens(x, g))),
          ),
    );
  const all: Tok[][] = [];
  for (const g of sets.flat()) if (!all.some((x) => sameTokens(x, g))) all.push(g);
  // longest first: `t.a` before `a`, `date_trunc('day', d)` before `d`
  all.sort((a, b) => b.length - a.length);

  const from = at.get('FROM');
  const body = from === undefined ? [] : toks.slice(from, group); // FROM ... WHERE ...
  const having = at.get('HAVING');
  const havingExpr = having === undefined ? null : toks.slice(having + 1, end(having));
  // ORDER BY, LIMIT, OFFSET, FETCH: after the joined queries
  const tailAt = ['ORDER', 'LIMIT', 'OFFSET', 'FETCH'].map((w) => at.get(w) ?? toks.length);
  const tail = toks.slice(Math.min(...tailAt));
  /** Whether e calls an aggregate outside its subqueries. */
  const aggregated = (e: Tok[]) => {
    for (let k = 0; k < e.length; k++) {
      if (isPunct(e[k], '(') && isWord(e[k + 1], 'SELECT')) k = closerAfter(e, k);
      else if (e[k].type === 'word' && AGGREGATES.has(e[k].text.toLowerCase()) && isPunct(e[k + 1], '(')) return true;
    }
    return false;
  };

  // ORDER BY terms naming no result column, and window functions (which must see the rows of every
  // grouping): the groupings in a subquery carrying what they need as hidden columns, and the
  // window, the ordering and the result columns computed over it
  const order = orderTerms(tail, items);
  const windowed = items.map((it) => hasOver(it.expr));
  const windowAt = at.get('WINDOW');
  const wrap =
    windowAt !== undefined || windowed.some(Boolean) || (order?.terms.some((t) => t.position === 0) ?? false);
  if (wrap && distinct && order?.terms.some((t) => t.position === 0))
    throw pgError('42P10', 'for SELECT DISTINCT, ORDER BY expressions must appear in select list');
  const hidden: Tok[][] = [];
  const lift = (e: Tok[]) => liftGrouped(e, all, hidden);
  const outerItems = wrap ? items.map((it, k) => (windowed[k] ? lift(it.expr) : [quote(`__pg_gs_c${k + 1}`)])) : [];
  const outerOrder = wrap ? order?.terms.map((t) => (t.position > 0 ? null : lift(t.term))) : undefined;
  // WINDOW w AS (...): the named windows, over the joined groupings too
  const windows: Tok[] = [];
  if (windowAt !== undefined)
    for (const [a, b] of topLevelItems(toks, windowAt + 1, end(windowAt))) {
      // name AS ( spec )
      if (!(isWord(toks[a + 1], 'AS') && isPunct(toks[a + 2], '(') && closer(toks, a + 2) === b - 1)) return toks;
      if (windows.length > 0) windows.push(punct(','));
      windows.push(...toks.slice(a, a + 3), ...lift(toks.slice(a + 3, b - 1)), toks[b - 1]);
    }

  // what each grouping's query computes (a window's own aggregate is computed over them, outside)
  const memberExprs = [...items.filter((_, k) => !wrap || !windowed[k]).map((it) => it.expr), ...hidden];
  const members: Tok[][] = sets.map((set) => {
    const list: Tok[] = [];
    const add = (expr: Tok[], alias: string | null) => {
      if (list.length > 0) list.push(punct(','));
      list.push(...expr);
      if (alias !== null) list.push(word('AS'), quote(alias));
    };
    items.forEach((it, k) => {
      if (wrap) {
        if (!windowed[k]) add(forGrouping(it.expr, all, set), `__pg_gs_c${k + 1}`);
        return;
      }
      const expr = forGrouping(it.expr, all, set);
      add(expr, it.alias ?? (!sameTokens(expr, it.expr) ? it.name : null));
    });
    hidden.forEach((h, k) => add(forGrouping(h, all, set), `__pg_gs_h${k + 1}`));
    if (list.length === 0) add([NULL], '__pg_gs_none');
    const cond = havingExpr && forGrouping(havingExpr, all, set);
    if (set.length === 0 && !memberExprs.some(aggregated) && !(havingExpr && aggregated(havingExpr)))
      // the empty grouping of a query without aggregates: one row, whatever the rows
      return [word('SELECT'), ...list, ...(cond ? [word('WHERE'), ...cond] : [])];
    const grouped: Tok[] = [];
    set.forEach((g, k) => {
      if (k > 0) grouped.push(punct(','));
      grouped.push(...g);
    });
    return [
      word('SELECT'),
      ...list,
      ...body,
      ...(set.length > 0 ? [word('GROUP'), word('BY'), ...grouped] : []),
      ...(cond ? [word('HAVING'), ...cond] : []),
    ];
  });
  const joined: Tok[] = [];
  members.forEach((m, k) => {
    if (k > 0) joined.push(...(distinct && !wrap ? [word('UNION')] : [word('UNION'), word('ALL')]));
    joined.push(...m);
  });
  /** The ORDER BY with result columns by position and, over the subquery, the other terms lifted. */
  const orderBy = (terms: (Tok[] | null)[] | undefined): Tok[] => {
    if (!order) return tail;
    const out: Tok[] = [tail[0], tail[1]];
    order.terms.forEach((t, n) => {
      if (n > 0) out.push(punct(','));
      const lifted = terms?.[n];
      out.push(...(lifted ?? [{ type: 'number', text: String(t.position) } as Tok]), ...t.after);
    });
    return [...out, ...tail.slice(order.stop)];
  };
  if (!wrap) return [...toks.slice(0, select), ...joined, ...orderBy(undefined)];
  const outer: Tok[] = [];
  outerItems.forEach((e, k) => {
    if (k > 0) outer.push(punct(','));
    outer.push(...e, word('AS'), quote(items[k].name ?? figure(items[k].expr)));
  });
  return [
    ...toks.slice(0, select),
    word('SELECT'),
    ...(distinct ? [word('DISTINCT')] : []),
    ...outer,
    word('FROM'),
    punct('('),
    ...joined,
    punct(')'),
    word('AS'),
    quote('__pg_gs'),
    ...(windows.length > 0 ? [word('WINDOW'), ...windows] : []),
    ...orderBy(outerOrder),
  ];
}

/** PostgreSQL's name for an unnamed result column: a function's name, else ?column?. */
function figure(e: Tok[]): string {
  if (e[0]?.type === 'word' && isPunct(e[1], '(')) return e[0].text.toLowerCase();
  if (isWord(e[0], 'CASE')) return 'case';
  return '?column?';
}

/** Whether an expression calls a window function (OVER outside its subqueries). */
function hasOver(e: Tok[]): boolean {
  for (let i = 0; i < e.length; i++) {
    if (isPunct(e[i], '(') && isWord(e[i + 1], 'SELECT')) i = closerAfter(e, i);
    else if (isWord(e[i], 'OVER')) return true;
  }
  return false;
}

/**
 * `e` over the joined groupings: each aggregate call (not a window's own), GROUPING(...), subquery
 * and grouped expression is a hidden column of each grouping's query (added to `hidden`, once
 * each), named "__pg_gs_hN"; window calls and the rest stay.
 */
function liftGrouped(e: Tok[], all: Tok[][], hidden: Tok[][]): Tok[] {
  const hide = (x: Tok[]): Tok => {
    let k = hidden.findIndex((h) => sameTokens(h, x));
    if (k < 0) k = hidden.push(x) - 1;
    return quote(`__pg_gs_h${k + 1}`);
  };
  const out: Tok[] = [];
  for (let i = 0; i < e.length; i++) {
    const t = e[i];
    if (isPunct(t, '(') && isWord(e[i + 1], 'SELECT')) {
      const end = closerAfter(e, i);
      out.push(hide(e.slice(i, end + 1)));
      i = end;
      continue;
    }
    if (t.type === 'word' && isPunct(e[i + 1], '(') && !isPunct(e[i - 1], '.')) {
      const name = t.text.toLowerCase();
      let end = closerAfter(e, i + 1);
      if (name === 'grouping') {
        out.push(hide(e.slice(i, end + 1)));
        i = end;
        continue;
      }
      if (AGGREGATES.has(name)) {
        if (isWord(e[end + 1], 'WITHIN') && isWord(e[end + 2], 'GROUP') && isPunct(e[end + 3], '('))
          end = closerAfter(e, end + 3);
        if (isWord(e[end + 1], 'FILTER') && isPunct(e[end + 2], '(')) end = closerAfter(e, end + 2);
        // an aggregate over the window (sum(sum(x)) OVER ()): its arguments are lifted one by one
        if (!isWord(e[end + 1], 'OVER')) {
          out.push(hide(e.slice(i, end + 1)));
          i = end;
          continue;
        }
      }
    }
    const g = isPunct(e[i - 1], '.') ? undefined : all.find((x) => matchAt(e, i, x) > 0);
    if (g) {
      const n = matchAt(e, i, g);
      out.push(hide(e.slice(i, i + n)));
      i += n - 1;
      continue;
    }
    out.push(t);
  }
  return out;
}

/**
 * The ORDER BY's terms, each with the position of the result column it names (by its name, alias,
 * position or the same expression; 0 when it names none) and the words after it (ASC, NULLS LAST).
 * A UNION's ORDER BY takes no other terms.
 */
function orderTerms(
  tail: Tok[],
  items: { expr: Tok[]; name: string | null }[],
): { terms: { term: Tok[]; position: number; after: Tok[] }[]; stop: number } | null {
  if (!isWord(tail[0], 'ORDER')) return null;
  // the ORDER BY ends at LIMIT, OFFSET or FETCH outside parentheses
  let stop = tail.length;
  for (let k = 2, depth = 0; k < tail.length; k++) {
    if (isPunct(tail[k], '(')) depth++;
    else if (isPunct(tail[k], ')')) depth--;
    else if (
      depth === 0 &&
      tail[k].type === 'word' &&
      CLAUSES.has(tail[k].text.toUpperCase()) &&
      !isWord(tail[k - 1], 'WITHIN')
    ) {
      stop = k;
      break;
    }
  }
  const terms = topLevelItems(tail, 2, stop).map(([a, b]) => {
    let e = b;
    for (let k = a + 1, depth = 0; k < b; k++) {
      if (isPunct(tail[k], '(')) depth++;
      else if (isPunct(tail[k], ')')) depth--;
      else if (depth === 0 && tail[k].type === 'word' && TERM_TAIL.has(tail[k].text.toUpperCase())) {
        e = k;
        break;
      }
    }
    const term = tail.slice(a, e);
    const column = columnName(term);
    if (term.length === 1 && term[0].type === 'number') {
      const position = Number(term[0].text);
      if (!(position >= 1 && position <= items.length))
        throw pgError('42P10', `ORDER BY position ${term[0].text} is not in select list`);
      return { term, position, after: tail.slice(e, b) };
    }
    let position = items.findIndex((it) => sameTokens(it.expr, term)) + 1;
    if (position === 0 && column?.length === 1) position = items.findIndex((it) => it.name === column[0]) + 1;
    if (position === 0 && column) position = items.findIndex((it) => sameExpr(it.expr, term)) + 1;
    return { term, position, after: tail.slice(e, b) };
  });
  return { terms, stop };
}
