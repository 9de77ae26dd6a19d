// Every codec by type OID: a lookup in a plain array, cheap enough for each cell of each row.
import { arrayCodec } from './array';
import type { Codec } from './codec';
import { dateCodec, intervalCodec, timeCodec, timestampCodec, timestamptzCodec } from './datetime';
import { float4Codec, float8Codec } from './float';
import { boolCodec, int2Codec, int4Codec, int8Codec, oidCodec } from './integer';
import { numericCodec } from './numeric';
import { relationNames } from './relation-names';
import { timetzCodec } from './timetz';
import {
  bpcharCodec,
  byteaCodec,
  charCodec,
  jsonCodec,
  jsonbCodec,
  nameCodec,
  textCodec,
  unknownCodec,
  uuidCodec,
  varcharCodec,
  xmlCodec,
} from './text';
import { tsqueryCodec, tsvectorCodec } from './text-search';
import { cidCodec, tidCodec, xidCodec } from './system-types';

/** Base types and the OIDs of their array types, as pg_type has them. */
const BASES: [Codec, number, string][] = [
  [boolCodec, 1000, '_bool'],
  [byteaCodec, 1001, '_bytea'],
  [charCodec, 1002, '_char'],
  [nameCodec, 1003, '_name'],
  [int2Codec, 1005, '_int2'],
  [int4Codec, 1007, '_int4'],
  [textCodec, 1009, '_text'],
  [oidCodec, 1028, '_oid'],
  [bpcharCodec, 1014, '_bpchar'],
  [varcharCodec, 1015, '_varchar'],
  [int8Codec, 1016, '_int8'],
  [float4Codec, 1021, '_float4'],
  [float8Codec, 1022, '_float8'],
  [jsonCodec, 199, '_json'],
  [xmlCodec, 143, '_xml'],
  [dateCodec, 1182, '_date'],
  [timeCodec, 1183, '_time'],
  [timetzCodec, 1270, '_timetz'],
  [timestampCodec, 1115, '_timestamp'],
  [timestamptzCodec, 1185, '_timestamptz'],
  [intervalCodec, 1187, '_interval'],
  [numericCodec, 1231, '_numeric'],
  [uuidCodec, 2951, '_uuid'],
  [jsonbCodec, 3807, '_jsonb'],
];

const CODECS: Codec[] = [];
for (const [c, arrayOid, arrayName] of BASES) {
  CODECS[c.oid] = c;
  CODECS[arrayOid] = arrayCodec(arrayOid, arrayName, c);
}
CODECS[unknownCodec.oid] = unknownCodec;
CODECS[tsvectorCodec.oid] = tsvectorCodec;
CODECS[tsqueryCodec.oid] = tsqueryCodec;
// void: what a function that returns nothing returns (pg_advisory_lock, pg_sleep, pg_notify), printed
// empty, and empty in binary as PostgreSQL's void_send
CODECS[2278] = {
  oid: 2278,
  name: 'void',
  text: () => '',
  binary: () => Buffer.alloc(0),
  textOfBinary: () => '',
};
// regproc columns of the catalog hold OIDs
CODECS[24] = { ...oidCodec, oid: 24, name: 'regproc' };
// a regclass is a relation's OID that prints as its name (a name made text before it is kept as it is)
const regclassOid = (v: unknown) =>
  typeof v === 'string' && !/^\d+$/.test(v) ? (relationNames().oid(v) ?? v) : typeof v === 'bigint' ? Number(v) : v;
CODECS[2205] = {
  ...oidCodec,
  oid: 2205,
  name: 'regclass',
  text: (v) => {
    const o = regclassOid(v);
    // (no relation, OID 0, prints as `-`, as PostgreSQL's regclassout does: pg_type.typrelid of a type not a row's)
    return typeof o === 'number' ? (o === 0 ? '-' : (relationNames().name(o) ?? String(o))) : String(o);
  },
  binary: (v) => oidCodec.binary(regclassOid(v)),
  textOfBinary: (raw) => {
    const o = oidCodec.fromBinary?.(raw) as number;
    return o === 0 ? '-' : (relationNames().name(o) ?? String(o));
  },
};
// the system columns' types (a catalog table's xmin, cmin, ctid)
for (const c of [xidCodec, cidCodec, tidCodec]) CODECS[c.oid] = c;
CODECS[22] = arrayCodec(22, 'int2vector', int2Codec, true);
CODECS[30] = arrayCodec(30, 'oidvector', oidCodec, true);

/** Adds a codec defined where the type names are (regtype, in oids.ts, which imports this module). */
export function registerCodec(c: Codec): void {
  CODECS[c.oid] = c;
}

/** The codec of a type, or undefined when it has none (then its values go as text). */
export function codecOf(oid: number): Codec | undefined {
  return CODECS[oid];
}

/** The array types with codecs: OID, name, element OID (for pg_type). */
export const ARRAY_TYPES: [number, string, number][] = [
  ...BASES.map(([c, oid, name]): [number, string, number] => [oid, name, c.oid]),
];

const ARRAY_OF: Record<number, number> = Object.fromEntries(BASES.map(([c, oid]) => [c.oid, oid]));

/** The OID of the array type of an element type, if it has one. */
export function arrayOidOf(elemOid: number): number | undefined {
  return ARRAY_OF[elemOid];
}

const ELEMENT_OF: Record<number, number> = Object.fromEntries(BASES.map(([c, oid]) => [oid, c.oid]));

/** The element type of an array type, if it is one. */
export function elementOidOf(arrayOid: number): number | undefined {
  return ELEMENT_OF[arrayOid];
}
