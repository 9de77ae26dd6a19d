// Word by word: PostgreSQL's operators and words that SQLite spells otherwise (~ is REGEXP, ILIKE is
// LIKE, OPERATOR(pg_catalog.~), COLLATE dropped, pg_catalog. and public. prefixes dropped, renamed
// functions such as string_agg, IS UNKNOWN), aliases quoted, 't'/'f' compared with catalog booleans as 1/0, and
// session functions (version(), current_user, now()) replaced by their values where the statement
// runs on a read worker, which does not have them.
import { DECLARED_CATALOG_TABLES, DECLARED_INFORMATION_SCHEMA_TABLES } from '../../catalog/tables';
import { BYTEA_AGG } from '../bytea-values';
import { quoteString } from '../lexer';
import { sessionUtcName } from '../session-styles';
import { sessionZone, sessionZoneLiteral } from '../session-zone';
import { type Tok, closer, closerAfter, endsOperand, isOp, isPunct, isWord } from '../tokens';
import type { DialectContext } from './translate';
import { STRICT_TO_JSON } from './strict-json';
import { lookup } from '../../../../src/lookup';
import { textOfKind } from '../text-kinds';
import { NUMERIC_ELEMENTS, elementAtScale } from '../numeric-elements';
import { PG_FLOAT_MATH, sqliteValued } from '../../../../src/engine/pg-float-math';

/** Boolean columns of the catalog: `indisprimary = 'f'` compares them with 0 and 1. */
const BOOL_COLUMNS = new Set(
  [...Object.values(DECLARED_CATALOG_TABLES), ...Object.values(DECLARED_INFORMATION_SCHEMA_TABLES)].flatMap((cols) =>
    cols
      .split(',')
      .map((c) => c.trim().split(/\s+/))
      .filter((c) => c[1] === 'bool')
      .map((c) => c[0]),
  ),
);
const BOOL_LITERALS: Record<string, string> = lookup({ "'t'": '1', "'f'": '0', "'true'": '1', "'false'": '0' });

/** Function calls replaced by their value for the session (the read workers do not have them). */
function sessionValue(name: string, ctx: DialectContext): string | null {
  switch (name) {
    case 'version':
      return quoteString(ctx.version);
    case 'current_database':
    case 'current_catalog':
      return quoteString(ctx.database);
    case 'current_user':
    case 'current_role':
    case 'session_user':
    case 'user':
      return quoteString(ctx.user);
    case 'current_schema':
      return "'public'";
    // the transaction's start, the statement's and the clock, to the microsecond (SQLite's clock
    // has milliseconds), pinned by the session (src/engine/micro-clock.ts)
    case 'now':
    case 'transaction_timestamp':
      return '__pg_now()';
    case 'statement_timestamp':
      return '__pg_statement_now()';
    case 'clock_timestamp':
      return '__pg_clock_now()';
    case 'timeofday': {
      // PostgreSQL's `Fri Nov 27 08:55:12.123456 2026 UTC`, in the session's zone (to_char's TZ
      // abbreviation), from a clock with microseconds (SQLite's has milliseconds: .123000)
      const now = '__pg_clock_us()';
      const zone = sessionZone();
      const fmt = "'Dy Mon DD HH24:MI:SS.US YYYY TZ'";
      const utcName = sessionUtcName();
      return zone === null
        ? `__pg_to_char_tz(${now}, ${fmt}${utcName === null ? '' : `, ${quoteString(utcName)}`})`
        : `__pg_to_char_in(${now}, ${fmt}, ${quoteString(zone)})`;
    }
    case 'localtimestamp':
      return localClock();
    case 'localtime':
      return `substr(${localClock()}, 12)`;
    default:
      return null;
  }
}

/**
 * The transaction's start on the wall clock in the session's zone, or UTC's when that is the
 * session's (localtimestamp; localtime and current_date cut from it): now() is that instant.
 */
function localClock(): string {
  const zone = sessionZone();
  return zone === null ? '__pg_now()' : `__pg_wall_in(__pg_now(), ${quoteString(zone)})`;
}

/** The index of the comma ending a call's first argument (its '(' at `open`); -1 when it has no second. */
function firstArgumentEnd(toks: Tok[], open: number): number {
  let depth = 0;
  for (let k = open + 1; k < toks.length; k++) {
    if (isPunct(toks[k], '(') || isPunct(toks[k], '[')) depth++;
    else if (isPunct(toks[k], ')') || isPunct(toks[k], ']')) {
      if (depth === 0) return -1;
      depth--;
    } else if (depth === 0 && isPunct(toks[k], ',')) return k;
  }
  return -1;
}

