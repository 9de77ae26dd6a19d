// The access privileges (aclitem[] as text) of the system relations and schemas as PostgreSQL 15's
// initdb leaves them, and acldefault(). Everyone may read pg_catalog and information_schema
// (`{owner=arwdDxt/owner,=r/owner}`) but the relations system_views.sql revokes from PUBLIC; the
// objects of pg_catalog keep that ACL in pg_init_privs too. pg_dump compares a pg_catalog object's
// ACL with its pg_init_privs row (with acldefault() when it has none) and dumps a GRANT for any
// difference: relacl alone made it GRANT SELECT on every catalog table. pgjdbc's getTablePrivileges
// and psql's \dp read relacl (PUBLIC's SELECT was missing). Patina grants nothing (privileges.ts):
// these are what a client reads, not what is checked. The owner is the one role (OID 10), named as
// the session's user, so the rows are made again when that name changes (local-db.ts).
import type Database from 'better-sqlite3';
import { arrayText } from '../../../src/engine/pg-functions';
import { pgError } from '../sqlstate';

/** A role name as an aclitem prints it (acl.c's putid): double-quoted unless letters, digits and `_`. */
const aclRole = (name: string) => (/^[A-Za-z0-9_]+$/.test(name) ? name : `"${name.replace(/"/g, '""')}"`);

/** An aclitem: `grantee=privileges/grantor`, the grantee '' for PUBLIC. */
const item = (grantee: string, privileges: string, grantor: string) =>
  `${grantee === '' ? '' : aclRole(grantee)}=${privileges}/${aclRole(grantor)}`;

/** acldefault's privileges by object type: [PUBLIC's, the owner's] (acl.c's acldefault). */
const DEFAULTS: Record<string, [string, string]> = {
  c: ['', ''],
  r: ['', 'arwdDxt'],
  s: ['', 'rwU'],
  d: ['Tc', 'CTc'],
  f: ['X', 'X'],
  l: ['U', 'U'],
  L: ['', 'rw'],
  n: ['', 'UC'],
  t: ['', 'C'],
  F: ['', 'U'],
  S: ['', 'U'],
  T: ['U', 'U'],
  p: ['', 'sA'],
};

/** acldefault(type, owner): the privileges an object of `type` ('r', 'n', ... ; a "char") has before any GRANT. */
export function aclDefault(type: string, owner: string): string {
  const kind = type.slice(0, 1);
  const privileges = DEFAULTS[kind];
  if (!privileges) throw pgError('XX000', `unrecognized objtype abbreviation: ${kind}`);
  const [everyone, own] = privileges;
  const items = [everyone && item('', everyone, owner), own && item(owner, own, owner)].filter(Boolean);
  return arrayText(items);
}

/** The relations system_views.sql (and initdb) revokes from PUBLIC: the owner's privileges only, or a role's SELECT. */
const NOT_PUBLIC = new Map<string, string[]>([
  ...'pg_authid pg_config pg_file_settings pg_hba_file_rules pg_ident_file_mappings pg_largeobject pg_replication_origin_status pg_shadow pg_statistic pg_statistic_ext_data pg_subscription pg_user_mapping'
    .split(' ')
    .map((n): [string, string[]] => [n, []]),
  ['pg_backend_memory_contexts', ['pg_read_all_stats=r']],
  ['pg_shmem_allocations', ['pg_read_all_stats=r']],
  ['pg_settings', ['=rw']],
]);

/** information_schema's relations information_schema.sql grants nothing on (relacl NULL). */
const NO_ACL = new Set(
  '_pg_foreign_data_wrappers _pg_foreign_servers _pg_foreign_table_columns _pg_foreign_tables _pg_user_mappings sql_parts transforms'.split(
    ' ',
  ),
);

/** The column pg_subscription's PUBLIC may not read (every other column has `{=r/owner}`). */
const SUBSCRIPTION_HIDDEN = 'subconninfo';

const PG_CLASS = 1259;
const PG_NAMESPACE = 2615;

/** A system relation's ACL with `owner` its owner; null for none. */
function relationAcl(schema: string, name: string, owner: string): string | null {
  if (schema === 'information_schema' && NO_ACL.has(name)) return null;
  const others = NOT_PUBLIC.get(schema === 'pg_catalog' ? name : '') ?? ['=r'];
  const grants = others.map((g) => {
    const [grantee, privileges] = g.split('=');
    return item(grantee, privileges, owner);
  });
  return arrayText([item(owner, 'arwdDxt', owner), ...grants]);
}

/**
 * Sets relacl of every system relation, attacl of pg_subscription's columns and nspacl of
 * pg_catalog and information_schema for `owner`, and fills pg_init_privs with pg_catalog's and the
 * public schema's, as PostgreSQL's initdb does.
 */
export function fillSystemAcls(db: Database.Database, owner: string): void {
  db.prepare('DELETE FROM pg_catalog.pg_init_privs').run();
  const initPriv = db.prepare(
    "INSERT INTO pg_catalog.pg_init_privs (objoid, classoid, objsubid, privtype, initprivs) VALUES (?, ?, ?, 'i', ?)",
  );
  const setRelation = db.prepare('UPDATE pg_catalog.pg_class SET relacl = ? WHERE oid = ?');
  const relations = db
    .prepare(
      `SELECT c.oid, n.nspname, c.relname FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname IN ('pg_catalog', 'information_schema') AND c.relkind IN ('r', 'v')`,
    )
    .raw()
    .all() as [bigint, string, string][];
  for (const [oid, schema, name] of relations) {
    const acl = relationAcl(schema, name, owner);
    setRelation.run(acl, oid);
    if (acl !== null && schema === 'pg_catalog') initPriv.run(oid, PG_CLASS, 0, acl);
    if (schema !== 'pg_catalog' || name !== 'pg_subscription') continue;
    const columns = db
      .prepare('SELECT attnum, attname FROM pg_catalog.pg_attribute WHERE attrelid = ? AND attnum > 0')
      .raw()
      .all(oid) as [bigint, string][];
    const setColumn = db.prepare('UPDATE pg_catalog.pg_attribute SET attacl = ? WHERE attrelid = ? AND attnum = ?');
    for (const [attnum, attname] of columns) {
      if (attname === SUBSCRIPTION_HIDDEN) continue;
      const columnAcl = arrayText([item('', 'r', owner)]);
      setColumn.run(columnAcl, oid, attnum);
      initPriv.run(oid, PG_CLASS, attnum, columnAcl);
    }
  }
  const schemaAcl = arrayText([item(owner, 'UC', owner), item('', 'U', owner)]);
  const setSchema = db.prepare('UPDATE pg_catalog.pg_namespace SET nspacl = ? WHERE oid = ?');
  const schemas = db
    .prepare(
      "SELECT oid, nspname, nspacl FROM pg_catalog.pg_namespace WHERE nspname IN ('pg_catalog', 'information_schema', 'public')",
    )
    .raw()
    .all() as [bigint, string, string | null][];
  for (const [oid, name, acl] of schemas) {
    // (public's is its owner's, pg_database_owner, whatever the user's name: local-db.ts sets it)
    if (name !== 'public') setSchema.run(schemaAcl, oid);
    if (name !== 'information_schema') initPriv.run(oid, PG_NAMESPACE, 0, name === 'public' ? acl : schemaAcl);
  }
}
