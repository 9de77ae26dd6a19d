// The input of regtype, regnamespace and regclass: a name's OID, read as PostgreSQL's regtypein,
// regnamespacein and regclassin read it (quoted parts keep their case, plain ones are folded). One
// home for the catalog connection's __pg_reg* functions (catalog/catalog-functions.ts) and for the
// cast of a name written in the statement, which the translation resolves once (translate/casts.ts),
// so that a statement reading the database's tables, which runs where those functions are not, has it.
import { pgError } from '../sqlstate';
import { OTHER_TYPE_ROWS } from '../catalog/pg-type-rows';
import { NAMESPACE_NAMES, OTHER_TYPE_DISPLAY, PG_TYPES, PSEUDO_TYPE_NAMES, TYPE_DISPLAY } from './oids';
import { arrayOidOf } from './registry';
import { relationNames } from './relation-names';
import { lookup } from '../../../src/lookup';

/** Aliases regtype's input takes besides PostgreSQL's names (format_type's and pg_type's). */
const TYPE_ALIASES: Record<string, string> = lookup({
  int: 'integer', decimal: 'numeric', float: 'double precision', char: 'bpchar', bool: 'boolean',
  timestamptz: 'timestamp with time zone', timetz: 'time with time zone', varchar: 'character varying',
  any: '"any"',
}); // biome-ignore format: a table

/** regtype's input: a type's OID by any of its names; 42704 as in PostgreSQL for none. */
export function regtypeOid(input: string): number {
  const name = input.trim().replace(/^pg_catalog\./i, '');
  const quoted = /^".*"$/.test(name) && name !== '"any"';
  const folded = quoted ? name.slice(1, -1) : name.toLowerCase().replace(/\s+/g, ' ');
  // (a quoted name is pg_type's own: `"char"` is the one-byte type, `char` bpchar)
  const wanted = quoted ? folded : (TYPE_ALIASES[folded] ?? folded);
  if (wanted.endsWith('[]')) {
    const elem = regtypeOid(wanted.slice(0, -2));
    // (an array of one of PostgreSQL's other types: inet[])
    const array = arrayOidOf(elem) ?? OTHER_TYPE_ROWS.find((r) => r[0] === elem)?.[9];
    if (array) return array;
  }
  const row = PG_TYPES.find((r) => r[1] === wanted) ?? OTHER_TYPE_ROWS.find((r) => r[1] === wanted);
  if (row) return row[0];
  for (const table of [TYPE_DISPLAY, PSEUDO_TYPE_NAMES, OTHER_TYPE_DISPLAY])
    for (const [oid, n] of Object.entries(table)) if (n === wanted) return Number(oid);
  // a table's row type, or its array type (`t[]`, `_t`), also as `public.t`
  const own = relationNames().typeOid(wanted.replace(/^public\./, ''));
  if (own !== undefined) return own;
  throw pgError('42704', `type "${input}" does not exist`);
}

/** regnamespace's input: a schema's OID by its name; 3F000 as in PostgreSQL for none. */
export function regnamespaceOid(input: string): number {
  const quoted = /^".*"$/.test(input.trim());
  const name = input.trim().replace(/^"(.*)"$/, '$1');
  const oid = Object.entries(NAMESPACE_NAMES).find(([, n]) => n === (quoted ? name : name.toLowerCase()))?.[0];
  if (oid === undefined) throw pgError('3F000', `schema "${name}" does not exist`);
  return Number(oid);
}

/**
 * regclass's input: a relation's OID by its name, as the catalog lists it (types/relation-names.ts),
 * or null when there is none. `"Mixed"` keeps its case, `Plain` is folded, `"public"."t"` and
 * `pg_catalog.t` name t; information_schema's relations are known by their qualified names (it is
 * not on the search path).
 */
