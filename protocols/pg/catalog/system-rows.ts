import { PG_TYPES, TYPE_DISPLAY, oidOfDeclType } from '../types/oids';
import { PG_CATALOG_RELATIONS } from './pg-catalog-relations';
import { INFORMATION_SCHEMA_COLUMNS, PG_CATALOG_COLUMNS } from './pg-catalog-columns';
import { defaultBtreeClass } from './index-classes';
import { regtypeOid } from '../types/reg-input';
import { type CatalogRows, fillIndex, notNullCheck, typeAttributes } from './table-rows';

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
        ...typeAttributes(typ),
        attrelid: oid,
        attname: c.name,
        attnum: k + 1,
        atttypmod: -1,
        attnotnull: nn,
        atthasdef: false,
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
    // (an index's classes by the columns' types in PostgreSQL, which Patina's declared types of them are not always)
    const pgTypes = (schema === 'pg_catalog' ? PG_CATALOG_COLUMNS : INFORMATION_SCHEMA_COLUMNS)[name] ?? [];
    for (const [ioid, iname, keys, unique, primary, constraintOid, def] of indexes)
      fillIndex(out, schema, out.namespaces[schema], name, oid, {
        oid: ioid,
        name: iname,
        keys,
        columns: keys.map((a) => columns[a - 1] ?? { name: '', type: null }),
        classes: keys.map((a) => defaultBtreeClass(pgTypes[a - 1] ? regtypeOid(pgTypes[a - 1][1]) : 0)),
        collations: keys.map((a) => collation.get(a) ?? 0),
        unique,
        primary,
        constraintOid,
        def,
      });
  }
}
