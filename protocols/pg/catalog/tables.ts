// The pg_catalog and information_schema tables clients query, as SQLite tables. Column types are
// PostgreSQL type names so results carry PostgreSQL's type OIDs (bool prints t/f, oid, name, ...).
// The columns Patina fills are declared here; every other relation and column of PostgreSQL 15's
// pg_catalog and information_schema is added from pg-catalog-columns.ts (PG_CATALOG_TABLES,
// INFORMATION_SCHEMA_TABLES), empty or NULL, so that a query naming one answers as PostgreSQL's would
// with nothing there (it was answered with no rows at all).
import { INFORMATION_SCHEMA_COLUMNS, PG_CATALOG_COLUMNS } from './pg-catalog-columns';
import { lookup } from '../../../src/lookup';

/** PostgreSQL 15's pg_stat_user_tables and pg_stat_all_tables. */
const STAT_TABLES = `relid oid, schemaname name, relname name, seq_scan int8 DEFAULT 0, seq_tup_read int8 DEFAULT 0, idx_scan int8 DEFAULT 0,
    idx_tup_fetch int8 DEFAULT 0, n_tup_ins int8 DEFAULT 0, n_tup_upd int8 DEFAULT 0, n_tup_del int8 DEFAULT 0, n_tup_hot_upd int8 DEFAULT 0,
    n_live_tup int8, n_dead_tup int8 DEFAULT 0, n_mod_since_analyze int8 DEFAULT 0, n_ins_since_vacuum int8 DEFAULT 0,
    last_vacuum timestamptz, last_autovacuum timestamptz, last_analyze timestamptz, last_autoanalyze timestamptz,
    vacuum_count int8 DEFAULT 0, autovacuum_count int8 DEFAULT 0, analyze_count int8 DEFAULT 0, autoanalyze_count int8 DEFAULT 0`;

