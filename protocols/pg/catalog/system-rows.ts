// The catalog rows of the system relations themselves: each table and view of pg_catalog and
// information_schema in pg_class, pg_attribute, pg_tables, pg_views, information_schema.tables and
// columns, and the catalog tables' indexes with their primary key and unique constraints, as
// PostgreSQL 15 lists them (pg-catalog-relations.ts, its OIDs and names), so that psql's \dS and
// \d pg_class, pgAdmin's Catalogs, DBeaver's system objects and pgjdbc's getTables with no schema
// find them. Each column is listed with the type its values have on the wire here (catalog/tables.ts:
// text where PostgreSQL's is one Patina has no type of, regproc or pg_node_tree).
import { arrayText } from '../../../src/engine/pg-functions';
import { OID, PG_TYPES, TYPE_DISPLAY, oidOfDeclType, typeSize } from '../types/oids';
import { PG_CATALOG_RELATIONS } from './pg-catalog-relations';
import { type CatalogRows, notNullCheck } from './table-rows';
import { typeAlign, typeStorage } from './type-storage';

/** Where the system relations' rows go; `columns` gives a relation's columns and declared types, in order. */
export interface SystemRows extends CatalogRows {
  columns(schema: string, relation: string): { name: string; type: string }[];
  namespaces: { pg_catalog: number; information_schema: number };
}

