// A value written into a date or time column whose type differs from the value's on the side of the
// time zone: PostgreSQL's assignment cast goes through the session's zone. A timestamptz (now(),
// CURRENT_TIMESTAMP, a timestamptz column) into a timestamp, date or time column is its wall time
// there; a timestamp or date (localtimestamp, a timestamp column) into a timestamptz column is read
// as a wall time there. Patina keeps a timestamptz as UTC text and a timestamp as its wall text, so
// without a conversion `INSERT INTO t (ts) VALUES (now())` in Europe/Paris stored UTC's wall time.
// The parse tree types the value; its first token is marked (PgToken.assign) for
// translate/assignment.ts, which converts it when the session is not in UTC.
//
// A value written into a text, varchar or char(n) column is assigned by its type's output function:
// a boolean is `true`, a numeric(10,2) `2.50`, a timestamptz `2024-01-02 10:00:00+00` (in the
// session's zone and DateStyle), a real `0.1`. SQLite stored its own text of the value (`1`, `2.5`,
// the UTC text without its offset, `0.10000000149011612`), and that text was replicated. Such a
// value is marked `text:<kind>` (text-kinds.ts's kinds, as a cast to text prints them) and
// translate/assignment.ts prints it so. A numeric division, avg or a tree of them written into a
// string column is computed exactly, as its text with PostgreSQL's digits (`10::numeric / 4` is
// `2.5000000000000000`; SQLite's double printed `2.5`), and a computed numeric written into a double
// precision or float4 column is computed exactly before SQLite reads it as a double, as PostgreSQL
// casts its numeric (`0.1 + 0.2` is 0.3, not 0.30000000000000004): exact-columns.ts's marks.
import { OID, oidOfDeclType } from '../types/oids';
import { arrayOidOf } from '../types/registry';
import { exactNumericMarks, exactText } from './exact-columns';
import { type Typer, withParamTypes } from './expression-types';
import { cteColumns, ctesOf } from './select-types';
import type { Ctes } from './select-types';
import { textKind } from './text-kinds';
import { markAtScale, markSetAssignments } from './set-assignments';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

/** The mark's key in typedOperators' map (the first token's offset, apart from the operators' and ORDER BY's keys). */
export const assignMarkKey = (at: number) => -(at + 1) - 2 ** 40;

/** The conversion a value of type `value` needs into a column of type `column`: 'wall', 'zoned' or none. */
function conversion(column: number, value: number): string | undefined {
  if (value === OID.timestamptz && (column === OID.timestamp || column === OID.date || column === OID.time))
    return 'wall';
  if ((value === OID.timestamp || value === OID.date) && column === OID.timestamptz) return 'zoned';
  return undefined;
}

/** The string types, into which a value is assigned by its text. */
const TEXT_COLUMNS = new Set<number>([OID.text, OID.varchar, OID.bpchar]);

const NUMERIC_ARRAY = arrayOidOf(OID.numeric);

/** The floating-point types, into which PostgreSQL casts a numeric computed exactly. */
const FLOAT_COLUMNS = new Set<number>([OID.float8, OID.float4]);

/** The integer types (a column declared INTEGER or SMALLINT is int8 here). */
const INT_COLUMNS = new Set<number>([OID.int8, OID.int4, OID.int2]);

/**
 * How a value written into a string column is made text (`text:<kind>`), when SQLite's text of it
 * differs from PostgreSQL's; none for a literal (a number's or string's text is its own; a boolean
 * literal is SQLite's 1 or 0 and is marked), a parameter the client left untyped (the column types
 * it: text already), or a kind the writing connection cannot print (an OID as its relation's name).
 */
