// PostgreSQL types by OID: the OIDs Patina answers with, the pg_type rows of each (name, size,
// category), the names pg_typeof and the catalog show, and the OID of a SQLite declared type or of
// a value when nothing declares it.
import { OTHER_TYPE_NAMES, OTHER_TYPE_ROWS } from '../catalog/pg-type-rows';
import { arrayCodec } from './array';
import { type Codec, bytes, expectLength, notA } from './codec';
import { ARRAY_TYPES, arrayOidOf, registerCodec } from './registry';
import { relationNames } from './relation-names';

export const OID = {
  bool: 16,
  bytea: 17,
  char: 18,
  name: 19,
  int8: 20,
  int2: 21,
  int2vector: 22,
  int4: 23,
  regproc: 24,
  text: 25,
  oid: 26,
  tid: 27,
  xid: 28,
  cid: 29,
  json: 114,
  xml: 142,
  float4: 700,
  float8: 701,
  unknown: 705,
  varchar: 1043,
  bpchar: 1042,
  date: 1082,
  time: 1083,
  timestamp: 1114,
  timestamptz: 1184,
  interval: 1186,
  numeric: 1700,
  regclass: 2205,
  regtype: 2206,
  record: 2249,
  void: 2278,
  uuid: 2950,
  jsonb: 3802,
  tsvector: 3614,
  tsquery: 3615,
  jsonpath: 4072,
  regnamespace: 4089,
  textArray: 1009,
  oidArray: 1028,
  int2Array: 1005,
  int4Array: 1007,
  charArray: 1002,
  nameArray: 1003,
} as const;

/** Type rows of pg_type: oid, name, length, category. */
export const PG_TYPES: [number, string, number, string][] = [
  [16, 'bool', 1, 'B'],
  [17, 'bytea', -1, 'U'],
  [18, 'char', 1, 'S'],
  [19, 'name', 64, 'S'],
  [20, 'int8', 8, 'N'],
  [21, 'int2', 2, 'N'],
  [22, 'int2vector', -1, 'A'],
  [23, 'int4', 4, 'N'],
  [24, 'regproc', 4, 'N'],
  [25, 'text', -1, 'S'],
  [26, 'oid', 4, 'N'],
  [114, 'json', -1, 'U'],
  [142, 'xml', -1, 'U'],
  [700, 'float4', 4, 'N'],
  [701, 'float8', 8, 'N'],
  [705, 'unknown', -2, 'X'],
  [1042, 'bpchar', -1, 'S'],
  [1043, 'varchar', -1, 'S'],
  [1082, 'date', 4, 'D'],
  [1083, 'time', 8, 'D'],
  [1114, 'timestamp', 8, 'D'],
  [1184, 'timestamptz', 8, 'D'],
  [1186, 'interval', 16, 'T'],
  [1700, 'numeric', -1, 'N'],
  [2205, 'regclass', 4, 'N'],
  [2206, 'regtype', 4, 'N'],
  [2249, 'record', -1, 'P'],
  [2950, 'uuid', 16, 'U'],
  [3802, 'jsonb', -1, 'U'],
  [3614, 'tsvector', -1, 'U'],
  [3615, 'tsquery', -1, 'U'],
  [4072, 'jsonpath', -1, 'U'],
  [4089, 'regnamespace', 4, 'N'],
  [30, 'oidvector', -1, 'A'],
  ...ARRAY_TYPES.map(([oid, name]): [number, string, number, string] => [oid, name, -1, 'A']),
];

/** format_type(): the SQL name PostgreSQL shows for a type. */
export const TYPE_DISPLAY: Record<number, string> = {
  16: 'boolean',
  17: 'bytea',
  18: '"char"',
  19: 'name',
  20: 'bigint',
  21: 'smallint',
  23: 'integer',
  25: 'text',
  26: 'oid',
  114: 'json',
  142: 'xml',
  700: 'real',
  701: 'double precision',
  1042: 'character',
  1043: 'character varying',
  1082: 'date',
  1083: 'time without time zone',
  1266: 'time with time zone',
  1114: 'timestamp without time zone',
  1184: 'timestamp with time zone',
  1186: 'interval',
  1700: 'numeric',
  2950: 'uuid',
  3802: 'jsonb',
  3614: 'tsvector',
  3615: 'tsquery',
  4072: 'jsonpath',
  22: 'int2vector',
  24: 'regproc',
  2205: 'regclass',
  2206: 'regtype',
  2249: 'record',
  4089: 'regnamespace',
  1005: 'smallint[]',
  1009: 'text[]',
  1028: 'oid[]',
  1002: '"char"[]',
  1003: 'name[]',
  30: 'oidvector',
};
for (const [oid, , elem] of ARRAY_TYPES) TYPE_DISPLAY[oid] ??= `${TYPE_DISPLAY[elem] ?? 'text'}[]`;
TYPE_DISPLAY[2211] = 'regtype[]';

