// The PG front end's own SQLite connection, in the agent's process: the database file (read only, by
// `PRAGMA query_only`) with an in-memory pg_catalog and information_schema attached. It answers
// catalog queries without a trip to a read worker. (Point reads on user tables take the engine's
// in-process path for provably bounded reads, src/engine/bounded-reads.ts.)
import fs from 'node:fs';
import Database from 'better-sqlite3';
import type { Schema } from '../../../src/engine/schema/model';
import { narrowInteger } from '../../../src/engine/values';
import { GUC_DEFAULTS, durationMs, hiddenSetting, settingInUnit } from '../session/settings';
import { PG_SETTING_ROWS } from './pg-settings-rows';
import { OTHER_TYPE_ROWS, PG_RANGE_ROWS, PG_TYPE_ROWS, TYPE_COMMENTS } from './pg-type-rows';
import { PG_CAST_ROWS } from '../types/pg-cast-rows';
import { databaseCounts } from '../statement-counts';
import { INFORMATION_SCHEMA_TABLES, PG_CATALOG_TABLES } from './tables';
import { CATALOG_RELATION_OIDS } from './relation-oids';
import { fillSystemRelations } from './system-rows';
import { fillSystemAcls } from './system-acls';
import { fillBtreeClasses } from './index-classes';
import { extensionDependencies } from './describe-object';
import { setRelationNames } from '../types/relation-names';
import { type CatalogRows, NS_PUBLIC, type RelationBtree, fillTable } from './table-rows';
import { RelationStats } from './relation-stats';
import type { TableCounts } from '../../../src/observability/table-counts';
import { fillBuiltinProcs } from './builtin-procs';
import { fillBuiltinOperators } from './builtin-operators';
import { registerCatalogFunctions } from './catalog-functions';
import { PG_MONITOR_GRANTS, PREDEFINED_ROLE_OIDS } from './privileges';
import { TS_CONFIGS, TS_CONFIG_MAP, TS_DICTS, TS_PARSER, TS_TEMPLATES } from './text-search-rows';
import type { ActivityRow } from '../connection/listener-options';
import type { PreparedRow } from '../session/prepared';
import { regtypeName } from '../types/oids';
import { Lru } from '../../../src/lru';
import { AdvisoryLocks } from '../session/advisory-locks';
import { installReadFunctions } from '../../../src/engine/functions';
import type { CatalogSchema, CatalogWorkers } from './catalog-workers';

/** Facts of the session a catalog query runs for (current_user(), current_database(), ...). */
export interface SessionFacts {
  user: string;
  database: string;
  version: string;
  pid: number;
  settings: Map<string, string>;
  /** The channels the session listens on (pg_listening_channels()). */
  listening?: () => string[];
  /** The running statement slept already (pg_sleep returns at once). */
  slept?: boolean;
  /** Sends a WARNING to the session's client (a NoticeResponse), as a function's ereport(WARNING) does. */
  notice?: (code: string, message: string) => void;
  /** The transaction's id (txid_current()): one per transaction block, or per statement outside one. */
  xid?: () => number;
  /**
   * set_config set setting `name`, which was `before` (a new client_encoding converts the session's
   * text from then on; a transaction's end settles it, only to its end when `local`).
   */
  settingChanged?: (name: string, before: string | undefined, local: boolean) => void;
  /** set_config is to set `name` to `value`: a transaction's mode past its first query is 25001 (session/transaction-modes.ts). */
  settingChecked?: (name: string, value: string | null) => void;
  /** The session's prepared statements (pg_prepared_statements). */
  prepared?: () => PreparedRow[];
}

const NS_CATALOG = 11;
const NS_INFO = 13000;
const FIRST_OID = 16384;
const STMT_CACHE = 512;

/** The agent's PG sessions, for pg_stat_activity and the signal functions (the server's, set after it starts). */
export interface Sessions {
  activity(): ActivityRow[];
  /** pg_cancel_backend / pg_terminate_backend of `pid` by a session of `user`: false when no such session; 42501 for another user's. */
  signal(pid: number, user: string, terminate: boolean): boolean;
}

/** A time of pg_stat_activity as its timestamptz column holds it (UTC, PostgreSQL's text form). */
const at = (ms: number | null) =>
  ms === null ? null : new Date(ms).toISOString().replace('T', ' ').replace('Z', '+00');

