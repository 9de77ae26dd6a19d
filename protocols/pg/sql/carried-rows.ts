// A table's row passed up through a subquery or WITH query (`x` of `FROM (SELECT t AS x FROM t) q`)
// reaches the query around it as the record's text (__pg_record), typed as the table's row type
// (result-types.ts' rowOf), but is no JSON object there: a JSON builder of it (`row_to_json(x)`,
// `to_json(x)`, `json_agg(x)`, `json_build_object('r', x)`, and a subquery's row holding one,
// `row_to_json(q)`) gave the text as a JSON string, or SQLite's 42000 `malformed JSON`, where
// PostgreSQL writes the row's object. Until the translation can make that object, such a call is
// 0A000 naming it.
import type { Schema } from '../../../src/engine/schema/model';
import { pgError } from '../sqlstate';
import { OID } from '../types/oids';
import { Typer } from './expression-types';
import { BUILDER_VALUES, isBuilderValue } from './json-builders';
import type { PgToken } from './lexer';
import { parseTree } from './parse';
import { ctesOf } from './select-types';
import { isPunct, isWord } from './tokens';
import { withSources } from './typed-operators';
import { strings } from './type-signatures';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

/** Whether a statement may hold such a call: a builder's call and a query inside the statement. A cheap test before parsing. */
export function mayBuildOfCarriedRows(sig: PgToken[]): boolean {
  let call = false;
  let selects = 0;
  for (let i = 0; i < sig.length; i++) {
    const t = sig[i];
    if (t.type !== 'word') continue;
    // (the word's name read only before a parenthesis)
    call ||= isPunct(sig[i + 1], '(') && BUILDER_VALUES[t.text.toLowerCase()] !== undefined;
    if (isWord(t, 'SELECT')) selects++;
  }
  return call && selects > 1;
}

/** The name of the table row a builder's value `a` carries through a subquery, else undefined. */
function carried(a: Node, typer: Typer): string | undefined {
  const fields: Node[] = a?.ColumnRef?.fields ?? [];
  const star = fields.length === 2 && fields[1]?.A_Star;
  const names = strings(fields.filter((f) => !f.A_Star)).map((s) => s.toLowerCase());
  if (names.length === 0 || names.length > 2) return undefined;
  const source = typer.scope.get(names[0]);
  // a subquery's whole row (`q`, `q.*`) holding one
  if (Array.isArray(source) && (star || (names.length === 1 && typer.column(names) === OID.record)))
    return source.find((c) => c.rowOf)?.name;
  // (a table's own row, `FROM t`: the translation writes its object)
  if (names.length === 1 && typeof source === 'string') return undefined;
  return typer.wholeRowTable(a) !== undefined ? names[names.length - 1] : undefined;
}

/** Each SELECT's builder calls with `typer` of its FROM items; a nested SELECT with its own. */
function visit(n: Node, typer: Typer | null, schema: Schema): void {
  if (n === null || typeof n !== 'object') return;
  if (Array.isArray(n)) {
    for (const x of n) visit(x, typer, schema);
    return;
  }
  if (n.SelectStmt) {
    const s = n.SelectStmt;
    const t = withSources(new Typer(schema, new Map()), s.fromClause ?? [], ctesOf(s.withClause, schema));
    for (const k of Object.keys(s)) visit(s[k], t, schema);
    return;
  }
  const f = n.FuncCall;
  if (f && typer) {
    const name = strings(f.funcname).pop()?.toLowerCase() ?? '';
    const which = BUILDER_VALUES[name];
    if (which !== undefined)
      (f.args ?? []).forEach((a: Node, k: number) => {
        const row = isBuilderValue(which, k) ? carried(a, typer) : undefined;
        if (row !== undefined)
          throw pgError(
            '0A000',
            `${name}() of a table's row passed through a subquery or WITH query (${row}) is not supported: select the table's columns there, or build the JSON inside it (row_to_json(t) AS ${row})`,
          );
      });
  }
  for (const k of Object.keys(n)) visit(n[k], typer, schema);
}

/** Throws 0A000 for a JSON builder of a table's row passed through a subquery. */
export function checkCarriedRows(text: string, schema: Schema): void {
  let tree: Node;
  try {
    tree = parseTree(text);
  } catch {
    return;
  }
  visit(tree.stmts ?? [], null, schema);
}
