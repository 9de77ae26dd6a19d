// An array in arithmetic, `arr + 1` of an integer[] column: PostgreSQL has no arithmetic operator
// taking an array (+ - * / % ^), so it refuses it with 42883 `operator does not exist: integer[] +
// integer`; Patina keeps an array as text, which SQLite's arithmetic read as 0 (`arr + 1` gave 1).
// So with a string literal or NULL beside it, which PostgreSQL names `unknown` there (`arr + '1'`:
// `integer[] + unknown`; it ran), and under a prefix operator (`- arr`: `- integer[]`, which gave
// `{}`), none of which takes an array. The innermost such operator is named first, as PostgreSQL
// resolves them from the inside out (`1 - - arr` names `- integer[]`). A parameter beside an array
// is not judged here (the types it is given are the tree's, not the client's): one sent without a
// type is refused as `unknown` where the tree types parameters (param-tree-types.ts).
import { pgError } from '../sqlstate';
import { OID } from '../types/oids';
import { elementOidOf } from '../types/registry';
import { strings } from './type-signatures';
import { noOperator, pgTypeName } from './typed-operators';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

/** The arithmetic operators, none of which PostgreSQL has for an array. */
const ARITHMETIC = new Set(['+', '-', '*', '/', '%', '^']);

/** Element types whose arrays an unknown value's `-` takes as jsonb's `- text[]` (`'{"a":1}' - tags`). */
const TEXT_ELEMENTS = new Set<number>([OID.text, OID.varchar, OID.bpchar]);

/** An operand of type unknown: a string literal or NULL. */
const unknown = (n: Node) => n?.A_Const?.sval !== undefined || n?.A_Const?.isnull === true;

const isArray = (t: number) => !!t && elementOidOf(t) !== undefined;

/** Whether `l op r` (types `lt`, `rt`; 0 unknown) is arithmetic of an array PostgreSQL has no operator for. */
export function arrayInArithmetic(op: string, lt: number, rt: number): boolean {
  if (!ARITHMETIC.has(op)) return false;
  // (jsonb - text[], the keys taken out, is one PostgreSQL has, also of an unknown left operand)
  if (op === '-' && (lt === OID.jsonb || (!lt && TEXT_ELEMENTS.has(elementOidOf(rt) ?? 0)))) return false;
  return isArray(lt) || isArray(rt);
}

/**
 * PostgreSQL's 42883 for an operator expression (`A_Expr` of kind AEXPR_OP) of an array that no
 * operator takes, or one below it, placed at its operator; undefined otherwise. `typeOf` gives an
 * operand's type (0 where not known).
 */
export function arrayOperatorError(e: Node, typeOf: (n: Node) => number): Error | undefined {
  for (const x of [e.lexpr, e.rexpr]) {
    const inner = x?.A_Expr?.kind === 'AEXPR_OP' ? arrayOperatorError(x.A_Expr, typeOf) : undefined;
    if (inner) return inner;
  }
  const op = strings(e.name).pop() ?? '';
  const type = (x: Node) => (unknown(x) ? 0 : typeOf(x));
  let err: Error & { hint?: string; location?: number };
  if (!e.lexpr) {
    // a prefix operator (-, +, ~, @, |/, ...): none takes an array
    const t = e.rexpr?.ParamRef ? 0 : type(e.rexpr);
    if (!isArray(t)) return undefined;
    err = pgError('42883', `operator does not exist: ${op} ${pgTypeName(t)}`);
    err.hint = 'No operator matches the given name and argument type. You might need to add an explicit type cast.';
  } else {
    const [lt, rt] = [type(e.lexpr), type(e.rexpr)];
    // (an operand of a type not known here, neither a typed value nor an unknown one, is not judged)
    const sure = (x: Node, t: number) => x?.ParamRef === undefined && (!!t || unknown(x));
    if (!sure(e.lexpr, lt) || !sure(e.rexpr, rt) || !arrayInArithmetic(op, lt, rt)) return undefined;
    err = noOperator(lt, op, rt);
  }
  err.location ??= e.location;
  return err;
}