/** Where the first argument of the call opening at toks[open] ends: a comma, ORDER BY or the closing parenthesis; -1 for none. */
function argumentEnd(toks: Tok[], open: number): number {
  let depth = 0;
  for (let k = open + 1; k < toks.length; k++) {
    if (isPunct(toks[k], '(') || isPunct(toks[k], '[')) depth++;
    else if (isPunct(toks[k], ')') || isPunct(toks[k], ']')) {
      if (depth === 0) return k;
      depth--;
    } else if (depth === 0 && (isPunct(toks[k], ',') || isWord(toks[k], 'ORDER'))) return k;
  }
  return -1;
}

/** current_time(p): the transaction's start as a time with time zone in the session's zone, to p digits. */
function currentTime(p: number): string {
  const zone = sessionZone();
  const time = `substr(__pg_round_time(${localClock()}, ${p}), 12)`;
  return zone === null ? `(${time} || '+00')` : `(${time} || __pg_to_char_in(__pg_now(), 'OF', ${quoteString(zone)}))`;
}

/** Clock readings: values on every connection (the catalog's has no such functions either). */
const CLOCK_VALUES = new Set([
  'now',
  'transaction_timestamp',
  'statement_timestamp',
  'clock_timestamp',
  'timeofday',
  'localtimestamp',
  'localtime',
]);

/**
 * PostgreSQL's JSON functions, called by their __pg_ names (src/engine/pg-json-functions.ts): SQLite
 * has some of these names itself with other meanings (its jsonb_set returns its binary JSONB).
 */
const PG_JSON_FUNCTIONS: Record<string, string> = lookup(
  Object.fromEntries(
    [
      'each',
      'each_text',
      'array_elements',
      'array_elements_text',
      'object_keys',
      'strip_nulls',
      'extract_path',
      'extract_path_text',
    ]
      .flatMap((f) => [`json_${f}`, `jsonb_${f}`])
      .concat(['jsonb_set', 'jsonb_set_lax', 'jsonb_insert', 'jsonb_pretty', 'regexp_matches'])
      // SQL/JSON path (src/engine/pg-jsonpath-functions.ts)
      .concat([
        'jsonb_path_exists',
        'jsonb_path_match',
        'jsonb_path_query',
        'jsonb_path_query_array',
        'jsonb_path_query_first',
      ])
      // text search (src/engine/pg-text-search-functions.ts)
      .concat(['to_tsvector', 'to_tsquery', 'plainto_tsquery', 'phraseto_tsquery', 'websearch_to_tsquery'])
      .concat(['ts_rank', 'ts_rank_cd', 'ts_headline', 'strip', 'setweight', 'numnode', 'ts_delete', 'ts_filter'])
      .concat(['tsvector_to_array', 'array_to_tsvector', 'querytree', 'tsquery_phrase'])
      .concat(['json_to_tsvector', 'jsonb_to_tsvector', 'ts_rewrite'])
      .map((f) => [f, `__pg_${f}`]),
  ),
);

/** The clocks that take a precision (`current_timestamp(0)`): whether they are a time of day, and whether a zone follows. */
const PRECISION_CLOCKS: Record<string, [boolean, boolean]> = lookup({
  current_timestamp: [false, true],
  localtimestamp: [false, false],
  current_time: [true, true],
  localtime: [true, false],
});

/** The calls of a timestamptz (RENAMED) that take the session's zone when it is not UTC. */
const ZONED_CALLS: Record<string, string> = lookup({
  __pg_to_char_tz: '__pg_to_char_in',
  date_trunc: '__pg_date_trunc_in',
  date_part: '__pg_date_part_in',
  generate_series: 'generate_series',
});

