// The parameters PostgreSQL cannot type when the client declared no type for them. 42P18 `could not
// determine data type of parameter $n`: one the statement never uses below the highest it uses
// (`SELECT $2`), and one whose every use takes any type, so nothing resolves it: an argument of
// concat(), format(), json_build_object() and the like ("any" arguments), or `$1 IS NULL`. 42P08:
// such a use made before another use typed the parameter, in PostgreSQL's order of analysis (FROM,
// the select list, WHERE, ...): `WHERE $1 IS NULL OR id = $1` (the optional-filter pattern; fine
// with a type declared, or `id = $1 OR $1 IS NULL`), and a bare `SELECT $1` that the rest of its
// query types otherwise than the text PostgreSQL makes it at the query's end, `SELECT $1 FROM t
// WHERE id = $1` (`inconsistent types deduced`). 42725 where its operator or function resolution
// finds several candidates (`-$1`, `date_trunc('day', $1)`), 42804 for an array function of one
// (`array_length($1, 1)`). Patina typed them text, or by the other use, and ran the statement.
import { parseTree } from './parse';
import type { PgToken } from './lexer';
import { TYPE_DISPLAY } from '../types/oids';
import { OID } from '../types/oids';
import { writtenAt } from './type-names';

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

/** A parameter's error as PostgreSQL raises it (position 0-based in the statement's text). */
export interface ParameterError {
  code: '42P18' | '42P08' | '42725' | '42804';
  message: string;
  detail?: string;
  hint?: string;
  position?: number;
}

/**
 * A use of a parameter, in PostgreSQL's order of analysis: one that types it, one that takes any
 * type ('any'), a bare select-list item made text when its query ends ('bare', of query `query`);
 * or the end of query `query` ('end').
 */
type Use = { use: 'typed' | 'any' | 'bare' | 'end'; k: number; at: number; query: number };

/**
 * The error PostgreSQL gives for the statement's parameters, `declared` the types the client gave (0
 * for none), `types` the ones the analysis found; null for none. `tokens` are the statement's, all
 * of them: their text joined by spaces is the one the analysis parsed, whose tree parse.ts keeps (no
 * second parse).
 */
export function parameterError(
  tokens: PgToken[],
  n: number,
  declared: number[],
  types: number[],
): ParameterError | null {
  const used = new Set<number>();
  for (const t of tokens) if (t.type === 'param') used.add(Number(t.text.slice(1)));
  const untyped42P18 = (k: number): ParameterError => ({
    code: '42P18',
    message: `could not determine data type of parameter $${k}`,
  });
  for (let k = 1; k <= n; k++) if (!used.has(k) && !declared[k - 1]) return untyped42P18(k);
  let tree: Node;
  const text = tokens.map((t) => t.text).join(' ');
  try {
    tree = parseTree(text);
  } catch {
    return null; // (a text PostgreSQL's parser refuses has failed before)
  }
  const place = (at: number) => writtenAt(Buffer.from(text).subarray(0, at).toString().length, tokens);
  const uses = usesOf(tree);
  // a parameter an earlier use (in PostgreSQL's order) typed is no unknown here: `WHERE id = $1 AND
  // $1 + $2 > 0` is bigint + unknown
  const typedBefore = (ref: Node): boolean => {
    const here = uses.findIndex((u) => u.at === ref.location && u.k === ref.number);
    return uses.findIndex((u) => u.k === ref.number && u.use === 'typed') < here;
  };
  const ambiguous = ambiguousUse(
    tree,
    (x) => x?.ParamRef !== undefined && !declared[x.ParamRef.number - 1] && !typedBefore(x.ParamRef),
  );
  if (ambiguous)
    return ambiguous.position === undefined ? ambiguous : { ...ambiguous, position: place(ambiguous.position) };
  const typed = new Set<number>();
  const stale = new Map<number, number>(); // a use that took any type before the parameter was typed
  const pending: Use[] = [];
  for (const u of uses) {
    if (u.use === 'end') {
      // the query's bare items still unknown are made text (resolveTargetListUnknowns)
      for (const b of pending.filter((p) => p.query === u.query)) {
        const type = types[b.k - 1] || OID.text;
        if (typed.has(b.k) && type !== OID.text)
          return {
            code: '42P08',
            message: `inconsistent types deduced for parameter $${b.k}`,
            detail: `${TYPE_DISPLAY[type] ?? 'unknown'} versus text`,
            position: place(b.at),
          };
        typed.add(b.k);
      }
      continue;
    }
    if (declared[u.k - 1] || typed.has(u.k)) continue;
    if (u.use === 'typed') typed.add(u.k);
    else if (u.use === 'bare') pending.push(u);
    else if (!stale.has(u.k)) stale.set(u.k, u.at);
  }
  for (const [k, at] of stale)
    if (typed.has(k))
      return { code: '42P08', message: `could not determine data type of parameter $${k}`, position: place(at) };
  for (let k = 1; k <= n; k++) if (!declared[k - 1] && !typed.has(k) && stale.has(k)) return untyped42P18(k);
  return null;
}