/** The pg_catalog relations and columns Patina fills, with the types and defaults it gives them. */
export const DECLARED_CATALOG_TABLES: Record<string, string> = lookup({
  pg_prepared_statements: `name text, statement text, prepare_time timestamptz, parameter_types _regtype, from_sql bool,
    generic_plans int8, custom_plans int8`,
  pg_namespace: 'oid oid, nspname name, nspowner oid, nspacl _text',
  pg_class: `oid oid, relname name, relnamespace oid, reltype oid, reloftype oid DEFAULT 0, relowner oid DEFAULT 10, relam oid,
    relfilenode oid DEFAULT 0, reltablespace oid DEFAULT 0, relpages int4 DEFAULT 0, reltuples float4 DEFAULT -1, relallvisible int4 DEFAULT 0,
    reltoastrelid oid DEFAULT 0, relhasindex bool DEFAULT 0, relisshared bool DEFAULT 0, relpersistence char1 DEFAULT 'p', relkind char1,
    relnatts int2 DEFAULT 0, relchecks int2 DEFAULT 0, relhasrules bool DEFAULT 0, relhastriggers bool DEFAULT 0, relhassubclass bool DEFAULT 0,
    relrowsecurity bool DEFAULT 0, relforcerowsecurity bool DEFAULT 0, relispopulated bool DEFAULT 1, relreplident char1 DEFAULT 'd',
    relispartition bool DEFAULT 0, relrewrite oid DEFAULT 0, relfrozenxid oid DEFAULT 0, relminmxid oid DEFAULT 0, relacl _text, reloptions _text, relpartbound text`,
  pg_attribute: `attrelid oid, attname name, atttypid oid, attstattarget int4 DEFAULT -1, attlen int2, attnum int2, attndims int4 DEFAULT 0,
    attcacheoff int4 DEFAULT -1, atttypmod int4 DEFAULT -1, attbyval bool DEFAULT 0, attalign char1 DEFAULT 'i', attstorage char1 DEFAULT 'p',
    attcompression char1 DEFAULT '', attnotnull bool DEFAULT 0, atthasdef bool DEFAULT 0, atthasmissing bool DEFAULT 0, attidentity char1 DEFAULT '',
    attgenerated char1 DEFAULT '', attisdropped bool DEFAULT 0, attislocal bool DEFAULT 1, attinhcount int4 DEFAULT 0, attcollation oid DEFAULT 0,
    attacl _text, attoptions _text, attfdwoptions _text, attmissingval text`,
  pg_attrdef: 'oid oid, adrelid oid, adnum int2, adbin text',
  pg_index: `indexrelid oid, indrelid oid, indnatts int2, indnkeyatts int2, indisunique bool, indnullsnotdistinct bool DEFAULT 0, indisprimary bool,
    indisexclusion bool DEFAULT 0, indimmediate bool DEFAULT 1, indisclustered bool DEFAULT 0, indisvalid bool DEFAULT 1, indcheckxmin bool DEFAULT 0,
    indisready bool DEFAULT 1, indislive bool DEFAULT 1, indisreplident bool DEFAULT 0, indkey int2vector, indcollation text, indclass text,
    indoption int2vector, indexprs text, indpred text`,
  pg_constraint: `oid oid, conname name, connamespace oid, contype char1, condeferrable bool DEFAULT 0, condeferred bool DEFAULT 0,
    convalidated bool DEFAULT 1, conrelid oid, contypid oid DEFAULT 0, conindid oid, conparentid oid DEFAULT 0, confrelid oid DEFAULT 0,
    confupdtype char1 DEFAULT ' ', confdeltype char1 DEFAULT ' ', confmatchtype char1 DEFAULT ' ', conislocal bool DEFAULT 1,
    coninhcount int4 DEFAULT 0, connoinherit bool DEFAULT 1, conkey _int2, confkey _int2, conpfeqop _oid, conppeqop _oid, conffeqop _oid,
    confdelsetcols _int2, conexclop _oid, conbin text`,
  pg_type: `oid oid, typname name, typnamespace oid DEFAULT 11, typowner oid DEFAULT 10, typlen int2, typbyval bool DEFAULT 0, typtype char1 DEFAULT 'b',
    typcategory char1, typispreferred bool DEFAULT 0, typisdefined bool DEFAULT 1, typdelim char1 DEFAULT ',', typrelid oid DEFAULT 0,
    typsubscript text DEFAULT '-', typelem oid DEFAULT 0, typarray oid DEFAULT 0, typinput text, typoutput text, typreceive text, typsend text,
    typmodin text DEFAULT '-', typmodout text DEFAULT '-', typanalyze text DEFAULT '-', typalign char1 DEFAULT 'i', typstorage char1 DEFAULT 'p',
    typnotnull bool DEFAULT 0, typbasetype oid DEFAULT 0, typtypmod int4 DEFAULT -1, typndims int4 DEFAULT 0, typcollation oid DEFAULT 0,
    typdefaultbin text, typdefault text, typacl _text`,
  pg_database: `oid oid, datname name, datdba oid DEFAULT 10, encoding int4 DEFAULT 6, datlocprovider char1 DEFAULT 'c', datistemplate bool DEFAULT 0,
    datallowconn bool DEFAULT 1, datconnlimit int4 DEFAULT -1, datfrozenxid oid DEFAULT 0, datminmxid oid DEFAULT 0, dattablespace oid DEFAULT 1663,
    datcollate text DEFAULT 'C.UTF-8', datctype text DEFAULT 'C.UTF-8', daticulocale text, datcollversion text, datacl _text`,
  pg_am: 'oid oid, amname name, amhandler text, amtype char1',
  pg_description: 'objoid oid, classoid oid, objsubid int4, description text',
  pg_shdescription: 'objoid oid, classoid oid, description text',
  pg_roles: `oid oid, rolname name, rolsuper bool DEFAULT 1, rolinherit bool DEFAULT 1, rolcreaterole bool DEFAULT 1, rolcreatedb bool DEFAULT 1,
    rolcanlogin bool DEFAULT 1, rolreplication bool DEFAULT 0, rolconnlimit int4 DEFAULT -1, rolpassword text DEFAULT '********',
    rolvaliduntil text, rolbypassrls bool DEFAULT 1, rolconfig _text`,
  pg_user: `usename name, usesysid oid, usecreatedb bool DEFAULT 1, usesuper bool DEFAULT 1, userepl bool DEFAULT 0, usebypassrls bool DEFAULT 1,
    passwd text DEFAULT '********', valuntil text, useconfig _text`,
  pg_settings: `name text, setting text, unit text, category text, short_desc text, extra_desc text, context text, vartype text, source text,
    min_val text, max_val text, enumvals _text, boot_val text, reset_val text, sourcefile text, sourceline int4, pending_restart bool DEFAULT 0`,
  pg_tablespace: 'oid oid, spcname name, spcowner oid DEFAULT 10, spcacl _text, spcoptions _text',
  pg_collation: `oid oid, collname name, collnamespace oid DEFAULT 11, collowner oid DEFAULT 10, collprovider char1 DEFAULT 'c',
    collisdeterministic bool DEFAULT 1, collencoding int4 DEFAULT -1, collcollate text, collctype text, colliculocale text, collversion text`,
  pg_proc: `oid oid, proname name, pronamespace oid DEFAULT 11, proowner oid DEFAULT 10, prolang oid DEFAULT 12, procost float4 DEFAULT 1,
    prorows float4 DEFAULT 0, provariadic oid DEFAULT 0, prosupport text DEFAULT '-', prokind char1 DEFAULT 'f', prosecdef bool DEFAULT 0,
    proleakproof bool DEFAULT 0, proisstrict bool DEFAULT 1, proretset bool DEFAULT 0, provolatile char1 DEFAULT 'i', proparallel char1 DEFAULT 's',
    pronargs int2 DEFAULT 0, pronargdefaults int2 DEFAULT 0, prorettype oid, proargtypes oidvector DEFAULT '', proallargtypes _oid, proargmodes _char,
    proargnames _text, proargdefaults text, protrftypes _oid, prosrc text, probin text, prosqlbody text, proconfig _text, proacl _text`,
  pg_tables: `schemaname name, tablename name, tableowner name, tablespace name, hasindexes bool, hasrules bool DEFAULT 0,
    hastriggers bool DEFAULT 0, rowsecurity bool DEFAULT 0`,
  pg_indexes: 'schemaname name, tablename name, indexname name, tablespace name, indexdef text',
  pg_views: 'schemaname name, viewname name, viewowner name, definition text',
  pg_matviews:
    'schemaname name, matviewname name, matviewowner name, tablespace name, hasindexes bool, ispopulated bool, definition text',
  pg_sequences:
    'schemaname name, sequencename name, sequenceowner name, data_type text, start_value int8, min_value int8, max_value int8, increment_by int8, cycle bool, cache_size int8, last_value int8',
  pg_sequence:
    'seqrelid oid, seqtypid oid, seqstart int8, seqincrement int8, seqmax int8, seqmin int8, seqcache int8, seqcycle bool',
  pg_inherits: 'inhrelid oid, inhparent oid, inhseqno int4, inhdetachpending bool',
  pg_trigger:
    'oid oid, tgrelid oid, tgparentid oid, tgname name, tgfoid oid, tgtype int2, tgenabled char1, tgisinternal bool, tgconstrrelid oid, tgconstrindid oid, tgconstraint oid, tgdeferrable bool, tginitdeferred bool, tgnargs int2, tgattr int2vector, tgargs text, tgqual text, tgoldtable name, tgnewtable name',
  pg_rewrite:
    'oid oid, rulename name, ev_class oid, ev_type char1, ev_enabled char1, is_instead bool, ev_qual text, ev_action text',
  pg_enum: 'oid oid, enumtypid oid, enumsortorder float4, enumlabel name',
  pg_extension:
    'oid oid, extname name, extowner oid, extnamespace oid, extrelocatable bool, extversion text, extconfig _oid, extcondition _text',
  pg_depend: 'classid oid, objid oid, objsubid int4, refclassid oid, refobjid oid, refobjsubid int4, deptype char1',
  pg_language:
    'oid oid, lanname name, lanowner oid, lanispl bool, lanpltrusted bool, lanplcallfoid oid, laninline oid, lanvalidator oid, lanacl _text',
  pg_foreign_table: 'ftrelid oid, ftserver oid, ftoptions _text',
  pg_foreign_server:
    'oid oid, srvname name, srvowner oid, srvfdw oid, srvtype text, srvversion text, srvacl _text, srvoptions _text',
  pg_foreign_data_wrapper:
    'oid oid, fdwname name, fdwowner oid, fdwhandler oid, fdwvalidator oid, fdwacl _text, fdwoptions _text',
  pg_partitioned_table:
    'partrelid oid, partstrat char1, partnatts int2, partdefid oid, partattrs int2vector, partclass text, partcollation text, partexprs text',
  pg_policy:
    'oid oid, polname name, polrelid oid, polcmd char1, polpermissive bool, polroles _oid, polqual text, polwithcheck text',
  pg_statistic_ext:
    'oid oid, stxrelid oid, stxname name, stxnamespace oid, stxowner oid, stxstattarget int4, stxkeys int2vector, stxkind _char, stxexprs text',
  pg_publication:
    'oid oid, pubname name, pubowner oid, puballtables bool, pubinsert bool, pubupdate bool, pubdelete bool, pubtruncate bool, pubviaroot bool',
  pg_publication_rel: 'oid oid, prpubid oid, prrelid oid, prqual text, prattrs int2vector',
  pg_publication_namespace: 'oid oid, pnpubid oid, pnnspid oid',
  pg_event_trigger: 'oid oid, evtname name, evtevent name, evtowner oid, evtfoid oid, evtenabled char1, evttags _text',
  pg_cast: 'oid oid, castsource oid, casttarget oid, castfunc oid, castcontext char1, castmethod char1',
  pg_operator:
    'oid oid, oprname name, oprnamespace oid, oprowner oid, oprkind char1, oprcanmerge bool, oprcanhash bool, oprleft oid, oprright oid, oprresult oid, oprcom oid, oprnegate oid, oprcode text, oprrest text, oprjoin text',
  pg_opclass:
    'oid oid, opcmethod oid, opcname name, opcnamespace oid, opcowner oid, opcfamily oid, opcintype oid, opcdefault bool, opckeytype oid',
  pg_range:
    'rngtypid oid, rngsubtype oid, rngmultitypid oid, rngcollation oid, rngsubopc oid, rngcanonical text, rngsubdiff text',
  pg_stat_activity: `datid oid, datname name, pid int4, leader_pid int4, usesysid oid, usename name, application_name text, client_addr text,
    client_hostname text, client_port int4, backend_start timestamptz, xact_start timestamptz, query_start timestamptz, state_change timestamptz,
    wait_event_type text, wait_event text, state text, backend_xid text, backend_xmin text, query_id int8, query text, backend_type text`,
  pg_stat_user_tables: STAT_TABLES,
  pg_stat_all_tables: STAT_TABLES,
  pg_stat_database: `datid oid, datname name, numbackends int4, xact_commit int8 DEFAULT 0, xact_rollback int8 DEFAULT 0,
    blks_read int8 DEFAULT 0, blks_hit int8 DEFAULT 0, tup_returned int8 DEFAULT 0, tup_fetched int8 DEFAULT 0, tup_inserted int8 DEFAULT 0,
    tup_updated int8 DEFAULT 0, tup_deleted int8 DEFAULT 0, conflicts int8 DEFAULT 0, temp_files int8 DEFAULT 0, temp_bytes int8 DEFAULT 0,
    deadlocks int8 DEFAULT 0, checksum_failures int8, checksum_last_failure timestamptz, blk_read_time float8 DEFAULT 0,
    blk_write_time float8 DEFAULT 0, session_time float8 DEFAULT 0, active_time float8 DEFAULT 0, idle_in_transaction_time float8 DEFAULT 0,
    sessions int8 DEFAULT 0, sessions_abandoned int8 DEFAULT 0, sessions_fatal int8 DEFAULT 0, sessions_killed int8 DEFAULT 0,
    stats_reset timestamptz`,
  pg_locks:
    'locktype text, database oid, relation oid, page int4, tuple int2, virtualxid text, transactionid xid, classid oid, objid oid, objsubid int2, virtualtransaction text, pid int4, mode text, granted bool, fastpath bool, waitstart timestamptz',
  pg_timezone_names: 'name text, abbrev text, utc_offset text, is_dst bool',
  pg_available_extensions: 'name name, default_version text, installed_version text, comment text',
  pg_auth_members: 'roleid oid, member oid, grantor oid, admin_option bool',
  pg_init_privs: 'objoid oid, classoid oid, objsubid int4, privtype char1, initprivs _text',
  pg_opfamily: 'oid oid, opfmethod oid, opfname name, opfnamespace oid, opfowner oid',
  pg_amop:
    'oid oid, amopfamily oid, amoplefttype oid, amoprighttype oid, amopstrategy int2, amoppurpose char1, amopopr oid, amopmethod oid, amopsortfamily oid',
  pg_amproc: 'oid oid, amprocfamily oid, amproclefttype oid, amprocrighttype oid, amprocnum int2, amproc text',
  pg_ts_parser:
    'oid oid, prsname name, prsnamespace oid, prsstart text, prstoken text, prsend text, prsheadline text, prslextype text',
  pg_ts_template: 'oid oid, tmplname name, tmplnamespace oid, tmplinit text, tmpllexize text',
  pg_ts_dict: 'oid oid, dictname name, dictnamespace oid, dictowner oid, dicttemplate oid, dictinitoption text',
  pg_ts_config: 'oid oid, cfgname name, cfgnamespace oid, cfgowner oid, cfgparser oid',
  pg_conversion:
    'oid oid, conname name, connamespace oid, conowner oid, conforencoding int4, contoencoding int4, conproc text, condefault bool',
  pg_default_acl: 'oid oid, defaclrole oid, defaclnamespace oid, defaclobjtype char1, defaclacl _text',
  pg_transform: 'oid oid, trftype oid, trflang oid, trffromsql text, trftosql text',
  pg_subscription: `oid oid, subdbid oid, subname name, subowner oid, subenabled bool, subbinary bool, substream bool,
    subtwophasestate char1, subdisableonerr bool, subconninfo text, subslotname name, subsynccommit text, subpublications _text`,
  pg_seclabels:
    'objoid oid, classoid oid, objsubid int4, objtype text, objnamespace oid, objname text, provider text, label text',
  pg_seclabel: 'objoid oid, classoid oid, objsubid int4, provider text, label text',
  pg_shseclabel: 'objoid oid, classoid oid, provider text, label text',
  pg_largeobject_metadata: 'oid oid, lomowner oid, lomacl _text',
  pg_statistic_ext_data: 'stxoid oid, stxdinherit bool',
  pg_user_mappings: 'umid oid, srvid oid, srvname name, umuser oid, usename name, umoptions _text',
  pg_aggregate: 'aggfnoid text, aggkind char1, aggnumdirectargs int2, aggtransfn text, aggfinalfn text',
});

