// A value written into a column must be of a type PostgreSQL assigns to it (transformAssignedExpr),
// or the write is its 42804 `column "x" is of type y but expression is of type z` at the value,
// before anything is written. Into an array column: psycopg2 sends a Python list of str as
// ARRAY['1','x'], which into a bigint[] column is refused (`... of type bigint[] but expression is of
// type text[]`), where Patina stored the text. Into any other column: `date - date` (an integer)
// into an interval column, `true` into an integer one, a text column into a date one, which SQLite
// stored as they came (an interval of `4`). Checked on PostgreSQL's parse tree for INSERT ... VALUES,
// INSERT ... SELECT, UPDATE ... SET and ON CONFLICT ... DO UPDATE SET, over the expressions whose
// type the tree tells for sure (literals, casts, columns, arithmetic of those, ARRAY[...], ARRAY(SELECT
// ...), functions of a fixed result type, a parameter of a type the client declared: pgjdbc's
// setString is a varchar, refused into a numeric or date column as PostgreSQL does); anything else
// (a parameter of no declared type, a string literal) is left to the column's input function, as in
// PostgreSQL.
import { parseTree } from './parse';
import type { Schema } from '../../../src/engine/schema/model';
import { pgError, pgErrorAt } from '../sqlstate';
import { OID, TYPE_DISPLAY, oidOfDeclType } from '../types/oids';
import { arrayOidOf, elementOidOf } from '../types/registry';
import { Typer, withParamTypes } from './expression-types';
import { assignmentExists, declaredColumnType } from './cast-paths';
import { tableColumn } from './typed-operators';
import { FIXED, TYPE_NAMES } from './type-signatures';
import { writtenAt } from './type-names';
import type { PgToken } from './lexer';
import { type Scope, scopeOf } from './select-types';
import { strings } from './type-signatures';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

/** Type families: an assignment between two is refused unless they are one family or the target is text. */
const FAMILIES: Record<number, string> = {
  [OID.int2]: 'number',
  [OID.int4]: 'number',
  [OID.int8]: 'number',
  [OID.numeric]: 'number',
  [OID.float4]: 'number',
  [OID.float8]: 'number',
  [OID.text]: 'string',
  [OID.varchar]: 'string',
  [OID.bpchar]: 'string',
  [OID.name]: 'string',
  [OID.bool]: 'bool',
  [OID.date]: 'datetime',
  [OID.timestamp]: 'datetime',
  [OID.timestamptz]: 'datetime',
  [OID.time]: 'time',
  [OID.interval]: 'interval',
  [OID.json]: 'json',
  [OID.jsonb]: 'json',
  [OID.uuid]: 'uuid',
  [OID.bytea]: 'bytea',
};

/**
 * Throws 42804 for the first value of a type PostgreSQL does not assign to the column it is written
 * into, at the value. `text` is `tokens` joined by single spaces (the tree's offsets are in it).
 */
export function checkAssignments(
  text: string,
  tokens: readonly PgToken[],
  schema: Schema,
  declared: readonly number[] = [],
  inferred: readonly number[] = declared,
): void {
  let stmts: Node[];
  try {
    stmts = parseTree(text).stmts ?? [];
  } catch {
    return; // the translation or SQLite reports it
  }
  const at = (location: number) => writtenAt(Buffer.from(text).subarray(0, location).toString().length, tokens);
  for (const s of stmts) {
    repeatedColumns(s.stmt, at);
    multipleColumnSources(s.stmt, text, tokens);
    const bad = misfitIn(s.stmt, schema, declared, inferred);
    if (!bad) continue;
    const name = (oid: number) => TYPE_DISPLAY[oid] ?? 'unknown';
    const err = pgErrorAt(
      '42804',
      `column "${bad.column}" is of type ${name(bad.target)} but expression is of type ${name(bad.source)}`,
      writtenAt(Buffer.from(text).subarray(0, valueLocation(bad.value)).toString().length, tokens),
    );
    err.hint = 'You will need to rewrite or cast the expression.';
    throw err;
  }
}

/**
 * Where PostgreSQL places a value's error: its leftmost part, a type name's place aside (`date '2024-01-05'`
 * is at the string, as PostgreSQL's grammar places the cast).
 */
function valueLocation(n: Node): number {
  let min = -1;
  const visit = (x: Node) => {
    if (x === null || typeof x !== 'object') return;
    if (Array.isArray(x)) return x.forEach(visit);
    for (const k in x) {
      if (k === 'location' && typeof x[k] === 'number' && x[k] >= 0) min = min < 0 ? x[k] : Math.min(min, x[k]);
      else if (k !== 'typeName') visit(x[k]);
    }
  };
  visit(n);
  return min;
}

