// PostgreSQL's signatures as the result typing reads them: type names → OIDs, functions whose
// result type is fixed, the SQL value functions (current_date, ...), and how numbers promote.
import { arrayOidOf } from '../types/registry';
import { OID } from '../types/oids';
import { lookup } from '../../../src/lookup';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

export const INTS = new Set<number>([OID.int2, OID.int4, OID.int8]);
export const FLOATS = new Set<number>([OID.float4, OID.float8]);

/** PostgreSQL's type names (as casts and pg_catalog write them) → OID. */
export const TYPE_NAMES: Record<string, number> = lookup({
  int2: OID.int2,
  smallint: OID.int2,
  int4: OID.int4,
  int: OID.int4,
  integer: OID.int4,
  int8: OID.int8,
  bigint: OID.int8,
  float4: OID.float4,
  real: OID.float4,
  float8: OID.float8,
  'double precision': OID.float8,
  numeric: OID.numeric,
  decimal: OID.numeric,
  bool: OID.bool,
  boolean: OID.bool,
  text: OID.text,
  varchar: OID.varchar,
  bpchar: OID.bpchar,
  name: OID.name,
  date: OID.date,
  time: OID.time,
  timestamp: OID.timestamp,
  timestamptz: OID.timestamptz,
  // time with time zone: its text with the offset (types/timetz.ts)
  timetz: 1266,
  interval: OID.interval,
  json: OID.json,
  jsonb: OID.jsonb,
  jsonpath: OID.jsonpath,
  tsvector: OID.tsvector,
  tsquery: OID.tsquery,
  uuid: OID.uuid,
  bytea: OID.bytea,
  oid: OID.oid,
  // its values print as the type's name ('trigger'::regtype is trigger; its OID within)
  regtype: OID.regtype,
  // a relation's OID, printed as its name (types/registry.ts; made text by __pg_regclass_text)
  regclass: OID.regclass,
  // a schema's OID, printed as its name (types/oids.ts; made text by __pg_regnamespace_text)
  regnamespace: OID.regnamespace,
  // a function's name as written or its OID's name (catalog/regproc-codecs.ts), its OID in binary
  regproc: 24,
  regprocedure: 2202,
  // the names as written, which Patina keeps as text (in binary too: these types have no codec here)
  regoper: 2203,
  regoperator: 2204,
  regrole: 4096,
  regconfig: 3734,
  regdictionary: 3769,
});

