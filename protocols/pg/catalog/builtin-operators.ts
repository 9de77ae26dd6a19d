// pg_operator's rows, PostgreSQL 15's own of pg_catalog (pg-operator-rows.ts, every operator whose
// types pg_type lists, as pg_proc lists a function's signatures of types Patina has no values of),
// with their descriptions: psql's `\do ||/` lists them as there (pg_operator was empty, so `\do`
// found nothing). And to_regoper and to_regoperator, which look a name up in them.
import { pgError } from '../sqlstate';
import { regtypeName } from '../types/oids';
import { qualifiedName, regtypeOid } from '../types/reg-input';
import { PG_OPERATOR_ROWS } from './pg-operator-rows';

/** Inserts the operators' pg_operator and pg_description rows. */
export function fillBuiltinOperators(ins: (table: string, row: Record<string, unknown>) => void): void {
  for (const r of PG_OPERATOR_ROWS) {
    const [oid, oprname, oprkind, oprcanmerge, oprcanhash, oprleft, oprright, oprresult, oprcom, oprnegate] = r;
    const [oprcode, oprrest, oprjoin, description] = r.slice(10) as [string, string, string, string | null];
    ins('pg_operator', {
      oid,
      oprname,
      oprnamespace: 11,
      oprowner: 10,
      oprkind,
      oprcanmerge,
      oprcanhash,
      oprleft,
      oprright,
      oprresult,
      oprcom,
      oprnegate,
      oprcode,
      oprrest,
      oprjoin,
    });
    if (description !== null) ins('pg_description', { objoid: oid, classoid: 2617, objsubid: 0, description });
  }
}

/** The operators' OIDs (pg_operator_is_visible). */
export const OPERATOR_OIDS: ReadonlySet<number> = new Set(PG_OPERATOR_ROWS.map((r) => r[0]));

/** The descriptions of the operators (obj_description(oid, 'pg_operator')), by OID. */
export const OPERATOR_DESCRIPTIONS: ReadonlyMap<number, string> = new Map(
  PG_OPERATOR_ROWS.filter((r) => r[13] !== null).map((r) => [r[0], r[13] as string]),
);

/**
 * An operator's name as written (`+`, `pg_catalog.||/`), read as a qualified name (42602 for none,
 * 0A000 for three parts, as there); null for one in another schema (pg_catalog has them all).
 */
function operatorName(input: string): string | null {
  const parts = qualifiedName(input);
  if (parts.length > 2) throw pgError('0A000', `cross-database references are not implemented: ${input.trim()}`);
  return parts.length === 1 || parts[0] === 'pg_catalog' ? parts[parts.length - 1] : null;
}

/**
 * to_regoper('||/'): the operator of that name when exactly one has it (printed as its name), NULL
 * when none or several do (`+`), as PostgreSQL's to_regoper answers.
 */
export function toRegoper(input: string): string | null {
  const name = operatorName(input);
  const rows = PG_OPERATOR_ROWS.filter((r) => r[1] === name);
  return rows.length === 1 ? rows[0][1] : null;
}

/**
 * to_regoperator('+(integer,integer)'): the operator of that name and operand types (`NONE` for a
 * prefix operator's left one), printed as regoperatorout prints it (`+(integer,integer)`; the
 * types by their SQL names); NULL when there is none. The argument list's errors are regoperatorin's.
 */
export function toRegoperator(input: string): string | null {
  const open = input.indexOf('(');
  if (open < 0 || !input.trimEnd().endsWith(')')) throw pgError('22P02', 'expected a left parenthesis');
  const args = input
    .trimEnd()
    .slice(open + 1, -1)
    .split(',')
    .map((a) => a.trim());
  if (args.length === 1)
    throw Object.assign(pgError('42P02', 'missing argument'), {
      hint: 'Use NONE to denote the missing argument of a unary operator.',
    });
  if (args.length > 2)
    throw Object.assign(pgError('54023', 'too many arguments'), { hint: 'Provide two argument types for operator.' });
  // (a type that does not exist is regtype's 42704, as there)
  const name = operatorName(input.slice(0, open));
  const types = args.map((a) => (a.toLowerCase() === 'none' ? 0 : regtypeOid(a)));
  const row = PG_OPERATOR_ROWS.find((r) => r[1] === name && r[5] === types[0] && r[6] === types[1]);
  if (!row) return null;
  const typeText = (oid: number) => (oid === 0 ? 'NONE' : regtypeName(oid));
  return `${name}(${typeText(row[5])},${typeText(row[6])})`;
}