/**
 * A column named twice in an INSERT's column list (PostgreSQL's 42701 at the second, SQLite wrote
 * the last value) or among an UPDATE's SET targets (42601 `multiple assignments to same column`).
 */
function repeatedColumns(stmt: Node, at: (location: number) => number): void {
  const insert = stmt?.InsertStmt;
  const seen = new Set<string>();
  for (const c of insert?.cols ?? []) {
    const name = String(c.ResTarget?.name ?? '');
    // (`ids[1]` and `ids[2]` are two elements of one column: PostgreSQL takes them)
    if (c.ResTarget?.indirection) continue;
    if (seen.has(name)) throw pgErrorAt('42701', `column "${name}" specified more than once`, at(c.ResTarget.location));
    seen.add(name);
  }
  const targets = stmt?.UpdateStmt?.targetList ?? stmt?.InsertStmt?.onConflictClause?.targetList ?? [];
  seen.clear();
  for (const t of targets) {
    const name = String(t.ResTarget?.name ?? '');
    if (t.ResTarget?.indirection) continue;
    if (seen.has(name)) throw pgError('42601', `multiple assignments to same column "${name}"`);
    seen.add(name);
  }
}

/**
 * `SET (a, b) = source` (UPDATE, ON CONFLICT DO UPDATE) as PostgreSQL's transformMultiAssignRef
 * takes it: a source that is no sub-SELECT or ROW() (`SET (x) = (5)`: one value in parentheses is
 * no row) is 0A000, a row or sub-SELECT of another width 42601, each at the source. SQLite assigned
 * the one value, and its width error was 42000 `2 columns assigned 1 values`.
 */
function multipleColumnSources(stmt: Node, text: string, tokens: readonly PgToken[]): void {
  const targets = stmt?.UpdateStmt?.targetList ?? stmt?.InsertStmt?.onConflictClause?.targetList ?? [];
  const at = (source: Node) =>
    writtenAt(Buffer.from(text).subarray(0, valueLocation(source)).toString().length, tokens);
  for (const t of targets) {
    const ref = t.ResTarget?.val?.MultiAssignRef;
    if (ref?.colno !== 1) continue;
    const source = ref.source;
    const select = source?.SubLink?.subselect?.SelectStmt;
    let width: number | null = null;
    if (source?.RowExpr) width = source.RowExpr.args?.length ?? 0;
    else if (select) {
      // (a `*` item or a set operation: SQLite counts its columns)
      const items: Node[] = select.targetList ?? [];
      const star = items.some((r) => r.ResTarget?.val?.ColumnRef?.fields?.some((f: Node) => f.A_Star));
      if (select.op && select.op !== 'SETOP_NONE') continue;
      if (!star && !select.valuesLists) width = items.length;
    } else
      throw pgErrorAt(
        '0A000',
        'source for a multiple-column UPDATE item must be a sub-SELECT or ROW() expression',
        at(source),
      );
    if (width !== null && width !== ref.ncolumns)
      throw pgErrorAt('42601', 'number of columns does not match number of values', at(source));
  }
}

/** A value written into a column PostgreSQL does not assign its type to. */
interface Misfit {
  column: string;
  target: number;
  source: number;
  value: Node;
}

/** The first misfit of an INSERT or UPDATE statement, or null. */
function misfitIn(stmt: Node, schema: Schema, declared: readonly number[], inferred: readonly number[]): Misfit | null {
  if (stmt?.InsertStmt) return insertMisfit(stmt.InsertStmt, schema, declared, inferred);
  const update = stmt?.UpdateStmt;
  if (!update) return null;
  const table = tableOf(update.relation, schema);
  if (!table) return null;
  const scope: Scope = new Map([[String(update.relation.alias?.aliasname ?? table).toLowerCase(), table]]);
  scopeOf(update.fromClause, scope, schema);
  return setListMisfit(update.targetList, table, new Typer(schema, scope), schema, declared, inferred);
}

/** The schema's table a RangeVar names (lower case), or null. */
function tableOf(rel: Node, schema: Schema): string | null {
  const name = String(rel?.relname ?? '').toLowerCase();
  if (rel?.schemaname && rel.schemaname !== 'public') return null;
  return schema.tables.has(name) ? name : null;
}

