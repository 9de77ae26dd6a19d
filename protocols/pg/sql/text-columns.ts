// Which column references are text as PostgreSQL's, for the checks that refuse text beside a number
// (operand-types.ts). A table's column is when declared TEXT, VARCHAR, CHAR or NAME: one declared
// with no type (shown as text for want of another) holds whatever SQLite stores, numbers too, and
// is not judged. A subquery's or WITH query's column is when its value is: such a table column, a
// string literal, a cast, or another such column (`SELECT x + 1 FROM (SELECT name AS x FROM t) q`
// is 42883 `text + integer` there; it was left to SQLite, which answered 1).
import type { ColumnDef } from '../../../src/engine/schema/model';
import type { Typer } from './expression-types';
import type { ResultColumn } from './result-types';
import { strings } from './type-signatures';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

/** A column's declared type that is text as PostgreSQL's (not SQLite's no type, nor ANY). */
export const DECLARED_TEXT = /char|text|clob|^\s*name\s*$/i;

/** The columns of subqueries and WITH queries whose text is PostgreSQL's text (select-types.ts notes them). */
const JUDGED_TEXT = new WeakSet<ResultColumn>();

/** The schema column a column reference names (not a subquery's), or undefined. */
export function tableColumn(ref: Node, typer: Typer): ColumnDef | undefined {
  const fields = strings(ref.fields).map((f) => f.toLowerCase());
  const column = fields[fields.length - 1];
  const sources = fields.length === 2 ? [typer.scope.get(fields[0])] : [...typer.scope.values()];
  const has = (src: unknown) =>
    typeof src === 'string' && !!typer.schema.tables.get(src)?.columns.some((c) => c.name.toLowerCase() === column);
  const owners = sources.filter((src) =>
    Array.isArray(src) ? src.some((c) => c.name.toLowerCase() === column) : has(src),
  );
  if (owners.length !== 1 || !has(owners[0])) return undefined;
  return typer.schema.tables.get(owners[0] as string)?.columns.find((c) => c.name.toLowerCase() === column);
}

/** Whether a column reference of a text type is PostgreSQL's text (see above); false where not known. */
export function judgedText(ref: Node, typer: Typer): boolean {
  const table = tableColumn(ref, typer);
  if (table) return DECLARED_TEXT.test(table.type);
  const fields = strings(ref.fields).map((f) => f.toLowerCase());
  if (fields.length > 2) return false;
  const column = fields[fields.length - 1];
  const sources = fields.length === 2 ? [typer.scope.get(fields[0])] : [...new Set(typer.scope.values())];
  // (one source has the name, a subquery's or WITH query's column noted as text)
  const owners = sources.filter((src) =>
    Array.isArray(src)
      ? src.some((c) => c.name.toLowerCase() === column)
      : typeof src === 'string' && !!typer.schema.tables.get(src)?.columns.some((c) => c.name.toLowerCase() === column),
  );
  if (owners.length !== 1 || !Array.isArray(owners[0])) return false;
  const found = owners[0].filter((c) => c.name.toLowerCase() === column);
  return found.length === 1 && JUDGED_TEXT.has(found[0]);
}

/**
 * Notes a subquery's result column of a text type as PostgreSQL's text when its value (`val`, typed
 * in the subquery's own FROM list by `typer`) is a string literal, a cast or a judged column.
 */
export function noteTextColumn(column: ResultColumn, val: Node, typer: Typer): void {
  if (val?.A_Const?.sval !== undefined || val?.TypeCast || (val?.ColumnRef && judgedText(val.ColumnRef, typer)))
    JUDGED_TEXT.add(column);
}

/** A column under another name (a FROM item's or WITH query's column list), its note kept. */
export function renamedColumn(column: ResultColumn, name: string): ResultColumn {
  const out = { ...column, name };
  if (JUDGED_TEXT.has(column)) JUDGED_TEXT.add(out);
  return out;
}
