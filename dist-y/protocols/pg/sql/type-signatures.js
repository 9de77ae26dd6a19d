"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.MATH_FUNCTIONS = exports.BOOL_OPERATORS = exports.SCALAR_IN_FROM = exports.ONE_COLUMN_SET_RETURNING = exports.strings = exports.SQL_VALUE_FUNCTIONS = exports.FIXED = exports.TYPE_NAMES = exports.FLOATS = exports.INTS = void 0;
exports.typeNameOid = typeNameOid;
exports.typeDisplayName = typeDisplayName;
exports.isNumber = isNumber;
exports.promote = promote;
exports.mathResult = mathResult;
// PostgreSQL's signatures as the result typing reads them: type names → OIDs, functions whose
// result type is fixed, the SQL value functions (current_date, ...), and how numbers promote.
const registry_1 = require("../types/registry");
const oids_1 = require("../types/oids");
exports.INTS = new Set([oids_1.OID.int2, oids_1.OID.int4, oids_1.OID.int8]);
exports.FLOATS = new Set([oids_1.OID.float4, oids_1.OID.float8]);
/** PostgreSQL's type names (as casts and pg_catalog write them) → OID. */
exports.TYPE_NAMES = {
    int2: oids_1.OID.int2,
    smallint: oids_1.OID.int2,
    int4: oids_1.OID.int4,
    int: oids_1.OID.int4,
    integer: oids_1.OID.int4,
    int8: oids_1.OID.int8,
    bigint: oids_1.OID.int8,
    float4: oids_1.OID.float4,
    real: oids_1.OID.float4,
    float8: oids_1.OID.float8,
    'double precision': oids_1.OID.float8,
    numeric: oids_1.OID.numeric,
    decimal: oids_1.OID.numeric,
    bool: oids_1.OID.bool,
    boolean: oids_1.OID.bool,
    text: oids_1.OID.text,
    varchar: oids_1.OID.varchar,
    bpchar: oids_1.OID.bpchar,
    name: oids_1.OID.name,
    date: oids_1.OID.date,
    time: oids_1.OID.time,
    timestamp: oids_1.OID.timestamp,
    timestamptz: oids_1.OID.timestamptz,
    interval: oids_1.OID.interval,
    json: oids_1.OID.json,
    jsonb: oids_1.OID.jsonb,
    uuid: oids_1.OID.uuid,
    bytea: oids_1.OID.bytea,
    oid: oids_1.OID.oid,
};
/** Functions whose result type does not depend on their arguments. */
exports.FIXED = {
    count: oids_1.OID.int8,
    // the type's name as text, its OID in binary (types/registry.ts)
    pg_typeof: oids_1.OID.regtype,
    // the two-column statistics (src/engine/pg-statistics.ts) are float8 whatever their input
    corr: oids_1.OID.float8,
    covar_pop: oids_1.OID.float8,
    covar_samp: oids_1.OID.float8,
    regr_count: oids_1.OID.int8,
    regr_avgx: oids_1.OID.float8,
    regr_avgy: oids_1.OID.float8,
    regr_sxx: oids_1.OID.float8,
    regr_syy: oids_1.OID.float8,
    regr_sxy: oids_1.OID.float8,
    regr_slope: oids_1.OID.float8,
    regr_intercept: oids_1.OID.float8,
    regr_r2: oids_1.OID.float8,
    cbrt: oids_1.OID.float8,
    chr: oids_1.OID.text,
    overlay: oids_1.OID.text,
    regexp_match: oids_1.OID.textArray,
    regexp_matches: oids_1.OID.textArray,
    jsonb_array_elements: oids_1.OID.jsonb,
    json_array_elements: oids_1.OID.json,
    jsonb_array_elements_text: oids_1.OID.text,
    json_array_elements_text: oids_1.OID.text,
    jsonb_object_keys: oids_1.OID.text,
    json_object_keys: oids_1.OID.text,
    jsonb_set: oids_1.OID.jsonb,
    jsonb_strip_nulls: oids_1.OID.jsonb,
    json_strip_nulls: oids_1.OID.json,
    jsonb_pretty: oids_1.OID.text,
    jsonb_extract_path: oids_1.OID.jsonb,
    json_extract_path: oids_1.OID.json,
    jsonb_extract_path_text: oids_1.OID.text,
    json_extract_path_text: oids_1.OID.text,
    ascii: oids_1.OID.int4,
    bit_length: oids_1.OID.int4,
    to_number: oids_1.OID.numeric,
    // the catalog's answers (protocols/pg/catalog/catalog-functions.ts)
    pg_is_in_recovery: oids_1.OID.bool,
    pg_table_is_visible: oids_1.OID.bool,
    pg_type_is_visible: oids_1.OID.bool,
    pg_function_is_visible: oids_1.OID.bool,
    pg_is_other_temp_schema: oids_1.OID.bool,
    has_table_privilege: oids_1.OID.bool,
    has_schema_privilege: oids_1.OID.bool,
    has_database_privilege: oids_1.OID.bool,
    has_column_privilege: oids_1.OID.bool,
    has_any_column_privilege: oids_1.OID.bool,
    has_function_privilege: oids_1.OID.bool,
    has_sequence_privilege: oids_1.OID.bool,
    pg_has_role: oids_1.OID.bool,
    pg_encoding_to_char: oids_1.OID.name,
    current_schemas: oids_1.OID.nameArray,
    to_regclass: oids_1.OID.oid, // as a regclass cast is answered: the OID
    quote_nullable: oids_1.OID.text,
    pg_size_pretty: oids_1.OID.text,
    string_to_array: oids_1.OID.textArray,
    array_to_string: oids_1.OID.text,
    array_length: oids_1.OID.int4,
    array_position: oids_1.OID.int4,
    array_upper: oids_1.OID.int4,
    array_lower: oids_1.OID.int4,
    cardinality: oids_1.OID.int4,
    date: oids_1.OID.date,
    translate: oids_1.OID.text,
    now: oids_1.OID.timestamptz,
    transaction_timestamp: oids_1.OID.timestamptz,
    statement_timestamp: oids_1.OID.timestamptz,
    clock_timestamp: oids_1.OID.timestamptz,
    to_timestamp: oids_1.OID.timestamptz,
    date_part: oids_1.OID.float8,
    extract: oids_1.OID.numeric,
    random: oids_1.OID.float8,
    length: oids_1.OID.int4,
    char_length: oids_1.OID.int4,
    character_length: oids_1.OID.int4,
    octet_length: oids_1.OID.int4,
    strpos: oids_1.OID.int4,
    position: oids_1.OID.int4,
    lower: oids_1.OID.text,
    upper: oids_1.OID.text,
    initcap: oids_1.OID.text,
    concat: oids_1.OID.text,
    concat_ws: oids_1.OID.text,
    substr: oids_1.OID.text,
    substring: oids_1.OID.text,
    replace: oids_1.OID.text,
    trim: oids_1.OID.text,
    btrim: oids_1.OID.text,
    ltrim: oids_1.OID.text,
    rtrim: oids_1.OID.text,
    lpad: oids_1.OID.text,
    rpad: oids_1.OID.text,
    left: oids_1.OID.text,
    right: oids_1.OID.text,
    md5: oids_1.OID.text,
    encode: oids_1.OID.text,
    decode: oids_1.OID.bytea,
    sha224: oids_1.OID.bytea,
    sha256: oids_1.OID.bytea,
    sha384: oids_1.OID.bytea,
    sha512: oids_1.OID.bytea,
    div: oids_1.OID.numeric,
    to_char: oids_1.OID.text,
    string_agg: oids_1.OID.text,
    format: oids_1.OID.text,
    version: oids_1.OID.text,
    current_database: oids_1.OID.name,
    current_schema: oids_1.OID.name,
    current_user: oids_1.OID.name,
    bool_and: oids_1.OID.bool,
    bool_or: oids_1.OID.bool,
    every: oids_1.OID.bool,
    json_agg: oids_1.OID.json,
    json_build_object: oids_1.OID.json,
    jsonb_agg: oids_1.OID.jsonb,
    jsonb_build_object: oids_1.OID.jsonb,
    json_build_array: oids_1.OID.json,
    jsonb_build_array: oids_1.OID.jsonb,
    json_object_agg: oids_1.OID.json,
    jsonb_object_agg: oids_1.OID.jsonb,
    to_json: oids_1.OID.json,
    to_jsonb: oids_1.OID.jsonb,
    row_to_json: oids_1.OID.json,
    json_array_length: oids_1.OID.int4,
    jsonb_array_length: oids_1.OID.int4,
    json_typeof: oids_1.OID.text,
    jsonb_typeof: oids_1.OID.text,
    split_part: oids_1.OID.text,
    repeat: oids_1.OID.text,
    reverse: oids_1.OID.text,
    regexp_replace: oids_1.OID.text,
    gen_random_uuid: oids_1.OID.uuid,
    row_number: oids_1.OID.int8,
    rank: oids_1.OID.int8,
    dense_rank: oids_1.OID.int8,
    ntile: oids_1.OID.int4,
    age: oids_1.OID.interval,
    justify_hours: oids_1.OID.interval,
    justify_days: oids_1.OID.interval,
    justify_interval: oids_1.OID.interval,
    make_date: oids_1.OID.date,
    make_timestamp: oids_1.OID.timestamp,
    // the float8 functions (an integer argument is read as a double, as PostgreSQL resolves it)
    pi: oids_1.OID.float8,
    degrees: oids_1.OID.float8,
    radians: oids_1.OID.float8,
    sin: oids_1.OID.float8,
    cos: oids_1.OID.float8,
    tan: oids_1.OID.float8,
    cot: oids_1.OID.float8,
    asin: oids_1.OID.float8,
    acos: oids_1.OID.float8,
    atan: oids_1.OID.float8,
    atan2: oids_1.OID.float8,
    sinh: oids_1.OID.float8,
    cosh: oids_1.OID.float8,
    tanh: oids_1.OID.float8,
    asinh: oids_1.OID.float8,
    acosh: oids_1.OID.float8,
    atanh: oids_1.OID.float8,
    // src/engine/pg-math.ts
    factorial: oids_1.OID.numeric,
    width_bucket: oids_1.OID.int4,
    to_hex: oids_1.OID.text,
    starts_with: oids_1.OID.bool,
    isfinite: oids_1.OID.bool,
    regexp_split_to_array: oids_1.OID.textArray,
    regexp_split_to_table: oids_1.OID.text,
    make_interval: oids_1.OID.interval,
    num_nulls: oids_1.OID.int4,
    overlaps: oids_1.OID.bool,
    num_nonnulls: oids_1.OID.int4,
    to_date: oids_1.OID.date,
};
exports.SQL_VALUE_FUNCTIONS = {
    SVFOP_CURRENT_DATE: ['current_date', oids_1.OID.date],
    SVFOP_CURRENT_TIMESTAMP: ['current_timestamp', oids_1.OID.timestamptz],
    SVFOP_CURRENT_TIMESTAMP_N: ['current_timestamp', oids_1.OID.timestamptz],
    SVFOP_LOCALTIMESTAMP: ['localtimestamp', oids_1.OID.timestamp],
    SVFOP_LOCALTIMESTAMP_N: ['localtimestamp', oids_1.OID.timestamp],
    SVFOP_LOCALTIME: ['localtime', oids_1.OID.time],
    SVFOP_LOCALTIME_N: ['localtime', oids_1.OID.time],
    SVFOP_CURRENT_USER: ['current_user', oids_1.OID.name],
    SVFOP_USER: ['current_user', oids_1.OID.name],
    SVFOP_SESSION_USER: ['session_user', oids_1.OID.name],
    SVFOP_CURRENT_CATALOG: ['current_catalog', oids_1.OID.name],
    SVFOP_CURRENT_SCHEMA: ['current_schema', oids_1.OID.name],
};
const strings = (list) => (list ?? []).map((n) => n.String?.sval ?? '');
exports.strings = strings;
/** The type a TypeName names, or 0. */
function typeNameOid(t) {
    if (!t)
        return 0;
    const names = (0, exports.strings)(t.names).filter((n) => n !== 'pg_catalog');
    const oid = exports.TYPE_NAMES[names.join(' ')] ?? exports.TYPE_NAMES[names[names.length - 1]] ?? 0;
    // `int[]`, `text[]`: the array type of the element, when it has a codec
    if (t.arrayBounds)
        return t.arrayBounds.length === 1 && oid ? ((0, registry_1.arrayOidOf)(oid) ?? 0) : 0;
    return oid;
}
/** PostgreSQL's name for the type (the name of an unaliased cast of a non-column). */
function typeDisplayName(t) {
    const names = (0, exports.strings)(t.names).filter((n) => n !== 'pg_catalog');
    const oid = typeNameOid(t);
    const canonical = Object.entries(exports.TYPE_NAMES).find(([, o]) => o === oid)?.[0];
    return canonical ?? names[names.length - 1] ?? '?column?';
}
function isNumber(oid) {
    return exports.INTS.has(oid) || exports.FLOATS.has(oid) || oid === oids_1.OID.numeric;
}
/** The result type of arithmetic on two number types, as PostgreSQL resolves it. */
function promote(a, b) {
    if (a === oids_1.OID.float8 || b === oids_1.OID.float8 || a === oids_1.OID.float4 || b === oids_1.OID.float4)
        return oids_1.OID.float8;
    if (a === oids_1.OID.numeric || b === oids_1.OID.numeric)
        return oids_1.OID.numeric;
    if (a === oids_1.OID.int8 || b === oids_1.OID.int8)
        return oids_1.OID.int8;
    if (a === oids_1.OID.int4 || b === oids_1.OID.int4)
        return oids_1.OID.int4;
    return a || b;
}
/** The set-returning functions of one column: FROM fn(...) AS x names its value x; alone in a select list they give rows. */
exports.ONE_COLUMN_SET_RETURNING = new Set([
    'generate_series',
    'unnest',
    'json_array_elements',
    'jsonb_array_elements',
    'json_array_elements_text',
    'jsonb_array_elements_text',
    'json_object_keys',
    'jsonb_object_keys',
    'regexp_matches',
    'regexp_split_to_table',
]);
/**
 * Functions of one value that clients call in FROM as a one-row table (TypeORM's `SELECT * FROM
 * current_schema()`): the row's one column is named by the alias, else by the function.
 */
