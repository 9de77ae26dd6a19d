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

/** True when a SELECT has no FROM at all (constants and functions: answered locally). */
export function hasNoFrom(tokens: PgToken[]): boolean {
  return !tokens.some((t) => t.type === 'word' && t.text.toUpperCase() === 'FROM');
}