function textConversion(t: Typer, val: Node, declared: readonly number[]): string | undefined {
  const c = val.A_Const;
  // (a decimal literal an INSERT's query passes on is SQLite's REAL there: printed at its own scale,
  // `SELECT 1.50` is 1.50, 1e3 1000; a VALUES row's is its text already, literals.ts)
  if (c?.fval !== undefined) {
    const kind = textKind(t, val);
    return kind ? `text:${kind}` : undefined;
  }
  if (c && (c.ival !== undefined || c.sval !== undefined || c.isnull)) return undefined;
  // (a parameter the client declared a boolean, a timestamptz, a double: JDBC's setBoolean)
  const kind = withParamTypes(declared, () => textKind(t, val));
  // (a numeric parameter, `$1::numeric` or one declared numeric: at the scale of the text Bind read,
  // 1.50 was stored as the double's 1.5; text-kinds.ts's numeric:param)
  if (kind === 'numeric:own') {
    let v = val;
    while (v?.TypeCast) v = v.TypeCast.arg;
    return v?.ParamRef?.number ? `text:numeric:param:${v.ParamRef.number}` : undefined;
  }
  if (kind === null || /^reg/.test(kind)) return undefined;
  return `text:${kind}`;
}

/**
 * Marks the values of an INSERT (VALUES rows, a plain SELECT's items, ON CONFLICT's SET) or an
 * UPDATE's SET that need the session's zone to be assigned, or to be printed into a string column;
 * `typer` has the statement's table in scope, `outer` the scope around the statement, `sourced`
 * gives a typer with a query's FROM added (an INSERT's query does not see the table it writes),
 * `declared` the parameter types the client declared; `late` takes the marks of numerics computed
 * exactly (they replace the marks the walk sets on their parts after this).
 */