exports.SCALAR_IN_FROM = new Set([
    'current_schema', 'current_database', 'current_user', 'session_user', 'current_catalog', 'current_schemas',
    'version', 'current_setting', 'now', 'transaction_timestamp', 'statement_timestamp', 'clock_timestamp',
    'pg_backend_pid', 'pg_postmaster_start_time', 'pg_is_in_recovery', 'txid_current', 'inet_server_addr',
    'inet_server_port', 'inet_client_addr', 'pg_encoding_to_char', 'to_timestamp', 'make_date', 'make_timestamp',
    'date_trunc', 'lower', 'upper', 'md5', 'random', 'gen_random_uuid', 'concat', 'format', 'length', 'to_char',
    'pg_size_pretty', 'pg_database_size', 'pg_typeof', 'age', 'abs', 'round', 'sqrt', 'power', 'coalesce',
]); // biome-ignore format: a word list
/** Operators whose result is a boolean: comparisons, pattern matches, containment, key tests, overlap. */
exports.BOOL_OPERATORS = new Set('= <> != < > <= >= ~ !~ ~* !~* ~~ !~~ @> <@ ? ?| ?& &&'.split(' '));
/** The math functions mathResult types. */
exports.MATH_FUNCTIONS = new Set('round trunc ceil ceiling floor sign sqrt cbrt exp ln log log10 power pow mod'.split(' '));
/**
 * The result type of a math function of these argument types: of integers PostgreSQL picks the
 * float8 form (its preferred numeric type) where a numeric one exists too; round(x, n), trunc(x, n)
 * and log(b, x) exist for numeric only, cbrt for float8 only; mod keeps integers. 0 when unknown.
 */
function mathResult(name, ts) {
    if (ts.some((t) => t === 0))
        return 0;
    if (name === 'mod')
        return ts.includes(oids_1.OID.numeric) ? oids_1.OID.numeric : ts.every((t) => exports.INTS.has(t)) ? promote(ts[0], ts[1]) : 0;
    if (name === 'cbrt')
        return oids_1.OID.float8;
    if ((name === 'round' || name === 'trunc' || name === 'log') && ts.length === 2)
        return oids_1.OID.numeric;
    if (ts.some((t) => t === oids_1.OID.numeric))
        return oids_1.OID.numeric;
    return ts.every((t) => exports.FLOATS.has(t) || exports.INTS.has(t)) ? oids_1.OID.float8 : 0;
}
//# sourceMappingURL=type-signatures.js.map