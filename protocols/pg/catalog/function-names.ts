// The builtin functions pg_proc lists: the ones the analyser types (sql/type-signatures.ts), the
// aggregates it knows (sql/grouping.ts), SQLite's window functions, and the functions the catalog
// connection answers (catalog-functions.ts). pg-proc-rows.ts holds PostgreSQL 15's rows of these
// names (scripts/pg-proc.js writes it from a PostgreSQL 15 server).
import { AGGREGATES } from '../sql/grouping';
import { FIXED, MATH_FUNCTIONS, ONE_COLUMN_SET_RETURNING, SCALAR_IN_FROM } from '../sql/type-signatures';

/** SQLite's window functions, which PostgreSQL has under the same names. */
const WINDOW_FUNCTIONS =
  'row_number rank dense_rank percent_rank cume_dist ntile lag lead first_value last_value nth_value';

/** What the catalog connection answers beyond the typed functions. */
const CATALOG_FUNCTIONS = `format_type pg_get_indexdef pg_get_constraintdef pg_get_expr pg_get_userbyid current_setting
  set_config pg_backend_pid pg_relation_size pg_total_relation_size pg_table_size pg_indexes_size pg_database_size
  pg_get_keywords quote_ident quote_literal pg_get_functiondef pg_get_function_arguments pg_get_function_result
  pg_get_function_identity_arguments obj_description col_description pg_listening_channels array_remove
  pg_postmaster_start_time session_user abs nullif greatest least pg_client_encoding pg_tablespace_location`;

/** Array functions the analyser types by their arguments (sql/expression-types.ts). */
const ARRAY_FUNCTIONS = 'array_fill trim_array';

/** What sessions answer (session/advisory-locks.ts, notifications.ts, the statement counts, pg_sleep). */
const SESSION_FUNCTIONS = `pg_advisory_lock pg_advisory_lock_shared pg_advisory_xact_lock pg_advisory_xact_lock_shared
  pg_advisory_unlock_all pg_sleep pg_sleep_for pg_sleep_until pg_notify pg_stat_force_next_flush pg_stat_clear_snapshot`;

/** The names of the builtin functions Patina runs, as PostgreSQL names them. */
export const FUNCTION_NAMES: ReadonlySet<string> = new Set(
  [
    ...Object.keys(FIXED),
    ...MATH_FUNCTIONS,
    ...ONE_COLUMN_SET_RETURNING,
    ...SCALAR_IN_FROM,
    ...AGGREGATES,
    ...WINDOW_FUNCTIONS.split(' '),
    ...CATALOG_FUNCTIONS.split(/\s+/),
    ...SESSION_FUNCTIONS.split(/\s+/),
    ...ARRAY_FUNCTIONS.split(' '),
  ].sort(),
);
