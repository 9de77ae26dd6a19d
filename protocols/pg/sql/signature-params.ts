// The type of a function's unknown argument where PostgreSQL's function resolution has one answer:
// every signature of the name taking that many arguments (pg_proc's rows, catalog/pg-proc-rows.ts)
// has one type at that place. `left($1, $2)` and `repeat($1, $2)` take an int4 second, `substr($1,
// $2, $3)` int4 bounds, `make_date` int4s, `round(x, $1)` an int4, `encode($1, 'hex')` a bytea,
// `jsonb_set(j, $1, $2)` a text[] and a jsonb. They were text: asyncpg refused an int for them.
import { BUILTIN_PROCS } from '../catalog/builtin-procs';
import { OID } from '../types/oids';

/** The types a parameter is given this way: those Patina binds and reads as PostgreSQL does. */
const BOUND = new Set<number>([
  OID.bool,
  OID.bytea,
  OID.int2,
  OID.int4,
  OID.int8,
  OID.text,
  OID.float4,
  OID.float8,
  OID.numeric,
  OID.date,
  OID.time,
  OID.timestamp,
  OID.timestamptz,
  OID.interval,
  OID.json,
  OID.jsonb,
  OID.uuid,
  OID.textArray,
  OID.int4Array,
]);

/** Each name's fixed-arity signatures: argument types, and how many of the last have defaults. */
let signatures: Map<string, { types: number[]; defaults: number }[]> | null = null;

function signaturesOf(name: string): { types: number[]; defaults: number }[] {
  if (!signatures) {
    signatures = new Map();
    for (const r of BUILTIN_PROCS.values()) {
      // (a variadic one takes any count: left out)
      if (Number(r[10]) !== 0) continue;
      const types = String(r[14] ?? '')
        .split(' ')
        .filter((t) => t !== '')
        .map(Number);
      const list = signatures.get(r[1]) ?? [];
      list.push({ types, defaults: Number(r[12] ?? 0) });
      signatures.set(r[1], list);
    }
  }
  return signatures.get(name) ?? [];
}

/**
 * The type each of `n` arguments of `name` has in all its signatures of that arity (0 where they
 * differ, or where none is of a type in BOUND); null when the name has no such signature.
 */
export function signatureParamTypes(name: string, n: number): number[] | null {
  const fits = signaturesOf(name).filter((s) => n <= s.types.length && n >= s.types.length - s.defaults);
  if (fits.length === 0) return null;
  return Array.from({ length: n }, (_, i) => {
    const found = new Set(fits.map((s) => s.types[i]));
    // (text's and bytea's forms, substr, length: the string category's preferred text; numeric's and
    // double's, power, the numbers' preferred double, as PostgreSQL's resolution of an unknown picks)
    if (found.size === 2 && found.has(OID.text) && found.has(OID.bytea)) return OID.text;
    if (found.size === 2 && found.has(OID.float8) && found.has(OID.numeric)) return OID.float8;
    const t = fits[0].types[i];
    return BOUND.has(t) && found.size === 1 ? t : 0;
  });
}
