// The functions of the catalog connection (local-db.ts): what PostgreSQL's catalog queries call
// (pg_get_indexdef, format_type, current_setting, has_table_privilege, ...), the session facts
// (version(), current_user), and the set-returning ones as table-valued functions (pg_get_keywords,
// pg_options_to_table; unnest and generate_series are on every connection, src/engine/pg-arrays.ts).
import type Database from 'better-sqlite3';
import { installReadFunctions } from '../../../src/engine/functions';
import { parseInterval } from '../../../src/engine/dates';
import { arrayElements, arrayText } from '../../../src/engine/pg-functions';
import {
  NAMESPACE_NAMES,
  OTHER_TYPE_DISPLAY,
  PG_TYPES,
  PSEUDO_TYPE_NAMES,
  TIME_TYPES,
  TYPE_DISPLAY,
  regtypeName,
} from '../types/oids';
import { relationNames } from '../types/relation-names';
import {
  qualifiedName,
  regclassOidOrFail,
  regclassOid,
  regnamespaceOid,
  regtypeOid,
  relationOid,
} from '../types/reg-input';
import { PG_KEYWORDS } from './keywords';
import { pgError } from '../sqlstate';
import { TEXT_SEARCH_OIDS, textSearchComment } from './text-search-rows';
import { searchPathSchemas } from '../sql/search-path-names';
import { applySetting, checkSetting } from '../session/settings';
import type { SessionFacts } from './local-db';
import { BUILTIN_PROCS, functionDef, functionText, regproc } from './builtin-procs';
import { regprocedureText } from './regproc-codecs';
import { OPERATOR_DESCRIPTIONS, OPERATOR_OIDS, toRegoper, toRegoperator } from './builtin-operators';
import { NS_PUBLIC } from './table-rows';
import { TYPE_COMMENTS } from './pg-type-rows';
import { AdvisoryWait, type AdvisoryLocks, SleepRequest } from '../session/advisory-locks';
import { lookup } from '../../../src/lookup';
import { pgFormat } from '../../../src/engine/pg-format';
import { encodingNamed } from '../../../src/engine/pg-bytea';
import { PREDEFINED_ROLE_OIDS, privilegeFunctions } from './privileges';
import { aclDefault } from './system-acls';
import { regconfigName } from './regconfig';
import { describeObject } from './describe-object';

/** What the functions read of the catalog connection, as it is now (the maps are replaced at each schema refresh). */
export interface CatalogState {
  session(): SessionFacts | null;
  /** The bytes of the agent's database on disk (its SQLite file and WAL). */
  databaseBytes(): number;
  /** pg_cancel_backend (false) or pg_terminate_backend (true) of a pid: whether such a session was signalled. */
  signal(pid: number, terminate: boolean): boolean;
  setting(name: string): string | undefined;
  roleName(): string;
  relName(oid: number): string | undefined;
  relNames(): Map<number, string>;
  indexDef(oid: number): string | undefined;
  constraintDef(oid: number): string | undefined;
  /** A relation's bytes on disk: its own, its table's indexes', or both; null for no relation. */
  relationBytes(oid: number, part: 'relation' | 'table' | 'indexes' | 'total'): number | null;
  /** The agent's advisory locks (session/advisory-locks.ts). */
  advisory: AdvisoryLocks;
  /** A relation's columns by attnum (1 first); undefined for an OID that is no relation. */
  columns(oid: number): readonly string[] | undefined;
  /** Whether pg_proc lists a function of this OID. */
  procExists(oid: number): boolean;
  /** The schema of a type pg_type lists; undefined for an OID that is no type. */
  typeNamespace(oid: number): number | undefined;
}

/** The types' comments (pg_description's rows of pg_type), by OID. */
const TYPE_COMMENT = new Map(TYPE_COMMENTS);

/** The properties a DESC column of a btree has otherwise. */
const DESC_FLIPS: Record<string, boolean> = { asc: false, desc: true, nulls_first: true, nulls_last: false };
/** pg_index_column_has_property of an ascending btree column, as PostgreSQL 15 answers. */
const BTREE_COLUMN: Record<string, boolean> = lookup({
  asc: true,
  desc: false,
  nulls_first: false,
  nulls_last: true,
  orderable: true,
  distance_orderable: false,
  returnable: true,
  search_array: true,
  search_nulls: true,
});

