// has_table_privilege and its kin, as PostgreSQL 15's acl.c answers them. Patina has no grants: the
// user may do anything to anything that exists (docs/postgres.md), so what is checked is what
// PostgreSQL checks before it looks at a grant: the object named exists (42P01, 42703, 3F000, 3D000,
// 42883; NULL for an OID that names nothing), the role exists (42704) and each privilege word is one
// of the object's (22023 `unrecognized privilege type`), in PostgreSQL's order for each form.
import { pgError } from '../sqlstate';
import { missingRelation, relationOid } from '../types/reg-input';
import { regproc } from './builtin-procs';

/** What the checks read of the catalog connection. */
export interface PrivilegeCatalog {
  /** The session's user and database. */
  user(): string;
  database(): string;
  relName(oid: number): string | undefined;
  /** A relation's columns by attnum (1 first), undefined for no relation. */
  columns(oid: number): readonly string[] | undefined;
  /** Whether pg_proc lists the OID. */
  procExists(oid: number): boolean;
}

/** The privilege words of each kind of object (acl.c's priv_maps); each also WITH GRANT OPTION. */
const WORDS = {
  table: 'SELECT INSERT UPDATE DELETE TRUNCATE REFERENCES TRIGGER RULE',
  column: 'SELECT INSERT UPDATE REFERENCES',
  database: 'CREATE TEMPORARY TEMP CONNECT',
  function: 'EXECUTE',
  schema: 'CREATE USAGE',
  sequence: 'USAGE SELECT UPDATE',
  role: 'MEMBER USAGE',
} as const;

/**
 * Reads a privilege list ('select, insert'): comma-separated words, case and surrounding spaces
 * ignored; whether it asks for anything (`RULE`, a privilege of old, grants nothing: false there).
 */
function privileges(text: string, kind: keyof typeof WORDS): boolean {
  const words = WORDS[kind].split(' ');
  const options = kind === 'role' ? ['', ' WITH GRANT OPTION', ' WITH ADMIN OPTION'] : ['', ' WITH GRANT OPTION'];
  let any = false;
  for (const chunk of text.split(',')) {
    const word = chunk.trim();
    const upper = word.toUpperCase();
    const base = words.find((w) => options.some((o) => w + o === upper));
    if (base === undefined) throw pgError('22023', `unrecognized privilege type: "${word}"`);
    if (base !== 'RULE') any = true;
  }
  return any;
}

/**
 * PostgreSQL's predefined roles (15), which every database has besides its users: name and OID, in
 * the order pg_authid lists them (local-db.ts fills pg_roles with them), and the roles pg_monitor
 * is a member of (pg_auth_members).
 */
export const PREDEFINED_ROLE_OIDS: [string, number][] = [
  ['pg_database_owner', 6171],
  ['pg_read_all_data', 6181],
  ['pg_write_all_data', 6182],
  ['pg_monitor', 3373],
  ['pg_read_all_settings', 3374],
  ['pg_read_all_stats', 3375],
  ['pg_stat_scan_tables', 3377],
  ['pg_read_server_files', 4569],
  ['pg_write_server_files', 4570],
  ['pg_execute_server_program', 4571],
  ['pg_signal_backend', 4200],
  ['pg_checkpoint', 4544],
];
export const PG_MONITOR_GRANTS = [3374, 3375, 3377];

const PREDEFINED_ROLES = new Set(PREDEFINED_ROLE_OIDS.map(([name]) => name));

/** The schemas by name and OID (Patina's pg_namespace). */
const SCHEMAS = new Map([
  ['pg_catalog', 11],
  ['public', 2200],
  ['information_schema', 13000],
  ['pg_toast', 99],
]);

/** The system columns a table has besides its own (names a column privilege may name). */
const SYSTEM_COLUMNS = new Set(['tableoid', 'cmax', 'xmax', 'cmin', 'xmin', 'ctid']);

const isOid = (x: unknown) => typeof x === 'bigint' || typeof x === 'number';