/** PostgreSQL's types of catalog columns as the catalog connection declares them (catalog/local-db.ts reads the names). */
const DECLARED_TYPES: Record<string, string> = lookup({
  oid: 'oid',
  bigint: 'int8',
  name: 'name',
  text: 'text',
  boolean: 'bool',
  integer: 'int4',
  smallint: 'int2',
  real: 'float4',
  'double precision': 'float8',
  numeric: 'numeric',
  'timestamp with time zone': 'timestamptz',
  interval: 'interval',
  '"char"': 'char1',
  xid: 'xid',
  bytea: 'bytea',
  int2vector: 'int2vector',
  oidvector: 'oidvector',
  regtype: 'oid',
  'text[]': '_text',
  'name[]': '_name',
  'oid[]': '_oid',
  'regtype[]': '_oid',
  'smallint[]': '_int2',
  'real[]': '_float4',
  'double precision[]': '_float8',
  'boolean[]': '_bool',
  '"char"[]': '_char',
  // information_schema's domains, as their base types go on the wire
  'information_schema.sql_identifier': 'name',
  'information_schema.character_data': 'varchar',
  'information_schema.yes_or_no': 'varchar',
  'information_schema.cardinal_number': 'int4',
  'information_schema.time_stamp': 'timestamptz',
});

