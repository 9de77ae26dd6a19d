// An array in arithmetic, `arr + 1` of an integer[] column: PostgreSQL has no arithmetic operator
// taking an array (+ - * / % ^), so it refuses it with 42883 `operator does not exist: integer[] +
// integer`; Patina keeps an array as text, which SQLite's arithmetic read as 0 (`arr + 1` gave 1).
// Refused here where an operand's type is an array and the other's is known (no parameter or
// untyped literal, whose type PostgreSQL would pick otherwise).
import { OID } from '../types/oids';
import { elementOidOf } from '../types/registry';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

/** The arithmetic operators, none of which PostgreSQL has for an array. */
const ARITHMETIC = new Set(['+', '-', '*', '/', '%', '^']);

/** An operand whose type PostgreSQL picks from the other's: a parameter or a string literal. */
const untyped = (n: Node) => n?.ParamRef !== undefined || n?.A_Const?.sval !== undefined;

/** Whether `l op r` (types `lt`, `rt`; 0 unknown) is arithmetic of an array PostgreSQL has no operator for. */
export function arrayInArithmetic(op: string, lt: number, rt: number, l: Node, r: Node): boolean {
  if (!ARITHMETIC.has(op) || !lt || !rt || untyped(l) || untyped(r)) return false;
  // (jsonb - text[], the keys taken out, is one PostgreSQL has)
  if (op === '-' && lt === OID.jsonb) return false;
  return elementOidOf(lt) !== undefined || elementOidOf(rt) !== undefined;
}
