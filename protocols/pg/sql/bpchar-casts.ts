// A parameter or string literal cast to bpchar or char(n) (`$1::bpchar`, `'ab  '::bpchar`,
// `CAST($1 AS char(4))`) keeps its trailing spaces where PostgreSQL prints the value: a result
// column of the statement's own select list, an argument of concat, format, to_json, array_agg
// (char-padding.ts' PRINTED_ARGS), the operand of another cast: `SELECT $1::bpchar` of 'ab  ' is
// `ab  ` (bpchar of no length keeps the value as given). Everywhere else PostgreSQL's bpchar ignores them (=, length, ||, a
// cast to text), so there the cast is marked 'text:rtrim' (translate/casts.ts drops them first).
// A parameter each of whose uses is such a cast is bound as sent (Analyzed.keptParams), where a
// bpchar parameter is bound without its trailing spaces (types/values.ts; it was 'ab' everywhere).
// So is one used bare beside such a cast, or declared bpchar (`PREPARE p(bpchar) AS SELECT $1`),
// where each bare use is printed too (`SELECT $1::bpchar, $1`, PostgreSQL types both bpchar). And a printed cast to char(n) is
// padded to n (marked 'bpchar-pad', translate/casts.ts): `concat('ab'::char(4), '|')` is `ab  |`,
// was `ab|`; LIKE reads its left side padded too (bpcharlike), `'ab'::char(4) LIKE 'ab  '` true.
import { OID } from '../types/oids';
import type { PgToken } from './lexer';
import { PRINTED_ARGS } from './char-padding';
import { parseTree } from './parse';
import { strings, typeNameOid } from './type-signatures';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

const BPCHAR_WORDS = new Set(['bpchar', 'char', 'character']);
const REGEX_OPS = new Set(['~', '!~', '~*', '!~*']);

/** The types a statement's parameters are bound as: a bpchar kept as sent (keptParams) read as text, its trailing spaces with it. */
export const boundParamTypes = (an: { paramTypes: number[]; keptParams?: number[] }): number[] =>
  an.keptParams
    ? an.paramTypes.map((t, i) => (t === OID.bpchar && an.keptParams!.includes(i) ? OID.text : t))
    : an.paramTypes;

/** Whether a statement may cast a parameter or literal to bpchar (a cheap look at its tokens). */
export function mayCastToBpchar(sig: PgToken[]): boolean {
  return sig.some(
    (t, k) =>
      t.type === 'word' &&
      BPCHAR_WORDS.has(t.text.toLowerCase()) &&
      (sig[k - 1]?.text === '::' || sig[k - 1]?.text.toUpperCase() === 'AS'),
  );
}

/** A cast to bpchar (any length) of a parameter or a string literal. */
const isBpcharCast = (n: Node): boolean =>
  n?.TypeCast !== undefined &&
  typeNameOid(n.TypeCast.typeName) === OID.bpchar &&
  !n.TypeCast.typeName.arrayBounds &&
  (n.TypeCast.arg?.ParamRef !== undefined || typeof n.TypeCast.arg?.A_Const?.sval?.sval === 'string');

/** The char(n) width of a cast to char(n) (`char` alone is char(1) in the tree); undefined for bpchar. */
const castWidth = (n: Node): number | undefined => {
  const w = n.TypeCast.typeName.typmods?.[0]?.A_Const?.ival?.ival;
  return typeof w === 'number' && w > 0 ? w : undefined;
};

/**
 * The casts to mark 'text:rtrim' and 'bpchar-pad' (their locations) and the parameters (1-based) to
 * bind as sent, of the statement `text` (tokens joined by spaces, as the tree's offsets are);
 * `declared` are the parameter types the client declared.
 */