/** A column list's items by column name (`name type [DEFAULT ...]`). */
function columnItems(list: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const item of list.split(/,(?=(?:[^']*'[^']*')*[^']*$)/)) {
    const text = item.trim();
    if (text) out.set(text.split(/\s+/, 1)[0], text);
  }
  return out;
}

/**
 * Every relation of PostgreSQL 15's pg_catalog with all its columns in PostgreSQL's order: the
 * declared ones as declared, the others of their PostgreSQL type (text for the types Patina has
 * none of: regproc, pg_node_tree, aclitem[], ...); Patina's own additions last.
 */
export const PG_CATALOG_TABLES: Record<string, string> = withAllColumns(PG_CATALOG_COLUMNS, DECLARED_CATALOG_TABLES);

/** The relations of `all` with all their columns, the ones `declaredTables` declares as declared; those only it has last. */
function withAllColumns(
  all: Record<string, [string, string][]>,
  declaredTables: Record<string, string>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, columns] of Object.entries(all)) {
    const declared = columnItems(declaredTables[name] ?? '');
    const items = columns.map(([col, type]) => {
      // (quoted: some are SQLite's keywords, pg_prepared_xacts.transaction)
      const item = declared.get(col) ?? `"${col}" ${DECLARED_TYPES[type] ?? (type.endsWith('[]') ? '_text' : 'text')}`;
      declared.delete(col);
      return item;
    });
    out[name] = [...items, ...declared.values()].join(', ');
  }
  for (const [name, list] of Object.entries(declaredTables)) out[name] ??= list;
  return out;
}

/** The information_schema relations and columns Patina fills. */
export const DECLARED_INFORMATION_SCHEMA_TABLES: Record<string, string> = lookup({
  schemata:
    'catalog_name name, schema_name name, schema_owner name, default_character_set_catalog name, default_character_set_schema name, default_character_set_name name, sql_path varchar',
  tables: `table_catalog name, table_schema name, table_name name, table_type varchar, self_referencing_column_name name, reference_generation varchar,
    user_defined_type_catalog name, user_defined_type_schema name, user_defined_type_name name, is_insertable_into varchar, is_typed varchar, commit_action varchar`,
  columns: `table_catalog name, table_schema name, table_name name, column_name name, ordinal_position int4, column_default varchar, is_nullable varchar,
    data_type varchar, character_maximum_length int4, character_octet_length int4, numeric_precision int4, numeric_precision_radix int4,
    numeric_scale int4, datetime_precision int4, interval_type varchar, interval_precision int4, character_set_catalog name, character_set_schema name,
    character_set_name name, collation_catalog name, collation_schema name, collation_name name, domain_catalog name, domain_schema name,
    domain_name name, udt_catalog name, udt_schema name, udt_name name, scope_catalog name, scope_schema name, scope_name name,
    maximum_cardinality int4, dtd_identifier name, is_self_referencing varchar, is_identity varchar, identity_generation varchar, identity_start varchar,
    identity_increment varchar, identity_maximum varchar, identity_minimum varchar, identity_cycle varchar, is_generated varchar, generation_expression varchar, is_updatable varchar`,
  table_constraints: `constraint_catalog name, constraint_schema name, constraint_name name, table_catalog name, table_schema name, table_name name,
    constraint_type varchar, is_deferrable varchar, initially_deferred varchar, enforced varchar, nulls_distinct varchar`,
  key_column_usage: `constraint_catalog name, constraint_schema name, constraint_name name, table_catalog name, table_schema name, table_name name,
    column_name name, ordinal_position int4, position_in_unique_constraint int4`,
  constraint_column_usage:
    'table_catalog name, table_schema name, table_name name, column_name name, constraint_catalog name, constraint_schema name, constraint_name name',
  referential_constraints:
    'constraint_catalog name, constraint_schema name, constraint_name name, unique_constraint_catalog name, unique_constraint_schema name, unique_constraint_name name, match_option varchar, update_rule varchar, delete_rule varchar',
  views:
    'table_catalog name, table_schema name, table_name name, view_definition varchar, check_option varchar, is_updatable varchar, is_insertable_into varchar, is_trigger_updatable varchar, is_trigger_deletable varchar, is_trigger_insertable_into varchar',
  routines:
    'specific_catalog name, specific_schema name, specific_name name, routine_catalog name, routine_schema name, routine_name name, routine_type varchar, data_type varchar, routine_definition varchar, external_language varchar',
  sequences:
    'sequence_catalog name, sequence_schema name, sequence_name name, data_type varchar, numeric_precision int4, start_value varchar, minimum_value varchar, maximum_value varchar, increment varchar, cycle_option varchar',
  triggers:
    'trigger_catalog name, trigger_schema name, trigger_name name, event_manipulation varchar, event_object_catalog name, event_object_schema name, event_object_table name, action_statement varchar, action_timing varchar',
  check_constraints: 'constraint_catalog name, constraint_schema name, constraint_name name, check_clause varchar',
  character_sets:
    'character_set_catalog name, character_set_schema name, character_set_name name, character_repertoire name, form_of_use name, default_collate_catalog name, default_collate_schema name, default_collate_name name',
  enabled_roles: 'role_name name',
  parameters:
    'specific_catalog name, specific_schema name, specific_name name, ordinal_position int4, parameter_mode varchar, parameter_name name, data_type varchar',
});

/** Every view of PostgreSQL 15's information_schema with all its columns, as PG_CATALOG_TABLES. */
export const INFORMATION_SCHEMA_TABLES: Record<string, string> = withAllColumns(
  INFORMATION_SCHEMA_COLUMNS,
  DECLARED_INFORMATION_SCHEMA_TABLES,
);