export function markZonedAssignments(
  n: Node,
  outer: Typer,
  typer: Typer,
  sourced: (t: Typer, from: Node[], ctes: Ctes) => Typer,
  firstLocation: (n: Node) => number,
  out: Map<number, string>,
  declared: readonly number[] = [],
  late: Map<number, string> = out,
): void {
  const ins = n.InsertStmt;
  const upd = n.UpdateStmt;
  const rel = ins?.relation ?? upd?.relation;
  const table = rel ? typer.schema.tables.get(String(rel.relname).toLowerCase()) : undefined;
  if (!table) return;
  const typeOf = (name: string | undefined) =>
    oidOfDeclType(table.columns.find((c) => c.name.toLowerCase() === name?.toLowerCase())?.type ?? null);
  const mark = (name: string | undefined, val: Node, t: Typer) => {
    const column = typeOf(name);
    if (val && FLOAT_COLUMNS.has(column)) {
      const exact = withParamTypes(declared, () => exactNumericMarks(val, t, [...declared]));
      for (const [at, kind] of exact ?? []) late.set(at, kind);
      return;
    }
    if (val && TEXT_COLUMNS.has(column)) {
      // (a numeric division or avg: its exact text, which needs no printing)
      if (withParamTypes(declared, () => exactText(val, t, [...declared], late))) return;
      const kind = textConversion(t, val, declared);
      const at = kind ? firstLocation(val) : -1;
      if (kind && at >= 0) out.set(assignMarkKey(at), kind);
      return;
    }
    // a double or real into an integer column rounds half to even, as PostgreSQL's float8 to int
    // does (2.5 is 2; a numeric's half rounds away from zero, 2.5 is 3): marked 'float' for
    // translate/assignment.ts (it rounded every value half away from zero)
    if (INT_COLUMNS.has(column)) {
      const at = val && FLOAT_COLUMNS.has(withParamTypes(declared, () => t.type(val))) ? firstLocation(val) : -1;
      if (at >= 0) out.set(assignMarkKey(at), 'float');
      return;
    }
    if (column !== OID.timestamp && column !== OID.timestamptz && column !== OID.date && column !== OID.time) return;
    const kind = val ? conversion(column, t.type(val)) : undefined;
    const at = kind ? firstLocation(val) : -1;
    if (kind && at >= 0) out.set(assignMarkKey(at), kind);
  };
  // an element of a numeric[] column (`SET nums[1] = 1.50`) keeps its scale: its value marked with
  // the kind it prints as, which translate/element-assignments.ts prints it at (it was {1.5})
  // (`scaled`: a value of known scale marked too; an INSERT's query is printed by no such mark)
  const markElement = (target: Node, val: Node, t: Typer, scaled = true) => {
    const subs = target?.indirection;
    if (!val || !subs?.length || subs.some((s: Node) => !s.A_Indices || s.A_Indices.is_slice)) return;
    if (typeOf(target.name) !== NUMERIC_ARRAY) return;
    // (a numeric division or avg: its exact text, `10::numeric / 4` is 2.5000000000000000; it was the double's 2.5)
    if (withParamTypes(declared, () => exactText(val, t, [...declared], late)) || !scaled) return;
    const kind = textConversion(t, val, declared);
    const at = kind && /^text:numeric:(\d+|param:\d+)$/.test(kind) ? firstLocation(val) : -1;
    if (kind && at >= 0) out.set(assignMarkKey(at), kind);
  };
  const setList = (items: Node[] | undefined) => {
    for (const item of items ?? []) {
      if (item.ResTarget?.indirection) {
        const multi = item.ResTarget.val?.MultiAssignRef;
        const sub = multi?.source?.SubLink?.subselect?.SelectStmt;
        if (sub?.targetList && (!sub.op || sub.op === 'SETOP_NONE')) {
          const ctes = cteColumns(sub.withClause, typer.schema, ctesOf(upd?.withClause, typer.schema));
          const value = sub.targetList[multi.colno - 1]?.ResTarget?.val;
          markElement(item.ResTarget, value, sourced(typer, sub.fromClause ?? [], ctes));
        } else
          markElement(
            item.ResTarget,
            multi ? multi.source?.RowExpr?.args?.[multi.colno - 1] : item.ResTarget.val,
            typer,
          );
        continue;
      }
      if (!item.ResTarget) continue;
      // (`SET (a, b) = (x, y)`: each column's value of the row)
      const multi = item.ResTarget.val?.MultiAssignRef;
      // (`SET (a, b) = (SELECT x, y ...)`: each column's item of a plain query, typed in its FROM;
      // translate/row-queries.ts reads the mark)
      const sub = multi?.source?.SubLink?.subselect?.SelectStmt;
      if (sub?.targetList && (!sub.op || sub.op === 'SETOP_NONE')) {
        const ctes = cteColumns(sub.withClause, typer.schema, ctesOf(upd?.withClause, typer.schema));
        const value = sub.targetList[multi.colno - 1]?.ResTarget?.val;
        if (value) mark(item.ResTarget.name, value, sourced(typer, sub.fromClause ?? [], ctes));
        continue;
      }
      const value = multi ? multi.source?.RowExpr?.args?.[multi.colno - 1] : item.ResTarget.val;
      if (value) mark(item.ResTarget.name, value, typer);
    }
  };
  if (upd) {
    setList(upd.targetList);
    return;
  }
  const names: string[] = ins.cols?.length
    ? ins.cols.map((c: Node) => c.ResTarget?.name)
    : table.columns.map((c) => c.name);
  const sel = ins.selectStmt?.SelectStmt;
  // (the statement's own WITH queries, which its query reads: `WITH x AS (...) INSERT ... SELECT ... FROM x`)
  const stmtCtes = ctesOf(ins.withClause, typer.schema);
  if (sel?.valuesLists)
    for (const row of sel.valuesLists)
      (row.List?.items ?? []).forEach((v: Node, k: number) =>
        ins.cols?.[k]?.ResTarget?.indirection ? markElement(ins.cols[k].ResTarget, v, typer) : mark(names[k], v, typer),
      );
  else if (sel?.targetList && (!sel.op || sel.op === 'SETOP_NONE')) {
    const t = sourced(outer, sel.fromClause ?? [], cteColumns(sel.withClause, typer.schema, stmtCtes));
    sel.targetList.forEach((item: Node, k: number) =>
      ins.cols?.[k]?.ResTarget?.indirection
        ? markElement(ins.cols[k].ResTarget, item.ResTarget?.val, t, false)
        : mark(names[k], item.ResTarget?.val, t),
    );
  } else if (sel?.op && sel.op !== 'SETOP_NONE') {
    // a set operation: its column marked on the first query's item when every query's has one type
    // (translate/insert-select.ts converts the column)
    const leaves: Node[] = [];
    let all = true;
    const collect = (x: Node) => {
      if (x?.op && x.op !== 'SETOP_NONE') {
        all &&= x.op === 'SETOP_UNION' && x.all === true;
        collect(x.larg);
        collect(x.rarg);
      } else if (x) leaves.push(x);
    };
    collect(sel);
    const typers = leaves.map((leaf) =>
      sourced(outer, leaf.fromClause ?? [], cteColumns(leaf.withClause ?? sel.withClause, typer.schema, stmtCtes)),
    );
    // (UNION ALL into a double column: each query's computed numeric exactly, as in one query; a
    // UNION would compare such text with another query's double)
    if (all)
      leaves.forEach((leaf, j) =>
        (leaf.targetList ?? []).forEach((item: Node, k: number) => {
          if (FLOAT_COLUMNS.has(typeOf(names[k])) && item.ResTarget?.val) mark(names[k], item.ResTarget.val, typers[j]);
          // (into a string column: each query's numeric division or avg as its exact text, as in one
          // query; a numeric of known scale, a literal's, at it: `2.50 UNION ALL SELECT 1e3`, set-assignments.ts)
          else if (TEXT_COLUMNS.has(typeOf(names[k])) && item.ResTarget?.val) {
            const val = item.ResTarget.val;
            if (!withParamTypes(declared, () => exactText(val, typers[j], [...declared], late)))
              markAtScale(val, typers[j], late);
          }
        }),
      );
    // (a UNION, INTERSECT or EXCEPT: its numerics exactly, its rows told apart by their numbers)
    else {
      const byLeaf = new Map(leaves.map((leaf, j) => [leaf, typers[j]]));
      const into = names.map((name) => {
        const column = typeOf(name);
        return TEXT_COLUMNS.has(column) ? 'text' : FLOAT_COLUMNS.has(column) ? 'real' : undefined;
      });
      const typerOf = (q: Node) =>
        byLeaf.get(q) ??
        sourced(outer, q.fromClause ?? [], cteColumns(q.withClause ?? sel.withClause, typer.schema, stmtCtes));
      markSetAssignments(sel, leaves, typerOf, into, declared, late);
    }
    const types = leaves.map((leaf, j) =>
      (leaf.targetList ?? []).map((item: Node) => typers[j].type(item.ResTarget?.val)),
    );
    const first = leaves[0]?.targetList ?? [];
    first.forEach((item: Node, k: number) => {
      const type: number = types[0][k];
      if (!type || types.some((ts) => ts[k] !== type)) return;
      const column = typeOf(names[k]);
      // (into a string column: each query's item made text alike)
      const texts = TEXT_COLUMNS.has(column)
        ? leaves.map((leaf, j) => {
            const val = leaf.targetList?.[k]?.ResTarget?.val;
            return val ? textConversion(typers[j], val, declared) : undefined;
          })
        : [];
      const kind = TEXT_COLUMNS.has(column)
        ? texts.every((x) => x === texts[0])
          ? texts[0]
          : undefined
        : conversion(column, type);
      const at = kind ? firstLocation(item.ResTarget?.val) : -1;
      if (kind && at >= 0) out.set(assignMarkKey(at), kind);
    });
  }
  setList(ins.onConflictClause?.targetList);
}