/** Functions whose result type does not depend on their arguments. */
export const FIXED: Record<string, number> = lookup({
  count: OID.int8,
  // the type's name as text, its OID in binary (types/registry.ts)
  pg_typeof: OID.regtype,
  pg_cancel_backend: OID.bool,
  pg_backend_pid: OID.int4,
  pg_listening_channels: OID.text,
  pg_try_advisory_lock: OID.bool,
  pg_try_advisory_lock_shared: OID.bool,
  pg_try_advisory_xact_lock: OID.bool,
  pg_try_advisory_xact_lock_shared: OID.bool,
  pg_advisory_unlock: OID.bool,
  pg_advisory_unlock_shared: OID.bool,
  // (functions that return nothing: void, printed empty)
  pg_advisory_lock: OID.void,
  pg_advisory_lock_shared: OID.void,
  pg_advisory_xact_lock: OID.void,
  pg_advisory_xact_lock_shared: OID.void,
  pg_advisory_unlock_all: OID.void,
  pg_sleep: OID.void,
  pg_sleep_for: OID.void,
  pg_sleep_until: OID.void,
  pg_stat_clear_snapshot: OID.void,
  pg_stat_force_next_flush: OID.void,
  to_regproc: 24,
  to_regprocedure: 2202,
  to_regtype: OID.regtype,
  // the operator's name (with its operand types), as text (regoper has no codec here)
  to_regoper: 2203,
  to_regoperator: 2204,
  pg_terminate_backend: OID.bool,
  // the two-column statistics (src/engine/pg-statistics.ts) are float8 whatever their input
  corr: OID.float8,
  covar_pop: OID.float8,
  covar_samp: OID.float8,
  regr_count: OID.int8,
  regr_avgx: OID.float8,
  regr_avgy: OID.float8,
  regr_sxx: OID.float8,
  regr_syy: OID.float8,
  regr_sxy: OID.float8,
  regr_slope: OID.float8,
  regr_intercept: OID.float8,
  regr_r2: OID.float8,
  cbrt: OID.float8,
  chr: OID.text,
  regexp_match: OID.textArray,
  regexp_count: OID.int4,
  regexp_instr: OID.int4,
  regexp_like: OID.bool,
  regexp_substr: OID.text,
  regexp_matches: OID.textArray,
  jsonb_array_elements: OID.jsonb,
  json_array_elements: OID.json,
  jsonb_array_elements_text: OID.text,
  json_array_elements_text: OID.text,
  jsonb_object_keys: OID.text,
  jsonb_path_query: OID.jsonb,
  jsonb_path_query_array: OID.jsonb,
  jsonb_path_query_first: OID.jsonb,
  jsonb_path_exists: OID.bool,
  jsonb_path_match: OID.bool,
  // text search (src/engine/pg-text-search-functions.ts)
  to_tsvector: OID.tsvector,
  to_tsquery: OID.tsquery,
  plainto_tsquery: OID.tsquery,
  phraseto_tsquery: OID.tsquery,
  websearch_to_tsquery: OID.tsquery,
  ts_rank: OID.float4,
  ts_rank_cd: OID.float4,
  ts_headline: OID.text,
  ts_delete: OID.tsvector,
  ts_filter: OID.tsvector,
  tsvector_to_array: OID.textArray,
  array_to_tsvector: OID.tsvector,
  json_to_tsvector: OID.tsvector,
  jsonb_to_tsvector: OID.tsvector,
  ts_rewrite: OID.tsquery,
  querytree: OID.text,
  tsquery_phrase: OID.tsquery,
  strip: OID.tsvector,
  setweight: OID.tsvector,
  numnode: OID.int4,
  json_object_keys: OID.text,
  // in a select list, each member as a record `(key,value)` (translate/standard-forms.ts)
  json_each: OID.record,
  jsonb_each: OID.record,
  json_each_text: OID.record,
  jsonb_each_text: OID.record,
  jsonb_set: OID.jsonb,
  jsonb_set_lax: OID.jsonb,
  jsonb_insert: OID.jsonb,
  jsonb_strip_nulls: OID.jsonb,
  json_strip_nulls: OID.json,
  jsonb_pretty: OID.text,
  jsonb_extract_path: OID.jsonb,
  json_extract_path: OID.json,
  jsonb_extract_path_text: OID.text,
  json_extract_path_text: OID.text,
  ascii: OID.int4,
  bit_length: OID.int4,
  to_number: OID.numeric,
  // the catalog's answers (protocols/pg/catalog/catalog-functions.ts)
  pg_is_in_recovery: OID.bool,
  pg_table_is_visible: OID.bool,
  pg_index_column_has_property: OID.bool,
  pg_type_is_visible: OID.bool,
  pg_function_is_visible: OID.bool,
  pg_operator_is_visible: OID.bool,
  pg_ts_config_is_visible: OID.bool,
  pg_ts_dict_is_visible: OID.bool,
  pg_ts_parser_is_visible: OID.bool,
  pg_ts_template_is_visible: OID.bool,
  pg_is_other_temp_schema: OID.bool,
  has_table_privilege: OID.bool,
  has_schema_privilege: OID.bool,
  has_database_privilege: OID.bool,
  has_column_privilege: OID.bool,
  has_any_column_privilege: OID.bool,
  has_function_privilege: OID.bool,
  has_sequence_privilege: OID.bool,
  pg_has_role: OID.bool,
  pg_encoding_to_char: OID.name,
  pg_char_to_encoding: OID.int4,
  pg_database_size: OID.int8,
  pg_relation_size: OID.int8,
  pg_table_size: OID.int8,
  pg_indexes_size: OID.int8,
  pg_total_relation_size: OID.int8,
  pg_get_userbyid: OID.name,
  acldefault: OID.textArray,
  pg_describe_object: OID.text,
  pg_postmaster_start_time: OID.timestamptz,
  inet_server_port: OID.int4,
  pg_client_encoding: OID.name,
  current_schemas: OID.nameArray,
  to_regclass: OID.regclass,
  quote_nullable: OID.text,
  pg_size_pretty: OID.text,
  string_to_array: OID.textArray,
  array_to_string: OID.text,
  array_length: OID.int4,
  array_position: OID.int4,
  array_positions: OID.int4Array,
  array_dims: OID.text,
  array_upper: OID.int4,
  array_lower: OID.int4,
  array_ndims: OID.int4,
  cardinality: OID.int4,
  date: OID.date,
  translate: OID.text,
  now: OID.timestamptz,
  transaction_timestamp: OID.timestamptz,
  statement_timestamp: OID.timestamptz,
  clock_timestamp: OID.timestamptz,
  timeofday: OID.text,
  to_timestamp: OID.timestamptz,
  date_part: OID.float8,
  extract: OID.numeric,
  random: OID.float8,
  length: OID.int4,
  char_length: OID.int4,
  character_length: OID.int4,
  octet_length: OID.int4,
  strpos: OID.int4,
  position: OID.int4,
  lower: OID.text,
  upper: OID.text,
  initcap: OID.text,
  concat: OID.text,
  concat_ws: OID.text,
  replace: OID.text,
  trim: OID.text,
  lpad: OID.text,
  rpad: OID.text,
  left: OID.text,
  right: OID.text,
  md5: OID.text,
  encode: OID.text,
  decode: OID.bytea,
  sha224: OID.bytea,
  sha256: OID.bytea,
  sha384: OID.bytea,
  sha512: OID.bytea,
  div: OID.numeric,
  to_char: OID.text,
  format: OID.text,
  version: OID.text,
  current_database: OID.name,
  current_schema: OID.name,
  current_user: OID.name,
  bool_and: OID.bool,
  bool_or: OID.bool,
  every: OID.bool,
  json_agg: OID.json,
  json_build_object: OID.json,
  jsonb_agg: OID.jsonb,
  jsonb_build_object: OID.jsonb,
  json_build_array: OID.json,
  jsonb_build_array: OID.jsonb,
  json_object_agg: OID.json,
  jsonb_object_agg: OID.jsonb,
  json_object: OID.json,
  jsonb_object: OID.jsonb,
  to_json: OID.json,
  to_jsonb: OID.jsonb,
  row_to_json: OID.json,
  array_to_json: OID.json,
  json_array_length: OID.int4,
  jsonb_array_length: OID.int4,
  json_typeof: OID.text,
  jsonb_typeof: OID.text,
  split_part: OID.text,
  repeat: OID.text,
  reverse: OID.text,
  regexp_replace: OID.text,
  gen_random_uuid: OID.uuid,
  row_number: OID.int8,
  rank: OID.int8,
  dense_rank: OID.int8,
  ntile: OID.int4,
  age: OID.interval,
  justify_hours: OID.interval,
  justify_days: OID.interval,
  justify_interval: OID.interval,
  make_date: OID.date,
  make_timestamp: OID.timestamp,
  make_time: OID.time,
  make_timestamptz: OID.timestamptz,
  // src/engine/pg-bytea.ts
  get_byte: OID.int4,
  set_byte: OID.bytea,
  get_bit: OID.int4,
  set_bit: OID.bytea,
  convert_to: OID.bytea,
  convert_from: OID.text,
  convert: OID.bytea,
  to_regnamespace: OID.regnamespace,
  // (a role's name: Patina has no regrole values, its text goes as text in binary too)
  to_regrole: 4096,
  // the float8 functions (an integer argument is read as a double, as PostgreSQL resolves it)
  pi: OID.float8,
  degrees: OID.float8,
  radians: OID.float8,
  sin: OID.float8,
  cos: OID.float8,
  tan: OID.float8,
  cot: OID.float8,
  asin: OID.float8,
  acos: OID.float8,
  atan: OID.float8,
  atan2: OID.float8,
  sinh: OID.float8,
  cosh: OID.float8,
  tanh: OID.float8,
  asinh: OID.float8,
  acosh: OID.float8,
  atanh: OID.float8,
  // src/engine/pg-math.ts
  factorial: OID.numeric,
  width_bucket: OID.int4,
  to_hex: OID.text,
  starts_with: OID.bool,
  isfinite: OID.bool,
  regexp_split_to_array: OID.textArray,
  regexp_split_to_table: OID.text,
  make_interval: OID.interval,
  num_nulls: OID.int4,
  overlaps: OID.bool,
  num_nonnulls: OID.int4,
  to_date: OID.date,
});

