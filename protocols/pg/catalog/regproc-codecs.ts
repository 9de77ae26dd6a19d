// regproc and regprocedure values as PostgreSQL prints and sends them: a function named in the
// statement ('now'::regproc, to_regprocedure('upper(text)')) is held as the text written, an OID
// (`oid::regproc` of pg_proc) as the number; the text form is the name (`now`, `upper(text)`), the
// binary one the function's OID. They were text columns; `oid::regproc` printed the number.
import { type Codec, bytes, expectLength, notA } from '../types/codec';
import { regtypeName } from '../types/oids';
import { registerCodec } from '../types/registry';
import { BUILTIN_PROCS, regproc } from './builtin-procs';

const heldAsOid = (v: unknown) => typeof v === 'number' || typeof v === 'bigint' || /^\d+$/.test(String(v));

let shared: Map<string, number> | null = null;

/** How many of pg_proc's functions have each name. */
function sharedNames(): Map<string, number> {
  if (!shared) {
    shared = new Map();
    for (const r of BUILTIN_PROCS.values()) shared.set(r[1], (shared.get(r[1]) ?? 0) + 1);
  }
  return shared;
}

/** A regproc's or regprocedure's text: a held name as written, an OID as the function's name (and argument types). */
function procText(v: unknown, withArgs: boolean): string {
  if (!heldAsOid(v)) return String(v);
  const r = BUILTIN_PROCS.get(Number(v));
  // (an OID no function has prints as the number, as PostgreSQL's regprocout does; 0 as `-`)
  if (!r) return Number(v) === 0 ? '-' : String(v);
  // (a name several functions share is qualified, as regprocout writes it: pg_catalog.abs)
  if (!withArgs) return (sharedNames().get(r[1]) ?? 0) > 1 ? `pg_catalog.${r[1]}` : r[1];
  const args = String(r[14] ?? '')
    .split(' ')
    .filter((t) => t !== '');
  return `${r[1]}(${args.map((t) => regtypeName(Number(t))).join(',')})`;
}

/**
 * A regprocedure written as text (`'abs(int4)'`, `to_regprocedure('pg_catalog.abs(int4)')`) as
 * PostgreSQL prints it, the function's name and its argument types' names (`abs(integer)`); it was
 * kept as written. A type's I/O function, which pg_proc does not list here, keeps its text.
 */
export function regprocedureText(written: string): string {
  const oid = regproc(written);
  return BUILTIN_PROCS.has(oid) ? procText(oid, true) : written;
}

function procCodec(oid: number, name: string, withArgs: boolean): Codec {
  return {
    oid,
    name,
    text: (v) => procText(v, withArgs),
    binary(v) {
      let n: number;
      try {
        n = heldAsOid(v) ? Number(v) : regproc(String(v));
      } catch {
        return notA(name, v); // (a type's I/O function: pg_proc does not list it)
      }
      const b = bytes(4);
      b.writeUInt32BE(n, 0);
      return b;
    },
    textOfBinary(raw) {
      expectLength(raw, 4, name);
      return procText(raw.readUInt32BE(0), withArgs);
    },
    fromBinary(raw) {
      expectLength(raw, 4, name);
      return raw.readUInt32BE(0);
    },
  };
}

registerCodec(procCodec(24, 'regproc', false));
registerCodec(procCodec(2202, 'regprocedure', true));
