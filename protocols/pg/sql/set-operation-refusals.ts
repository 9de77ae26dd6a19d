// What SQLite refuses of a set operation (UNION, INTERSECT, EXCEPT) in its own words, read again off
// the parse tree for PostgreSQL's SQLSTATE, message and position (called by sqlite-refusals.ts once
// SQLite has refused the statement; nothing is parsed for one it takes):
// - branches of different widths: SQLite's `SELECTs to the left and right of UNION ALL do not have
//   the same number of result columns`, PostgreSQL's 42601 `each UNION query must have the same
//   number of columns` at the right branch's first item;
// - an ORDER BY term of the set operation that is no result column: SQLite's 42000 `1st ORDER BY
//   term does not match any column in the result set`, PostgreSQL's 42703 `column "n" does not
//   exist` for an unknown name, 42P01 `missing FROM-clause entry for table "t"` for a qualified one
//   (`ORDER BY t.id`), and 0A000 `invalid UNION/INTERSECT/EXCEPT ORDER BY clause` for an expression
//   of result columns (`ORDER BY id + 1`), with its DETAIL and HINT.

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

/** PostgreSQL's error for one of SQLite's set operation refusals; `location` a byte offset. */
export interface SetOperationRefusal {
  code: string;
  message: string;
  location?: number;
  detail?: string;
  hint?: string;
}

export const SET_OPERATION_WIDTHS =
  /^SELECTs to the left and right of (UNION|INTERSECT|EXCEPT)(?: ALL)? do not have the same number of result columns$/;
export const SET_OPERATION_ORDER = /^\d+(?:st|nd|rd|th) ORDER BY term does not match any column in the result set$/;

/** Every node of the tree below `n`, parents before their children, in the text's order. */
function* nodes(n: Node): Generator<Node> {
  if (Array.isArray(n)) for (const x of n) yield* nodes(x);
  else if (n && typeof n === 'object') {
    yield n;
    for (const k of Object.keys(n)) yield* nodes(n[k]);
  }
}

/** The set operations of the statement, outermost first (their branches are not listed again). */
function* setOperations(tree: Node): Generator<Node> {
  for (const n of nodes(tree)) if (n.SelectStmt?.op && n.SelectStmt.op !== 'SETOP_NONE') yield n.SelectStmt;
}

/** The leftmost plain query of a set operation's branch. */
function leftmost(s: Node): Node {
  while (s?.larg) s = s.larg;
  return s;
}

/** A plain query's select list (a VALUES list's first row). */
function items(s: Node): Node[] {
  return s?.targetList?.map((t: Node) => t.ResTarget?.val) ?? s?.valuesLists?.[0]?.List?.items ?? [];
}

const isStar = (v: Node) => v?.ColumnRef?.fields?.some((f: Node) => f.A_Star) === true;

/** The smallest location in a subtree: where an expression's text starts (PostgreSQL's exprLocation). */
function start(n: Node): number | undefined {
  let at: number | undefined;
  for (const x of nodes(n))
    if (typeof x.location === 'number' && x.location >= 0 && (at === undefined || x.location < at)) at = x.location;
  return at;
}

/**
 * The first set operation (its branches before it, as PostgreSQL checks them) whose two sides
 * have different widths, else whose side's width a star hides: 42601 at the right side's first item.
 */
export function setOperationWidths(tree: Node): SetOperationRefusal | null {
  let hidden: SetOperationRefusal | null = null;
  const check = (s: Node): { width: number | null; found: SetOperationRefusal | null } => {
    if (!s.op || s.op === 'SETOP_NONE') {
      const list = items(s);
      return { width: list.some(isStar) ? null : list.length, found: null };
    }
    const l = check(s.larg);
    if (l.found) return l;
    const r = check(s.rarg);
    if (r.found) return r;
    const what = String(s.op).replace('SETOP_', '');
    const refusal = {
      code: '42601',
      message: `each ${what} query must have the same number of columns`,
      location: start(items(leftmost(s.rarg))[0]),
    };
    if (l.width !== null && r.width !== null && l.width !== r.width) return { width: l.width, found: refusal };
    if (l.width === null || r.width === null) hidden ??= refusal;
    return { width: l.width, found: null };
  };
  for (const s of setOperations(tree)) {
    const { found } = check(s);
    if (found) return found;
  }
  return hidden;
}

/** The first ORDER BY term of a set operation that names no result column, in PostgreSQL's words. */
export function setOperationOrder(tree: Node): SetOperationRefusal | null {
  for (const s of setOperations(tree)) {
    const first = items(leftmost(s));
    if (first.some(isStar)) continue;
    // the result's names: the leftmost query's, as its items name them
    const names = new Set<string>();
    for (const t of leftmost(s).targetList ?? []) {
      const r = t.ResTarget;
      const last = r?.val?.ColumnRef?.fields?.at(-1)?.String?.sval;
      if (r?.name) names.add(r.name);
      else if (last) names.add(last);
    }
    for (const sort of s.sortClause ?? []) {
      const term = sort.SortBy?.node;
      if (!term || term.A_Const) continue;
      const refs = [...nodes(term)].filter((n) => n.ColumnRef);
      let found: SetOperationRefusal | null = null;
      for (const { ColumnRef: c } of refs) {
        const fields: string[] = (c.fields ?? []).map((f: Node) => f.String?.sval);
        if (fields.length === 2 && fields.every((f) => typeof f === 'string')) {
          found = {
            code: '42P01',
            message: `missing FROM-clause entry for table "${fields[0]}"`,
            location: c.location,
          };
        } else if (fields.length === 1 && typeof fields[0] === 'string' && !names.has(fields[0])) {
          found = { code: '42703', message: `column "${fields[0]}" does not exist`, location: c.location };
        }
        if (found) break;
      }
      if (!found && term.ColumnRef) continue;
      // (a subquery in the term is left as it was)
      if (!found && ![...nodes(term)].some((n) => n.SubLink))
        found = {
          code: '0A000',
          message: 'invalid UNION/INTERSECT/EXCEPT ORDER BY clause',
          location: start(term),
          detail: 'Only result column names can be used, not expressions or functions.',
          hint: 'Add the expression/function to every SELECT, or move the UNION into a FROM clause.',
        };
      if (found) return found;
    }
  }
  return null;
}