export const SQL_VALUE_FUNCTIONS: Record<string, [string, number]> = lookup({
  SVFOP_CURRENT_DATE: ['current_date', OID.date],
  SVFOP_CURRENT_TIMESTAMP: ['current_timestamp', OID.timestamptz],
  SVFOP_CURRENT_TIMESTAMP_N: ['current_timestamp', OID.timestamptz],
  SVFOP_LOCALTIMESTAMP: ['localtimestamp', OID.timestamp],
  SVFOP_LOCALTIMESTAMP_N: ['localtimestamp', OID.timestamp],
  SVFOP_CURRENT_TIME: ['current_time', 1266],
  SVFOP_CURRENT_TIME_N: ['current_time', 1266],
  SVFOP_LOCALTIME: ['localtime', OID.time],
  SVFOP_LOCALTIME_N: ['localtime', OID.time],
  SVFOP_CURRENT_USER: ['current_user', OID.name],
  SVFOP_USER: ['user', OID.name],
  SVFOP_CURRENT_ROLE: ['current_role', OID.name],
  SVFOP_SESSION_USER: ['session_user', OID.name],
  SVFOP_CURRENT_CATALOG: ['current_catalog', OID.name],
  SVFOP_CURRENT_SCHEMA: ['current_schema', OID.name],
});

