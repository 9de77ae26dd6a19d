// A walk over a statement's tree that types each query's columns by its own sources: a SELECT's
// FROM items (with its WITH queries), an UPDATE's or DELETE's table and FROM/USING items. The
// checks that stop at the first node PostgreSQL's parser refuses (cast-paths.ts's casts,
// foreign-functions.ts's function names) share it.
import type { Schema } from '../../../src/engine/schema/model';
import { Typer } from './expression-types';
import type { PgToken } from './lexer';
import { parseTree } from './parse';
import { ctesOf } from './select-types';
import { writtenAt } from './type-names';
import { withSources } from './typed-operators';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

/**
 * The first answer of `visit` under `n`, innermost first (a node is visited after what it holds, as
 * PostgreSQL transforms an expression's arguments before the expression), each node with the typer
 * of the query it is in.
 */
export function firstInScope<T>(n: Node, typer: Typer, visit: (n: Node, typer: Typer) => T | null): T | null {
  if (n === null || typeof n !== 'object') return null;
  if (Array.isArray(n)) {
    for (const x of n) {
      const f = firstInScope(x, typer, visit);
      if (f) return f;
    }
    return null;
  }
  let t = typer;
  if (n.SelectStmt) {
    const s = n.SelectStmt;
    t = withSources(typer, s.fromClause ?? [], ctesOf(s.withClause, typer.schema));
    // (a subquery in FROM sees the enclosing queries' sources, not its siblings')
    for (const x of s.fromClause ?? []) {
      const f = x?.RangeSubselect && !x.RangeSubselect.lateral ? firstInScope(x, typer, visit) : null;
      if (f) return f;
    }
    for (const k in s) {
      if (k === 'fromClause') {
        const plain = s.fromClause.filter((x: Node) => !(x?.RangeSubselect && !x.RangeSubselect.lateral));
        const f = firstInScope(plain, t, visit);
        if (f) return f;
      } else if (k === 'larg' || k === 'rarg') {
        const f = firstInScope({ SelectStmt: s[k] }, typer, visit);
        if (f) return f;
      } else if (k !== 'location') {
        const f = firstInScope(s[k], t, visit);
        if (f) return f;
      }
    }
    return null;
  }
  if (n.InsertStmt) {
    // (RETURNING sees the target table; VALUES and the SELECT do not)
    const i = n.InsertStmt;
    const returning = withSources(typer, [{ RangeVar: i.relation }]);
    for (const k in i) {
      const f = firstInScope(i[k], k === 'returningClause' ? returning : typer, visit);
      if (f) return f;
    }
    return visit(n, typer);
  }
  if (n.UpdateStmt) t = withSources(typer, [{ RangeVar: n.UpdateStmt.relation }, ...(n.UpdateStmt.fromClause ?? [])]);
  else if (n.DeleteStmt)
    t = withSources(typer, [{ RangeVar: n.DeleteStmt.relation }, ...(n.DeleteStmt.usingClause ?? [])]);
  for (const k in n) {
    if (k === 'location') continue;
    const f = firstInScope(n[k], t, visit);
    if (f) return f;
  }
  return visit(n, t);
}

/**
 * The first answer of `visit` in a statement (firstInScope from its top) and where it stands in the
 * statement as written (PostgreSQL's position). `text` is `tokens` joined by single spaces (the
 * tree's offsets, `location`, are in it); null when nothing answers or the text does not parse (the
 * parser's refusal is reported where the statement is translated).
 */
export function firstInStatement<T extends { location: number }>(
  text: string,
  tokens: readonly PgToken[],
  schema: Schema,
  visit: (n: Node, typer: Typer) => T | null,
): { found: T; at: number } | null {
  let tree: Node;
  try {
    tree = parseTree(text);
  } catch {
    return null;
  }
  const found = firstInScope(tree.stmts, new Typer(schema, new Map()), visit);
  if (!found) return null;
  return { found, at: writtenAt(Buffer.from(text).subarray(0, found.location).toString().length, tokens) };
}
