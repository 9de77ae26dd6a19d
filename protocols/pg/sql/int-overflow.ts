// int4 and int2 arithmetic past its type's range, inside a statement: PostgreSQL computes `+`, `-` and
// `*` of two integers (int4) or smallints (int2) in that type and says 22003 `integer out of range`
// (`smallint out of range`) when the result leaves it; SQLite computes in 64 bits and went on
// (`INSERT ... VALUES (2147483647 + 1)` stored 2147483648, `2147483647 * 2 / 2` was 2147483647). A
// result column was checked by its codec already (types/integer.ts); here the operator is marked by
// the analysis (typed-operators.ts) and its value checked by __pg_int_range (src/engine/pg-math.ts).
// Only operands the parse tree types int4 or int2 are: literals, casts, functions of such results;
// an INTEGER or SMALLINT column is int8 here (the catalog says bigint), so its arithmetic is not.
// Of constants (`2147483647 + 1`) it is 22003 at analysis, as PostgreSQL folds constants when it
// plans: also where no row is read (`UPDATE t SET b = 2147483647 + 1` of an empty table); not under
// a CASE, coalesce, AND or OR, which PostgreSQL may leave unevaluated (checkIntConstants).
// Division's one overflow, the type's least value divided by -1 (`(-2147483648)::int4 / -1`), is
// 22003 too, of int8 as well (SQLite made a double of int8's): such a `/` is marked where it may
// happen, its divisor no constant other than -1 and its dividend no constant other than that value.
import type { PgToken } from './lexer';
import { OID } from '../types/oids';
import { pgError } from '../sqlstate';
import { type Tok, endsOperand, isOp, isPunct } from './tokens';
import { FIXED } from './type-signatures';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

const CHECKED = new Set(['+', '-', '*']);
const INT4_WORDS = new Set(['int', 'int4', 'integer', 'int2', 'smallint']);

/**
 * The type PostgreSQL computes `l op r` in, of integers: int2 when both are, int4 when both are int4
 * or int2; of division int8 too (int8, int48div, int84div).
 */
function intOpType(op: string, l: number, r: number): string | undefined {
  const small = (t: number) => t === OID.int2 || t === OID.int4;
  if (CHECKED.has(op) && small(l) && small(r)) return l === OID.int2 && r === OID.int2 ? 'int2' : 'int4';
  if (op !== '/' || !(small(l) || l === OID.int8) || !(small(r) || r === OID.int8)) return undefined;
  return l === OID.int8 || r === OID.int8 ? 'int8' : l === OID.int2 && r === OID.int2 ? 'int2' : 'int4';
}

/**
 * The mark of `l op r` when PostgreSQL computes it as int4 or int2 ('int4+', 'int2*'): both operands
 * of those types (int2 only when both are). Undefined otherwise (division: intDivisionMark).
 */
export function intArithmeticMark(op: string, l: number, r: number): string | undefined {
  const type = CHECKED.has(op) ? intOpType(op, l, r) : undefined;
  return type && `${type}${op}`;
}

const RANGES: Record<string, [bigint, string]> = {
  int8: [9223372036854775807n, 'bigint'],
  int4: [2147483647n, 'integer'],
  int2: [32767n, 'smallint'],
};

/**
 * The mark of an integer division `e` ('int4/', 'int2/', 'int8/') where it may overflow: its divisor
 * no constant other than -1 and its dividend no constant other than its type's least value (`x / 2`,
 * `1 / x` are left as they are). Undefined otherwise.
 */
export function intDivisionMark(e: Node, l: number, r: number, types: (n: Node) => number): string | undefined {
  const type = intOpType('/', l, r);
  if (!type || !e?.lexpr) return undefined;
  const constant = (n: Node) => {
    try {
      return intConstant(n, types);
    } catch {
      return undefined; // (its own overflow is reported where it is folded)
    }
  };
  const divisor = constant(e.rexpr);
  if (divisor !== undefined && divisor !== -1n) return undefined;
  const dividend = constant(e.lexpr);
  if (dividend !== undefined && dividend !== -RANGES[type][0] - 1n) return undefined;
  return `${type}/`;
}

/**
 * The value of an integer constant (a literal, a cast of one to an integer type, a sign, `+`, `-`,
 * `*` of such), undefined for anything else; 22003 where an int4 or int2 operator among them leaves
 * its type's range (`types` gives an operand's type, the analysis's typer).
 */