/** The privilege functions, by name: each takes SQLite's arguments and answers 1, 0 or null. */
export function privilegeFunctions(cat: PrivilegeCatalog): Record<string, (...args: unknown[]) => unknown> {
  /** A role named (an OID is taken as it is: Patina's pg_roles lists its user and pg_database_owner). */
  const role = (x: unknown, publicToo: boolean) => {
    if (isOid(x)) return;
    const name = String(x);
    if (name === cat.user() || PREDEFINED_ROLES.has(name) || (publicToo && name === 'public')) return;
    throw pgError('42704', `role "${name}" does not exist`);
  };
  const relation = (x: unknown) => {
    const oid = relationOid(String(x), cat.database(), true);
    if (oid === null) throw missingRelation(String(x));
    return oid;
  };
  const answer = (asks: boolean) => (asks ? 1 : 0);
  /** The forms with a role first have one argument more than `n`; strict, as PostgreSQL's. */
  const forms =
    (n: number, f: (args: unknown[]) => unknown) =>
    (...args: unknown[]) => {
      if (args.some((a) => a === null)) return null;
      if (args.length > n) {
        role(args[0], true);
        return f(args.slice(1));
      }
      return f(args);
    };
  const table = forms(2, ([rel, priv]) => {
    if (isOid(rel)) {
      const asks = privileges(String(priv), 'table');
      return cat.relName(Number(rel)) === undefined ? null : answer(asks);
    }
    relation(rel);
    return answer(privileges(String(priv), 'table'));
  });
  const column = forms(3, ([rel, col, priv]) => {
    const oid = isOid(rel) ? Number(rel) : relation(rel);
    const columns = cat.columns(oid);
    if (isOid(col)) {
      const asks = privileges(String(priv), 'column');
      const n = Number(col);
      return columns === undefined || n === 0 || n > columns.length ? null : answer(asks);
    }
    const name = String(col);
    if (columns !== undefined && !columns.includes(name) && !SYSTEM_COLUMNS.has(name))
      throw pgError('42703', `column "${name}" of relation "${cat.relName(oid)}" does not exist`);
    const asks = privileges(String(priv), 'column');
    return columns === undefined ? null : answer(asks);
  });
  const anyColumn = forms(2, ([rel, priv]) => {
    const oid = isOid(rel) ? Number(rel) : relation(rel);
    const asks = privileges(String(priv), 'column');
    return cat.columns(oid) === undefined ? null : answer(asks);
  });
  const schema = forms(2, ([nsp, priv]) => {
    if (isOid(nsp)) {
      const asks = privileges(String(priv), 'schema');
      return [...SCHEMAS.values()].includes(Number(nsp)) ? answer(asks) : null;
    }
    if (!SCHEMAS.has(String(nsp))) throw pgError('3F000', `schema "${String(nsp)}" does not exist`);
    return answer(privileges(String(priv), 'schema'));
  });
  const database = forms(2, ([db, priv]) => {
    if (isOid(db)) {
      const asks = privileges(String(priv), 'database');
      return Number(db) === DATABASE_OID ? answer(asks) : null;
    }
    if (String(db) !== cat.database() && !TEMPLATE_DATABASES.has(String(db)))
      throw pgError('3D000', `database "${String(db)}" does not exist`);
    return answer(privileges(String(priv), 'database'));
  });
  const func = forms(2, ([fn, priv]) => {
    if (isOid(fn)) {
      const asks = privileges(String(priv), 'function');
      return cat.procExists(Number(fn)) ? answer(asks) : null;
    }
    // (regprocedure's input: a name with its argument types)
    if (!String(fn).includes('(')) throw pgError('22P02', 'expected a left parenthesis');
    regproc(String(fn));
    return answer(privileges(String(priv), 'function'));
  });
  // Patina has no sequences: every relation is something else (42809), as there for a table
  const sequence = forms(2, ([rel, priv]) => {
    privileges(String(priv), 'sequence');
    if (isOid(rel)) {
      const name = cat.relName(Number(rel));
      if (name === undefined) return null;
      throw pgError('42809', `"${name}" is not a sequence`);
    }
    relation(rel);
    throw pgError('42809', `"${String(rel)}" is not a sequence`);
  });
  // pg_has_role: the role (and user) must exist, PUBLIC is none here
  const hasRole = (...args: unknown[]) => {
    if (args.some((a) => a === null)) return null;
    for (const r of args.slice(0, -1)) role(r, false);
    return answer(privileges(String(args[args.length - 1]), 'role'));
  };
  return {
    has_table_privilege: table,
    has_column_privilege: column,
    has_any_column_privilege: anyColumn,
    has_schema_privilege: schema,
    has_database_privilege: database,
    has_function_privilege: func,
    has_sequence_privilege: sequence,
    pg_has_role: hasRole,
  };
}

/** The databases every PostgreSQL has, which a client may ask about by name though Patina's pg_database lists only its own. */
const TEMPLATE_DATABASES = new Set(['postgres', 'template0', 'template1']);

/** The database's OID in Patina's pg_database. */
const DATABASE_OID = 5;