/** A name as an array literal's element: quoted when it holds a space (`"timestamp with time zone"`). */
const arrayItem = (name: string) => (/[\s,{}"\\]/.test(name) ? `"${name.replace(/["\\]/g, '\\$&')}"` : name);

/** What catalogOnlyFunctions found (the same for every catalog connection). */
let catalogOnly: Set<string> | null = null;

/** The catalog connection: pg_catalog and information_schema from the schema, and the statements run on it. */
export class LocalDb {
  readonly db: Database.Database;
  /** The server's sessions (pg_stat_activity is filled from them when a statement reads it). */
  sessions: Sessions | null = null;
  /** Rows inserted, updated and deleted per table (pg_stat_user_tables' n_tup_*); null: none counted. */
  tableCounts: TableCounts | null = null;
  /** The session whose statement is running now (statements here run synchronously, one at a time). */
  session: SessionFacts | null = null;
  /** The advisory locks of the agent's PG sessions (pg_advisory_lock, ...). */
  readonly advisory = new AdvisoryLocks();
  /** The processes catalog queries run in, off the agent's thread (catalog-workers.ts); null: all run here. */
  workers: CatalogWorkers | null = null;
  readonly #oids = new Map<string, number>();
  #nextOid = FIRST_OID;
  readonly #cache = new Lru<string, Database.Statement>(STMT_CACHE);
  #relNames = new Map<number, string>();
  #typeNames = new Map<number, string>();
  #indexDefs = new Map<number, string>();
  #constraintDefs = new Map<number, string>();
  #btrees = new Map<number, RelationBtree>();
  /** Each relation's column names by attnum, and pg_proc's OIDs (what the privilege functions check exists). */
  #columns = new Map<number, string[]>();
  #procOids = new Set<number>();
  /** pg_type's OIDs and their schemas (pg_type_is_visible). */
  #typeNamespaces = new Map<number, number>();
  /** Sizes and row counts of the user tables and indexes (refreshed by the session before a statement that shows them). */
  readonly stats = new RelationStats();
  /** pg_settings by lower-case name, for current_setting() (a function cannot query its own connection). */
  #settings = new Map<string, string>();
  /** The pg_settings rows the session's settings added (#fillSettings), taken out before the next fill. */
  readonly #addedSettings = new Set<string>();

  readonly #path: string;

  constructor(path: string) {
    this.#path = path;
    this.db = new Database(path, { fileMustExist: true });
    this.db.defaultSafeIntegers(true);
    this.db.pragma('busy_timeout = 5000');
    this.db.exec("ATTACH ':memory:' AS pg_catalog; ATTACH ':memory:' AS information_schema");
    for (const [t, cols] of Object.entries(PG_CATALOG_TABLES)) this.db.exec(`CREATE TABLE pg_catalog.${t} (${cols})`);
    for (const [t, cols] of Object.entries(INFORMATION_SCHEMA_TABLES))
      this.db.exec(`CREATE TABLE information_schema.${t} (${cols})`);
    registerCatalogFunctions(this.db, {
      session: () => this.session,
      databaseBytes: () => this.fileBytes(),
      signal: (pid, terminate) => {
        const user = this.session?.user;
        return user !== undefined && this.sessions !== null && this.sessions.signal(pid, user, terminate);
      },
      setting: (name) => this.#settings.get(name),
      roleName: () => this.#roleName,
      relName: (oid) => this.#relNames.get(oid),
      relNames: () => this.#relNames,
      indexDef: (oid) => this.#indexDefs.get(oid),
      constraintDef: (oid) => this.#constraintDefs.get(oid),
      relationBytes: (oid, part) => this.#relationBytes(oid, part),
      advisory: this.advisory,
      columns: (oid) => this.#columns.get(oid),
      procExists: (oid) => this.#procOids.has(oid),
      typeNamespace: (oid) => this.#typeNamespaces.get(oid),
    });
    this.db.pragma('query_only = 1');
  }

  /**
   * The functions (and table-valued ones) this connection has and a read worker's lacks (what the
   * catalog registers: pg_encoding_to_char, format_type, version, ...), lower case; read once a process.
   */
  catalogOnlyFunctions(): ReadonlySet<string> {
    if (catalogOnly) return catalogOnly;
    const names = (db: Database.Database) =>
      new Set(
        [
          ...db.prepare('SELECT name FROM pragma_function_list').pluck().all(),
          ...db.prepare('SELECT name FROM pragma_module_list').pluck().all(),
        ].map((n) => String(n).toLowerCase()),
      );
    const read = new Database(':memory:');
    try {
      installReadFunctions(read);
      const common = names(read);
      catalogOnly = new Set([...names(this.db)].filter((n) => !common.has(n)));
    } finally {
      read.close();
    }
    return catalogOnly;
  }

  /** The bytes of the agent's database on disk: its SQLite file and WAL. */
  fileBytes(): number {
    let bytes = 0;
    for (const file of [this.#path, `${this.#path}-wal`])
      bytes += fs.statSync(file, { throwIfNoEntry: false })?.size ?? 0;
    return bytes;
  }

  /** SQLite's data_version of this connection: it changes when another connection commits to the file. */
  dataVersion(): number {
    return Number(this.db.pragma('data_version', { simple: true }));
  }

  /** A user table's pg_class oid, as the catalog lists it (undefined before it is filled). */
  tableOid(name: string): number | undefined {
    return this.#oids.get(`table:${name}`);
  }

  #oid(key: string): number {
    let o = this.#oids.get(key);
    if (o === undefined) this.#oids.set(key, (o = this.#nextOid++));
    return o;
  }

  /** The schema and the OIDs the catalog was last built with (what a catalog worker builds its own from). */
  built(schema: Schema): CatalogSchema {
    return { schema, oids: [...this.#oids], nextOid: this.#nextOid };
  }

  /** Takes the agent's OIDs before a refresh (a catalog worker's catalog then lists the same). */
  adoptOids(oids: [string, number][], nextOid: number): void {
    this.#oids.clear();
    for (const [k, o] of oids) this.#oids.set(k, o);
    this.#nextOid = nextOid;
  }

  /** Rebuilds the catalog from the schema (at start and after every reload). */
  refresh(schema: Schema): void {
    // filled under the placeholder names; the next statement renames them for its session
    this.#roleName = 'patina';
    this.#databaseName = 'patina';
    this.db.pragma('query_only = 0');
    try {
      this.db.transaction(() => this.#fill(schema))();
    } finally {
      this.db.pragma('query_only = 1');
    }
    this.#cache.clear();
    this.#columns = new Map();
    for (const [rel, name, num] of this.db
      .prepare(
        'SELECT attrelid, attname, attnum FROM pg_catalog.pg_attribute WHERE attnum > 0 ORDER BY attrelid, attnum',
      )
      .raw()
      .all() as [bigint, string, bigint][]) {
      let cols = this.#columns.get(Number(rel));
      if (!cols) this.#columns.set(Number(rel), (cols = []));
      cols[Number(num) - 1] = name;
    }
    this.#procOids = new Set(
      (this.db.prepare('SELECT oid FROM pg_catalog.pg_proc').raw().all() as [bigint][]).map(([o]) => Number(o)),
    );
    this.#typeNamespaces = new Map(
      (this.db.prepare('SELECT oid, typnamespace FROM pg_catalog.pg_type').raw().all() as [bigint, bigint][]).map(
        ([o, n]) => [Number(o), Number(n)],
      ),
    );
    const names = this.#relNames;
    const types = this.#typeNames;
    // (a row type by its name as written, `_t` its array's)
    const typeOids = new Map<string, number>();
    for (const [o, n] of types) typeOids.set(n.replace(/^"(.*)"(\[\])?$/, '$1$2').replace(/""/g, '"'), o);
    for (const [name, o] of [...typeOids]) if (name.endsWith('[]')) typeOids.set(`_${name.slice(0, -2)}`, o);
    setRelationNames({
      name: (oid) => names.get(oid),
      oid: (name) => {
        for (const [o, n] of names) if (n === name) return o;
        return undefined;
      },
      typeName: (oid) => types.get(oid),
      typeOid: (name) => typeOids.get(name),
    });
  }

  #fill(schema: Schema) {
    const db = this.db;
    for (const t of [
      ...Object.keys(PG_CATALOG_TABLES).map((t) => `pg_catalog.${t}`),
      ...Object.keys(INFORMATION_SCHEMA_TABLES).map((t) => `information_schema.${t}`),
    ])
      db.exec(`DELETE FROM ${t}`);
    // (one prepared statement per table and column list: the system relations alone are some 6,000 rows)
    const inserts = new Map<string, Database.Statement>();
    const ins = (table: string, row: Record<string, unknown>) => {
      const keys = Object.keys(row);
      const sql = `INSERT INTO ${table} (${keys.join(',')}) VALUES (${keys.map(() => '?').join(',')})`;
      let st = inserts.get(sql);
      if (!st) inserts.set(sql, (st = db.prepare(sql)));
      st.run(...keys.map((k) => (typeof row[k] === 'boolean' ? (row[k] ? 1 : 0) : row[k])));
    };
    const user = this.#roleName;
    ins('pg_namespace', { oid: NS_CATALOG, nspname: 'pg_catalog', nspowner: 10 });
    // PostgreSQL 15's public schema: owned by pg_database_owner, with its standard comment (pg_dump
    // leaves a schema so made out of the dump)
    // (its privileges too, which \dn+ shows: the owner's USAGE and CREATE, everyone's USAGE)
    ins('pg_namespace', {
      oid: NS_PUBLIC,
      nspname: 'public',
      nspowner: 6171,
      nspacl: '{pg_database_owner=UC/pg_database_owner,=U/pg_database_owner}',
    });
    ins('pg_description', { objoid: NS_PUBLIC, classoid: 2615, objsubid: 0, description: 'standard public schema' });
    ins('pg_namespace', { oid: NS_INFO, nspname: 'information_schema', nspowner: 10 });
    ins('pg_namespace', { oid: 99, nspname: 'pg_toast', nspowner: 10 });
    ins('pg_database', { oid: 5, datname: this.#databaseName });
    // the user is initdb's superuser (replication too); the predefined roles are PostgreSQL's, which
    // \du lists (only pg_database_owner was, with its attributes wrong)
    ins('pg_roles', { oid: 10, rolname: this.#roleName, rolreplication: 1 });
    const none = { rolsuper: 0, rolcreaterole: 0, rolcreatedb: 0, rolcanlogin: 0, rolbypassrls: 0 };
    for (const [rolname, oid] of PREDEFINED_ROLE_OIDS) ins('pg_roles', { oid, rolname, ...none });
    for (const roleid of PG_MONITOR_GRANTS)
      ins('pg_auth_members', { roleid, member: 3373, grantor: 10, admin_option: 0 });
    ins('pg_user', { usename: this.#roleName, usesysid: 10, userepl: 1 });
    ins('pg_am', { oid: 2, amname: 'heap', amhandler: 'heap_tableam_handler', amtype: 't' });
    ins('pg_am', { oid: 403, amname: 'btree', amhandler: 'bthandler', amtype: 'i' });
    // the default btree operator classes of the types of Patina's columns, which pg_index.indclass names
    fillBtreeClasses(ins);
    ins('pg_tablespace', { oid: 1663, spcname: 'pg_default' });
    ins('pg_tablespace', { oid: 1664, spcname: 'pg_global' });
    ins('pg_collation', { oid: 100, collname: 'default', collprovider: 'd' });
    ins('pg_collation', { oid: 950, collname: 'C', collcollate: 'C', collctype: 'C' });
    // PostgreSQL 15's languages and its one extension, plpgsql (psql's \dL, pgcli's \dx list them)
    // with their comments (Patina runs no function body of any)
    const lang = (oid: number, lanname: string, trusted: number, validator: number, description: string) => {
      ins('pg_language', {
        oid,
        lanname,
        lanowner: 10,
        lanispl: 0,
        lanpltrusted: trusted,
        lanplcallfoid: 0,
        laninline: 0,
        lanvalidator: validator,
      });
      ins('pg_description', { objoid: oid, classoid: 2612, objsubid: 0, description });
    };
    lang(12, 'internal', 0, 2246, 'built-in functions');
    lang(13, 'c', 0, 2247, 'dynamically-loaded C functions');
    lang(14, 'sql', 1, 2248, 'SQL-language functions');
    ins('pg_language', {
      oid: 13563,
      lanname: 'plpgsql',
      lanowner: 10,
      lanispl: 1,
      lanpltrusted: 1,
      lanplcallfoid: 13560,
      laninline: 13561,
      lanvalidator: 13562,
    });
    ins('pg_description', { objoid: 13563, classoid: 2612, objsubid: 0, description: 'PL/pgSQL procedural language' });
    ins('pg_extension', {
      oid: 13559,
      extname: 'plpgsql',
      extowner: 10,
      extnamespace: NS_CATALOG,
      extrelocatable: 0,
      extversion: '1.0',
    });
    ins('pg_description', { objoid: 13559, classoid: 3079, objsubid: 0, description: 'PL/pgSQL procedural language' });
    // what the extension holds, and its language's handlers (psql's \dx+, pg_dump's extension membership)
    for (const [classid, objid, refclassid, refobjid, deptype] of extensionDependencies())
      ins('pg_depend', { classid, objid, objsubid: 0, refclassid, refobjid, refobjsubid: 0, deptype });
    // the text search configurations Patina runs, with their parser, dictionaries and templates (\\dF)
    const [prs, prsname, prsstart, prstoken, prsend, prsheadline, prslextype, prsComment] = TS_PARSER;
    ins('pg_ts_parser', {
      oid: prs,
      prsname,
      prsnamespace: NS_CATALOG,
      prsstart,
      prstoken,
      prsend,
      prsheadline,
      prslextype,
    });
    ins('pg_description', { objoid: prs, classoid: 3601, objsubid: 0, description: prsComment });
    for (const [oid, cfgname, cfgparser, description] of TS_CONFIGS) {
      ins('pg_ts_config', { oid, cfgname, cfgnamespace: NS_CATALOG, cfgowner: 10, cfgparser });
      ins('pg_description', { objoid: oid, classoid: 3602, objsubid: 0, description });
    }
    for (const [oid, dictname, dicttemplate, dictinitoption, description] of TS_DICTS) {
      ins('pg_ts_dict', { oid, dictname, dictnamespace: NS_CATALOG, dictowner: 10, dicttemplate, dictinitoption });
      ins('pg_description', { objoid: oid, classoid: 3600, objsubid: 0, description });
    }
    for (const [oid, tmplname, tmplinit, tmpllexize, description] of TS_TEMPLATES) {
      ins('pg_ts_template', { oid, tmplname, tmplnamespace: NS_CATALOG, tmplinit, tmpllexize });
      ins('pg_description', { objoid: oid, classoid: 3764, objsubid: 0, description });
    }
    for (const [mapcfg, maptokentype, mapdict] of TS_CONFIG_MAP)
      ins('pg_ts_config_map', { mapcfg, maptokentype, mapseqno: 1, mapdict });
    // each type's input, output, receive, send, typmod, analyze and subscript functions, by name (joins to pg_type's columns)
    // (the other types' too: PostgreSQL's other types, which Patina has no values of, are listed for
    // the clients that build a type map from pg_type at connect, Ruby pg's BasicTypeMapForQueries
    // among them, and look types up there by name: `inet` was missing; a value of one is still 0A000)
    const types = [...PG_TYPE_ROWS, ...OTHER_TYPE_ROWS];
    const procs = new Set<string>();
    for (const r of types) for (const f of r.slice(10, 18) as string[]) if (f !== '-') procs.add(f);
    [...procs].forEach((proname, k) => ins('pg_proc', { oid: 12000 + k, proname }));
    fillBuiltinProcs(ins);
    // pg_operator: PostgreSQL 15's operators (catalog/pg-operator-rows.ts), psql's \do
    fillBuiltinOperators(ins);
    // pg_type: PostgreSQL 15's rows of its types in pg_catalog (catalog/pg-type-rows.ts), their
    // comments (psql's \dTS) and pg_range's rows of its range types
    for (const r of types)
      ins('pg_type', {
        oid: r[0],
        typname: r[1],
        typlen: r[2],
        typbyval: r[3] ? 1 : 0,
        typtype: r[4],
        typcategory: r[5],
        typispreferred: r[6] ? 1 : 0,
        typdelim: r[7],
        typelem: r[8],
        typarray: r[9],
        typinput: r[10],
        typoutput: r[11],
        typreceive: r[12],
        typsend: r[13],
        typmodin: r[14],
        typmodout: r[15],
        typanalyze: r[16],
        typsubscript: r[17],
        typalign: r[18],
        typstorage: r[19],
        typcollation: r[20],
      });
    for (const [objoid, description] of TYPE_COMMENTS)
      ins('pg_description', { objoid, classoid: 1247, objsubid: 0, description });
    for (const [
      rngtypid,
      rngsubtype,
      rngmultitypid,
      rngcollation,
      rngsubopc,
      rngcanonical,
      rngsubdiff,
    ] of PG_RANGE_ROWS)
      ins('pg_range', { rngtypid, rngsubtype, rngmultitypid, rngcollation, rngsubopc, rngcanonical, rngsubdiff });
    // pg_cast: PostgreSQL 15's casts (types/pg-cast-rows.ts), which sql/cast-paths.ts follows
    for (const [oid, castsource, casttarget, castfunc, castcontext, castmethod] of PG_CAST_ROWS)
      ins('pg_cast', { oid, castsource, casttarget, castfunc, castcontext, castmethod });
    // pg_settings: PostgreSQL 15's rows (catalog/pg-settings-rows.ts) with Patina's own values
    const own: [string, string, string][] = [
      ['server_version', '15.0', 'Preset Options'],
      ['server_version_num', '150000', 'Preset Options'],
      ['TimeZone', 'UTC', 'Client Connection Defaults'],
      ['default_transaction_isolation', 'serializable', 'Client Connection Defaults'],
      ['transaction_isolation', 'serializable', 'Client Connection Defaults'],
      ['max_connections', '1000', 'Connections and Authentication'],
      ['block_size', '4096', 'Preset Options'],
      ['lc_collate', 'C.UTF-8', 'Preset Options'],
      ['lc_ctype', 'C.UTF-8', 'Preset Options'],
      ['ssl', 'off', 'Connections and Authentication / SSL'],
      ['application_name', '', 'Reporting and Logging'],
      // pgjdbc reads these before getImportedKeys/getExportedKeys and pg_dump before its queries
      ['max_index_keys', '32', 'Preset Options'],
      ['max_function_args', '100', 'Preset Options'],
      ['restrict_nonsystem_relation_kind', '', 'Client Connection Defaults'],
    ];
    const ownValue = new Map(own.map(([name, setting]) => [name.toLowerCase(), setting]));
    this.#settings = new Map(PG_SETTING_ROWS.map((r) => [r[0].toLowerCase(), r[1]]));
    for (const r of PG_SETTING_ROWS) {
      const mine = ownValue.get(r[0].toLowerCase());
      ins('pg_settings', {
        name: r[0],
        setting: mine ?? r[2],
        unit: r[3],
        category: r[4],
        short_desc: r[5],
        context: r[6],
        vartype: r[7],
        source: 'default',
        enumvals: r[8] ? `{${r[8].map((v) => (/^[\w]+$/.test(v) ? v : `"${v}"`)).join(',')}}` : null,
        min_val: r[9],
        max_val: r[10],
        boot_val: mine ?? r[11],
        reset_val: mine ?? r[2],
      });
    }
    for (const [name, setting, category] of own) {
      this.#settings.set(name.toLowerCase(), setting);
      if (PG_SETTING_ROWS.some((r) => r[0] === name)) continue;
      ins('pg_settings', {
        name,
        setting,
        category,
        context: 'user',
        vartype: 'string',
        source: 'default',
        boot_val: setting,
        reset_val: setting,
        short_desc: '',
      });
    }

    this.#relNames = new Map();
    this.#typeNames = new Map();
    this.#indexDefs = new Map();
    this.#constraintDefs = new Map();
    this.#btrees = new Map();
    const ischema = (table: string, row: Record<string, unknown>) => ins(`information_schema.${table}`, row);
    ischema('schemata', { catalog_name: 'patina', schema_name: 'public', schema_owner: user });
    ischema('schemata', { catalog_name: 'patina', schema_name: 'pg_catalog', schema_owner: user });
    ischema('schemata', { catalog_name: 'patina', schema_name: 'information_schema', schema_owner: user });
    ischema('enabled_roles', { role_name: user });
    const sink: CatalogRows = {
      oid: (key) => this.#oid(key),
      ins,
      ischema,
      user,
      relNames: this.#relNames,
      typeNames: this.#typeNames,
      indexDefs: this.#indexDefs,
      constraintDefs: this.#constraintDefs,
      btrees: this.#btrees,
    };
    fillSystemRelations({
      ...sink,
      namespaces: { pg_catalog: NS_CATALOG, information_schema: NS_INFO },
      columns: (schema, relation) =>
        (db.pragma(`${schema}.table_info(${relation})`) as { name: string; type: string }[]).map((c) => ({
          name: c.name,
          type: c.type,
        })),
    });
    // their privileges, and pg_init_privs, as initdb leaves them (pg_dump reads one against the other)
    fillSystemAcls(db, user);
    // the catalog tables PostgreSQL has that Patina answers from elsewhere (pg_authid: pg_roles)
    for (const [name, o] of Object.entries(CATALOG_RELATION_OIDS))
      if (!this.#relNames.has(o)) this.#relNames.set(o, name);
    for (const t of [...schema.tables.values()].sort((a, b) => a.name.localeCompare(b.name))) fillTable(t, sink);
  }

  /** A prepared statement on this connection, cached by its text. */
  prepare(sql: string): Database.Statement {
    let st = this.#cache.get(sql);
    if (st) return st;
    st = this.db.prepare(sql);
    this.#cache.set(sql, st);
    return st;
  }

  /** Runs a read here; rows are arrays of cells with integers narrowed. */
  run(st: Database.Statement, params: Record<string, unknown> | undefined, facts: SessionFacts): unknown[][] {
    this.session = facts;
    if (facts.user !== this.#roleName || facts.database !== this.#databaseName) this.#rename(facts);
    if (this.sessions && st.source.includes('pg_stat_activity')) this.#fillActivity(this.sessions.activity());
    if (st.source.includes('pg_locks')) this.#fillLocks();
    if (facts.prepared && st.source.includes('pg_prepared_statements')) this.#fillPrepared(facts.prepared());
    if (st.source.includes('pg_settings')) this.#fillSettings(facts.settings);
    if (/relpages|reltuples|pg_stat_(?:user|all)_tables|pg_stat_database/.test(st.source)) this.#fillStats();
    try {
      const rows = (params ? st.raw(true).all(params) : st.raw(true).all()) as unknown[][];
      for (const row of rows)
        for (let i = 0; i < row.length; i++) if (typeof row[i] === 'bigint') row[i] = narrowInteger(row[i] as bigint);
      return rows;
    } finally {
      this.session = null;
    }
  }

  // The bootstrap role (oid 10) owns every object, as the initdb user does in PostgreSQL; it carries
  // the name of the user whose statement runs, so that `\dt` and pg_dump's OWNER TO name a real role.
  // The one database is, likewise, the one the client asked for (what current_database() says).
  #roleName = 'patina';
  #databaseName = 'patina';
  /**
   * pg_settings as the running session sees them: its SET values in `setting` (source `session` where
   * they differ from the value at start, as \dconfig reads them; it was `default`),
   * and its settings the static list lacks (statement_timeout, ...) added; the rest as at start.
   */
  #fillSettings(session: ReadonlyMap<string, string>) {
    this.db.pragma('query_only = 0');
    try {
      const drop = this.db.prepare('DELETE FROM pg_catalog.pg_settings WHERE name = ?');
      for (const name of this.#addedSettings) drop.run(name);
      this.#addedSettings.clear();
      this.db.prepare("UPDATE pg_catalog.pg_settings SET setting = reset_val, source = 'default'").run();
      // (a value other than the one at start is the session's, as PostgreSQL's source tells: \dconfig lists it)
      const update = this.db.prepare(
        "UPDATE pg_catalog.pg_settings SET setting = ?, source = CASE WHEN ? IS reset_val THEN 'default' ELSE 'session' END WHERE lower(name) = ?",
      );
      const add = this.db.prepare(
        `INSERT INTO pg_catalog.pg_settings (name, setting, category, context, vartype, source, boot_val, reset_val, short_desc)
         VALUES (?, ?, 'Client Connection Defaults', 'user', 'string', 'session', ?, ?, '')`,
      );
      for (const [name, shown] of session) {
        // (a custom setting, `myapp.tenant`, is no row: PostgreSQL lists none either)
        if (hiddenSetting(name) || name.includes('.')) continue;
        // a duration's setting is in its unit, milliseconds (SHOW's `5s` is 5000 here, as in PostgreSQL)
        const value = name === 'statement_timeout' ? String(durationMs(shown) ?? 0) : settingInUnit(name, shown);
        if (update.run(value, value, name).changes === 0) {
          add.run(name, value, GUC_DEFAULTS[name] ?? '', GUC_DEFAULTS[name] ?? '');
          this.#addedSettings.add(name);
        }
      }
    } finally {
      this.db.pragma('query_only = 1');
    }
  }

  /** pg_stat_activity as the sessions are now: one row per logged-in connection, as PostgreSQL's client backends. */
  /**
   * pg_locks: the advisory locks held and waited for, as PostgreSQL lists them (locktype advisory; a
   * bigint key's high and low 32 bits in classid and objid with objsubid 1, two int4 keys with 2).
   */
  #fillLocks() {
    this.db.pragma('query_only = 0');
    try {
      this.db.prepare('DELETE FROM pg_catalog.pg_locks').run();
      const ins = this.db.prepare(
        `INSERT INTO pg_catalog.pg_locks (locktype, database, classid, objid, objsubid, virtualtransaction, pid, mode, granted, fastpath)
         VALUES ('advisory', 5, ?, ?, ?, ?, ?, ?, ?, 0)`,
      );
      for (const r of this.advisory.rows()) {
        let classid: bigint;
        let objid: bigint;
        let sub: number;
        if (r.key.startsWith('k')) {
          const k = BigInt.asUintN(64, BigInt(r.key.slice(1)));
          [classid, objid, sub] = [k >> 32n, k & 0xffffffffn, 1];
        } else {
          const [a, b] = r.key
            .slice(1)
            .split(',')
            .map((x) => BigInt.asUintN(32, BigInt(x)));
          [classid, objid, sub] = [a, b, 2];
        }
        ins.run(classid, objid, sub, `${r.pid}/1`, r.pid, r.shared ? 'ShareLock' : 'ExclusiveLock', r.granted ? 1 : 0);
      }
    } finally {
      this.db.pragma('query_only = 1');
    }
  }

  /** pg_prepared_statements: the running session's named prepared statements, Parse's and PREPARE's. */
  #fillPrepared(rows: PreparedRow[]) {
    this.db.pragma('query_only = 0');
    try {
      this.db.prepare('DELETE FROM pg_catalog.pg_prepared_statements').run();
      const ins = this.db.prepare(
        `INSERT INTO pg_catalog.pg_prepared_statements (name, statement, prepare_time, parameter_types, from_sql, generic_plans, custom_plans)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      );
      for (const r of rows)
        ins.run(
          r.name,
          r.statement,
          at(r.prepareTime),
          `{${r.parameterTypes.map((t) => arrayItem(t ? regtypeName(t) : 'text')).join(',')}}`,
          r.fromSql ? 1 : 0,
          r.genericPlans,
          r.customPlans,
        );
    } finally {
      this.db.pragma('query_only = 1');
    }
  }

  #fillActivity(rows: ActivityRow[]) {
    this.db.pragma('query_only = 0');
    try {
      this.db.prepare('DELETE FROM pg_catalog.pg_stat_activity').run();
      const ins = this.db.prepare(
        `INSERT INTO pg_catalog.pg_stat_activity (datid, datname, pid, usesysid, usename, application_name, client_addr,
           client_port, backend_start, xact_start, query_start, state_change, state, query, backend_type,
           wait_event_type, wait_event)
         VALUES (5, ?, ?, 10, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'client backend', ?, ?)`,
      );
      for (const r of rows)
        ins.run(
          r.database,
          r.pid,
          r.user,
          r.applicationName,
          r.clientAddr?.replace(/^::ffff:/, '') ?? null,
          r.clientPort,
          at(r.backendStart),
          at(r.xactStart),
          at(r.queryStart),
          at(r.stateChange),
          r.state,
          r.query,
          r.waitEvent?.[0] ?? null,
          r.waitEvent?.[1] ?? null,
        );
    } finally {
      this.db.pragma('query_only = 1');
    }
  }

  /**
   * A relation's bytes as last read (stats): its own btree (`relation`, `table`), its table's indexes
   * (`indexes`), or both (`total`). A primary key that is the rowid has no btree of its own (0).
   * 0 for a catalog relation, null for an OID that is no relation, as PostgreSQL answers.
   */
  #relationBytes(oid: number, part: 'relation' | 'table' | 'indexes' | 'total'): number | null {
    const rel = this.#btrees.get(oid);
    if (!rel) return this.#relNames.has(oid) ? 0 : null;
    const own = rel.btree === null ? 0 : this.stats.get(rel.btree).bytes;
    if (part === 'relation' || part === 'table') return own;
    if (rel.index) return part === 'total' ? own : 0;
    let indexes = 0;
    for (const r of this.#btrees.values())
      if (r.index && r.table === rel.table && r.btree !== null) indexes += this.stats.get(r.btree).bytes;
    return part === 'indexes' ? indexes : own + indexes;
  }

  /**
   * pg_class's relpages and reltuples, pg_stat_user_tables (and _all_, the same user tables) and
   * pg_stat_database from the stats as last read: pages and rows of each btree, live rows of each table.
   */
  #fillStats() {
    this.db.pragma('query_only = 0');
    try {
      const pages = this.db.prepare('UPDATE pg_catalog.pg_class SET relpages = ?, reltuples = ? WHERE oid = ?');
      const live = (name: string) =>
        `INSERT INTO pg_catalog.${name} (relid, schemaname, relname, n_live_tup, n_tup_ins, n_tup_upd, n_tup_del)
           VALUES (?, 'public', ?, ?, ?, ?, ?)`;
      this.db.prepare('DELETE FROM pg_catalog.pg_stat_user_tables').run();
      this.db.prepare('DELETE FROM pg_catalog.pg_stat_all_tables').run();
      const user = this.db.prepare(live('pg_stat_user_tables'));
      const all = this.db.prepare(live('pg_stat_all_tables'));
      for (const [oid, rel] of this.#btrees) {
        const rows = this.stats.get(rel.table).rows;
        // a rowid primary key's index is the table's own btree: its pages are the table's
        pages.run(this.stats.get(rel.btree ?? rel.table).pages, rows, oid);
        if (rel.index) continue;
        const n = this.tableCounts?.of(rel.table);
        const counts = [n?.inserted ?? 0, n?.updated ?? 0, n?.deleted ?? 0];
        user.run(oid, rel.table, rows, ...counts);
        all.run(oid, rel.table, rows, ...counts);
      }
      this.db.prepare('DELETE FROM pg_catalog.pg_stat_database').run();
      // PostgreSQL's row of the shared objects (datid 0), and the one database's
      const sessions = this.sessions?.activity().length ?? 0;
      this.db
        .prepare('INSERT INTO pg_catalog.pg_stat_database (datid, datname, numbackends) VALUES (0, NULL, 0)')
        .run();
      // (the PG front end's transactions and rows since the agent started: statement-counts.ts)
      const c = databaseCounts;
      this.db
        .prepare(
          `INSERT INTO pg_catalog.pg_stat_database (datid, datname, numbackends, xact_commit, xact_rollback, tup_returned,
             tup_fetched, tup_inserted, tup_updated, tup_deleted) VALUES (5, ?, ?, ?, ?, ?, 0, ?, ?, ?)`,
        )
        .run(this.#databaseName, sessions, c.commits, c.rollbacks, c.returned, c.inserted, c.updated, c.deleted);
    } finally {
      this.db.pragma('query_only = 1');
    }
  }

  #rename(facts: SessionFacts) {
    const user = facts.user;
    this.db.pragma('query_only = 0');
    try {
      this.db.prepare('UPDATE pg_catalog.pg_database SET datname = ? WHERE oid = 5').run(facts.database);
      for (const [table, column] of [
        ['schemata', 'catalog_name'],
        ['tables', 'table_catalog'],
        ['columns', 'table_catalog'],
        ['columns', 'udt_catalog'],
        ['table_constraints', 'constraint_catalog'],
        ['table_constraints', 'table_catalog'],
        ['key_column_usage', 'constraint_catalog'],
        ['key_column_usage', 'table_catalog'],
        ['constraint_column_usage', 'constraint_catalog'],
        ['constraint_column_usage', 'table_catalog'],
        ['check_constraints', 'constraint_catalog'],
      ])
        this.db.prepare(`UPDATE information_schema.${table} SET ${column} = ?`).run(facts.database);
      this.#databaseName = facts.database;
      this.db.prepare('UPDATE pg_catalog.pg_roles SET rolname = ? WHERE oid = 10').run(user);
      this.db.prepare('UPDATE pg_catalog.pg_user SET usename = ? WHERE usesysid = 10').run(user);
      this.db.prepare('UPDATE pg_catalog.pg_tables SET tableowner = ?').run(user);
      this.db.prepare('UPDATE pg_catalog.pg_views SET viewowner = ?').run(user);
      this.db.prepare('UPDATE information_schema.schemata SET schema_owner = ?').run(user);
      this.db.prepare('UPDATE information_schema.enabled_roles SET role_name = ?').run(user);
      fillSystemAcls(this.db, user);
      this.#roleName = user;
    } finally {
      this.db.pragma('query_only = 1');
    }
  }

  close(): void {
    this.db.close();
  }
}