export function intConstant(n: Node, types: (n: Node) => number): bigint | undefined {
  if (n?.A_Const?.ival !== undefined) return BigInt(n.A_Const.ival.ival ?? 0);
  if (n?.A_Const?.fval !== undefined)
    return /^-?\d+$/.test(n.A_Const.fval.fval) ? BigInt(n.A_Const.fval.fval) : undefined;
  if (n?.TypeCast) {
    const t = types(n);
    return t === OID.int2 || t === OID.int4 || t === OID.int8 ? intConstant(n.TypeCast.arg, types) : undefined;
  }
  const e = n?.A_Expr;
  const op = e?.kind === 'AEXPR_OP' && e.name?.length === 1 ? e.name[0]?.String?.sval : undefined;
  if (!op || !(CHECKED.has(op) || op === '/') || !e.rexpr) return undefined;
  const r = intConstant(e.rexpr, types);
  if (r === undefined) return undefined;
  if (!e.lexpr) return op === '-' ? -r : op === '+' ? r : undefined;
  const l = intConstant(e.lexpr, types);
  // (a division by zero is left to the row that computes it)
  if (l === undefined || (op === '/' && r === 0n)) return undefined;
  const v = op === '+' ? l + r : op === '-' ? l - r : op === '*' ? l * r : l / r;
  const [max, name] = RANGES[intOpType(op, types(e.lexpr), types(e.rexpr)) ?? ''] ?? [];
  if (max !== undefined && (v > max || v < -max - 1n)) throw pgError('22003', `${name} out of range`);
  return v;
}

/** What PostgreSQL may leave unevaluated, so unfolded: a CASE's arms, coalesce's later values, AND and OR. */
const LAZY = ['CaseExpr', 'CoalesceExpr', 'BoolExpr', 'MinMaxExpr', 'NullIfExpr'];

/**
 * 22003 for int4 or int2 arithmetic of constants past its range anywhere in a statement's tree, as
 * PostgreSQL's planner folds it, but under what may leave it unevaluated (LAZY: `CASE WHEN false
 * THEN 2147483647 + 1 END` is NULL there), whose rows check it as they are computed.
 */
export function checkIntConstants(n: Node, types: (n: Node) => number): void {
  if (n === null || typeof n !== 'object') return;
  if (Array.isArray(n)) {
    for (const x of n) checkIntConstants(x, types);
    return;
  }
  if (LAZY.some((k) => n[k] !== undefined)) return;
  const e = n.A_Expr;
  const op = e?.kind === 'AEXPR_OP' && e.lexpr && e.name?.length === 1 ? e.name[0]?.String?.sval : undefined;
  if (op && intOpType(op, types(e.lexpr), types(e.rexpr)) && intConstant(n, types) !== undefined) return;
  for (const k in n) checkIntConstants(n[k], types);
}

/**
 * The translation of a marked operator ('int4+', ...): its value as SQLite computes it, range
 * checked. Undefined for another mark ('int+date' is date arithmetic's).
 */
export function intRangeChecked(mark: string, value: string): string | undefined {
  const bits = /^int([24])[-+*]$/.exec(mark)?.[1];
  return bits ? `__pg_int_range(${bits === '2' ? 16 : 32}, ${value})` : undefined;
}

/**
 * The translation of a marked division ('int4/', ...), as tokens: `__pg_int_range(32, a / b)`, its
 * `/` left for translate/division.ts, which makes the divisor's zero 22012. Undefined for another mark.
 */
export function intDivisionChecked(mark: string, left: string, right: string): Tok[] | undefined {
  const bits = /^int([248])\/$/.exec(mark)?.[1];
  if (!bits) return undefined;
  return [
    { type: 'word', text: '__pg_int_range' },
    { type: 'punct', text: '(' },
    { type: 'group', text: `${Number(bits) * 8},` },
    { type: 'group', text: left },
    { type: 'op', text: '/' },
    { type: 'group', text: right },
    { type: 'punct', text: ')' },
  ] as Tok[];
}

/**
 * Whether a statement's tokens may hold such arithmetic, for the analysis's hint: `+`, `-` or `*`
 * between two integer literals (`2147483647 + 1`), or beside a cast to int4 or int2 or a call of a
 * function whose value is one (`strpos(x, 'a') * 1000000000`, `array_length(a, 1)`).
 */
export function mayOverflowInt4(sig: PgToken[]): boolean {
  let cast = false;
  let arithmetic = false;
  for (let i = 1; i < sig.length - 1; i++) {
    const t = sig[i];
    if (isOp(t, '::') && INT4_WORDS.has(sig[i + 1]?.text.toLowerCase() ?? '')) cast = true;
    if (t.type === 'word' && isPunct(sig[i + 1], '(')) {
      const type = FIXED[t.text.toLowerCase()];
      if (type === OID.int4 || type === OID.int2) cast = true;
    }
    if (t.type !== 'op' || !CHECKED.has(t.text) || !endsOperand(sig[i - 1])) continue;
    arithmetic = true;
    if (sig[i - 1].type === 'number' && sig[i + 1].type === 'number') return true;
  }
  return cast && arithmetic;
}