/** Operators of numbers, dates and more with no string form: two unknown operands are 42725. */
const ARITHMETIC = new Set(['+', '-', '*', '/', '%']);

/**
 * Functions PostgreSQL cannot choose a form of when every argument is unknown (a string literal or
 * an untyped parameter): `date_trunc('day', $1)`, `to_char($1, 'YYYY')`, `sum($1)` (by the name its
 * error gives).
 */
export const AMBIGUOUS_FUNCTIONS = new Map<string, string>([
  ['date_trunc', 'date_trunc'],
  ['date_part', 'date_part'],
  ['extract', 'pg_catalog.extract'],
  ['to_char', 'to_char'],
  ['trunc', 'trunc'],
  ['age', 'age'],
  ['sum', 'sum'],
  ['avg', 'avg'],
  ['unnest', 'unnest'],
  // (int4's, int8's, numeric's and the timestamps' forms; to_hex's int4 and int8)
  ['generate_series', 'generate_series'],
  ['to_hex', 'to_hex'],
]);

/**
 * Functions of an array of any element type, or of any element (to_json), which an unknown first
 * argument leaves undetermined (42804).
 */
export const POLYMORPHIC_FUNCTIONS = new Set([
  'to_json',
  'to_jsonb',
  'array_to_json',
  'array_length',
  'array_upper',
  'array_lower',
  'array_dims',
  'array_ndims',
  'array_to_string',
  'cardinality',
]);

/**
 * A use of an untyped parameter PostgreSQL's operator or function resolution finds several
 * candidates for, 42725 (position: the tree's offset): a prefix minus (`-$1`: integers, numeric,
 * double, interval, ...), arithmetic of two (`$1 + $2`, `$1 * '2'`) and AMBIGUOUS_FUNCTIONS of unknown
 * arguments only; 42804 (no position, as PostgreSQL gives none) for POLYMORPHIC_FUNCTIONS of one. Patina typed it text.
 * The calls are so of string literals alone too (`generate_series('1', '2')`, `to_json('a')`:
 * unknown-calls.ts reads a statement of no parameters so).
 */
export function ambiguousUse(tree: Node, param: (x: Node) => boolean): ParameterError | null {
  const unknown = (x: Node) => x?.A_Const?.sval !== undefined || param(x);
  let found: ParameterError | null = null;
  // (a parameter's uses, to tell one only ever subscripted, which nothing else types)
  const uses = new Map<number, number>();
  const count = (node: Node): void => {
    if (node === null || typeof node !== 'object') return;
    if (node.ParamRef) uses.set(node.ParamRef.number, (uses.get(node.ParamRef.number) ?? 0) + 1);
    for (const value of Object.values(node)) count(value);
  };
  count(tree);
  const subscripted = new Map<number, number>();
  const walk = (node: Node): void => {
    if (found || node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const x of node) walk(x);
      return;
    }
    // `$1[1]`: unknown has no subscripts (PostgreSQL's 42804 at the parameter; Patina read it as text)
    const ind = node.A_Indirection;
    if (param(ind?.arg) && ind.indirection?.[0]?.A_Indices) {
      const k = ind.arg.ParamRef.number;
      subscripted.set(k, (subscripted.get(k) ?? 0) + 1);
      if (subscripted.get(k) === uses.get(k)) {
        found = {
          code: '42804',
          message: 'cannot subscript type unknown because it does not support subscripting',
          position: ind.arg.ParamRef.location ?? 0,
        };
        return;
      }
    }
    const e = node.A_Expr;
    const op = e?.name?.[e.name.length - 1]?.String?.sval;
    if (e?.kind === 'AEXPR_OP' && !e.lexpr && op === '-' && param(e.rexpr)) {
      found = {
        code: '42725',
        message: 'operator is not unique: - unknown',
        hint: 'Could not choose a best candidate operator. You might need to add explicit type casts.',
        position: e.location ?? 0,
      };
      return;
    }
    // `$1 + $2`: numbers, dates, intervals and more have + (no string form to prefer, as `||` and
    // `=` have), so PostgreSQL finds no one candidate (Patina took both as text)
    if (
      e?.kind === 'AEXPR_OP' &&
      ARITHMETIC.has(op) &&
      unknown(e.lexpr) &&
      unknown(e.rexpr) &&
      (param(e.lexpr) || param(e.rexpr))
    ) {
      found = {
        code: '42725',
        message: `operator is not unique: unknown ${op} unknown`,
        hint: 'Could not choose a best candidate operator. You might need to add explicit type casts.',
        position: e.location ?? 0,
      };
      return;
    }
    const call = node.FuncCall;
    const names: Node[] = call?.funcname ?? [];
    const fn = String(names[names.length - 1]?.String?.sval ?? '').toLowerCase();
    const shown = AMBIGUOUS_FUNCTIONS.get(fn);
    const args: Node[] = call?.args ?? [];
    if (POLYMORPHIC_FUNCTIONS.has(fn) && unknown(args[0])) {
      // (PostgreSQL places this one nowhere)
      found = { code: '42804', message: 'could not determine polymorphic type because input has type unknown' };
      return;
    }
    if (shown && args.length > 0 && args.every(unknown) && !call.agg_star) {
      found = {
        code: '42725',
        message: `function ${shown}(${args.map(() => 'unknown').join(', ')}) is not unique`,
        hint: 'Could not choose a best candidate function. You might need to add explicit type casts.',
        position: call.location ?? 0,
      };
      return;
    }
    for (const value of Object.values(node)) walk(value);
  };
  walk(tree);
  return found;
}

