// A quoted name is matched with its case in PostgreSQL (`"Id"` is no column id, `"T"` no table t),
// where SQLite compares every name without case and ran `SELECT "Id" FROM t`, `SELECT t."NAME"
// FROM t`, `SELECT count(*) FROM "T"` and `SELECT "T".id FROM t`. Here the statement is read as
// PostgreSQL's parser resolves its names (range-table.ts, missing-column.ts, with exact names on)
// and such a name gets PostgreSQL's 42703 (with its HINT) or 42P01 at the name (an ON CONFLICT
// arbiter's bare name at its parenthesis, where PostgreSQL places the reference it makes of it). Only a quoted name
// holding an upper-case letter is matched with its case: an unquoted one folds to lower case, and
// Patina's schema files may declare `CREATE TABLE Users (userId ...)`, which users reach unquoted
// (and with a lower-case quoted name) as before. Aliases the statement defines match exactly too,
// so the names ORMs quote (`FROM "user" "User"`, `AS "userId"`, `WITH "Q"`) keep working.
import type { Schema } from '../../../src/engine/schema/model';
import { PgError, pgErrorAt } from '../sqlstate';
import type { PgToken } from './lexer';
import { quotedMiss } from './missing-column';
import { parseTree } from './parse';
import { writtenAt } from './type-names';

/** Whether the tokens hold a quoted name with an upper-case letter (the cheap test before the tree's). */
export function mayQuoteCase(tokens: readonly PgToken[]): boolean {
  return tokens.some((t) => t.type === 'quoted' && t.text !== t.text.toLowerCase());
}

/**
 * Throws PostgreSQL's error for a quoted name of `text` (the tokens joined by spaces) whose case
 * differs from every name it could mean, its position in the written statement.
 */
export function checkQuotedNames(text: string, tokens: readonly PgToken[], schema: Schema): void {
  let tree: unknown;
  try {
    tree = parseTree(text);
  } catch {
    return; // the translation or SQLite reports it
  }
  const place = (byte: number) => writtenAt(Buffer.from(text).subarray(0, byte).toString().length, tokens);
  let found: ReturnType<typeof quotedMiss>;
  try {
    found = quotedMiss(tree, schema);
  } catch (err) {
    // (a table's 42P01 from range-table.ts, placed in the tree's text)
    if (err instanceof PgError && err.position !== undefined) err.position = place(err.position);
    throw err;
  }
  if (!found) return;
  const [alias, name] = found.fields.length === 1 ? [null, found.fields[0]] : found.fields.slice(-2);
  if (found.noFrom) throw pgErrorAt('42P01', `missing FROM-clause entry for table "${alias}"`, place(found.location));
  const e = pgErrorAt(
    '42703',
    alias === null ? `column "${name}" does not exist` : `column ${alias}.${name} does not exist`,
    place(found.location),
  ) as PgError;
  if (found.hint) e.hint = found.hint;
  throw e;
}
