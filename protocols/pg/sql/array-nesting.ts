// `ARRAY[a, b]` whose elements are arrays (array columns, casts to an array type, subscripted
// slices) builds a multi-dimensional array in PostgreSQL, one dimension more than its elements
// (`ARRAY[ids, ids]` of '{1,2}' is {{1,2},{1,2}}); the translation could tell that only for
// elements written as ARRAY[...] or [...], and made the others text elements ({"{1,2}","{1,2}"}).
// The parse tree types the elements; the ARRAY keyword of such a constructor is marked
// 'array-nest' for translate/arrays.ts, which builds it as __pg_array_nest does ARRAY[[1,2],[3,4]].
import { parseTree } from './parse';
import type { Schema } from '../../../src/engine/schema/model';
import type { PgToken } from './lexer';
import { Typer } from './expression-types';
import { type Scope, ctesOf, scopeOf } from './select-types';
import { elementOidOf } from '../types/registry';
import { isPunct, isWord } from './tokens';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

/** Whether the tokens hold a non-empty `ARRAY[x` not written `ARRAY[[`: a cheap test before parsing. */
export function mayNestArrays(sig: PgToken[]): boolean {
  for (let i = 0; i + 2 < sig.length; i++)
    if (isWord(sig[i], 'ARRAY') && isPunct(sig[i + 1], '[') && !isPunct(sig[i + 2], '[') && !isPunct(sig[i + 2], ']'))
      return true;
  return false;
}

/** The offsets (in `sql`) of the ARRAY keywords of constructors whose elements are all arrays. */
export function nestedArrays(sql: string, schema: Schema): number[] {
  let tree: Node;
  try {
    tree = parseTree(sql);
  } catch {
    return [];
  }
  const out: number[] = [];
  const within = (typer: Typer, from: Node[]): Typer => {
    const scope: Scope = new Map(typer.scope);
    scopeOf(from, scope, schema);
    return new Typer(schema, scope);
  };
  const visit = (n: Node, typer: Typer): void => {
    if (n === null || typeof n !== 'object') return;
    if (Array.isArray(n)) {
      for (const x of n) visit(x, typer);
      return;
    }
    let t = typer;
    if (n.SelectStmt) {
      const scope: Scope = new Map(typer.scope);
      scopeOf(n.SelectStmt.fromClause ?? [], scope, schema, ctesOf(n.SelectStmt.withClause, schema));
      t = new Typer(schema, scope);
    } else if (n.UpdateStmt)
      t = within(typer, [{ RangeVar: n.UpdateStmt.relation }, ...(n.UpdateStmt.fromClause ?? [])]);
    else if (n.DeleteStmt)
      t = within(typer, [{ RangeVar: n.DeleteStmt.relation }, ...(n.DeleteStmt.usingClause ?? [])]);
    const a = n.A_ArrayExpr;
    if (a?.elements?.length && a.location >= 0) {
      const elements: Node[] = a.elements;
      if (
        // (a NULL or an untyped literal, '{3,4}', takes the others' array type)
        elements.every((e) => e.A_Const?.isnull || e.A_Const?.sval || elementOidOf(t.type(e)) !== undefined) &&
        elements.some((e) => !e.A_Const?.isnull && !e.A_Const?.sval)
      )
        out.push(a.location);
    }
    for (const k in n) visit(n[k], t);
  };
  visit(tree.stmts ?? [], new Typer(schema, new Map()));
  return out;
}