export const strings = (list: Node[] | undefined): string[] => (list ?? []).map((n) => n.String?.sval ?? '');

/** The type a TypeName names, or 0. */
export function typeNameOid(t: Node): number {
  if (!t) return 0;
  const names = strings(t.names).filter((n) => n !== 'pg_catalog');
  // (a plain `char` is pg_catalog.bpchar in the tree; `char` there is the quoted "char", sql/char-type.ts)
  const oid =
    names.join(' ') === 'char' ? OID.char : (TYPE_NAMES[names.join(' ')] ?? TYPE_NAMES[names[names.length - 1]] ?? 0);
  // `int[]`, `text[]`: the array type of the element, when it has a codec
  if (t.arrayBounds) return t.arrayBounds.length === 1 && oid ? (arrayOidOf(oid) ?? 0) : 0;
  return oid;
}

/** PostgreSQL's name for the type (the name of an unaliased cast of a non-column). */
export function typeDisplayName(t: Node): string {
  const names = strings(t.names).filter((n) => n !== 'pg_catalog');
  const oid = typeNameOid(t);
  const canonical = Object.entries(TYPE_NAMES).find(([, o]) => o === oid)?.[0];
  return canonical ?? names[names.length - 1] ?? '?column?';
}

export function isNumber(oid: number): boolean {
  return INTS.has(oid) || FLOATS.has(oid) || oid === OID.numeric;
}

/** The result type of arithmetic on two number types, as PostgreSQL resolves it. */
export function promote(a: number, b: number): number {
  // (real with real is real's own operator: float4pl, float4mul; real with anything else a double)
  if (a === OID.float4 && b === OID.float4) return OID.float4;
  if (a === OID.float8 || b === OID.float8 || a === OID.float4 || b === OID.float4) return OID.float8;
  if (a === OID.numeric || b === OID.numeric) return OID.numeric;
  if (a === OID.int8 || b === OID.int8) return OID.int8;
  if (a === OID.int4 || b === OID.int4) return OID.int4;
  return a || b;
}

/**
 * The type PostgreSQL gives values of two number types together (CASE, COALESCE, GREATEST, a UNION's
 * column, VALUES rows): as arithmetic's, but real beside an integer or numeric is real, which they
 * cast to implicitly and it does not cast back (select_common_type; coalesce(r, 0) is real).
 */
export function commonNumber(a: number, b: number): number {
  if ((a === OID.float4 || b === OID.float4) && a !== OID.float8 && b !== OID.float8) return OID.float4;
  return promote(a, b);
}

/** The set-returning functions of one column: FROM fn(...) AS x names its value x; alone in a select list they give rows. */
export const ONE_COLUMN_SET_RETURNING = new Set([
  'generate_series',
  'generate_subscripts',
  'unnest',
  'json_array_elements',
  'jsonb_array_elements',
  'json_array_elements_text',
  'jsonb_array_elements_text',
  'json_object_keys',
  'jsonb_object_keys',
  'jsonb_path_query',
  'regexp_matches',
  'regexp_split_to_table',
  'pg_listening_channels',
]);

