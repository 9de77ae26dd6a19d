// The rows one statement returns, handed to the statements after it as a parameter: how the PG front
// end runs a data-modifying WITH query (`WITH d AS (DELETE ... RETURNING *) INSERT INTO a SELECT *
// FROM d`), which SQLite has not. The inner statement runs first with its RETURNING; its rows are
// bound, as one JSON text, to a parameter the later statements read with json_each (fedColumn), all
// on the same transaction as one statement of the client's.
import type Database from 'better-sqlite3';

/** A statement run before the one it belongs to, its rows bound to `param` (a named parameter) for the later ones. */
export interface Feed {
  sql: string;
  param: string;
}

/**
 * The rows as JSON, each value keeping its storage class: an integer (a bigint here: the writer's
 * connection reads safe integers) as an integer, a real always with a point or exponent (9e999 is
 * SQLite's infinity), a blob as {"x": hex}, which fedColumn turns back into bytes.
 */
export function fedRowsJson(rows: unknown[][]): string {
  const parts: string[] = [];
  for (const row of rows) parts.push(`[${row.map(jsonValue).join(',')}]`);
  return `[${parts.join(',')}]`;
}

function jsonValue(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number') {
    if (Number.isNaN(v)) return 'null';
    if (!Number.isFinite(v)) return v > 0 ? '9e999' : '-9e999';
    const s = String(v);
    return /^-?\d+$/.test(s) ? `${s}.0` : s;
  }
  if (v instanceof Uint8Array) return `{"x":"${Buffer.from(v).toString('hex')}"}`;
  return JSON.stringify(String(v));
}

/** The SQLite expression of column `i` of a fed row (`value` of json_each over fedRowsJson's text), as it was stored. */
export function fedColumn(i: number): string {
  return `CASE json_type(value, '$[${i}]') WHEN 'object' THEN unhex(json_extract(value, '$[${i}].x')) ELSE json_extract(value, '$[${i}]') END`;
}

/** A part of a fed statement (a feed or the statement) and the parameters it ran with, the rows fed to it bound. */
export interface FedPart {
  sql: string;
  params: Record<string, unknown>;
}

/** The part each failure of a fed statement failed in (kept by error: the error reaches the PG session as it is). */
const FAILED = new WeakMap<object, FedPart>();

/** Notes the part `err` failed in; returns `err`. */
export function failedIn(err: unknown, part: FedPart): unknown {
  if (typeof err === 'object' && err !== null && !FAILED.has(err)) FAILED.set(err, part);
  return err;
}

/**
 * The part of a fed statement a failure came from, with its parameters: what the PG session reads
 * a constraint error's DETAIL from (the failing row, the key), as it does a statement's of its own.
 */
export function failedPart(err: unknown): FedPart | undefined {
  return typeof err === 'object' && err !== null ? FAILED.get(err) : undefined;
}

/** Runs the feeds in order on `db`'s transaction, each one's rows bound in `params` (a copy) for the rest; returns it. */
export function runFeeds(
  feeds: readonly Feed[],
  params: Record<string, unknown>,
  prepare: (sql: string) => Database.Statement,
): Record<string, unknown> {
  const bound = { ...params };
  for (const f of feeds) {
    try {
      const st = prepare(f.sql);
      const rows = st.reader ? (st.raw(true).all(bound) as unknown[][]) : (st.run(bound), []);
      bound[f.param] = fedRowsJson(rows);
    } catch (err) {
      throw failedIn(err, { sql: f.sql, params: { ...bound } });
    }
  }
  return bound;
}
