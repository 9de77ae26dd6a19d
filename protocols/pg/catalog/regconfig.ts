// regconfig values as PostgreSQL reads, prints and sends them: a text search configuration's OID
// ('english'::regconfig is 13164, `::regconfig::oid` says so and `oid = 'simple'::regconfig` finds
// pg_ts_config's row), printed as its name, its OID in binary. A name written in the statement is
// looked up once by the translation (translate/casts.ts): 'English' and 'pg_catalog.english' are
// english, a name that is none 42704 (the cast kept the text as written and failed nothing). The
// text search functions take the OID (src/engine/text-search/configs.ts).
import { builtInConfigName } from '../../../src/engine/text-search/configs';
import { pgError } from '../sqlstate';
import { bytes, expectLength, notA } from '../types/codec';
import { registerCodec } from '../types/registry';
import { TS_CONFIGS } from './text-search-rows';

export const REGCONFIG = 3734;

const heldAsOid = (v: unknown) => typeof v === 'number' || typeof v === 'bigint' || /^\d+$/.test(String(v));

/** A configuration's name by OID (the OID as text for one pg_ts_config has not, as regconfigout prints it). */
export const regconfigName = (oid: number): string => TS_CONFIGS.find((c) => c[0] === oid)?.[1] ?? String(oid);

/** regconfig's input: a configuration's OID by its name, maybe qualified by pg_catalog (or an OID as it is); 42704 for none. */
export function regconfigOid(input: string): number {
  if (/^\s*\d+\s*$/.test(input)) return Number(input);
  const name = builtInConfigName(input);
  const row = TS_CONFIGS.find((c) => c[1] === name);
  if (row) return row[0];
  if (name !== null)
    throw pgError('0A000', `text search configuration "${name}" is not supported: Patina has simple and english`);
  throw pgError('42704', `text search configuration "${input}" does not exist`);
}

registerCodec({
  oid: REGCONFIG,
  name: 'regconfig',
  text: (v) => (heldAsOid(v) ? regconfigName(Number(v)) : String(v)),
  binary(v) {
    const oid = heldAsOid(v) ? Number(v) : TS_CONFIGS.find((c) => c[1] === builtInConfigName(String(v)))?.[0];
    if (oid === undefined) return notA('regconfig', v);
    const b = bytes(4);
    b.writeUInt32BE(oid, 0);
    return b;
  },
  textOfBinary(raw) {
    expectLength(raw, 4, 'regconfig');
    return regconfigName(raw.readUInt32BE(0));
  },
});