/** The set-returning functions of a key and a value: in a select list each row is a record `(key,value)`. */
export const RECORD_SET_RETURNING = new Set(['json_each', 'jsonb_each', 'json_each_text', 'jsonb_each_text']);

/**
 * Functions of one value that clients call in FROM as a one-row table (TypeORM's `SELECT * FROM
 * current_schema()`): the row's one column is named by the alias, else by the function.
 */
export const SCALAR_IN_FROM = new Set([
  'current_schema', 'current_database', 'current_user', 'session_user', 'current_catalog', 'current_schemas',
  'version', 'current_setting', 'now', 'transaction_timestamp', 'statement_timestamp', 'clock_timestamp',
  'pg_backend_pid', 'pg_postmaster_start_time', 'pg_is_in_recovery', 'txid_current', 'inet_server_addr',
  'inet_server_port', 'inet_client_addr', 'pg_encoding_to_char', 'to_timestamp', 'make_date', 'make_timestamp',
  'date_trunc', 'lower', 'upper', 'md5', 'random', 'gen_random_uuid', 'concat', 'format', 'length', 'to_char',
  'pg_size_pretty', 'pg_database_size', 'pg_typeof', 'age', 'abs', 'round', 'sqrt', 'power', 'coalesce',
  // what pgjdbc's CallableStatement reaches (`{? = call substr(?, ?)}` runs `select * from substr(...)`)
  'substr', 'substring', 'btrim', 'ltrim', 'rtrim', 'replace', 'split_part', 'left', 'right', 'lpad', 'rpad',
  'strpos', 'char_length', 'character_length', 'octet_length', 'initcap', 'reverse', 'repeat', 'translate',
  'ascii', 'chr', 'to_date', 'to_number', 'date_part', 'make_interval', 'floor', 'ceil', 'ceiling', 'trunc',
  'sign', 'exp', 'ln', 'log', 'log10', 'mod', 'pi', 'greatest', 'least', 'nullif', 'encode', 'decode',
  'to_json', 'to_jsonb', 'array_length', 'cardinality', 'array_to_string', 'localtimestamp', 'timeofday',
  // text search's (`FROM docs, to_tsquery('fox') q WHERE vec @@ q`)
  'to_tsvector', 'to_tsquery', 'plainto_tsquery', 'phraseto_tsquery', 'websearch_to_tsquery',
]); // biome-ignore format: a word list

/** Operators whose result is a boolean: comparisons, pattern matches, containment, key tests, overlap. */
export const BOOL_OPERATORS = new Set(
  '= <> != < > <= >= ~ !~ ~* !~* ~~ !~~ ~~* !~~* @> <@ ? ?| ?& && ^@ ~<~ ~<=~ ~>~ ~>=~ @@ @?'.split(' '),
);

/** The math functions mathResult types. */
export const MATH_FUNCTIONS = new Set(
  'round trunc ceil ceiling floor sign sqrt cbrt exp ln log log10 power pow mod'.split(' '),
);

/**
 * The result type of a math function of these argument types: of integers PostgreSQL picks the
 * float8 form (its preferred numeric type) where a numeric one exists too; round(x, n), trunc(x, n)
 * and log(b, x) exist for numeric only, cbrt for float8 only; mod keeps integers. 0 when unknown.
 */
export function mathResult(name: string, ts: number[]): number {
  if (ts.some((t) => t === 0)) return 0;
  if (name === 'mod')
    return ts.includes(OID.numeric) ? OID.numeric : ts.every((t) => INTS.has(t)) ? promote(ts[0], ts[1]) : 0;
  if (name === 'cbrt') return OID.float8;
  if ((name === 'round' || name === 'trunc' || name === 'log') && ts.length === 2) return OID.numeric;
  // (power(numeric, float8) is float8's: numeric casts to float8 implicitly, not the other way)
  if ((name === 'power' || name === 'pow') && ts.some((t) => FLOATS.has(t))) return OID.float8;
  if (ts.some((t) => t === OID.numeric)) return OID.numeric;
  return ts.every((t) => FLOATS.has(t) || INTS.has(t)) ? OID.float8 : 0;
}
