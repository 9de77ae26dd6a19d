// A parameter or string literal cast to bpchar or char(n) (`$1::bpchar`, `'ab  '::bpchar`,
// `CAST($1 AS char(4))`) keeps its trailing spaces where PostgreSQL prints the value: a result
// column of the statement's own select list, an argument of concat, format, to_json, array_agg
// (char-padding.ts' PRINTED_ARGS), the operand of another cast: `SELECT $1::bpchar` of 'ab  ' is
// `ab  ` (bpchar of no length keeps the value as given). Everywhere else PostgreSQL's bpchar ignores them (=, length, ||, a
// cast to text), so there the cast is marked 'text:rtrim' (translate/casts.ts drops them first).
// A parameter each of whose uses is such a cast is bound as sent (Analyzed.keptParams), where a
// bpchar parameter is bound without its trailing spaces (types/values.ts; it was 'ab' everywhere).
import { OID } from '../types/oids';
import type { PgToken } from './lexer';
import { PRINTED_ARGS } from './char-padding';
import { parseTree } from './parse';
import { strings, typeNameOid } from './type-signatures';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

const BPCHAR_WORDS = new Set(['bpchar', 'char', 'character']);

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

/**
 * The casts to mark 'text:rtrim' (their locations) and the parameters (1-based) to bind as sent,
 * of the statement `text` (tokens joined by spaces, as the tree's offsets are).
 */
export function bpcharCasts(text: string): { rtrim: number[]; kept: number[] } {
  let tree: Node;
  try {
    tree = parseTree(text);
  } catch {
    return { rtrim: [], kept: [] };
  }
  const printed = new Set<Node>();
  const top = tree.stmts?.[0]?.stmt?.SelectStmt;
  if (top && (!top.op || top.op === 'SETOP_NONE'))
    for (const item of top.targetList ?? []) printed.add(item?.ResTarget?.val);
  const casts: Node[] = [];
  const uses = new Map<number, number>();
  const castUses = new Map<number, number>();
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
    if (isBpcharCast(n)) casts.push(n);
    // (cast on, an I/O conversion reads the text as given: `('ab  '::char(4))::int2`'s 22P02 names
    // "ab  "; to text or varchar the outer cast drops them, typed-operators.ts' 'text:rtrim')
    if (n.TypeCast && isBpcharCast(n.TypeCast.arg)) printed.add(n.TypeCast.arg);
    if (n.ParamRef?.number > 0) count(uses, n.ParamRef.number);
    if (isBpcharCast(n) && n.TypeCast.arg.ParamRef?.number > 0) count(castUses, n.TypeCast.arg.ParamRef.number);
    for (const k in n) walk(n[k]);
  };
  walk(tree);
  return {
    rtrim: casts.filter((c) => !printed.has(c)).map((c) => c.TypeCast.location),
    kept: [...uses].filter(([k, all]) => castUses.get(k) === all).map(([k]) => k),
  };
}