/** The parameters' uses in the tree, in PostgreSQL's order of analysis. */
function usesOf(tree: Node): Use[] {
  const uses: Use[] = [];
  let queries = 0;
  const walk = (node: Node, any: boolean, query: number): void => {
    if (Array.isArray(node)) {
      for (const x of node) walk(x, any, query);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    if (node.ParamRef) {
      uses.push({ use: any ? 'any' : 'typed', k: node.ParamRef.number, at: node.ParamRef.location ?? 0, query });
      return;
    }
    if (node.SelectStmt) {
      select(node.SelectStmt, true);
      return;
    }
    if (node.InsertStmt) {
      // INSERT ... SELECT's items take the columns' types (no text at its end)
      const ins = node.InsertStmt;
      walk(ins.withClause, false, query);
      if (ins.selectStmt?.SelectStmt) select(ins.selectStmt.SelectStmt, false);
      for (const key of ['onConflictClause', 'returningClause', 'returningList']) walk(ins[key], false, query);
      return;
    }
    if (node.UpdateStmt) {
      // (transformUpdateStmt: SET after WHERE and RETURNING)
      const up = node.UpdateStmt;
      for (const key of ['withClause', 'fromClause', 'whereClause', 'returningClause', 'returningList', 'targetList'])
        walk(up[key], false, query);
      return;
    }
    const call = node.FuncCall;
    if (call && !call.agg_star) {
      const names: Node[] = call.funcname ?? [];
      const skip = ANY_ARGUMENTS.get(String(names[names.length - 1]?.String?.sval ?? '').toLowerCase());
      if (skip !== undefined && (names.length === 1 || names[0]?.String?.sval === 'pg_catalog')) {
        (call.args ?? []).forEach((a: Node, i: number) => walk(a, i >= skip, query));
        for (const [key, value] of Object.entries(call)) if (key !== 'args') walk(value, false, query);
        return;
      }
    }
    if (node.NullTest) {
      walk(node.NullTest.arg, true, query);
      return;
    }
    for (const value of Object.values(node)) walk(value, false, query);
  };
  /** A SELECT in PostgreSQL's order (transformSelectStmt); `resolves` when its bare items end as text. */
  const select = (s: Node, resolves: boolean): void => {
    const query = ++queries;
    walk(s.withClause, false, query);
    if (s.op && s.op !== 'SETOP_NONE') {
      // (a set operation's branches take the type their columns resolve to together)
      if (s.larg) select(s.larg, false);
      if (s.rarg) select(s.rarg, false);
    }
    walk(s.fromClause, false, query);
    for (const item of s.targetList ?? []) {
      const param = item.ResTarget?.val?.ParamRef;
      if (param && resolves) uses.push({ use: 'bare', k: param.number, at: param.location ?? 0, query });
      else walk(item, false, query);
    }
    for (const key of ['whereClause', 'havingClause', 'sortClause', 'groupClause', 'distinctClause'])
      walk(s[key], false, query);
    for (const key of ['limitOffset', 'limitCount', 'windowClause', 'valuesLists', 'lockingClause'])
      walk(s[key], false, query);
    uses.push({ use: 'end', k: 0, at: 0, query });
  };
  walk(tree, false, 0);
  return uses;
}
