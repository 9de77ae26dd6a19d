// pg_proc's rows of the builtin functions Patina runs, PostgreSQL 15's own (pg-proc-rows.ts), with
// their descriptions; and what pg_get_functiondef and its kin answer of them.
import { arrayText } from '../../../src/engine/pg-functions';
import { pgError } from '../sqlstate';
import { FUNCTION_NAMES } from './function-names';
import { PG_PROC_ROWS, type PgProcRow } from './pg-proc-rows';
import { OTHER_TYPE_ROWS, PG_TYPE_ROWS } from './pg-type-rows';
import { lookup } from '../../../src/lookup';

/** The rows pg_proc lists, by OID. */
export const BUILTIN_PROCS: ReadonlyMap<number, PgProcRow> = new Map(
  PG_PROC_ROWS.filter((r) => FUNCTION_NAMES.has(r[1])).map((r) => [r[0], r]),
);

/** Inserts the builtin functions' pg_proc and pg_description rows. */
export function fillBuiltinProcs(ins: (table: string, row: Record<string, unknown>) => void): void {
  for (const r of BUILTIN_PROCS.values()) {
    const [oid, proname, prokind, proretset, provolatile, proparallel, proisstrict, prolang, procost, prorows] = r;
    const [provariadic, pronargs, pronargdefaults, prorettype, proargtypes, allTypes, modes, names, prosrc] =
      r.slice(10);
    ins('pg_proc', {
      oid,
      proname,
      prolang,
      procost,
      prorows,
      provariadic,
      prokind,
      proisstrict,
      proretset,
      provolatile,
      proparallel,
      pronargs,
      pronargdefaults,
      prorettype,
      proargtypes,
      proallargtypes: allTypes === null ? null : arrayText(allTypes as number[]),
      proargmodes: modes === null ? null : arrayText(modes as string[]),
      proargnames: names === null ? null : arrayText(names as string[]),
      prosrc,
    });
    if (r[19] !== null) ins('pg_description', { objoid: oid, classoid: 1255, objsubid: 0, description: r[19] });
  }
}

/** pg_get_function_arguments, _identity_arguments, _result of a builtin function; null for another OID. */
export function functionText(oid: number, what: 'arguments' | 'identity' | 'result'): string | null {
  const r = BUILTIN_PROCS.get(oid);
  if (!r) return null;
  return what === 'arguments' ? r[20] : what === 'identity' ? r[21] : r[22];
}

/** pg_get_functiondef: PostgreSQL's CREATE OR REPLACE FUNCTION; 42809 for an aggregate, as there. */
export function functionDef(oid: number): string | null {
  const r = BUILTIN_PROCS.get(oid);
  if (!r) return null;
  if (r[23] === null) throw pgError('42809', `"${r[1]}" is an aggregate function`);
  return r[23];
}

/**
 * A function's OID from its name ('now', 'pg_catalog.now') or its name and argument types
 * ('upper(text)'), as `::regproc` and `::regprocedure` read it: 42883 for none, 42725 for a name
 * several functions share.
 */
export function regproc(text: string): number {
  const spec = text
    .replace(/^pg_catalog\./, '')
    .replace(/\s+/g, ' ')
    .trim();
  const paren = spec.indexOf('(');
  const name = (paren < 0 ? spec : spec.slice(0, paren)).trim().replace(/^"(.*)"$/, '$1');
  const rows = [...BUILTIN_PROCS.values()].filter((r) => r[1] === name);
  if (paren >= 0) {
    const args = spec.slice(paren + 1, spec.lastIndexOf(')')).trim();
    const found = rows.find(
      (r) =>
        r[21] === args ||
        r[14] ===
          args
            .split(/\s*,\s*/)
            .map(typeOid)
            .join(' '),
    );
    if (found) return found[0];
    throw pgError('42883', `function "${spec}" does not exist`);
  }
  if (rows.length === 0) throw pgError('42883', `function "${spec}" does not exist`);
  if (rows.length > 1) throw pgError('42725', `more than one function named "${spec}"`);
  return rows[0][0];
}

/** The types' I/O functions pg_proc lists by name (array_in, int4send, ...: pg_type's typinput and the others). */
const IO_FUNCTIONS = new Set(
  [...PG_TYPE_ROWS, ...OTHER_TYPE_ROWS].flatMap((r) => (r.slice(10, 18) as string[]).filter((f) => f !== '-')),
);

/**
 * A function name written as a `'...'::regproc` or `'...'::regprocedure` literal, checked as
 * PostgreSQL's regprocin and regprocedurein check it: 42883 for no such function, 42725 for a name
 * several functions share (regproc), 22P02 for a regprocedure without its argument list. A type's
 * I/O function passes by its name (pgjdbc compares typinput with `'pg_catalog.array_in'::regproc`):
 * true for one of those, which pg_proc does not list here.
 */
export function checkRegprocLiteral(text: string, procedure: boolean): boolean {
  if (/^\s*\d+\s*$/.test(text)) return false; // (an OID is one already)
  if (procedure && !text.includes('(')) throw pgError('22P02', 'expected a left parenthesis');
  if (!procedure && IO_FUNCTIONS.has(text.trim().replace(/^pg_catalog\./, ''))) return true;
  if (procedure && IO_FUNCTIONS.has(text.replace(/^\s*(?:pg_catalog\.)?(\w+)\s*\(.*$/s, '$1'))) return true;
  regproc(text);
  return false;
}

/** Type names as a regprocedure's arguments may spell them (the rest compare as pg_get_function_identity_arguments writes them). */
const ARG_TYPES: Record<string, number> = lookup({
  int: 23, int4: 23, integer: 23, int8: 20, bigint: 20, int2: 21, smallint: 21, float8: 701, float4: 700, real: 700,
  'double precision': 701, bool: 16, boolean: 16, text: 25, varchar: 1043, numeric: 1700, timestamp: 1114,
  timestamptz: 1184, date: 1082, interval: 1186, json: 114, jsonb: 3802, bytea: 17, uuid: 2950, name: 19,
}); // biome-ignore format: a word list

const typeOid = (t: string) => String(ARG_TYPES[t.toLowerCase()] ?? t);
