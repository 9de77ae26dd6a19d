// The fields of information_schema._pg_expandarray(arr), PostgreSQL's record (x anyelement, n int4):
// pgjdbc's getPrimaryKeys reads `(information_schema._pg_expandarray(i.indkey)).n AS KEY_SEQ` and
// getIndexInfo `(i.keys).n AS ORDINAL_POSITION` of a subquery's `_pg_expandarray(i.indkey) AS keys`.
// Their type was unknown to the typer, so both went out as text (PostgreSQL: int4), and a tool
// reading the column's type (getInt is lenient, a grid's sort is not) saw a string.
// translate/catalog-forms.ts rewrites the calls into a join; this only types what the client sees.
import { OID } from '../types/oids';
import { elementOidOf } from '../types/registry';
import type { ResultColumn } from './result-types';
import type { Scope } from './select-types';
import { strings } from './type-signatures';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

/** Whether `n` is a call of `_pg_expandarray` (schema-qualified or not). */
export function isExpandArrayCall(n: Node): boolean {
  return n?.FuncCall !== undefined && strings(n.FuncCall.funcname).pop()?.toLowerCase() === '_pg_expandarray';
}

/** The type of field `x` or `n` of an expansion of an array of type `array`; undefined for another field. */
export function expandArrayField(field: string | undefined, array: number): number | undefined {
  if (field === 'n') return OID.int4;
  if (field === 'x') return elementOidOf(array) ?? 0;
  return undefined;
}

/**
 * The array type a column of the scope expands (a subquery's `_pg_expandarray(arr) AS keys`, its
 * column marked `expands`), named by a ColumnRef's fields; undefined when it is no such column.
 */
export function expandedColumn(scope: Scope, fields: string[]): number | undefined {
  if (fields.length !== 1 && fields.length !== 2) return undefined;
  const name = fields[fields.length - 1].toLowerCase();
  const sources = fields.length === 2 ? [scope.get(fields[0].toLowerCase())] : [...new Set(scope.values())];
  const found = sources.flatMap((x) =>
    Array.isArray(x) ? x.filter((c: ResultColumn) => c.name.toLowerCase() === name) : [],
  );
  return found.length === 1 ? found[0].expands : undefined;
}