export function bpcharCasts(
  text: string,
  declared: number[] = [],
): { rtrim: number[]; trimmed: number[]; kept: number[]; padded: number[] } {
  let tree: Node;
  try {
    tree = parseTree(text);
  } catch {
    return { rtrim: [], trimmed: [], kept: [], padded: [] };
  }
  const printed = new Set<Node>();
  const top = tree.stmts?.[0]?.stmt?.SelectStmt;
  if (top && (!top.op || top.op === 'SETOP_NONE'))
    for (const item of top.targetList ?? []) printed.add(item?.ResTarget?.val);
  const casts: Node[] = [];
  const uses = new Map<number, number>();
  const castUses = new Map<number, number>();
  const bare: Node[] = []; // parameters that are no operand of a cast, where they are printed
  const unprinted: Node[] = []; // and where they are not
  const firstUse = new Map<number, { at: number; cast: boolean }>(); // each parameter's first use in the text
  const operands = new Set<Node>();
  const count = (m: Map<number, number>, k: number) => m.set(k, (m.get(k) ?? 0) + 1);
  const walk = (n: Node): void => {
    if (n === null || typeof n !== 'object') return;
    if (Array.isArray(n)) {
      for (const x of n) walk(x);
      return;
    }
    const f = n.FuncCall;
    const reads = f && !f.agg_star ? PRINTED_ARGS[strings(f.funcname).pop()?.toLowerCase() ?? ''] : undefined;
    if (reads) for (let k = reads.from; k < (f.args ?? []).length; k += reads.step) printed.add(f.args[k]);
    // (LIKE and `~` read a bpchar's padded text: bpcharlike, bpcharregexeq)
    const op = n.A_Expr?.kind === 'AEXPR_OP' ? strings(n.A_Expr.name ?? []).pop() : undefined;
    if (n.A_Expr?.kind === 'AEXPR_LIKE' || n.A_Expr?.kind === 'AEXPR_ILIKE' || (op && REGEX_OPS.has(op)))
      printed.add(n.A_Expr.lexpr);
    if (isBpcharCast(n)) casts.push(n);
    // (cast on, an I/O conversion reads the text as given: `('ab  '::char(4))::int2`'s 22P02 names
    // "ab  "; to text or varchar the outer cast drops them, typed-operators.ts' 'text:rtrim')
    if (n.TypeCast && isBpcharCast(n.TypeCast.arg)) printed.add(n.TypeCast.arg);
    if (n.TypeCast) operands.add(n.TypeCast.arg);
    if (n.ParamRef?.number > 0) {
      count(uses, n.ParamRef.number);
      if (!operands.has(n)) (printed.has(n) ? bare : unprinted).push(n);
    }
    if (isBpcharCast(n) && n.TypeCast.arg.ParamRef?.number > 0) count(castUses, n.TypeCast.arg.ParamRef.number);
    const param = n.ParamRef ?? (isBpcharCast(n) ? n.TypeCast.arg.ParamRef : undefined);
    const first = param?.number > 0 ? firstUse.get(param.number) : undefined;
    if (param?.number > 0 && (!first || param.location < first.at))
      firstUse.set(param.number, { at: param.location, cast: n.TypeCast !== undefined });
    for (const k in n) walk(n[k]);
  };
  walk(tree);
  const bareUses = new Map<number, number>();
  for (const p of bare) count(bareUses, p.ParamRef.number);
  // a parameter typed bpchar (declared, or first cast to it: `SELECT $1::bpchar, $1 || '|'`, as
  // PostgreSQL types it by its first use) is bpchar also where it is used bare and not printed:
  // there its trailing spaces are dropped (marked 'chtrim', translate/char-padding.ts), as bpchar
  // ignores them (it was bound without them, and printed so)
  const typedBpchar = (k: number) =>
    declared[k - 1] === OID.bpchar || (!declared[k - 1] && firstUse.get(k)?.cast === true);
  const trimmed = new Map<number, number>();
  for (const p of unprinted) if (typedBpchar(p.ParamRef.number)) count(trimmed, p.ParamRef.number);
  const kept = [...uses]
    .filter(([k, all]) => {
      const type = declared[k - 1] ?? 0;
      if (type !== 0 && type !== OID.bpchar) return castUses.get(k) === all;
      const cast = castUses.get(k) ?? 0;
      return (cast > 0 || type === OID.bpchar) && cast + (bareUses.get(k) ?? 0) + (trimmed.get(k) ?? 0) === all;
    })
    .map(([k]) => k);
  return {
    rtrim: casts.filter((c) => !printed.has(c)).map((c) => c.TypeCast.location),
    trimmed: unprinted
      .filter((p) => kept.includes(p.ParamRef.number) && typedBpchar(p.ParamRef.number))
      .map((p) => p.ParamRef.location),
    kept,
    padded: casts.filter((c) => printed.has(c) && castWidth(c) !== undefined).map((c) => c.TypeCast.location),
  };
}
