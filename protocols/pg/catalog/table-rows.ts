// The catalog rows of one schema table: pg_class, pg_attribute, pg_attrdef, pg_index, pg_indexes,
// pg_constraint and information_schema's tables, columns and constraints, as PostgreSQL 15 holds
// them for the same table (LocalDb fills them at start and after every reload).
import { arrayText } from '../../../src/engine/pg-functions';
import type { TableDef } from '../../../src/engine/schema/model';
import { OID, PG_TYPES, TIME_TYPES, TYPE_DISPLAY, oidOfDeclType, typeSize, typmodOfDeclType } from '../types/oids';
import { pgDefaultExpr } from './column-defaults';
import { typeAlign, typeStorage } from './type-storage';
import { defaultBtreeClass, typeCollation } from './index-classes';

/** The public schema's namespace oid. */
export const NS_PUBLIC = 2200;

/** Where a table's rows go, and the oids and definitions the catalog functions look up. */
export interface CatalogRows {
  /** A stable oid for a key (`table:t`, `index:t.i`, ...). */
  oid(key: string): number;
  ins(table: string, row: Record<string, unknown>): void;
  ischema(table: string, row: Record<string, unknown>): void;
  user: string;
  relNames: Map<number, string>;
  indexDefs: Map<number, string>;
  constraintDefs: Map<number, string>;
  /** The tables' row types and their array types, by OID: their names as regtype prints them. */
  typeNames: Map<number, string>;
  /** Each relation's table and SQLite btree (null: a rowid primary key, which is the table's own btree). */
  btrees: Map<number, RelationBtree>;
}

/** Where a pg_class row's data lives in the SQLite file. */
export interface RelationBtree {
  table: string;
  btree: string | null;
  index: boolean;
}

/**
 * The composite type PostgreSQL makes for every table (typtype 'c', typrelid the table, named as
 * it), and its array type `_t`, with PostgreSQL 15's rows (record_in, array_in, ...): pgjdbc's
 * getUDTs, `'t'::regtype` and type loaders read them. The row type's OID.
 */
function fillRowType(table: string, relid: number, out: CatalogRows): number {
  // (the array's OID first, as PostgreSQL takes them)
  const array = out.oid(`arraytype:${table}`);
  const row = out.oid(`rowtype:${table}`);
  const common = { typnamespace: NS_PUBLIC, typlen: -1, typalign: 'd', typstorage: 'x' };
  out.ins('pg_type', {
    ...common,
    oid: row,
    typname: table,
    typtype: 'c',
    typcategory: 'C',
    typrelid: relid,
    typarray: array,
    typinput: 'record_in',
    typoutput: 'record_out',
    typreceive: 'record_recv',
    typsend: 'record_send',
  });
  out.ins('pg_type', {
    ...common,
    oid: array,
    typname: `_${table}`.slice(0, 63),
    typcategory: 'A',
    typelem: row,
    typinput: 'array_in',
    typoutput: 'array_out',
    typreceive: 'array_recv',
    typsend: 'array_send',
    typanalyze: 'array_typanalyze',
    typsubscript: 'array_subscript_handler',
  });
  const name = /^[a-z_][a-z0-9_$]*$/.test(table) ? table : `"${table.replace(/"/g, '""')}"`;
  out.typeNames.set(row, name);
  out.typeNames.set(array, `${name}[]`);
  return row;
}