/** Calls the analysis marked (sql/typed-operators.ts) by the type of their argument, and their functions. */
const RENAMED: Record<string, string> = lookup({
  'round-even': '__pg_round_even',
  'round-numeric': '__pg_round_numeric',
  hex32: '__pg_to_hex32',
  'to-char-tz': '__pg_to_char_tz',
  'dtrunc-tz': 'date_trunc',
  'dpart-tz': 'date_part',
  'series-tz': 'generate_series',
  'sum-iv': '__pg_interval_sum',
  // sum() and avg() of a numeric: NaN in, NaN out (SQLite's read the text NaN as 0)
  'num-sum': '__pg_numeric_sum',
  'num-avg': '__pg_numeric_avg_double',
  'avg-iv': '__pg_interval_avg',
  'min-iv': '__pg_interval_min',
  'max-iv': '__pg_interval_max',
  'min-iv-w': '__pg_interval_min_w',
  'max-iv-w': '__pg_interval_max_w',
  // array_agg of arrays: one more dimension (src/engine/pg-arrays.ts)
  'agg-arrays': '__pg_array_agg_arrays',
  // of arrays of numbers, booleans and text: by their elements; of timetz by instant and offset (src/engine/pg-arrays.ts)
  ...Object.fromEntries(
    ['min', 'max'].flatMap((f) =>
      ['numeric', 'boolean', 'text', 'timetz'].flatMap((k) => [
        [`arr-${f}-${k}`, `__pg_array_${f}_${k}`],
        [`arr-${f}-${k}-w`, `__pg_array_${f}_${k}_w`],
      ]),
    ),
  ),
  'tzcall-local': '__pg_timezone_local',
  'tzcall-wall': '__pg_timezone_wall',
  // string_agg of bytea joins the bytes (group_concat made text of them)
  [BYTEA_AGG]: '__pg_bytea_string_agg',
  // of numeric and boolean arrays: elements matched by their values (src/engine/pg-arrays.ts)
  ...Object.fromEntries(
    ['position', 'positions', 'replace', 'remove'].flatMap((f) =>
      ['numeric', 'boolean'].map((k) => [`arr-${f}-${k}`, `__pg_array_${f}_${k}`]),
    ),
  ),
});

/** PostgreSQL's match operators in SQLite's words (`~*` and `!~*` with the regex made case-blind). */
const MATCH_OPERATORS: Record<string, string[]> = lookup({
  '~': ['REGEXP'],
  '!~': ['NOT', 'REGEXP'],
  '~*': ['REGEXP', "'(?i)'", '||'],
  '!~*': ['NOT', 'REGEXP', "'(?i)'", '||'],
  '~~': ['LIKE'],
  '~~*': ['LIKE'],
  '!~~': ['NOT', 'LIKE'],
  '!~~*': ['NOT', 'LIKE'],
});

/** Functions called by another name in SQLite (or by Patina's own), by their lower-case name. */
const RENAMED_CALLS = new Map<string, string>(
  Object.entries({
    ...PG_JSON_FUNCTIONS,
    // NaN of NaN and PostgreSQL's errors (SQLite's made both NULL): src/engine/pg-float-math.ts
    ...Object.fromEntries(PG_FLOAT_MATH.map((f) => [f, `__pg_math_${f}`])),
    string_agg: 'group_concat',
    json_build_object: 'json_object',
    jsonb_build_object: 'json_object',
    json_agg: 'json_group_array',
    jsonb_agg: 'json_group_array',
    json_build_array: 'json_array',
    jsonb_build_array: 'json_array',
    json_object_agg: 'json_group_object',
    jsonb_object_agg: 'json_group_object',
    json_array_length: '__pg_json_array_length',
    jsonb_array_length: '__pg_json_array_length',
    row_to_json: 'json',
    to_json: STRICT_TO_JSON,
    to_jsonb: STRICT_TO_JSON,
    btrim: '__pg_btrim',
    ltrim: '__pg_ltrim',
    rtrim: '__pg_rtrim',
    substr: '__pg_substr',
    substring: '__pg_substr',
    random: '__pg_random',
    lower: '__pg_lower',
    upper: '__pg_upper',
    format: '__pg_format',
  }),
);

const MATH_CALLS = new Set(PG_FLOAT_MATH);

/** Names of bare SQL-standard functions PostgreSQL calls without parentheses. */
const BARE_FUNCTIONS = new Set([
  'current_user',
  'current_role',
  'session_user',
  'user',
  'current_schema',
  'current_catalog',
  'localtimestamp',
  'localtime',
]);