export function regclassOid(input: string): number | null {
  const parts = [...input.matchAll(/\s*(?:"((?:[^"]|"")*)"|([^".\s]+))\s*(?:\.|$)/g)].map((m) =>
    m[1] !== undefined ? m[1].replace(/""/g, '"') : m[2].toLowerCase(),
  );
  const name = parts.length > 1 && ['public', 'pg_catalog'].includes(parts[0]) ? parts[1] : parts.join('.');
  return relationNames().oid(name) ?? null;
}

/**
 * 'name'::regclass: the relation's OID as relationOid reads the name (a first part naming a
 * database is taken for the session's: the cast is resolved before a session is known); PostgreSQL's
 * 42P01 when there is none, 3F000 for no such schema.
 */
export function regclassOidOrFail(input: string): number {
  const o = relationOid(input, null, true);
  if (o === null) throw missingRelation(input);
  return o;
}

/** 42P01 `relation "public.nosuch" does not exist`, naming the relation as the user qualified it (not its database). */
export function missingRelation(input: string): Error {
  return pgError('42P01', `relation "${qualifiedName(input).slice(-2).join('.')}" does not exist`);
}

/**
 * A qualified name as PostgreSQL's textToQualifiedNameList reads one (`"Mixed".plain` is
 * [`Mixed`, `plain`]): quoted parts keep their case and may hold dots, plain ones are folded;
 * 42602 `invalid name syntax` for nothing, an empty part or an unclosed quote.
 */
export function qualifiedName(input: string): string[] {
  const parts: string[] = [];
  let i = 0;
  const space = () => {
    while (i < input.length && /\s/.test(input[i])) i++;
  };
  const invalid = () => pgError('42602', 'invalid name syntax');
  space();
  if (i === input.length) throw invalid();
  for (;;) {
    if (input[i] === '"') {
      let part = '';
      for (i++; ; i++) {
        if (i >= input.length) throw invalid();
        if (input[i] === '"') {
          if (input[i + 1] !== '"') break;
          i++;
        }
        part += input[i];
      }
      i++;
      parts.push(part);
    } else {
      const start = i;
      while (i < input.length && input[i] !== '.' && !/\s/.test(input[i])) i++;
      if (i === start) throw invalid();
      parts.push(input.slice(start, i).toLowerCase());
    }
    space();
    if (i === input.length) return parts;
    if (input[i] !== '.') throw invalid();
    i++;
    space();
  }
}

/** The schemas a relation name may be qualified by, by their OIDs (pg_toast holds none of Patina's). */
const SCHEMA_OIDS: Record<string, number> = lookup({
  pg_catalog: 11,
  public: 2200,
  information_schema: 13000,
  pg_toast: 99,
});

/**
 * A relation's OID from its name as regclassin, to_regclass and the privilege functions read it
 * (PostgreSQL's RangeVarGetRelid): unqualified on the search path (pg_catalog, public), qualified
 * in that schema, a first part naming the database it runs in. 42602 for a bad name, 42601 for
 * four parts, 0A000 for another database (when `database` is known); null for no such relation, and for no such schema unless
 * `schemaMustExist` (3F000 then, as the privilege functions answer).
 */
export function relationOid(input: string, database: string | null, schemaMustExist: boolean): number | null {
  const parts = qualifiedName(input);
  if (parts.length > 3) throw pgError('42601', `improper relation name (too many dotted names): ${parts.join('.')}`);
  if (parts.length === 3 && database !== null && parts[0] !== database)
    throw pgError('0A000', `cross-database references are not implemented: "${parts.join('.')}"`);
  const name = parts[parts.length - 1];
  const names = relationNames();
  if (parts.length === 1) return names.oid(name) ?? null;
  const schema = SCHEMA_OIDS[parts[parts.length - 2]];
  if (schema === undefined) {
    if (schemaMustExist) throw pgError('3F000', `schema "${parts[parts.length - 2]}" does not exist`);
    return null;
  }
  if (schema === 13000) return names.oid(`information_schema.${name}`) ?? null;
  const oid = names.oid(name);
  // (the database's own relations have OIDs from 16384 on, as PostgreSQL's user relations)
  return oid !== undefined && (schema === 2200) === oid >= 16384 && schema !== 99 ? oid : null;
}