/** Inserts the catalog rows of table `t`. */
export function fillTable(t: TableDef, out: CatalogRows): void {
  const { ins, ischema, user } = out;
  const oid = out.oid(`table:${t.name}`);
  out.relNames.set(oid, t.name);
  const rowType = fillRowType(t.name, oid, out);
  out.btrees.set(oid, { table: t.name, btree: t.name, index: false });
  const attnum = (col: string) => t.columns.findIndex((c) => c.name === col) + 1;
  interface Ix {
    name: string;
    unique: boolean;
    primary: boolean;
    columns: string[];
    descending?: boolean[];
    constraint: 'p' | 'u' | null;
    btree: string | null;
  }
  const indexes: Ix[] = [];
  const pkIndex = t.indexes.find((i) => i.origin === 'pk');
  if (t.primaryKey.length > 0)
    indexes.push({
      name: `${t.name}_pkey`,
      unique: true,
      primary: true,
      columns: t.primaryKey,
      constraint: 'p',
      btree: pkIndex?.name ?? null,
    });
  for (const i of t.indexes) {
    if (i === pkIndex) continue;
    const name = i.origin === 'u' ? `${t.name}_${i.columns.join('_')}_key` : i.name;
    indexes.push({
      name,
      unique: i.unique,
      primary: false,
      columns: i.columns,
      descending: i.descending,
      constraint: i.origin === 'u' ? 'u' : null,
      btree: i.name,
    });
  }
  ins('pg_class', {
    oid,
    relname: t.name,
    relnamespace: NS_PUBLIC,
    reltype: rowType,
    relam: 2,
    relkind: 'r',
    relnatts: t.columns.length,
    relhasindex: indexes.length > 0,
  });
  ins('pg_tables', { schemaname: 'public', tablename: t.name, tableowner: user, hasindexes: indexes.length > 0 });
  ischema('tables', {
    table_catalog: 'patina',
    table_schema: 'public',
    table_name: t.name,
    table_type: 'BASE TABLE',
    is_insertable_into: 'YES',
    is_typed: 'NO',
  });
  t.columns.forEach((c, k) => {
    const typ = oidOfDeclType(c.type);
    const typmod =
      typ === OID.numeric || typ === OID.varchar || typ === OID.bpchar || TIME_TYPES.has(typ)
        ? typmodOfDeclType(c.type)
        : -1;
    const notNull = c.notNull || c.pk > 0;
    ins('pg_attribute', {
      ...typeAttributes(typ),
      attrelid: oid,
      attname: c.name,
      attnum: k + 1,
      atttypmod: typmod,
      // an array column's dimensions as declared (`TEXT[]` 1), which PHP's pg_meta_data reports
      attndims: c.type.split('[').length - 1,
      attnotnull: notNull,
      atthasdef: c.defaultSql !== null,
      attcollation: typeCollation(typ),
    });
    if (notNull) notNullCheck(out, 'public', NS_PUBLIC, t.name, oid, k + 1, c.name);
    if (c.defaultSql !== null) {
      const adoid = out.oid(`default:${t.name}.${c.name}`);
      ins('pg_attrdef', { oid: adoid, adrelid: oid, adnum: k + 1, adbin: pgDefaultExpr(c.defaultSql, typ) });
    }
    const display = TYPE_DISPLAY[typ] ?? 'text';
    ischema('columns', {
      table_catalog: 'patina',
      table_schema: 'public',
      table_name: t.name,
      column_name: c.name,
      ordinal_position: k + 1,
      column_default: c.defaultSql === null ? null : pgDefaultExpr(c.defaultSql, typ),
      is_nullable: notNull ? 'NO' : 'YES',
      // PostgreSQL's information_schema says ARRAY for every array type (udt_name names it: _text)
      data_type: display.endsWith('[]') ? 'ARRAY' : display,
      udt_catalog: 'patina',
      udt_schema: 'pg_catalog',
      udt_name: PG_TYPES.find((r) => r[0] === typ)?.[1] ?? 'text',
      character_maximum_length: (typ === OID.varchar || typ === OID.bpchar) && typmod > 0 ? typmod - 4 : null,
      numeric_precision:
        typ === OID.int8 ? 64 : typ === OID.float8 ? 53 : typ === OID.numeric && typmod > 0 ? (typmod - 4) >> 16 : null,
      numeric_precision_radix: typ === OID.int8 || typ === OID.float8 ? 2 : typ === OID.numeric ? 10 : null,
      numeric_scale: typ === OID.int8 ? 0 : typ === OID.numeric && typmod > 0 ? (typmod - 4) & 0xffff : null,
      // fractional digits of a time type (6 when none is declared), 0 for a date
      datetime_precision: TIME_TYPES.has(typ) ? (typmod >= 0 ? typmod : 6) : typ === OID.date ? 0 : null,
      dtd_identifier: String(k + 1),
      is_self_referencing: 'NO',
      is_identity: 'NO',
      is_generated: 'NEVER',
      is_updatable: 'YES',
    });
  });
  for (const ix of indexes) {
    const ioid = out.oid(`index:${t.name}.${ix.name}`);
    out.btrees.set(ioid, { table: t.name, btree: ix.btree, index: true });
    fillIndex(out, 'public', NS_PUBLIC, t.name, oid, {
      oid: ioid,
      name: ix.name,
      keys: ix.columns.map(attnum),
      columns: ix.columns.map((col) => ({ name: col, type: t.columns.find((x) => x.name === col)?.type })),
      descending: ix.descending,
      unique: ix.unique,
      primary: ix.primary,
      constraintOid: ix.constraint ? out.oid(`constraint:${t.name}.${ix.name}`) : null,
      def: `CREATE ${ix.unique ? 'UNIQUE ' : ''}INDEX ${ix.name} ON public.${t.name} USING btree (${ix.columns.map((c, k) => (ix.descending?.[k] ? `${c} DESC` : c)).join(', ')})`,
    });
  }
}

/** pg_attribute's fields that follow from a column's type: its OID, length, storage, alignment, by-value. */
export function typeAttributes(typ: number) {
  const len = typeSize(typ);
  return {
    atttypid: typ,
    attlen: len,
    attstorage: typeStorage(typ, len),
    attalign: typeAlign(typ),
    attbyval: len > 0 && len <= 8,
  };
}

