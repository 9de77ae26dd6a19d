// pg_index's indclass and indcollation of a key column: the default btree operator class of its
// type and its collation, as PostgreSQL 15 fills them for an index made with neither named (they
// were zeros: pgAdmin's and DBeaver's index properties join pg_opclass on indclass, SQLAlchemy's
// reflection compares it with the default to find non-default operator classes), and those
// classes' rows of pg_opclass and pg_opfamily (both were empty).
import { OTHER_TYPE_ROWS, PG_TYPE_ROWS } from './pg-type-rows';

/**
 * PostgreSQL 15's default btree operator classes (pg_opclass, opcdefault) of the types Patina's
 * tables and catalog indexes have, as [oid, opcname, opcfamily, opfname, opcintype, opckeytype].
 */
const BTREE_CLASSES: [number, string, number, string, number, number][] = [
  [10003, 'bool_ops', 424, 'bool_ops', 16, 0],
  [10006, 'bytea_ops', 428, 'bytea_ops', 17, 0],
  [10007, 'char_ops', 429, 'char_ops', 18, 0],
  [10028, 'name_ops', 1994, 'text_ops', 19, 2275],
  [3124, 'int8_ops', 1976, 'integer_ops', 20, 0],
  [1979, 'int2_ops', 1976, 'integer_ops', 21, 0],
  [1978, 'int4_ops', 1976, 'integer_ops', 23, 0],
  [3126, 'text_ops', 1994, 'text_ops', 25, 0],
  [1981, 'oid_ops', 1989, 'oid_ops', 26, 0],
  [10032, 'oidvector_ops', 1991, 'oidvector_ops', 30, 0],
  [10012, 'float4_ops', 1970, 'float_ops', 700, 0],
  [3123, 'float8_ops', 1970, 'float_ops', 701, 0],
  [10004, 'bpchar_ops', 426, 'bpchar_ops', 1042, 0],
  [3122, 'date_ops', 434, 'datetime_ops', 1082, 0],
  [10038, 'time_ops', 1996, 'time_ops', 1083, 0],
  [3128, 'timestamp_ops', 434, 'datetime_ops', 1114, 0],
  [3127, 'timestamptz_ops', 434, 'datetime_ops', 1184, 0],
  [10022, 'interval_ops', 1982, 'interval_ops', 1186, 0],
  [10041, 'timetz_ops', 2000, 'timetz_ops', 1266, 0],
  [3125, 'numeric_ops', 1988, 'numeric_ops', 1700, 0],
  [10000, 'array_ops', 397, 'array_ops', 2277, 0],
  [10065, 'uuid_ops', 2968, 'uuid_ops', 2950, 0],
  [10067, 'pg_lsn_ops', 3253, 'pg_lsn_ops', 3220, 0],
  [10071, 'tsvector_ops', 3626, 'tsvector_ops', 3614, 0],
  [10074, 'tsquery_ops', 3683, 'tsquery_ops', 3615, 0],
  [10088, 'jsonb_ops', 4033, 'jsonb_ops', 3802, 0],
];
/** array_ops, every array type's. */
const ARRAY_OPS = 10000;
/** The default class by input type, with the types binary-coercible to another's taking its (varchar text_ops, regproc oid_ops). */
const DEFAULT_BTREE_CLASS = new Map<number, number>([
  ...BTREE_CLASSES.filter((c) => c[0] !== ARRAY_OPS).map((c): [number, number] => [c[4], c[0]]),
  [1043, 3126],
  [24, 1981],
  [2205, 1981],
  [2206, 1981],
]);

/** Inserts those classes and their families (pg_opclass, pg_opfamily; PostgreSQL's others are not listed). */
export function fillBtreeClasses(ins: (table: string, row: Record<string, unknown>) => void): void {
  const families = new Set<number>();
  for (const [oid, opcname, opcfamily, opfname, opcintype, opckeytype] of BTREE_CLASSES) {
    ins('pg_opclass', {
      oid,
      opcmethod: 403,
      opcname,
      opcnamespace: 11,
      opcowner: 10,
      opcfamily,
      opcintype,
      opcdefault: true,
      opckeytype,
    });
    if (families.has(opcfamily)) continue;
    families.add(opcfamily);
    ins('pg_opfamily', { oid: opcfamily, opfmethod: 403, opfname, opfnamespace: 11, opfowner: 10 });
  }
}

let types: Map<number, { category: string; collation: number }> | null = null;
const typeRow = (typ: number) => {
  types ??= new Map([...PG_TYPE_ROWS, ...OTHER_TYPE_ROWS].map((r) => [r[0], { category: r[5], collation: r[20] }]));
  return types.get(typ);
};

/** A column's collation as PostgreSQL gives one of type `typ` with none named (pg_type's typcollation: text 100, name 950). */
export const typeCollation = (typ: number): number => typeRow(typ)?.collation ?? 0;

/** The default btree operator class of type `typ` (0: it has none, as json). */
export const defaultBtreeClass = (typ: number): number =>
  DEFAULT_BTREE_CLASS.get(typ) ?? (typeRow(typ)?.category === 'A' ? ARRAY_OPS : 0);