/** The forks pg_relation_size names (forkNames in common/relpath.c). */
const FORKS = new Set(['main', 'fsm', 'vm', 'init']);

/** PostgreSQL's encodings by their number (pg_enc in pg_wchar.h), as pg_encoding_to_char names them. */
const ENCODING_NAMES =
  `SQL_ASCII EUC_JP EUC_CN EUC_KR EUC_TW EUC_JIS_2004 UTF8 MULE_INTERNAL LATIN1 LATIN2 LATIN3 LATIN4
LATIN5 LATIN6 LATIN7 LATIN8 LATIN9 LATIN10 WIN1256 WIN1258 WIN866 WIN874 KOI8R WIN1251 WIN1252 ISO_8859_5 ISO_8859_6
ISO_8859_7 ISO_8859_8 WIN1250 WIN1253 WIN1254 WIN1255 WIN1257 KOI8U SJIS BIG5 GBK UHC GB18030 JOHAB SHIFT_JIS_2004`.split(
    /\s+/,
  );

export function registerCatalogFunctions(db: Database.Database, state: CatalogState): void {
  const s = () => state.session();
  const num = (v: unknown) => (typeof v === 'bigint' ? Number(v) : (v as number));
  /** A role's name by OID: the one user (10) or a predefined role; undefined for none. */
  const roleName = (oid: number) =>
    oid === 10 ? state.roleName() : PREDEFINED_ROLE_OIDS.find(([, o]) => o === oid)?.[0];
  const fn = (name: string, f: (...args: unknown[]) => unknown) =>
    db.function(name, { varargs: true, deterministic: false }, f as (...args: unknown[]) => never);
  installReadFunctions(db); // regexp, for `~` and `~*`
  fn('version', () => s()?.version ?? 'PostgreSQL 15.0');
  fn('current_user', () => s()?.user ?? 'patina');
  fn('session_user', () => s()?.user ?? 'patina');
  fn('current_role', () => s()?.user ?? 'patina'); // (`current_role`, the SQL keyword: the current user)
  fn('user', () => s()?.user ?? 'patina');
  fn('parse_ident', (str) =>
    str === null
      ? null
      : arrayText(
          (String(str).match(/"(?:[^"]|"")*"|[^.]+/g) ?? []).map((p) =>
            p.startsWith('"') ? p.slice(1, -1).replace(/""/g, '"') : p.toLowerCase(),
          ),
        ),
  );
  fn('current_database', () => s()?.database ?? 'patina');
  fn('current_catalog', () => s()?.database ?? 'patina');
  fn('current_schema', () => 'public');
  // the schemas of search_path that exist (public; "$user" names none), pg_catalog first when asked
  fn('current_schemas', (implicit) => {
    if (implicit === null) return null; // strict, as PostgreSQL's
    const path = searchPathSchemas(s()?.settings.get('search_path') ?? 'public');
    const found = path.filter((x) => x === 'public' || x === 'pg_catalog' || x === 'information_schema');
    if (num(implicit) && !found.includes('pg_catalog')) found.unshift('pg_catalog');
    return arrayText(found);
  });
  fn('current_setting', (name, missingOk) => {
    if (name === null || missingOk === null) return null; // strict, as PostgreSQL's
    const key = String(name).toLowerCase();
    const v = s()?.settings.get(key) ?? state.setting(key);
    if (v !== undefined) return v;
    if (missingOk !== undefined && num(missingOk)) return null;
    throw pgError('42704', `unrecognized configuration parameter "${String(name)}"`);
  });
  fn('set_config', (name, v, isLocal) => {
    if (name === null) throw pgError('22004', 'SET requires parameter name');
    const key = String(name).toLowerCase();
    checkSetting(key, v === null ? null : String(v));
    s()?.settingChecked?.(key, v === null ? null : String(v));
    const settings = s()?.settings;
    if (!settings) return v;
    const before = settings.get(key);
    // as SET takes it, and answered as SHOW prints it (set_config('datestyle', 'sql') is 'SQL, MDY',
    // set_config('client_encoding', 'latin1', false) LATIN1); the session follows a new client_encoding
    // at once, and reports a change of a reported setting before ReadyForQuery
    if (v === null) settings.set(key, '');
    else applySetting(settings, { name: key, value: String(v) });
    // (in a transaction its end settles it, as SET LOCAL's when is_local: transaction-settings.ts)
    s()?.settingChanged?.(key, before, num(isLocal) === 1);
    return settings.get(key) ?? v;
  });
  fn('pg_backend_pid', () => s()?.pid ?? 0);
  // pg_stat_database's counts are current at every read: nothing to flush or to forget
  fn('pg_stat_force_next_flush', () => '');
  fn('pg_stat_clear_snapshot', () => '');
  // the session's LISTEN channels, one row each (`SELECT * FROM pg_listening_channels()`, or alone
  // in a select list: translate/set-returning.ts names the column after the function or the alias)
  db.table('pg_listening_channels', {
    columns: ['value'],
    *rows() {
      for (const channel of s()?.listening?.() ?? []) yield [channel];
    },
  });
  // a session's running statement cancelled (57014 there), or its connection ended (57P01), as
  // pgAdmin's and DBeaver's session managers ask; false for a pid that is no session, with
  // PostgreSQL's WARNING
  const signal = (pid: unknown, terminate: boolean) => {
    if (pid === null) return null;
    if (state.signal(num(pid), terminate)) return 1;
    s()?.notice?.('01000', `PID ${num(pid)} is not a PostgreSQL backend process`);
    return 0;
  };
  // advisory locks, by a bigint or two int4s (two key spaces, as in PostgreSQL), of the running
  // session; one that must wait throws AdvisoryWait (the session runs the statement again)
  const lockKey = (args: unknown[]) =>
    args.length === 1 ? `k${String(args[0])}` : `p${String(args[0])},${String(args[1])}`;
  const advisory =
    (shared: boolean, xact: boolean, tries: boolean) =>
    (...args: unknown[]) => {
      const pid = s()?.pid;
      if (pid === undefined || args.some((a) => a === null)) return null;
      const key = lockKey(args);
      if (state.advisory.take(pid, key, shared, xact)) return tries ? 1 : '';
      if (tries) return 0;
      throw new AdvisoryWait(key, shared);
    };
  for (const [name, shared, xact, tries] of [
    ['pg_advisory_lock', false, false, false],
    ['pg_advisory_lock_shared', true, false, false],
    ['pg_try_advisory_lock', false, false, true],
    ['pg_try_advisory_lock_shared', true, false, true],
    ['pg_advisory_xact_lock', false, true, false],
    ['pg_advisory_xact_lock_shared', true, true, false],
    ['pg_try_advisory_xact_lock', false, true, true],
    ['pg_try_advisory_xact_lock_shared', true, true, true],
  ] as const)
    fn(name, advisory(shared, xact, tries));
  for (const shared of [false, true])
    fn(shared ? 'pg_advisory_unlock_shared' : 'pg_advisory_unlock', (...args) => {
      const pid = s()?.pid;
      if (pid === undefined || args.some((a) => a === null)) return null;
      if (state.advisory.release(pid, lockKey(args), shared)) return 1;
      s()?.notice?.('01000', `you don't own a lock of type ${shared ? 'ShareLock' : 'ExclusiveLock'}`);
      return 0;
    });
  fn('pg_advisory_unlock_all', () => {
    const pid = s()?.pid;
    if (pid !== undefined) state.advisory.releaseSession(pid);
    return '';
  });
  fn('pg_cancel_backend', (pid) => signal(pid, false));
  fn('pg_terminate_backend', (pid, timeout) => {
    // (strict; its wait for the end is checked first, as there; Patina's sessions end at once)
    if (timeout === null) return null;
    if (timeout !== undefined && Number(timeout) < 0) throw pgError('22003', '"timeout" must not be negative');
    return signal(pid, true);
  });
  fn('inet_server_addr', () => '127.0.0.1');
  fn('inet_server_port', () => 5432);
  fn('inet_client_addr', () => '127.0.0.1');
  fn('pg_is_in_recovery', () => 0);
  fn('pg_postmaster_start_time', () => STARTED);
  // (a bigint: a JS number past 2^31 would reach SQLite as a double)
  fn('txid_current', () => BigInt(s()?.xid?.() ?? 1));
  fn('pg_current_xact_id', () => BigInt(s()?.xid?.() ?? 1)); // (PostgreSQL 13's name for txid_current)
  // pg_sleep, pg_sleep_for, pg_sleep_until: the first time a statement calls one it throws
  // SleepRequest and the session waits off the agent's thread, then runs the statement again with
  // `slept` set (every call of it then returns at once: a statement sleeps once, its longest)
  const sleep = (ms: number | null) => {
    if (ms === null) return null;
    if (s()?.slept || ms <= 0) return '';
    throw new SleepRequest(ms);
  };
  fn('pg_sleep', (secs) => sleep(secs === null ? null : Number(secs) * 1000));
  fn('pg_sleep_for', (iv) => sleep(iv === null ? null : intervalMs(String(iv))));
  fn('pg_sleep_until', (at) =>
    sleep(at === null ? null : Date.parse(`${String(at).replace(' ', 'T').replace(/\+00$/, '')}Z`) - Date.now()),
  );
  function intervalMs(text: string): number | null {
    const iv = parseInterval(text);
    return iv === null ? null : (iv.months * 30 + iv.days) * 86_400_000 + iv.micros / 1000;
  }
  // to_regproc('now'), to_regprocedure('upper(text)'), to_regtype('integer'): the object's name, NULL for none
  const orNull = <T>(f: () => T): T | null => {
    try {
      return f();
    } catch {
      return null;
    }
  };
  // (a name that cannot be one is an error, as there: '' is 42602, a procedure without its
  // argument list 22P02, an empty type name 42601)
  fn('to_regproc', (x) => {
    if (x === null) return null;
    qualifiedName(String(x));
    return orNull(() => (regproc(String(x)) ? String(x).replace(/^pg_catalog\./, '') : null));
  });
  fn('to_regprocedure', (x) =>
    x === null
      ? null
      : !String(x).includes('(')
        ? failWith(pgError('22P02', 'expected a left parenthesis'))
        : // (printed as PostgreSQL prints it: to_regprocedure('abs(int4)') is abs(integer))
          orNull(() => regprocedureText(String(x))),
  );
  // to_regoper('||/'), to_regoperator('+(integer,integer)'): pg_operator's operator (builtin-operators.ts)
  fn('to_regoper', (x) => (x === null ? null : toRegoper(String(x))));
  fn('to_regoperator', (x) => (x === null ? null : toRegoperator(String(x))));
  // to_regnamespace('public'): the schema's OID (printed as its name), NULL for none
  fn('to_regnamespace', (x) => {
    if (x === null) return null;
    // (one name: a qualified one is 42602, as there)
    if (qualifiedName(String(x)).length !== 1) throw pgError('42602', 'invalid name syntax');
    return orNull(() => BigInt(regnamespaceOid(String(x))));
  });
  // to_regrole('name'): the role's name (typed regrole, which has no binary form here: sent as
  // text), NULL for none; the roles are pg_roles' (the session's user and the predefined roles)
  fn('to_regrole', (x) => {
    if (x === null) return null;
    const parts = qualifiedName(String(x));
    if (parts.length !== 1) throw pgError('42602', 'invalid name syntax');
    const user = s()?.user ?? state.roleName();
    return parts[0] === user || PREDEFINED_ROLE_OIDS.some(([name]) => name === parts[0]) ? parts[0] : null;
  });
  fn('to_regtype', (x) =>
    x === null
      ? null
      : String(x).trim() === ''
        ? failWith(pgError('42601', `invalid type name "${String(x)}"`))
        : orNull(() => regtypeName(regtypeOid(String(x)))),
  );
  fn('pg_get_userbyid', (oid) => (oid === null ? null : (roleName(num(oid)) ?? `unknown (OID=${num(oid)})`)));
  // an encoding's name by PostgreSQL's number (pg_wchar.h's order), '' for a number it has none for
  fn('pg_encoding_to_char', (n) => (n === null ? null : (ENCODING_NAMES[num(n)] ?? '')));
  fn('pg_client_encoding', () => s()?.settings.get('client_encoding') ?? 'UTF8');
  // an encoding's number by any of its names, as pg_char_to_encoding reads them ('utf-8', 'latin1'); -1 for none
  fn('pg_char_to_encoding', (name) => {
    if (name === null) return null;
    const enc = encodingNamed(String(name));
    return enc === undefined ? -1 : ENCODING_NAMES.indexOf(enc);
  });
  // a relation or type is visible unless it is information_schema's (not on the search path); NULL
  // for an OID that names none, as PostgreSQL answers
  fn('pg_table_is_visible', (o) => {
    const name = o === null ? undefined : state.relName(num(o));
    return name === undefined ? null : name.startsWith('information_schema.') ? 0 : 1;
  });
  fn('pg_type_is_visible', (o) => {
    const ns = o === null ? undefined : state.typeNamespace(num(o));
    return ns === undefined ? null : ns === 13000 ? 0 : 1; // (information_schema's)
  });
  // (a `'now'::regproc` comes as its text: looked up)
  fn('pg_function_is_visible', (o) => (o === null || !state.procExists(procOid(o)) ? null : 1));
  // (every operator is pg_catalog's, on the search path)
  fn('pg_operator_is_visible', (o) => (o === null || !OPERATOR_OIDS.has(num(o)) ? null : 1));
  // (the text search objects listed are pg_catalog's: text-search-rows.ts)
  for (const kind of ['config', 'dict', 'parser', 'template'])
    fn(`pg_ts_${kind}_is_visible`, (o) => (o === null || !TEXT_SEARCH_OIDS.has(num(o)) ? null : 1));
  fn('pg_my_temp_schema', () => 0);
  fn('pg_is_other_temp_schema', () => 0);
  const privilege = privilegeFunctions({
    user: () => s()?.user ?? state.roleName(),
    database: () => s()?.database ?? 'patina',
    relName: (oid) => state.relName(oid),
    columns: (oid) => state.columns(oid),
    procExists: (oid) => state.procExists(oid),
  });
  for (const [name, f] of Object.entries(privilege)) fn(name, f);
  // (the invalid OID 0 is '-', as PostgreSQL prints it)
  fn('format_type', (oid, typmod) =>
    oid === null
      ? null
      : num(oid) === 0
        ? '-'
        : formatType(num(oid), typmod === null || typmod === undefined ? -1 : num(typmod)),
  );
  fn('pg_get_expr', (expr) => (expr === null ? null : String(expr)));
  fn('pg_get_indexdef', (oid, col) => {
    const def = state.indexDef(num(oid)) ?? null;
    if (def === null || col === undefined || num(col) === 0) return def;
    const cols = /\((.*)\)$/.exec(def)?.[1].split(', ') ?? [];
    // (one column is its name alone, without DESC, as PostgreSQL's)
    return cols[num(col) - 1]?.replace(/ DESC$/, '') ?? '';
  });
  // a property of an index column (DBD::Pg's statistics_info asks 'asc', 'desc', 'nulls_first',
  // 'nulls_last'; unknown, the whole query was answered with no rows): Patina's indexes are btrees
  // of ascending columns, nulls last, or descending ones, nulls first, as PostgreSQL 15 answers; NULL for no such index,
  // column or property, as there
  fn('pg_index_column_has_property', (oid, col, prop) => {
    const def = oid === null ? null : (state.indexDef(num(oid)) ?? null);
    const cols = /\((.*)\)$/.exec(def ?? '')?.[1].split(', ') ?? [];
    if (col === null || num(col) < 1 || num(col) > cols.length || prop === null) return null;
    const p = String(prop).toLowerCase();
    // (a DESC column is descending, nulls first, as PostgreSQL's default for DESC)
    const desc = cols[num(col) - 1].endsWith(' DESC');
    const v = desc && p in DESC_FLIPS ? DESC_FLIPS[p] : BTREE_COLUMN[p];
    return v === undefined ? null : v ? 1 : 0;
  });
  fn('pg_get_constraintdef', (oid) => state.constraintDef(num(oid)) ?? null);
  for (const name of [
    'pg_get_function_sqlbody',
    'col_description',
    'shobj_description',
    'pg_get_viewdef',
    'pg_get_triggerdef',
    'pg_get_ruledef',
    'pg_get_serial_sequence',
    'pg_get_statisticsobjdef_columns',
    'pg_get_partkeydef',
    'pg_get_partition_constraintdef',
  ])
    fn(name, () => null);
  // the two tablespaces there are (pg_default, pg_global; 0 is the database's) are in the data
  // directory: '', as PostgreSQL answers for them (pgcli's `\db` showed NULL as "Not supported")
  fn('pg_tablespace_location', (oid) => (oid === null ? null : [0, 1663, 1664].includes(num(oid)) ? '' : null));
  // the builtin functions pg_proc lists (builtin-procs.ts), as PostgreSQL 15 describes them
  // (a `'upper(text)'::regprocedure` comes as its text: looked up)
  const procOid = (x: unknown) => (typeof x === 'string' && !/^\d+$/.test(x) ? regproc(x) : num(x));
  fn('pg_get_functiondef', (oid) => (oid === null ? null : functionDef(procOid(oid))));
  fn('pg_get_function_arguments', (oid) => (oid === null ? null : functionText(procOid(oid), 'arguments')));
  fn('pg_get_function_identity_arguments', (oid) => (oid === null ? null : functionText(procOid(oid), 'identity')));
  fn('pg_get_function_result', (oid) => (oid === null ? null : functionText(procOid(oid), 'result')));
  // a comment: a builtin function's, a type's, and the public schema's standard one (pg_description's rows)
  fn('obj_description', (oid, catalog) => {
    if (oid === null) return null;
    const of = catalog === undefined || catalog === null ? null : String(catalog);
    if ((of === null || of === 'pg_proc') && BUILTIN_PROCS.has(num(oid))) return BUILTIN_PROCS.get(num(oid))![19];
    if ((of === null || of === 'pg_type') && TYPE_COMMENT.has(num(oid))) return TYPE_COMMENT.get(num(oid))!;
    if ((of === null || of === 'pg_operator') && OPERATOR_DESCRIPTIONS.has(num(oid)))
      return OPERATOR_DESCRIPTIONS.get(num(oid))!;
    const textSearch = textSearchComment(num(oid), of);
    if (textSearch !== undefined) return textSearch;
    return (of === null || of === 'pg_namespace') && num(oid) === NS_PUBLIC ? 'standard public schema' : null;
  });
  fn('__pg_regproc', (x) => (x === null ? null : procOid(String(x))));
  fn('pg_relation_is_publishable', () => 0);
  // a relation's bytes in the SQLite file (dbstat, as last read: relation-stats.ts); a fork other
  // than main has none
  const relOid = (x: unknown) => {
    const o = typeof x === 'string' && !/^\d+$/.test(x) ? regclass(x) : num(typeof x === 'string' ? Number(x) : x);
    return typeof o === 'number' ? o : null;
  };
  const size = (part: 'relation' | 'table' | 'indexes' | 'total') => (rel: unknown, fork?: unknown) => {
    // (strict: a NULL fork is NULL; a name that is no fork is 22023 before the relation is looked at)
    if (fork === null) return null;
    if (fork !== undefined && !FORKS.has(String(fork))) {
      const err = pgError('22023', 'invalid fork name');
      err.hint = 'Valid fork names are "main", "fsm", "vm", and "init".';
      throw err;
    }
    const oid = rel === null ? null : relOid(rel);
    if (oid === null) return null;
    if (fork !== undefined && String(fork) !== 'main') return 0;
    return state.relationBytes(oid, part);
  };
  fn('pg_relation_size', size('relation'));
  fn('pg_table_size', size('table'));
  fn('pg_indexes_size', size('indexes'));
  fn('pg_total_relation_size', size('total'));
  // the one database is the agent's SQLite file: its size on disk, with its WAL
  // (an OID that names no database is NULL, a name 3D000, as there: the one is OID 5, named as the session's)
  fn('pg_database_size', (db) => {
    if (db === null) return null;
    if (typeof db === 'string' && !/^\d+$/.test(db)) {
      if (db !== (s()?.database ?? db)) throw pgError('3D000', `database "${db}" does not exist`);
    } else if (Number(db) !== 5) return null;
    return state.databaseBytes();
  });
  fn('pg_size_pretty', (n) => (n === null ? null : sizePretty(num(n))));
  // (quote_ident, quote_literal and quote_nullable are every connection's: src/engine/pg-strings.ts)
  // the privileges an object has before any GRANT, its owner named (a role that is none: its OID), as pg_dump reads them
  fn('acldefault', (type, owner) =>
    type === null || owner === null ? null : aclDefault(String(type), roleName(num(owner)) ?? String(num(owner))),
  );
  for (const side of ['both', 'leading', 'trailing'] as const)
    fn(`__pg_trim_${side}`, (chars, str) => {
      if (str === null || chars === null) return null;
      const set = new Set([...String(chars)]);
      const cs = [...String(str)];
      let a = 0;
      let b = cs.length;
      if (side !== 'trailing') while (a < b && set.has(cs[a])) a++;
      if (side !== 'leading') while (b > a && set.has(cs[b - 1])) b--;
      return cs.slice(a, b).join('');
    });
  // read as PostgreSQL reads a name: `"Mixed"` keeps its case, `Plain` is folded
  const nameParts = (x: unknown) =>
    [...String(x).matchAll(/\s*(?:"((?:[^"]|"")*)"|([^".\s]+))\s*(?:\.|$)/g)].map((m) =>
      m[1] !== undefined ? m[1].replace(/""/g, '"') : m[2].toLowerCase(),
    );
  const regclass = (x: unknown) => {
    if (x === null) return null;
    // (an OID is one already, printed as its name where the value is a result: types/registry.ts)
    if (typeof x === 'bigint' || typeof x === 'number' || /^\d+$/.test(String(x)))
      return num(typeof x === 'string' ? Number(x) : x);
    return regclassOid(String(x));
  };
  // 'name'::regclass: the relation's OID; PostgreSQL's 42P01 when there is none
  // (an integer, as SQLite keeps it: a JS number would be a REAL, `16392.0` made text)
  fn('__pg_regclass', (x) => {
    const o = regclass(x);
    return o === null ? (x === null ? null : BigInt(regclassOidOrFail(String(x)))) : BigInt(o);
  });
  // a regclass made text: the relation's name, as PostgreSQL prints it (its OID when it has none)
  fn('__pg_regclass_text', (x) => {
    if (x === null) return null;
    const o = regclass(x);
    return typeof o === 'number' ? (o === 0 ? '-' : (state.relName(o) ?? String(o))) : String(x);
  });
  // currval, nextval, setval: Patina has no sequences (a schema cannot declare one), so no name
  // is one: PostgreSQL's 42P01 for a name that is no relation, 42809 for a table or an index (what
  // DBD::Pg's last_insert_id with a sequence name reports; `pg_catalog.currval(?)` was answered
  // with no rows, as a catalog query Patina cannot run)
  const noSequence = (x: unknown) => {
    if (x === null) return null;
    const o = regclass(x);
    if (o === null) throw pgError('42P01', `relation "${nameParts(x).join('.')}" does not exist`);
    throw pgError('42809', `"${state.relName(o) ?? o}" is not a sequence`);
  };
  for (const name of ['currval', 'nextval', 'setval']) fn(name, noSequence);
  // to_regclass('name'): the relation's OID, NULL when there is none or its schema is none; a name
  // that cannot be one is PostgreSQL's error (42602 for '', 0A000 for another database's)
  fn('to_regclass', (x) => {
    const o = x === null ? null : relationOid(String(x), s()?.database ?? 'patina', false);
    return o === null ? null : BigInt(o);
  });
  // 'integer'::regtype, 'int4'::regtype, 'trigger'::regtype: the type's OID (42704 for no type); an
  // OID: its name as format_type prints it
  // (the OID an integer, as SQLite keeps it: a JS number would be a REAL, `23.0` made text)
  fn('__pg_regtype', (x) =>
    x === null ? null : typeof x === 'string' && !/^\d+$/.test(x) ? BigInt(regtypeOid(x)) : regtypeName(num(x)),
  );
  // a regtype made text: an OID's type name; a name (pg_typeof's, an OID's cast) as it is
  fn('__pg_regtype_text', (x) =>
    x === null
      ? null
      : typeof x === 'string' && !/^\d+$/.test(x)
        ? x
        : regtypeName(num(typeof x === 'string' ? Number(x) : x)),
  );
  // oidvector::regtype[] (pg_proc.proargtypes, which pgcli's completion reads): the names, counted
  // from 0 as the vector is ([0:1]={text,integer}); an array ('{25,23}') from 1
  fn('__pg_regtype_array', (x) => {
    if (x === null) return null;
    const text = String(x);
    const vector = !/^\s*[{[]/.test(text);
    const names = arrayElements(x).map((e) => (e === null ? null : regtypeName(num(e as number))));
    const body = arrayText(names);
    return vector && names.length > 0 ? `[0:${names.length - 1}]=${body}` : body;
  });
  // relnamespace::regnamespace: the schema's name; 'public'::regnamespace: its OID, which catalog
  // queries compare with relnamespace (`relnamespace = 'public'::regnamespace` matched nothing: the
  // name stayed text); 3F000 for no such schema
  fn('__pg_regnamespace', (x) => {
    if (x === null) return null;
    if (typeof x !== 'string' || /^\s*\d+\s*$/.test(x)) return NAMESPACE_NAMES[num(x)] ?? String(x);
    return BigInt(regnamespaceOid(x));
  });
  // (a regprocedure written in the statement is held as its text: `'upper(text)'::regprocedure`)
  fn('pg_describe_object', (classid, objid, subid) =>
    classid === null || objid === null || subid === null
      ? null
      : num(classid) === 1255 && typeof objid === 'string' && !/^\s*\d+\s*$/.test(objid)
        ? `function ${regprocedureText(objid)}`
        : describeObject(
            {
              relName: state.relName,
              indexDef: state.indexDef,
              columns: state.columns,
              namespaces: NAMESPACE_NAMES,
            },
            num(classid),
            num(objid),
            num(subid),
          ),
  );
  // a regconfig made text: an OID's configuration name; a name as it is
  fn('__pg_regconfig_text', (x) =>
    x === null ? null : typeof x === 'string' && !/^\s*\d+\s*$/.test(x) ? x : regconfigName(num(Number(x))),
  );
  // a regnamespace made text: an OID's schema name; a name (relnamespace::regnamespace) as it is
  fn('__pg_regnamespace_text', (x) => {
    if (x === null) return null;
    if (typeof x === 'string' && !/^\s*\d+\s*$/.test(x)) return x;
    return NAMESPACE_NAMES[num(typeof x === 'string' ? Number(x) : x)] ?? String(x);
  });
  db.table('pg_options_to_table', {
    columns: ['option_name', 'option_value'],
    parameters: ['options'],
    *rows(options: unknown) {
      for (const o of arrayElements(options)) {
        const [k, ...v] = String(o).split('=');
        yield [k, v.join('=')];
      }
    },
  });
  db.table('pg_get_keywords', {
    columns: ['word', 'catcode', 'barelabel', 'catdesc', 'baredesc'],
    *rows() {
      for (const k of PG_KEYWORDS) yield k;
    },
  });
  // PostgreSQL's format() (Metabase's `format('%I.%I', schema, table)`); src/engine/pg-format.ts
  db.function('format', { deterministic: true, varargs: true }, (fmt: unknown, ...args: unknown[]) =>
    pgFormat(fmt, args),
  );
}

/** Throws `err` where an expression wants a value. */
function failWith(err: Error): never {
  throw err;
}

let STARTED = new Date().toISOString().replace('T', ' ').replace('Z', '+00');

/** pg_postmaster_start_time() as this process answers it (the agent's start, also in its catalog workers). */
export function postmasterStart(set?: string): string {
  if (set !== undefined) STARTED = set;
  return STARTED;
}

/** pg_size_pretty as PostgreSQL 15 rounds it: bytes below 10 kB, then kB, MB, GB, TB, PB, each halved-and-rounded. */
export function sizePretty(size: number): string {
  const limit = 10 * 1024;
  const limit2 = limit * 2 - 1;
  if (Math.abs(size) < limit) return `${size} bytes`;
  const half = (n: number) => (n < 0 ? Math.trunc((n - 1) / 2) : Math.trunc((n + 1) / 2));
  let n = Math.trunc(size / 2 ** 9); // in half-kB
  for (const unit of ['kB', 'MB', 'GB', 'TB']) {
    if (Math.abs(n) < limit2) return `${half(n)} ${unit}`;
    n = Math.trunc(n / 2 ** 10);
  }
  return `${half(n)} PB`;
}

/** format_type(oid, typmod): the type's SQL name, with its length or precision from typmod. */
function formatType(oid: number, typmod: number): string {
  const name =
    TYPE_DISPLAY[oid] ??
    PG_TYPES.find((r) => r[0] === oid)?.[1] ??
    PSEUDO_TYPE_NAMES[oid] ??
    OTHER_TYPE_DISPLAY[oid] ??
    relationNames().typeName(oid) ??
    '???';
  if (typmod < 0) return name;
  if (oid === 1043 || oid === 1042) return `${name}(${typmod - 4})`;
  if (oid === 1700) return `${name}(${((typmod - 4) >> 16) & 0xffff},${(typmod - 4) & 0xffff})`;
  // timestamp(6) without time zone, time(3) without time zone: the digits after the type's first word
  if (TIME_TYPES.has(oid)) return name.replace(/^(\w+)/, `$1(${typmod})`);
  return name;
}