/** An index of a table, as fillIndex lists it. */
export interface IndexRows {
  oid: number;
  name: string;
  /** The table's attnums of its keys, and the key columns' names and declared types. */
  keys: number[];
  columns: { name: string; type: string | null | undefined }[];
  /**
   * Each key's operator class and collation (pg_index's indclass, indcollation); absent: its type's
   * default btree class and collation (index-classes.ts).
   */
  classes?: number[];
  collations?: number[];
  /** Which key columns are descending (absent: none): indoption 3, DESC and so NULLS FIRST as in PostgreSQL. */
  descending?: boolean[];
  unique: boolean;
  primary: boolean;
  /** The OID of the primary key or unique constraint it backs; null for none. */
  constraintOid: number | null;
  /** What pg_get_indexdef says of it. */
  def: string;
}

/**
 * The catalog rows of one index of table `table` (OID `tableOid`, in `schema`): pg_class, its own
 * columns in pg_attribute (psql's `\d index` and pg_dump's statistics query read them), pg_index,
 * pg_indexes, and the primary key or unique constraint it backs in pg_constraint and information_schema.
 */
export function fillIndex(
  out: CatalogRows,
  schema: string,
  nsOid: number,
  table: string,
  tableOid: number,
  ix: IndexRows,
): void {
  const { ins, ischema } = out;
  out.relNames.set(ix.oid, ix.name);
  out.indexDefs.set(ix.oid, ix.def);
  ins('pg_class', {
    oid: ix.oid,
    relname: ix.name,
    relnamespace: nsOid,
    reltype: 0,
    relam: 403,
    relkind: 'i',
    relnatts: ix.keys.length,
    relpages: 1, // a btree's metapage, as an empty PostgreSQL index has (pgjdbc's getIndexInfo reads it)
    reltuples: 0,
  });
  const types = ix.columns.map((c) => oidOfDeclType(c.type));
  const collations = ix.collations ?? types.map(typeCollation);
  const classes = ix.classes ?? types.map(defaultBtreeClass);
  ix.columns.forEach((c, k) => {
    ins('pg_attribute', {
      ...typeAttributes(types[k]),
      attrelid: ix.oid,
      attname: c.name,
      attnum: k + 1,
      attstattarget: -1,
      attcollation: collations[k],
    });
  });
  ins('pg_index', {
    indexrelid: ix.oid,
    indrelid: tableOid,
    indnatts: ix.keys.length,
    indnkeyatts: ix.keys.length,
    indisunique: ix.unique,
    indisprimary: ix.primary,
    indkey: ix.keys.join(' '),
    indoption: ix.keys.map((_, k) => (ix.descending?.[k] ? 3 : 0)).join(' '),
    indcollation: collations.join(' '),
    indclass: classes.join(' '),
  });
  ins('pg_indexes', { schemaname: schema, tablename: table, indexname: ix.name, indexdef: ix.def });
  if (ix.constraintOid === null) return;
  const ctype = ix.primary ? 'PRIMARY KEY' : 'UNIQUE';
  const names = ix.columns.map((c) => c.name);
  out.constraintDefs.set(ix.constraintOid, `${ctype} (${names.join(', ')})`);
  ins('pg_constraint', {
    oid: ix.constraintOid,
    conname: ix.name,
    connamespace: nsOid,
    contype: ix.primary ? 'p' : 'u',
    conrelid: tableOid,
    conindid: ix.oid,
    conkey: arrayText(ix.keys),
  });
  const where = { table_catalog: 'patina', table_schema: schema, table_name: table };
  const constraint = { constraint_catalog: 'patina', constraint_schema: schema, constraint_name: ix.name };
  ischema('table_constraints', {
    ...constraint,
    ...where,
    constraint_type: ctype,
    is_deferrable: 'NO',
    initially_deferred: 'NO',
    enforced: 'YES',
    nulls_distinct: ix.primary ? null : 'YES',
  });
  names.forEach((col, k) => {
    ischema('key_column_usage', { ...constraint, ...where, column_name: col, ordinal_position: k + 1 });
    ischema('constraint_column_usage', { ...where, column_name: col, ...constraint });
  });
}

/**
 * information_schema's CHECK constraint of a NOT NULL column, as PostgreSQL lists one per column
 * (`2200_16385_1_not_null`, `id IS NOT NULL`; it is no pg_constraint row in PostgreSQL 15 either).
 */
export function notNullCheck(
  out: CatalogRows,
  schema: string,
  nsOid: number,
  table: string,
  relOid: number,
  attnum: number,
  column: string,
): void {
  const name = `${nsOid}_${relOid}_${attnum}_not_null`;
  out.ischema('table_constraints', {
    constraint_catalog: 'patina',
    constraint_schema: schema,
    constraint_name: name,
    table_catalog: 'patina',
    table_schema: schema,
    table_name: table,
    constraint_type: 'CHECK',
    is_deferrable: 'NO',
    initially_deferred: 'NO',
    enforced: 'YES',
  });
  out.ischema('check_constraints', {
    constraint_catalog: 'patina',
    constraint_schema: schema,
    constraint_name: name,
    check_clause: `${column} IS NOT NULL`,
  });
}