/** Inserts the catalog rows of every system relation the local catalog has. */
export function fillSystemRelations(out: SystemRows): void {
  const { ins, ischema, user } = out;
  // the CHECK constraints of information_schema's own domains, as PostgreSQL lists them
  for (const [name, clause] of [
    ['cardinal_number_domain_check', '((VALUE >= 0))'],
    ['yes_or_no_check', "(((VALUE)::text = ANY ((ARRAY['YES'::character varying, 'NO'::character varying])::text[])))"],
  ])
    ischema('check_constraints', {
      constraint_catalog: 'patina',
      constraint_schema: 'information_schema',
      constraint_name: name,
      check_clause: clause,
    });
  for (const [qualified, oid, kind, notNull, collations, indexes] of PG_CATALOG_RELATIONS) {
    const collation = new Map(collations);
    const [schema, name] = qualified.split('.') as ['pg_catalog' | 'information_schema', string];
    const columns = out.columns(schema, name);
    if (columns.length === 0) continue;
    const table = kind === 'r';
    // (information_schema is not on the search path: its names print qualified, as PostgreSQL's regclass)
    out.relNames.set(oid, schema === 'pg_catalog' ? name : qualified);
    ins('pg_class', {
      oid,
      relname: name,
      relnamespace: out.namespaces[schema],
      reltype: 0,
      relam: table ? 2 : 0,
      relkind: kind,
      relnatts: columns.length,
      relhasindex: indexes.length > 0,
      // (PostgreSQL's catalog tables have no replica identity; psql's \d+ says so for no other schema)
      relreplident: schema === 'pg_catalog' ? 'n' : 'd',
    });
    if (table)
      ins('pg_tables', { schemaname: schema, tablename: name, tableowner: user, hasindexes: indexes.length > 0 });
    else ins('pg_views', { schemaname: schema, viewname: name, viewowner: user });
    ischema('tables', {
      table_catalog: 'patina',
      table_schema: schema,
      table_name: name,
      table_type: table ? 'BASE TABLE' : 'VIEW',
      is_insertable_into: table ? 'YES' : 'NO',
      is_typed: 'NO',
    });
    columns.forEach((c, k) => {
      const typ = oidOfDeclType(c.type);
      const nn = notNull.includes(k + 1);
      ins('pg_attribute', {
        attrelid: oid,
        attname: c.name,
        atttypid: typ,
        attlen: typeSize(typ),
        attnum: k + 1,
        atttypmod: -1,
        attnotnull: nn,
        atthasdef: false,
        attstorage: typeStorage(typ, typeSize(typ)),
        attalign: typeAlign(typ),
        attbyval: typeSize(typ) > 0 && typeSize(typ) <= 8,
        // PostgreSQL's (C for most catalog text); none for a column text here only (regproc, ...)
        attcollation: collation.get(k + 1) ?? 0,
      });
      if (nn && table) notNullCheck(out, schema, out.namespaces[schema], name, oid, k + 1, c.name);
      const display = TYPE_DISPLAY[typ] ?? 'text';
      ischema('columns', {
        table_catalog: 'patina',
        table_schema: schema,
        table_name: name,
        column_name: c.name,
        ordinal_position: k + 1,
        is_nullable: nn ? 'NO' : 'YES',
        data_type: display.endsWith('[]') ? 'ARRAY' : display,
        udt_catalog: 'patina',
        udt_schema: 'pg_catalog',
        udt_name: PG_TYPES.find((r) => r[0] === typ)?.[1] ?? 'text',
        dtd_identifier: String(k + 1),
        is_self_referencing: 'NO',
        is_identity: 'NO',
        is_generated: 'NEVER',
        is_updatable: table ? 'YES' : 'NO',
      });
    });
    for (const [ioid, iname, keys, unique, primary, conOid, def] of indexes) {
      out.relNames.set(ioid, iname);
      out.indexDefs.set(ioid, def);
      ins('pg_class', {
        oid: ioid,
        relname: iname,
        relnamespace: out.namespaces[schema],
        reltype: 0,
        relam: 403,
        relkind: 'i',
        relnatts: keys.length,
        relpages: 1, // a btree's metapage, as pgjdbc's getIndexInfo reads PostgreSQL's of an empty catalog
        reltuples: 0,
      });
      keys.forEach((attnum, k) => {
        const c = columns[attnum - 1];
        const typ = oidOfDeclType(c?.type);
        ins('pg_attribute', {
          attrelid: ioid,
          attname: c?.name ?? '',
          atttypid: typ,
          attlen: typeSize(typ),
          attnum: k + 1,
          attstattarget: -1,
          attstorage: typeStorage(typ, typeSize(typ)),
          attalign: typeAlign(typ),
          attbyval: typeSize(typ) > 0 && typeSize(typ) <= 8,
          attcollation: typ === OID.text || typ === OID.varchar ? 100 : 0,
        });
      });
      ins('pg_index', {
        indexrelid: ioid,
        indrelid: oid,
        indnatts: keys.length,
        indnkeyatts: keys.length,
        indisunique: unique,
        indisprimary: primary,
        indkey: keys.join(' '),
        indoption: keys.map(() => 0).join(' '),
        indcollation: keys.map(() => 0).join(' '),
        indclass: keys.map(() => 0).join(' '),
      });
      ins('pg_indexes', { schemaname: schema, tablename: name, indexname: iname, indexdef: def });
      if (conOid === null) continue;
      const cols = keys.map((a) => columns[a - 1]?.name ?? '');
      out.constraintDefs.set(conOid, `${primary ? 'PRIMARY KEY' : 'UNIQUE'} (${cols.join(', ')})`);
      ins('pg_constraint', {
        oid: conOid,
        conname: iname,
        connamespace: out.namespaces[schema],
        contype: primary ? 'p' : 'u',
        conrelid: oid,
        conindid: ioid,
        conkey: arrayText(keys),
      });
      ischema('table_constraints', {
        constraint_catalog: 'patina',
        constraint_schema: schema,
        constraint_name: iname,
        table_catalog: 'patina',
        table_schema: schema,
        table_name: name,
        constraint_type: primary ? 'PRIMARY KEY' : 'UNIQUE',
        is_deferrable: 'NO',
        initially_deferred: 'NO',
        enforced: 'YES',
        nulls_distinct: primary ? null : 'YES',
      });
      cols.forEach((col, k) => {
        ischema('key_column_usage', {
          constraint_catalog: 'patina',
          constraint_schema: schema,
          constraint_name: iname,
          table_catalog: 'patina',
          table_schema: schema,
          table_name: name,
          column_name: col,
          ordinal_position: k + 1,
        });
        ischema('constraint_column_usage', {
          table_catalog: 'patina',
          table_schema: schema,
          table_name: name,
          column_name: col,
          constraint_catalog: 'patina',
          constraint_schema: schema,
          constraint_name: iname,
        });
      });
    }
  }
}
