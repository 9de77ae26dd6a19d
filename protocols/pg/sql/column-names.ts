// PostgreSQL's name for a select item written without AS (FigureColname in its parse_target.c):
// `doc::json` is doc, count(*) count, CASE case, arr[1] arr, (SELECT max(n) FROM t) max, 1 + 1
// ?column?. The names clients see (select-types.ts) and the ones a query around a subquery or a
// WITH query reads its columns by (figured-aliases.ts) both come from here.
import { SQL_VALUE_FUNCTIONS, strings, typeDisplayName } from './type-signatures';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

/** PostgreSQL's name for an unaliased select item's expression. */
export function figuredName(n: Node): string {
  return figure(n)[0];
}

/**
 * The name and its strength: 2 from a column, a function or a keyword expression, 1 from a cast's
 * type or CASE, 0 for none (`?column?`); a cast or CASE keeps a stronger name of its operand (of
 * its ELSE branch for CASE), as PostgreSQL's does.
 */
function figure(n: Node): [string, number] {
  if (!n) return ['?column?', 0];
  if (n.ColumnRef) {
    // the last name, past a `*` (`(t.*)::text` is named t)
    const last = strings(n.ColumnRef.fields)
      .filter((f) => f !== '')
      .pop();
    return last ? [last, 2] : ['?column?', 0];
  }
  if (n.FuncCall) {
    const names = strings(n.FuncCall.funcname);
    return [names[names.length - 1] ?? '?column?', 2];
  }
  if (n.GroupingFunc) return ['grouping', 2];
  if (n.TypeCast) {
    const inner = figure(n.TypeCast.arg);
    return inner[1] > 1 ? inner : [typeDisplayName(n.TypeCast.typeName), 1];
  }
  if (n.CollateClause) return figure(n.CollateClause.arg);
  if (n.CaseExpr) {
    const inner = figure(n.CaseExpr.defresult);
    return inner[1] > 1 ? inner : ['case', 1];
  }
  if (n.SQLValueFunction) return [SQL_VALUE_FUNCTIONS[n.SQLValueFunction.op]?.[0] ?? '?column?', 2];
  if (n.CoalesceExpr) return ['coalesce', 2];
  if (n.MinMaxExpr) return [n.MinMaxExpr.op === 'IS_GREATEST' ? 'greatest' : 'least', 2];
  if (n.A_Expr?.kind === 'AEXPR_NULLIF') return ['nullif', 2];
  if (n.RowExpr) return ['row', 2];
  if (n.SubLink?.subLinkType === 'EXISTS_SUBLINK') return ['exists', 2];
  if (n.SubLink?.subLinkType === 'ARRAY_SUBLINK' || n.A_ArrayExpr) return ['array', 2];
  if (n.A_Indirection) {
    // x.field names the field; x[n] takes x's name
    const last = n.A_Indirection.indirection?.[n.A_Indirection.indirection.length - 1];
    return last?.String?.sval ? [last.String.sval, 2] : figure(n.A_Indirection.arg);
  }
  if (n.SubLink?.subLinkType === 'EXPR_SUBLINK') return [subqueryName(n.SubLink.subselect?.SelectStmt), 2];
  return ['?column?', 0];
}

/** The name of a scalar subquery's column: its first item's (a set operation's first branch's). */
function subqueryName(q: Node): string {
  while (q?.op && q.op !== 'SETOP_NONE') q = q.larg;
  if (q?.valuesLists) return 'column1';
  const first = q?.targetList?.[0]?.ResTarget;
  return first?.name ?? figuredName(first?.val);
}
