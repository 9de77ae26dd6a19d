import type Database from 'better-sqlite3';

/*
 * A one-value table function (unnest, generate_series, jsonb_array_elements, ...) names its column
 * `value`, which a user's table may have too: `SELECT value, unnest(tags) FROM kv` joined kv with the
 * function for SQLite and its bare `value` was ambiguous (42702), where PostgreSQL reads kv's (a call
 * in a select list adds no FROM item; unnest's column in FROM is named by its alias). Each such
 * function is registered twice: as itself, and as a twin whose column is `__pg_value`, which the PG
 * front end calls where it joined the function in itself (protocols/pg/sql/translate/value-twins.ts).
 */

/** The twin's name prefix and its column. */
export const VALUE_TWIN = '__pg_v_';
export const TWIN_COLUMN = '__pg_value';

type TableDef = Parameters<Database.Database['table']>[1];

/** Registers a one-value table function (its one column `value`) and its twin. */
export function valueTable(db: Database.Database, name: string, def: TableDef): void {
  db.table(name, def);
  db.table(`${VALUE_TWIN}${name}`, { ...def, columns: [TWIN_COLUMN] } as TableDef);
}