function insertMisfit(
  insert: Node,
  schema: Schema,
  declared: readonly number[],
  inferred: readonly number[],
): Misfit | null {
  const table = tableOf(insert.relation, schema);
  if (!table) return null;
  const def = schema.tables.get(table)!;
  // (`arr[1]` writes an element, not checked here as `SET arr[1] = ...` is not)
  const names: string[] = insert.cols?.length
    ? insert.cols.map((c: Node) => (c.ResTarget?.indirection ? '' : String(c.ResTarget?.name ?? '').toLowerCase()))
    : def.columns.map((c) => c.name.toLowerCase());
  const select = insert.selectStmt?.SelectStmt;
  if (select && (!select.op || select.op === 'SETOP_NONE')) {
    if (select.valuesLists) {
      // (each row of an INSERT's VALUES is assigned as it is, with no common type of the rows first)
      const typer = new Typer(schema, new Map());
      for (const row of select.valuesLists) {
        const items: Node[] = row.List?.items ?? [];
        for (let k = 0; k < items.length; k++) {
          const bad = misfit(table, names[k], items[k], typer, schema, declared, inferred);
          if (bad) return bad;
        }
      }
    } else if (select.targetList && !select.withClause) {
      const scope: Scope = new Map();
      scopeOf(select.fromClause, scope, schema);
      const typer = new Typer(schema, scope);
      for (let k = 0; k < select.targetList.length; k++) {
        const bad = misfit(table, names[k], select.targetList[k].ResTarget?.val, typer, schema, declared, inferred);
        if (bad) return bad;
      }
    }
  }
  const conflict = insert.onConflictClause;
  if (conflict?.action !== 'ONCONFLICT_UPDATE') return null;
  const scope: Scope = new Map([
    [String(insert.relation.alias?.aliasname ?? table).toLowerCase(), table],
    ['excluded', table],
  ]);
  return setListMisfit(conflict.targetList, table, new Typer(schema, scope), schema, declared, inferred);
}

function setListMisfit(
  targets: Node[] | undefined,
  table: string,
  typer: Typer,
  schema: Schema,
  declared: readonly number[],
  inferred: readonly number[],
): Misfit | null {
  for (const t of targets ?? []) {
    const r = t.ResTarget;
    // `SET ids[1] = ...` and `SET (a, b) = (...)` are not checked
    if (!r?.name || r.indirection || r.val?.MultiAssignRef) continue;
    const bad = misfit(table, String(r.name).toLowerCase(), r.val, typer, schema, declared, inferred);
    if (bad) return bad;
  }
  return null;
}

/** Declared column types PostgreSQL spells otherwise than a cast does (a column's type as written). */
const COLUMN_TYPES: Record<string, number> = {
  'timestamp without time zone': OID.timestamp,
  'timestamp with time zone': OID.timestamptz,
  'time without time zone': OID.time,
  'character varying': OID.varchar,
  character: OID.bpchar,
  char: OID.bpchar,
  smallserial: OID.int2,
  serial: OID.int4,
  bigserial: OID.int8,
};