export function rewriteWords(toks: Tok[], ctx: DialectContext, local: boolean): Tok[] {
  const out: Tok[] = [];
  const castDepth: number[] = [];
  let depth = 0;
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    const next = toks[i + 1];
    if (isPunct(t, '(')) depth++;
    if (isPunct(t, ')')) {
      if (castDepth[castDepth.length - 1] === depth) castDepth.pop();
      depth--;
    }
    // OPERATOR(pg_catalog.~) → ~
    if (isWord(t, 'OPERATOR') && isPunct(next, '(')) {
      const close = closerAfter(toks, i + 1);
      const op = toks.slice(i + 2, close).filter((x) => x.type === 'op');
      if (op.length === 1) {
        toks.splice(i, close - i + 1, op[0]);
        i--;
        continue;
      }
    }
    // COLLATE pg_catalog.default, COLLATE "C": SQLite's own collation is what there is
    if (isWord(t, 'COLLATE')) {
      let j = i + 1;
      if (isPunct(toks[j + 1], '.')) j += 2;
      i = j;
      continue;
    }
    // pg_catalog.f(...) → f(...), public.t → t
    if (
      (isWord(t, 'PG_CATALOG') &&
        isPunct(next, '.') &&
        (isWord(toks[i + 2]) || toks[i + 2]?.type === 'quoted') &&
        isPunct(toks[i + 3], '(')) ||
      ((isWord(t, 'PUBLIC') || (t.type === 'quoted' && t.text === '"public"')) &&
        isPunct(next, '.') &&
        !isPunct(out[out.length - 1], '.'))
    ) {
      // (a mark of the call, at its first token, goes to its name: `concat(pg_catalog.max(ch))`'s
      // 'chpadx:n', sql/carried-padding.ts)
      const mark = 'arith' in t ? t.arith : undefined;
      const name = toks[i + 2];
      if (mark && isPunct(toks[i + 3], '(') && !('arith' in name && name.arith))
        toks[i + 2] = { ...name, arith: mark } as Tok;
      i++;
      continue;
    }
    if (t.type === 'string' && BOOL_LITERALS[t.text.toLowerCase()] && local) {
      const prev = out[out.length - 1];
      const col =
        isOp(prev, '=') || isOp(prev, '<>') || isOp(prev, '!=')
          ? out[out.length - 2]
          : isOp(next, '=') || isOp(next, '<>') || isOp(next, '!=')
            ? toks[i + 2]
            : undefined;
      // (quoted too: Sequel writes `"pg_index"."indisprimary" = 't'`, which found no row)
      const name = col?.type === 'word' ? col.text.toLowerCase() : col?.type === 'quoted' ? col.text.slice(1, -1) : '';
      if (BOOL_COLUMNS.has(name)) {
        out.push({ type: 'number', text: BOOL_LITERALS[t.text.toLowerCase()] });
        continue;
      }
    }
    // ~x is bitwise NOT, which SQLite spells the same; only a `~` between operands is a regex match
    if (isOp(t, '~') && !endsOperand(out[out.length - 1])) {
      out.push(t);
      continue;
    }
    if (t.type === 'op') {
      const m = MATCH_OPERATORS[t.text];
      if (m) {
        for (const w of m) out.push({ type: w.startsWith("'") ? 'string' : w === '||' ? 'op' : 'word', text: w });
        continue;
      }
    }
    if (t.type === 'word') {
      const up = t.text.toUpperCase();
      const prev = out[out.length - 1];
      const afterDot = isPunct(prev, '.');
      // (EXTRACT's mark is read by date-syntax.ts, which makes it a call)
      const renamed = 'arith' in t && t.arith && up !== 'EXTRACT' ? RENAMED[t.arith] : undefined;
      // to_char, date_trunc and date_part of a timestamptz with the session in a zone other than
      // UTC: the zone is their third argument
      const zoned = renamed && sessionZone() !== null ? ZONED_CALLS[renamed] : undefined;
      const end = zoned ? closer(toks, i + 1) : -1;
      if (zoned && end > 0) {
        out.push({ type: 'word', text: zoned });
        toks = [
          ...toks.slice(0, end),
          { type: 'punct', text: ',' },
          { type: 'string', text: sessionZoneLiteral() },
          ...toks.slice(end),
        ];
        continue;
      }
      // make_timestamptz(y, m, d, h, mi, s) with the session in a zone other than UTC: the wall
      // time is that zone's, given as the seventh argument (src/engine/dates.ts)
      const makeEnd = up === 'MAKE_TIMESTAMPTZ' && sessionZone() !== null ? closer(toks, i + 1) : -1;
      if (makeEnd > 0 && topLevelCommas(toks, i + 2, makeEnd) === 5) {
        out.push(t);
        toks = [
          ...toks.slice(0, makeEnd),
          { type: 'punct', text: ',' },
          { type: 'string', text: sessionZoneLiteral() },
          ...toks.slice(makeEnd),
        ];
        continue;
      }
      // array_to_string of a date or timestamp array (marked so): its elements as their type prints
      // them, in the session's DateStyle and zone (SQLite's text of the stored array was joined)
      const ats =
        'arith' in t && t.arith?.startsWith('ats:') && isPunct(next, '(') ? firstArgumentEnd(toks, i + 1) : -1;
      if (ats > 0) {
        const [before, after] = textOfKind((t as { arith: string }).arith.slice(4), '\u0000').split('\u0000');
        out.push({ type: 'word', text: 'array_to_string' });
        toks = [
          ...toks.slice(0, i + 2),
          { type: 'group', text: before },
          ...toks.slice(i + 2, ats),
          { type: 'group', text: after },
          ...toks.slice(ats),
        ];
        continue;
      }
      // array_agg of numerics of a known scale (marked so): each value printed at it, as PostgreSQL's
      // numeric[] prints it ({1.50}; sql/numeric-elements.ts)
      const scaled =
        'arith' in t && t.arith?.startsWith(NUMERIC_ELEMENTS) && isPunct(next, '(') ? argumentEnd(toks, i + 1) : -1;
      if (scaled > 0) {
        const [before, after] = elementAtScale(
          (t as { arith: string }).arith.slice(NUMERIC_ELEMENTS.length),
          '\u0000',
        ).split('\u0000');
        out.push({ type: 'word', text: t.text });
        toks = [
          ...toks.slice(0, i + 2),
          { type: 'group', text: before },
          ...toks.slice(i + 2, scaled),
          { type: 'group', text: after },
          ...toks.slice(scaled),
        ];
        continue;
      }
      // to_char of a timestamptz with the session in UTC under another name: TZ prints that name
      const utcEnd = renamed === '__pg_to_char_tz' && sessionUtcName() !== null ? closer(toks, i + 1) : -1;
      if (utcEnd > 0) {
        out.push({ type: 'word', text: renamed! });
        toks = [
          ...toks.slice(0, utcEnd),
          { type: 'punct', text: ',' },
          { type: 'string', text: quoteString(sessionUtcName()!) },
          ...toks.slice(utcEnd),
        ];
        continue;
      }
      if (renamed) {
        out.push({ type: 'word', text: renamed });
        continue;
      }
      // date_part or date_trunc of a unit no type takes ('unit:<type>'): the type its error names after the value
      const unitType = 'arith' in t && t.arith?.startsWith('unit:') ? t.arith.slice(5) : undefined;
      const close = unitType !== undefined ? closer(toks, i + 1) : -1;
      if (unitType !== undefined && close > 0) {
        out.push({ type: 'word', text: up === 'DATE_TRUNC' ? '__pg_date_trunc_typed' : '__pg_date_part_typed' });
        toks = [
          ...toks.slice(0, close),
          { type: 'punct', text: ',' },
          { type: 'string', text: quoteString(unitType) },
          ...toks.slice(close),
        ];
        continue;
      }
      // ROW(a, b): a row value, which SQLite writes without the word (comparisons of rows); one
      // that is a result column (marked) stays for translate/row-items.ts
      const rowItem = 'arith' in t && t.arith?.startsWith('row:');
      if (up === 'ROW' && isPunct(next, '(') && !afterDot && !rowItem) continue;
      if (up === 'ILIKE') {
        out.push({ type: 'word', text: 'LIKE' });
        continue;
      }
      // x IS [NOT] UNKNOWN: the boolean test for NULL, which SQLite spells IS [NOT] NULL
      if (up === 'UNKNOWN' && (isWord(prev, 'IS') || (isWord(prev, 'NOT') && isWord(out[out.length - 2], 'IS')))) {
        out.push({ type: 'word', text: 'NULL' });
        continue;
      }
      if (up === 'CAST' && isPunct(next, '(')) castDepth.push(depth + 1);
      // `AS name`: quote the alias so that SQLite keywords work and the name folds as in PostgreSQL
      if (
        up === 'AS' &&
        castDepth[castDepth.length - 1] !== depth &&
        next?.type === 'word' &&
        !isPunct(toks[i + 2], '(') &&
        !['MATERIALIZED', 'NOT'].includes(next.text.toUpperCase())
      ) {
        out.push(t, { type: 'quoted', text: '"' + next.text.toLowerCase() + '"' });
        i++;
        continue;
      }
      const lower = t.text.toLowerCase();
      // current_timestamp(0), localtimestamp(3), ...: the clock to that many digits of the second
      if (
        !afterDot &&
        PRECISION_CLOCKS[lower] &&
        isPunct(next, '(') &&
        toks[i + 2]?.type === 'number' &&
        isPunct(toks[i + 3], ')')
      ) {
        // (rounded to p digits, as PostgreSQL's AdjustTimestampForTypmod; the time of day cut after it)
        const p = Math.min(Number(toks[i + 2].text), 6);
        const [timeOfDay, zone] = PRECISION_CLOCKS[lower];
        if (timeOfDay && zone) out.push({ type: 'group', text: currentTime(p) });
        else {
          const rounded = `__pg_round_time(${zone ? '__pg_now()' : localClock()}, ${p})`;
          out.push({ type: 'group', text: timeOfDay ? `substr(${rounded}, 12)` : rounded });
        }
        i += 3;
        continue;
      }
      if (
        !afterDot &&
        isPunct(next, '(') &&
        isPunct(toks[i + 2], ')') &&
        sessionValue(lower, ctx) !== null &&
        (!local || CLOCK_VALUES.has(lower))
      ) {
        out.push({ type: 'group', text: sessionValue(lower, ctx)! });
        i += 2;
        continue;
      }
      // current_date: the date in the session's zone (SQLite's CURRENT_DATE is UTC's)
      if (
        !afterDot &&
        lower === 'current_date' &&
        sessionZone() !== null &&
        !isPunct(next, '(') &&
        !isPunct(next, '.')
      ) {
        out.push({ type: 'group', text: `substr(${localClock()}, 1, 10)` });
        continue;
      }
      // current_timestamp: now(), the transaction's start to the microsecond (SQLite's has whole
      // seconds); current_time its time of day and the zone's offset (SQLite's: UTC, no offset)
      if (
        !afterDot &&
        (lower === 'current_timestamp' || lower === 'current_time') &&
        !isPunct(next, '(') &&
        !isPunct(next, '.')
      ) {
        out.push({ type: 'group', text: lower === 'current_time' ? currentTime(6) : '__pg_now()' });
        continue;
      }
      if (!afterDot && BARE_FUNCTIONS.has(lower) && !isPunct(next, '(') && !isPunct(next, '.')) {
        out.push(
          local && !CLOCK_VALUES.has(lower)
            ? { type: 'group', text: `${lower}()` }
            : { type: 'group', text: sessionValue(lower, ctx)! },
        );
        continue;
      }
      if (!afterDot && isPunct(next, '(')) {
        // sin(x) → __pg_math_sin(x, sin(x)): the C library's value, PostgreSQL's checks (src/engine/pg-float-math.ts);
        // not where the call is computed exactly (its mark makes it __pg_numeric_exp_exact(x), __pg_numeric_power(a, b))
        const valued = sqliteValued(lower);
        const close = valued && !('arith' in t && t.arith?.startsWith('numx')) ? closer(toks, i + 1) : -1;
        if (valued && close > 0) {
          const args = toks.slice(i + 2, close);
          // (of a nested one, NULL: this file's value, so that the arguments are not written 2^depth times)
          const nested = args.some(
            (a, k) => a.type === 'word' && sqliteValued(a.text.toLowerCase()) && isPunct(args[k + 1], '('),
          );
          const value: Tok[] = nested
            ? [{ type: 'word', text: 'NULL' }]
            : [{ type: 'group', text: valued }, { type: 'punct', text: '(' }, ...args, { type: 'punct', text: ')' }];
          out.push({ type: 'word', text: `__pg_math_${lower}` });
          toks = [
            ...toks.slice(0, i + 1),
            { type: 'punct', text: '(' },
            ...args,
            { type: 'punct', text: ',' },
            ...value,
            { type: 'punct', text: ')' },
            ...toks.slice(close + 1),
          ];
          continue;
        }
        const to = RENAMED_CALLS.get(lower);
        if (to !== undefined) {
          // (a math call keeps its mark: typed-arithmetic.ts wraps abs(x), ... of a numeric by it, and
          // prints format()'s arguments as their types print)
          out.push(
            MATH_CALLS.has(lower) || lower === 'format' ? { ...t, type: 'word', text: to } : { type: 'word', text: to },
          );
          continue;
        }
      }
    }
    out.push(t);
  }
  return out;
}

/** The commas in toks[from, to) outside any parentheses. */
function topLevelCommas(toks: readonly Tok[], from: number, to: number): number {
  let depth = 0;
  let n = 0;
  for (let i = from; i < to; i++) {
    if (isPunct(toks[i], '(')) depth++;
    else if (isPunct(toks[i], ')')) depth--;
    else if (depth === 0 && isPunct(toks[i], ',')) n++;
  }
  return n;
}