/** PostgreSQL's pseudo-types by OID, as format_type and regtype print them. */
export const PSEUDO_TYPE_NAMES: Record<number, string> = {
  2276: '"any"', 2277: 'anyarray', 2278: 'void', 2283: 'anyelement', 2776: 'anynonarray', 5077: 'anycompatible',
  5078: 'anycompatiblearray', 5079: 'anycompatiblenonarray', 2249: 'record', 2275: 'cstring', 2279: 'trigger',
  2280: 'language_handler', 2281: 'internal', 3838: 'event_trigger', 3115: 'fdw_handler', 325: 'index_am_handler',
  269: 'table_am_handler', 3310: 'tsm_handler', 3500: 'anyenum', 3831: 'anyrange', 4537: 'anymultirange',
  5080: 'anycompatiblerange', 4538: 'anycompatiblemultirange', 32: 'pg_ddl_command', 705: 'unknown',
}; // biome-ignore format: a table

/**
 * PostgreSQL's other types (inet, money, int4range, ...), which pg_type lists and Patina has no
 * values of (a cast to one is 0A000), by OID: their names as format_type prints them.
 */
export const OTHER_TYPE_DISPLAY: Readonly<Record<number, string>> = Object.fromEntries(OTHER_TYPE_NAMES);

/** A type's name as regtype and format_type print it (a table's row type too); the OID as text for a type PostgreSQL would not know either. */
export const regtypeName = (oid: number): string =>
  TYPE_DISPLAY[oid] ??
  PSEUDO_TYPE_NAMES[oid] ??
  OTHER_TYPE_DISPLAY[oid] ??
  relationNames().typeName(oid) ??
  String(oid);

// regtype: the type's name as text ('integer'; a value held as its OID, `'trigger'::regtype`, prints
// its name too), its OID in binary
const TYPE_OIDS = new Map(
  [...Object.entries(TYPE_DISPLAY), ...Object.entries(PSEUDO_TYPE_NAMES)].map(([oid, name]) => [name, Number(oid)]),
);
const heldAsOid = (v: unknown) => typeof v === 'number' || typeof v === 'bigint' || /^\d+$/.test(String(v));
const regtypeCodec: Codec = {
  oid: 2206,
  name: 'regtype',
  text: (v) => (heldAsOid(v) ? regtypeName(Number(v)) : String(v)),
  binary(v) {
    const oid = heldAsOid(v) ? Number(v) : TYPE_OIDS.get(String(v));
    if (oid === undefined) return notA('regtype', v);
    const b = bytes(4);
    b.writeUInt32BE(oid, 0);
    return b;
  },
  textOfBinary(raw) {
    expectLength(raw, 4, 'regtype');
    return regtypeName(raw.readUInt32BE(0));
  },
};
registerCodec(regtypeCodec);
/** regtype[] (pg_prepared_statements.parameter_types): `{integer,text}`. */
export const REGTYPE_ARRAY = 2211;
registerCodec(arrayCodec(REGTYPE_ARRAY, '_regtype', regtypeCodec));

/** The schemas' OIDs and names (pg_namespace's rows: catalog/local-db.ts). */
export const NAMESPACE_NAMES: Record<number, string> = {
  11: 'pg_catalog',
  2200: 'public',
  13000: 'information_schema',
};

// regnamespace: a schema's OID that prints as its name (`relnamespace::regnamespace` is its name already)
const namespaceOid = (v: unknown) =>
  heldAsOid(v) ? Number(v) : Object.entries(NAMESPACE_NAMES).find(([, n]) => n === String(v))?.[0];
registerCodec({
  oid: 4089,
  name: 'regnamespace',
  text: (v) => (heldAsOid(v) ? (NAMESPACE_NAMES[Number(v)] ?? String(v)) : String(v)),
  binary(v) {
    const oid = namespaceOid(v);
    if (oid === undefined) return notA('regnamespace', v);
    const b = bytes(4);
    b.writeUInt32BE(Number(oid), 0);
    return b;
  },
  textOfBinary(raw) {
    expectLength(raw, 4, 'regnamespace');
    const oid = raw.readUInt32BE(0);
    return NAMESPACE_NAMES[oid] ?? String(oid);
  },
});

/**
 * The OID of a column from its declared type. SQLite integers are 64-bit, so every integer type is
 * int8; the rest follow SQLite's affinity rules, with the date, time, JSON and UUID names kept.
 */
