// A value written into an array column must be of a type PostgreSQL assigns to it: psycopg2 sends
// a Python list of str as ARRAY['1','x'], which into a bigint[] column is 42804 (`column "ids" is
// of type bigint[] but expression is of type text[]`) in PostgreSQL, where Patina stored the text.
// Checked on PostgreSQL's parse tree for INSERT ... VALUES, INSERT ... SELECT, UPDATE ... SET and
// ON CONFLICT ... DO UPDATE SET, over the expressions whose type the tree tells for sure (literals,
// ARRAY[...], casts, columns, ARRAY(SELECT ...)); anything else is left to run.
import { parseTree } from './parse';
import type { Schema } from '../../../src/engine/schema/model';
import { pgError } from '../sqlstate';
import { OID, TYPE_DISPLAY, oidOfDeclType } from '../types/oids';
import { arrayOidOf, elementOidOf } from '../types/registry';
import { Typer } from './expression-types';
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

const tablesWithArrays = new WeakMap<Schema, Set<string>>();

/** Whether the statement may write an array column: it names a table that has one (a cheap test before parsing). */
export function mayAssignArrays(sig: PgToken[], schema: Schema): boolean {
  let tables = tablesWithArrays.get(schema);
  if (!tables) {
    tables = new Set();
    for (const [name, t] of schema.tables)
      if (t.columns.some((c) => /\[\s*\]\s*$/.test(c.type ?? ''))) tables.add(name.toLowerCase());
    tablesWithArrays.set(schema, tables);
  }
  if (tables.size === 0) return false;
  return sig.some(
    (t) => (t.type === 'word' || t.type === 'quoted') && tables.has(t.text.replace(/"/g, '').toLowerCase()),
  );
}

/** Throws 42804 for a value of a type PostgreSQL does not assign to the array column it is written into. */
export function checkArrayAssignments(sql: string, schema: Schema, declared: readonly number[] = []): void {
  let stmts: Node[];
  try {
    stmts = parseTree(sql).stmts ?? [];
  } catch {
    return; // the translation or SQLite reports it
  }
  for (const s of stmts) {
    const insert = s.stmt?.InsertStmt;
    if (insert) checkInsert(insert, schema, declared);
    const update = s.stmt?.UpdateStmt;
    if (update) {
      const table = tableOf(update.relation, schema);
      if (!table) continue;
      const scope: Scope = new Map([[String(update.relation.alias?.aliasname ?? table).toLowerCase(), table]]);
      scopeOf(update.fromClause, scope, schema);
      checkSetList(update.targetList, table, new Typer(schema, scope), schema, declared);
    }
  }
}

/** The schema's table a RangeVar names (lower case), or null. */
function tableOf(rel: Node, schema: Schema): string | null {
  const name = String(rel?.relname ?? '').toLowerCase();
  if (rel?.schemaname && rel.schemaname !== 'public') return null;
  return schema.tables.has(name) ? name : null;
}

function checkInsert(insert: Node, schema: Schema, declared: readonly number[]): void {
  const table = tableOf(insert.relation, schema);
  if (!table) return;
  const def = schema.tables.get(table)!;
  const names: string[] = insert.cols?.length
    ? insert.cols.map((c: Node) => String(c.ResTarget?.name ?? '').toLowerCase())
    : def.columns.map((c) => c.name.toLowerCase());
  const select = insert.selectStmt?.SelectStmt;
  if (select && (!select.op || select.op === 'SETOP_NONE')) {
    if (select.valuesLists) {
      const typer = new Typer(schema, new Map());
      for (const row of select.valuesLists)
        (row.List?.items ?? []).forEach((v: Node, k: number) => check(table, names[k], v, typer, schema, declared));
    } else if (select.targetList && !select.withClause) {
      const scope: Scope = new Map();
      scopeOf(select.fromClause, scope, schema);
      const typer = new Typer(schema, scope);
      select.targetList.forEach((t: Node, k: number) =>
        check(table, names[k], t.ResTarget?.val, typer, schema, declared),
      );
    }
  }
  const conflict = insert.onConflictClause;
  if (conflict?.action === 'ONCONFLICT_UPDATE') {
    const scope: Scope = new Map([
      [String(insert.relation.alias?.aliasname ?? table).toLowerCase(), table],
      ['excluded', table],
    ]);
    checkSetList(conflict.targetList, table, new Typer(schema, scope), schema, declared);
  }
}

function checkSetList(
  targets: Node[] | undefined,
  table: string,
  typer: Typer,
  schema: Schema,
  declared: readonly number[],
): void {
  for (const t of targets ?? []) {
    const r = t.ResTarget;
    // `SET ids[1] = ...` and `SET (a, b) = (...)` are not checked
    if (!r?.name || r.indirection || r.val?.MultiAssignRef) continue;
    check(table, String(r.name).toLowerCase(), r.val, typer, schema, declared);
  }
}

/** 42804 when `value`'s type is known and PostgreSQL has no assignment from it to the array column. */
function check(
  table: string,
  column: string | undefined,
  value: Node,
  typer: Typer,
  schema: Schema,
  declared: readonly number[],
): void {
  if (!column || !value) return;
  const decl = schema.tables.get(table)?.columns.find((c) => c.name.toLowerCase() === column)?.type;
  if (!decl || !/\[\s*\]\s*$/.test(decl)) return;
  const target = oidOfDeclType(decl);
  if (elementOidOf(target) === undefined) return; // an array of a type this port does not name
  const source = sourceType(value, typer, declared);
  if (source === 0 || source === target || assignable(source, target)) return;
  const name = (oid: number) => TYPE_DISPLAY[oid] ?? 'unknown';
  throw pgError('42804', `column "${column}" is of type ${name(target)} but expression is of type ${name(source)}`);
}

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
    const t = typer.type(v);
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
