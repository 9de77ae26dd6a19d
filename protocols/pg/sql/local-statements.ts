// Which statements the front end's own catalog connection answers rather than the engine: those
// naming pg_catalog or information_schema relations, or functions only that connection has, and
// SELECTs with no FROM at all (constants and functions).
import { type PgToken, identName } from './lexer';

/** Functions only the agent's catalog connection has (set-returning ones, session facts as arrays). */
const LOCAL_FUNCTIONS = new Set([
  'unnest',
  'generate_series',
  'current_schemas',
  'current_setting',
  'string_to_array',
  'parse_ident',
  'generate_subscripts',
  'pg_get_keywords',
  'pg_listening_channels',
  // the advisory locks (session/advisory-locks.ts)
  'pg_advisory_lock',
  'pg_advisory_lock_shared',
  'pg_try_advisory_lock',
  'pg_try_advisory_lock_shared',
  'pg_advisory_xact_lock',
  'pg_advisory_xact_lock_shared',
  'pg_try_advisory_xact_lock',
  'pg_try_advisory_xact_lock_shared',
  'pg_advisory_unlock',
  'pg_advisory_unlock_shared',
  'pg_advisory_unlock_all',
  'pg_sleep',
  'pg_sleep_for',
  'pg_sleep_until',
]);

/**
 * Relation names that live in the agent's catalog rather than in the database, or (unless
 * `relationsOnly`) functions only the catalog connection has.
 */
export function catalogRelations(tokens: PgToken[], relationsOnly = false): boolean {
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.type !== 'word' && t.type !== 'quoted') continue;
    const name = identName(t);
    if (name === 'information_schema' || name === 'pg_catalog') return true;
    if (name.startsWith('pg_') && tokens[i + 1]?.text !== '(') return true;
    if (!relationsOnly && LOCAL_FUNCTIONS.has(name) && tokens[i + 1]?.text === '(') return true;
  }
  return false;
}

/**
 * Whether the statement names a catalog relation (a `pg_*` name or one qualified by pg_catalog or
 * information_schema that is not called): `SELECT pg_catalog.nosuch(1)` reads none, so SQLite's
 * failure to prepare it is the function's 42883, not a catalog query Patina answers with no rows.
 */
export function readsCatalogRelation(tokens: PgToken[]): boolean {
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.type !== 'word' && t.type !== 'quoted') continue;
    const name = identName(t);
    if ((name === 'information_schema' || name === 'pg_catalog') && tokens[i + 1]?.text === '.') {
      if (tokens[i + 3]?.text === '(') {
        i += 2; // a qualified function call
        continue;
      }
      return true;
    }
    if (name.startsWith('pg_') && tokens[i + 1]?.text !== '(') return true;
  }
  return false;
}

/** Set-returning functions of no bound on their rows, which every read connection has (src/engine/pg-arrays.ts). */
const UNBOUNDED_SERIES = new Set(['generate_series']);

/**
 * Whether a statement calls generate_series and needs nothing only the catalog connection has (a
 * catalog relation, a session fact, a function of that connection alone, `catalogOnly`): it is then
 * run by a read worker, not on the catalog connection. That connection runs on the agent's thread,
 * which no timeout or cancel can stop: `SELECT generate_series(1, 1e9)` (or a count of one) held
 * every session, the writer and SIGTERM until it ended; on a worker it is one read, bounded by
 * statement_timeout and api.query_timeout.
 */
export function seriesOffThread(tokens: PgToken[], catalogOnly: ReadonlySet<string>): boolean {
  let series = false;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.type !== 'word' && t.type !== 'quoted') continue;
    const name = identName(t);
    const called = tokens[i + 1]?.text === '(';
    if (called && UNBOUNDED_SERIES.has(name)) series = true;
    else if (name === 'information_schema' || name === 'pg_catalog') return false;
    else if (name.startsWith('pg_') && !called) return false;
    else if (called && (catalogOnly.has(name) || (LOCAL_FUNCTIONS.has(name) && !SERIES_KIN.has(name)))) return false;
  }
  return series;
}

/** Catalog-connection functions every read connection has too (pg-arrays.ts): they do not keep a series statement local. */
const SERIES_KIN = new Set(['generate_series', 'unnest', 'generate_subscripts', 'string_to_array']);

/** True when a SELECT has no FROM at all (constants and functions: answered locally). */
export function hasNoFrom(tokens: PgToken[]): boolean {
  return !tokens.some((t) => t.type === 'word' && t.text.toUpperCase() === 'FROM');
}

/**
 * What a catalog statement's SQL names that acts on the agent's own state or reads what only the
 * agent's thread keeps: the advisory locks (and pg_locks, their rows), the signal functions,
 * txid_current, pg_sleep's wait, set_config (the session's settings), LISTEN channels, and the sizes
 * and counts read before the statement (relation-stats.ts, pg_stat_database).
 */
const AGENT_STATE =
  /\b(?:pg_(?:try_)?advisory_\w+|pg_cancel_backend|pg_terminate_backend|txid_current|pg_current_xact_id|pg_sleep\w*|set_config|pg_listening_channels|pg_locks|relpages|reltuples|pg_stat_(?:user|all)_tables|pg_stat_database|pg_(?:relation|total_relation|table|indexes)_size)\b/i;

/**
 * Whether a statement of the catalog connection runs in a catalog worker (catalog/catalog-workers.ts),
 * where a timeout or cancel can stop it, rather than on the agent's thread, where nothing can: one
 * with a FROM (a statement without one reads no rows that could make it long, and stays here, at no
 * cost) that names nothing of AGENT_STATE. `sql` is the statement as it runs (translated).
 */
export function catalogOffThread(sql: string): boolean {
  return /\bfrom\b/i.test(sql) && !AGENT_STATE.test(sql);
}