export function oidOfDeclType(decl: string | null | undefined): number {
  if (!decl) return OID.text;
  const t = decl.toLowerCase().replace(/\(.*$/, '').trim();
  if (t.endsWith('[]')) return arrayOidOf(oidOfDeclType(t.slice(0, -2))) ?? OID.text;
  if (t === '_regtype') return REGTYPE_ARRAY;
  if (t.startsWith('_')) return PG_TYPES.find((r) => r[1] === t)?.[0] ?? OID.text;
  switch (t) {
    case 'bool':
    case 'boolean':
      return OID.bool;
    case 'date':
      return OID.date;
    case 'time':
    case 'time without time zone':
      return OID.time;
    case 'timestamp':
    case 'datetime':
    case 'timestamp without time zone':
      return OID.timestamp;
    case 'timestamptz':
    case 'timestamp with time zone':
      return OID.timestamptz;
    case 'json':
      return OID.json;
    case 'jsonb':
      return OID.jsonb;
    case 'jsonpath':
      return OID.jsonpath;
    case 'tsvector':
      return OID.tsvector;
    case 'tsquery':
      return OID.tsquery;
    case 'uuid':
      return OID.uuid;
    case 'interval':
      return OID.interval;
    case 'varchar':
    case 'character varying':
      return OID.varchar;
    // char(n): PostgreSQL's bpchar, so the column is announced as it and printed padded to n
    // (the value is stored without its trailing spaces: values.ts pads it by the column's modifier)
    case 'bpchar':
    case 'char':
    case 'character':
      return OID.bpchar;
    // what a function that returns nothing returns (SELECT pg_notify(...))
    case 'void':
      return OID.void;
    // the catalog's own columns
    case 'oid':
    case 'regproc':
      return OID.oid;
    case 'regclass':
      return OID.regclass;
    case 'name':
      return OID.name;
    case '"char"':
    case 'char1':
      return OID.char;
    case 'int2vector':
      return OID.int2vector;
    case 'oidvector':
      return 30;
    case 'int8':
      return OID.int8;
    case 'int2':
      return OID.int2;
    case 'int4':
      return OID.int4;
    case 'float4':
      return OID.float4;
  }
  if (t.includes('int')) return OID.int8;
  if (t.includes('char') || t.includes('clob') || t.includes('text')) return OID.text;
  if (t.includes('blob') || t === 'bytea') return OID.bytea;
  if (t.includes('real') || t.includes('floa') || t.includes('doub')) return OID.float8;
  if (t.includes('numeric') || t.includes('decimal')) return OID.numeric;
  return OID.text;
}

/** The OID of a value when nothing declares it. */
export function oidOfValue(v: unknown): number {
  if (typeof v === 'bigint') return OID.int8;
  if (typeof v === 'number') return Number.isInteger(v) ? OID.int8 : OID.float8;
  if (v instanceof Uint8Array) return OID.bytea;
  return OID.text;
}

/** Type size PostgreSQL reports in RowDescription. */
export function typeSize(oid: number): number {
  // (a type Patina has no values of but reads off the catalog: a system column's xid, cid, tid)
  const row = PG_TYPES.find((r) => r[0] === oid) ?? OTHER_TYPE_ROWS.find((r) => r[0] === oid);
  return row ? row[2] : -1;
}

/** The modifier of a declared `numeric(p, s)`, `varchar(n)` or `char(n)` (n as precision, scale 0); null for none. */
export function declaredModifier(
  decl: string | null | undefined,
): { type: 'numeric' | 'varchar' | 'char'; precision: number; scale: number } | null {
  if (!decl) return null;
  // a plain CHAR or CHARACTER is char(1), as PostgreSQL reads it (bpchar alone has no limit)
  if (/^\s*(char|character)\s*$/i.test(decl)) return { type: 'char', precision: 1, scale: 0 };
  const m =
    /^\s*(numeric|decimal|varchar|character varying|char|character|bpchar)\s*\(\s*(\d+)\s*(?:,\s*(\d+)\s*)?\)\s*$/i.exec(
      decl,
    );
  if (!m) return null;
  const kind = m[1].toLowerCase();
  const type = kind === 'numeric' || kind === 'decimal' ? 'numeric' : /var/.test(kind) ? 'varchar' : 'char';
  return { type, precision: Number(m[2]), scale: Number(m[3] ?? 0) };
}

/** The fractional digits declared for TIMESTAMP(p), TIMESTAMPTZ(p) or TIME(p) (0 to 6); null for none. */
export function timePrecisionOf(decl: string | null | undefined): number | null {
  if (!decl) return null;
  const m = /^\s*(?:timestamptz|timestamp|time)\s*\(\s*(\d+)\s*\)\s*$/i.exec(decl);
  return m ? Math.min(6, Number(m[1])) : null;
}

/** The types whose modifier is a number of fractional digits (typmodOfDeclType). */
export const TIME_TYPES: ReadonlySet<number> = new Set([OID.timestamp, OID.timestamptz, OID.time]);

/**
 * The type modifier PostgreSQL keeps for a declared type: numeric(p, s) and decimal(p, s) as
 * ((p << 16) | s) + 4, varchar(n) and char(n) as n + 4, timestamp(p), timestamptz(p) and time(p)
 * as p; -1 when the declaration has none.
 */
export function typmodOfDeclType(decl: string | null | undefined): number {
  const p = timePrecisionOf(decl);
  if (p !== null) return p;
  const m = declaredModifier(decl);
  if (!m) return -1;
  const n = m.precision;
  if (m.type === 'numeric') {
    if (n < 1 || n > 1000 || m.scale > n) return -1;
    return ((n << 16) | m.scale) + 4;
  }
  return n >= 1 && n <= 10485760 ? n + 4 : -1;
}
