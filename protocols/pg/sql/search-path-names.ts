// An unqualified relation name is looked up along search_path, as PostgreSQL does: pg_catalog (first
// when not listed), then the path's schemas ("$user", public by default). information_schema is not
// on it, so `SELECT * FROM tables` is 42P01 `relation "tables" does not exist` there. Patina's
// catalog is attached SQLite databases, and SQLite searches every attached database for a name no
// earlier one has: a catalog query naming `tables`, `columns` or `views` read information_schema's
// (a query of user tables alone runs where no catalog is attached and failed already). A table of
// the database of such a name, or a WITH query, still wins, and a session whose search_path lists
// information_schema reaches its relations unqualified, as there.
import type { Schema } from '../../../src/engine/schema/model';
import { catalogRelation } from '../catalog/catalog-relation';
import { pgErrorAt } from '../sqlstate';
import { relationsOf } from './catalog-names';
import { type PgToken, identName } from './lexer';
import { writtenAt } from './type-names';

/** The schema names of a search_path setting, in order (a quoted one as written, others folded). */
export function searchPathSchemas(setting: string): string[] {
  return (setting.match(/"(?:[^"]|"")*"|[^,]+/g) ?? [])
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => (p.startsWith('"') ? p.slice(1, -1).replace(/""/g, '"') : p.toLowerCase()));
}

/** Whether `name` is information_schema's only: no table of the database nor pg_catalog relation has it. */
function informationSchemaOnly(name: string, schema: Schema): boolean {
  return (
    catalogRelation('information_schema', name) !== undefined &&
    catalogRelation('pg_catalog', name) === undefined &&
    !schema.tables.has(name) &&
    ![...schema.tables.keys()].some((k) => k.toLowerCase() === name)
  );
}

/** Whether some unqualified name of the statement is a relation of information_schema alone (the cheap test before the tree's). */
export function mayNameOffPath(tokens: readonly PgToken[], schema: Schema): boolean {
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.type !== 'word' && t.type !== 'quoted') continue;
    if (tokens[i - 1]?.text === '.' || tokens[i + 1]?.text === '.') continue;
    if (informationSchemaOnly(identName(t), schema)) return true;
  }
  return false;
}

/**
 * Fails with PostgreSQL's 42P01 at the name when the first relation of statement `text` (`tokens`
 * joined by single spaces) that no table, WITH query nor pg_catalog relation has is an unqualified
 * name of information_schema and the session's `searchPath` does not list that schema. Silent at a
 * name it does not place otherwise: that one's error comes from elsewhere.
 */
export function checkSearchPathNames(
  text: string,
  tokens: readonly PgToken[],
  schema: Schema,
  searchPath: string,
): void {
  if (searchPathSchemas(searchPath).includes('information_schema')) return;
  const read = relationsOf(text);
  if (!read) return;
  const { ctes, relations } = read;
  relations.sort((a, b) => Number(a.location ?? 0) - Number(b.location ?? 0));
  for (const r of relations) {
    const name = String(r.relname);
    if (r.schemaname || ctes.has(name) || catalogRelation('pg_catalog', name)) continue;
    if (schema.tables.has(name) || [...schema.tables.keys()].some((k) => k.toLowerCase() === name)) continue;
    if (!informationSchemaOnly(name, schema)) return;
    const at = Buffer.from(text)
      .subarray(0, Number(r.location ?? 0))
      .toString().length;
    throw pgErrorAt('42P01', `relation "${name}" does not exist`, writtenAt(at, tokens));
  }
}
