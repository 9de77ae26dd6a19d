// The parameters PostgreSQL cannot type (42P18 `could not determine data type of parameter $n`)
// when the client declared no type for them: one the statement never uses below the highest it
// uses (`SELECT $2`), and one whose every use takes any type, so nothing resolves it: an argument
// of concat(), format(), json_build_object() and the like ("any" arguments), or `$1 IS NULL`.
// Patina typed them text and ran the statement. (Such a use beside one that types the parameter is
// PostgreSQL's 42P08 when the use comes first in its order of analysis, `$1 IS NULL OR id = $1`,
// and fine after it, `id = $1 OR $1 IS NULL`: Patina takes both.)
import { parseTree } from './parse';
import type { PgToken } from './lexer';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

/** Functions whose arguments are PostgreSQL's "any" (from `skip` on: format's first is text). */
const ANY_ARGUMENTS = new Map<string, number>([
  ['concat', 0],
  ['concat_ws', 1],
  ['format', 1],
  ['json_build_object', 0],
  ['json_build_array', 0],
  ['jsonb_build_object', 0],
  ['jsonb_build_array', 0],
  ['pg_typeof', 0],
  ['num_nulls', 0],
  ['num_nonnulls', 0],
]);

/**
 * The first parameter (1-based) of the statement PostgreSQL cannot type, `declared` the types the
 * client gave (0 for none); 0 when there is none. `tokens` are the statement's, all of them: their
 * text joined by spaces is the one the analysis parsed, whose tree parse.ts keeps (no second parse).
 */
export function untypedParameter(tokens: PgToken[], n: number, declared: number[]): number {
  const used = new Set<number>();
  for (const t of tokens) if (t.type === 'param') used.add(Number(t.text.slice(1)));
  for (let k = 1; k <= n; k++) if (!used.has(k) && !declared[k - 1]) return k;
  let tree: Node;
  try {
    tree = parseTree(tokens.map((t) => t.text).join(' '));
  } catch {
    return 0; // (a text PostgreSQL's parser refuses has failed before)
  }
  // each parameter's uses: whether every one of them takes any type
  const anyOnly = new Map<number, boolean>();
  const walk = (node: Node, untyped: boolean): void => {
    if (Array.isArray(node)) {
      for (const x of node) walk(x, untyped);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    if (node.ParamRef) {
      const k = node.ParamRef.number;
      anyOnly.set(k, (anyOnly.get(k) ?? true) && untyped);
      return;
    }
    const call = node.FuncCall;
    if (call && !call.agg_star) {
      const names: Node[] = call.funcname ?? [];
      const skip = ANY_ARGUMENTS.get(String(names[names.length - 1]?.String?.sval ?? '').toLowerCase());
      if (skip !== undefined && (names.length === 1 || names[0]?.String?.sval === 'pg_catalog')) {
        (call.args ?? []).forEach((a: Node, i: number) => walk(a, i >= skip));
        for (const [key, value] of Object.entries(call)) if (key !== 'args') walk(value, false);
        return;
      }
    }
    if (node.NullTest) {
      walk(node.NullTest.arg, true);
      return;
    }
    for (const value of Object.values(node)) walk(value, false);
  };
  walk(tree, false);
  for (let k = 1; k <= n; k++) if (!declared[k - 1] && anyOnly.get(k)) return k;
  return 0;
}