/** The misfit when `value`'s type is known and PostgreSQL has no assignment from it to the column. */
function misfit(
  table: string,
  column: string | undefined,
  value: Node,
  typer: Typer,
  schema: Schema,
  declared: readonly number[],
  inferred: readonly number[],
): Misfit | null {
  if (!column || !value) return null;
  const decl = schema.tables.get(table)?.columns.find((c) => c.name.toLowerCase() === column)?.type;
  if (!decl) return null;
  if (/\[\s*\]\s*$/.test(decl)) {
    // (an INTEGER[] column is integer[] to PostgreSQL, bigint[] here)
    const element =
      TYPE_NAMES[
        decl
          .toLowerCase()
          .replace(/\[\s*\]\s*$/, '')
          .replace(/\s+/g, ' ')
          .trim()
      ];
    const target = element === OID.int4 || element === OID.int2 ? arrayOidOf(element)! : oidOfDeclType(decl);
    if (elementOidOf(target) === undefined) return null; // an array of a type this port does not name
    const source = declaredParam(value, declared) || sourceType(value, typer, declared);
    if (source === 0 || source === target || assignable(source, target)) return null;
    return { column, target, source, value };
  }
  // (as PostgreSQL has it: an INTEGER column is int4, which Patina keeps as int8)
  const written = decl.toLowerCase().replace(/\(.*$/, '').replace(/\s+/g, ' ').trim();
  const target = TYPE_NAMES[written] ?? COLUMN_TYPES[written];
  if (target === undefined) return null; // a domain, an enum, a type this port does not name
  const source = declaredParam(value, declared) || scalarType(value, typer, inferred);
  if (source === 0 || assignmentExists(source, target)) return null;
  return { column, target, source, value };
}

/** The type the client declared for a parameter written as it is (`SET price = $1`); 0 for none. */
function declaredParam(v: Node, declared: readonly number[]): number {
  return v?.ParamRef ? (declared[v.ParamRef.number - 1] ?? 0) : 0;
}

/**
 * The type of a value written into a scalar column, when the tree tells it for sure; 0 otherwise (a
 * string literal or a parameter of no declared type is read by the column's input function). In
 * arithmetic and `||` a parameter has the type its analysis gave it (`inferred`, 0 for none):
 * `$1 + interval '1 day'` is an interval, `$1 || 'x'` of unknowns a text.
 */
function scalarType(v: Node, typer: Typer, inferred: readonly number[]): number {
  if (!v) return 0;
  if (v.A_Const)
    return v.A_Const.sval !== undefined || v.A_Const.isnull || v.A_Const.bsval !== undefined ? 0 : typer.type(v);
  if (v.TypeCast) {
    const names = strings(v.TypeCast.typeName?.names);
    return names.length === 0 ? 0 : typer.type(v);
  }
  if (v.ColumnRef) return tableColumn(v.ColumnRef, typer) ? declaredColumnType(v, typer) : 0;
  if (v.SQLValueFunction) return typer.type(v);
  if (v.FuncCall) {
    const names = strings(v.FuncCall.funcname).map((n) => n.toLowerCase());
    const schemaName = names.length > 1 ? names[0] : 'pg_catalog';
    return schemaName === 'pg_catalog' && FIXED[names[names.length - 1]] !== undefined ? typer.type(v) : 0;
  }
  // arithmetic of values whose types are known: `d - d` (an integer), `d + 1` (a date), `-n`
  const e = v.A_Expr;
  const op = e?.kind === 'AEXPR_OP' ? (strings(e.name).at(-1) ?? '') : '';
  const operand = (x: Node) => (x?.ParamRef ? (inferred[x.ParamRef.number - 1] ?? 0) : scalarType(x, typer, inferred));
  if (ARITHMETIC.has(op)) {
    if (e.lexpr && operand(e.lexpr) === 0) return 0;
    return operand(e.rexpr) === 0 ? 0 : withParamTypes(inferred, () => typer.type(v));
  }
  // `$1 || 'x'` of unknowns and strings only: a text (`SET i4 = $1 || 'x'`: integer but text)
  const unknownOrString = (x: Node) =>
    x?.A_Const?.sval !== undefined || (x?.ParamRef && !operand(x)) || STRINGS.has(operand(x));
  if (op === '||' && e.lexpr && unknownOrString(e.lexpr) && unknownOrString(e.rexpr)) return OID.text;
  return 0;
}

const STRINGS = new Set<number>([OID.text, OID.varchar, OID.bpchar, OID.name]);

const ARITHMETIC = new Set(['+', '-', '*', '/']);

/** The type of a value the tree tells for sure; 0 for an untyped literal (read by the column's type) or anything else. */
function sourceType(v: Node, typer: Typer, declared: readonly number[]): number {
  if (v.A_Const) return v.A_Const.sval !== undefined || v.A_Const.isnull ? 0 : typer.type(v);
  if (v.A_ArrayExpr) {
    // ARRAY['a', NULL, $1]: untyped literals and parameters alone make a text[]
    const untyped = (e: Node) =>
      (e.A_Const && (e.A_Const.sval !== undefined || e.A_Const.isnull)) ||
      (e.ParamRef && !declared[e.ParamRef.number - 1]);
    const elements: Node[] = v.A_ArrayExpr.elements ?? [];
    if (elements.length > 0 && elements.every(untyped)) return arrayOidOf(OID.text)!;
    return typer.type(v);
  }
  if (v.TypeCast) {
    // a cast to a type this port does not name (a domain, int[][]) is not judged
    const names = strings(v.TypeCast.typeName?.names);
    if (names.length === 0 || (v.TypeCast.typeName.arrayBounds?.length ?? 0) > 1) return 0;
    return typer.type(v);
  }
  if (v.ColumnRef) {
    const t = declaredColumnType(v, typer);
    return t === OID.record ? 0 : t;
  }
  if (v.SubLink?.subLinkType === 'ARRAY_SUBLINK') return typer.type(v);
  return 0;
}

/** Whether PostgreSQL assigns a value of `source` to a column of the array type `target`. */
function assignable(source: number, target: number): boolean {
  const from = elementOidOf(source);
  const to = elementOidOf(target)!;
  const toFamily = FAMILIES[to];
  if (from === undefined) return FAMILIES[source] === undefined; // a scalar of a known type: no
  const fromFamily = FAMILIES[from];
  // any array is assigned to text[] (each element printed); otherwise within a family only
  return !fromFamily || !toFamily || fromFamily === toFamily || toFamily === 'string';
}
