// SQLite answers `rowid`, `_rowid_` and `oid` of every table (its row id), where a PostgreSQL table
// has no such column: `SELECT rowid FROM t` gave SQLite's numbers, and SQL written against Patina
// failed on PostgreSQL later. A reference to one of those names that resolves to no column as
// PostgreSQL reads the statement (missing-column.ts, the same resolution that places an unknown
// column's 42703) is PostgreSQL's 42703 with its HINT and position, before anything runs. A table
// with a column of such a name, and a catalog relation's oid, resolve as before.
import type { Schema } from '../../../src/engine/schema/model';
import { PgError } from '../sqlstate';
import type { PgToken } from './lexer';
import { withColumnHint } from './missing-column';
import { writtenAt } from './type-names';

const ROWID_NAMES = new Set(['rowid', '_rowid_', 'oid']);

/** The SQLite row id names the statement has as bare words (a cheap test before the tree is read). */
export function rowidNames(sig: readonly PgToken[]): string[] {
  const found = new Set<string>();
  for (const t of sig) if (t.type === 'word' && ROWID_NAMES.has(t.text.toLowerCase())) found.add(t.text.toLowerCase());
  return [...found];
}

/**
 * Throws PostgreSQL's 42703 for the first of `names` the statement references where no column has
 * it. `text` is `tokens` joined by single spaces (the tree's offsets are in it).
 */
export function checkRowidColumns(text: string, tokens: readonly PgToken[], names: string[], schema: Schema): void {
  for (const name of names) {
    const err = withColumnHint(new PgError('user', `column "${name}" does not exist`, '42703'), text, schema);
    // (placed: the reference resolves nowhere; unplaced: it resolves, or cannot be placed here)
    if (err instanceof PgError && err.position !== undefined) {
      err.position = writtenAt(err.position, tokens);
      throw err;
    }
  }
}
