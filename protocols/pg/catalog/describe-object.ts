// pg_describe_object(classid, objid, objsubid): an object's description as PostgreSQL's
// getObjectDescription words it, for the objects Patina's catalog lists: functions, languages, the
// plpgsql extension, schemas, types and relations (their columns too). psql's `\dx+` describes
// what pg_depend says an extension holds: plpgsql's language and its three handler functions,
// whose rows extensionDependencies gives (pg_depend was empty: `\dx+ plpgsql` listed nothing).
import { pgError } from '../sqlstate';
import { regtypeName } from '../types/oids';
import { BUILTIN_PROCS, functionText } from './builtin-procs';
import { catalogRelation } from './catalog-relation';
import { CATALOG_RELATION_OIDS } from './relation-oids';

/** The plpgsql extension, its language and the language's handler, inline handler and validator (PostgreSQL 15's OIDs). */
const PLPGSQL = { extension: 13559, language: 13563, functions: [13560, 13561, 13562] };

/** plpgsql's functions, which pg_proc does not list (Patina runs no function body), with their identity arguments. */
const PLPGSQL_FUNCTIONS = new Map([
  [13560, 'plpgsql_call_handler()'],
  [13561, 'plpgsql_inline_handler(internal)'],
  [13562, 'plpgsql_validator(oid)'],
]);

const LANGUAGES = new Map([
  [12, 'internal'],
  [13, 'c'],
  [14, 'sql'],
  [PLPGSQL.language, 'plpgsql'],
]);

/** pg_depend's rows of the plpgsql extension, as initdb leaves them: [classid, objid, refclassid, refobjid, deptype]. */
export function extensionDependencies(): [number, number, number, number, string][] {
  return [
    ...PLPGSQL.functions.map((f): [number, number, number, number, string] => [1255, f, 3079, PLPGSQL.extension, 'e']),
    [2612, PLPGSQL.language, 3079, PLPGSQL.extension, 'e'],
    ...PLPGSQL.functions.map((f): [number, number, number, number, string] => [2612, PLPGSQL.language, 1255, f, 'n']),
  ];
}

/** What the description reads of the catalog connection. */
export interface DescribedCatalog {
  relName(oid: number): string | undefined;
  indexDef(oid: number): string | undefined;
  columns(oid: number): readonly string[] | undefined;
  namespaces: Readonly<Record<number, string>>;
}

const CATALOGS = new Set(Object.values(CATALOG_RELATION_OIDS));

/** The description; null for an object the catalog does not list; XX000 for a class that is no catalog, as PostgreSQL's. */
export function describeObject(cat: DescribedCatalog, classid: number, objid: number, subid: number): string | null {
  switch (classid) {
    case 1255: {
      // (pg_catalog is always searched: a builtin's name is unqualified)
      const args = functionText(objid, 'identity');
      const name = PLPGSQL_FUNCTIONS.get(objid);
      if (name !== undefined) return `function ${name}`;
      return args === null ? null : `function ${BUILTIN_PROCS.get(objid)?.[1]}(${args})`;
    }
    case 2612: {
      const name = LANGUAGES.get(objid);
      return name === undefined ? null : `language ${name}`;
    }
    case 3079:
      return objid === PLPGSQL.extension ? 'extension plpgsql' : null;
    case 2615: {
      const name = cat.namespaces[objid];
      return name === undefined ? null : `schema ${name}`;
    }
    case 1247: {
      const name = regtypeName(objid);
      return name === String(objid) ? null : `type ${name}`;
    }
    case 1259: {
      const name = cat.relName(objid);
      if (name === undefined) return null;
      const bare = name.replace(/^information_schema\./, '');
      const schema = bare === name ? 'pg_catalog' : 'information_schema';
      const kind = cat.indexDef(objid) !== undefined ? 'index' : catalogRelation(schema, bare)?.view ? 'view' : 'table';
      if (subid === 0) return `${kind} ${name}`;
      const column = cat.columns(objid)?.[subid - 1];
      return column === undefined ? null : `column ${column} of ${kind} ${name}`;
    }
  }
  if (CATALOGS.has(classid) || classid === 0) return null;
  throw pgError('XX000', `unrecognized object class: ${classid}`);
}
