// Whether a statement may hold something typed-operators.ts marks: a cheap test on its tokens, so that
// other statements are not parsed (the words and operators that can make an operand a date, time or
// interval, a boolean or float made text, a string compared with a computed number, ...).
import { mayHoldByteaCalls } from './bytea-values';
import { mayHoldJsonArrays, mayHoldJsonBooleanKeys, mayHoldJsonNumerics } from './json-builders';
import type { PgToken } from './lexer';
import { mayReadCharPadding } from './char-padding';
import { columnListKinds } from './column-list-kinds';
import { mayHoldSetOperationRow } from './set-operation-rows';
import { mayOverflowInt4 } from './int-overflow';
import { sessionZone } from './session-zone';
import { mayHoldTextSearch } from './text-search-operators';
import { TEXT_FUNCTIONS } from './text-kinds';
import { CHECKED_ARGUMENTS } from './function-arguments';
import { endsOperand, isOp, isPunct, isWord } from './tokens';
import { isDateUnit, isTruncUnit } from '../../../src/engine/dates';

const TEXT_TYPE_WORDS = new Set(['text', 'varchar', 'bpchar', 'char', 'character']);

/** Words that may give an operand a date or time type (a cheap test before parsing). */
const HINTS = new Set([
  'date',
  'time',
  'timestamp',
  'timestamptz',
  'interval',
  'current_date',
  'current_timestamp',
  'localtimestamp',
  'localtime',
  'now',
  'date_trunc',
  'to_timestamp',
  'to_date',
  'make_date',
  'make_timestamp',
  'age',
  'transaction_timestamp',
  'statement_timestamp',
  'clock_timestamp',
]);
const DATETIME_DECL = /date|time|interval/i;
/** Words of a value whose type is a date or time type (a write converts it through the session's zone). */
const ZONED_WORDS = new Set([
  'now',
  'current_timestamp',
  'localtimestamp',
  'transaction_timestamp',
  'statement_timestamp',
  'clock_timestamp',
  'current_date',
  'to_timestamp',
  'date_trunc',
  'timestamp',
  'timestamptz',
  'date',
]);

const JSONB_WORD = /^(to_)?json/;

/** Functions of one numeric that are NaN of NaN in PostgreSQL (of a column or parameter, typed-operators.ts marks them). */
export const NAN_MATH = new Set([
  'abs', 'ceil', 'ceiling', 'floor', 'sign', 'sqrt', 'exp', 'ln', 'log', 'log10', 'trunc', 'round',
]); // biome-ignore format: a word list

/** The numeric functions computed exactly in a result column (exact-columns.ts, src/engine/pg-exact-logs.ts). */
const EXACT_LOG_WORDS = new Set(['exp', 'ln', 'log', 'log10', 'sqrt']);

/** The aggregates computed exactly over integers and numerics (exact-columns.ts). */
export const EXACT_STATISTICS = new Set(['stddev', 'stddev_samp', 'stddev_pop', 'variance', 'var_samp', 'var_pop']);

/**
 * Whether a statement may hold something this module marks: `^` or `/`, an arithmetic operator
 * beside a word that can be a date or time (a type name, a clock function, a date or time column),
 * AT TIME ZONE, a cast to text, INTERSECT beside UNION or EXCEPT. A cheap test on the tokens, so
 * that other statements are not parsed.
 */
/**
 * Whether a result column may be a row (`SELECT ROW(a, b)`, `SELECT x, (a, b)`): ROW before `(`, or
 * a parenthesis opening a select item that holds a comma of its own (typed-operators.ts marks it).
 */
function mayHoldRowItem(sig: PgToken[]): boolean {
  // the clause each parenthesis depth is in: a select list from SELECT to the next clause word
  const clause: string[] = [''];
  for (let i = 0; i + 1 < sig.length; i++) {
    const t = sig[i];
    if (t.type === 'punct' && t.text === ')') clause.pop();
    if (t.type === 'word' && CLAUSE_WORDS.has(t.text.toUpperCase())) clause[clause.length - 1] = t.text.toUpperCase();
    if (t.type !== 'punct' || t.text !== '(') {
      if (sig[i + 1].text === '(' && t.type === 'word' && t.text.toUpperCase() === 'ROW') return true;
      continue;
    }
    const before = sig[i - 1];
    const opensItem =
      clause[clause.length - 1] === 'SELECT' &&
      ((before?.type === 'word' && /^(SELECT|DISTINCT|ALL)$/i.test(before.text)) ||
        (before?.type === 'punct' && before.text === ','));
    if (opensItem)
      for (let k = i + 1, depth = 0; k < sig.length; k++) {
        const x = sig[k].text;
        if (x === '(') depth++;
        else if (x === ')' && depth-- === 0) break;
        else if (x === ',' && depth === 0) return true;
      }
    clause.push('');
  }
  return false;
}

/**
 * What mayPrintIntoText asks: whether a table has a string column, whether a parameter is declared
 * of a type printed otherwise than SQLite's text.
 */
export interface StringWrites {
  hasStringColumn(table: string): boolean;
  printedParam(n: number): boolean;
  /** (and mayReadCharPadding's: whether a parameter is declared varchar, pgjdbc's setString) */
  varcharParam?(n: number): boolean;
  /** Whether a parameter is declared float8 or float4 (written into an integer column it rounds half to even). */
  floatParam?(n: number): boolean;
}
const NO_STRING_WRITES: StringWrites = { hasStringColumn: () => false, printedParam: () => false };

/** Words that make a boolean of what they stand beside. */
const BOOLEAN_WORDS = new Set(['TRUE', 'FALSE', 'IS', 'NOT', 'AND', 'OR', 'LIKE', 'ILIKE', 'IN', 'BETWEEN', 'EXISTS']);
/** The SQL value functions of a date or time (a timestamptz's text has its offset, a date's the DateStyle's form). */
const CLOCK_WORDS = new Set(['CURRENT_DATE', 'CURRENT_TIMESTAMP', 'CURRENT_TIME', 'LOCALTIMESTAMP', 'LOCALTIME']);
/** Words before `(` that are no function call. */
const NOT_CALLS = new Set(['VALUES', 'IN', 'INTO', 'EXISTS', 'AS', 'SET', 'ON', 'CONFLICT', 'USING', 'WITH']);

/**
 * Whether an INSERT or UPDATE of a table with a string column may write into it a value whose text
 * is not SQLite's (a boolean, a numeric at its scale, a timestamptz with its offset: marked by
 * zoned-assignments.ts): a boolean word or comparison, a cast, a function call, a column or a
 * declared parameter of a type printed otherwise, decimal arithmetic. What WHERE and RETURNING hold
 * is not written (an UPDATE's `WHERE aid = $2` is no hint); ON CONFLICT's SET after a WHERE is, and
 * a set operation's next query.
 */
function mayPrintIntoText(
  sig: PgToken[],
  columnType: (column: string) => string | null,
  writes: StringWrites,
): boolean {
  const verb = sig.findIndex((t) => isWord(t, 'INSERT') || isWord(t, 'UPDATE'));
  if (verb < 0) return false;
  let at = verb + 1;
  if (isWord(sig[at], 'INTO') || isWord(sig[at], 'ONLY')) at++;
  if (isPunct(sig[at + 1], '.')) at += 2;
  const table = sig[at];
  if (!table || (table.type !== 'word' && table.type !== 'quoted')) return false;
  const name = (table.type === 'quoted' ? table.text.slice(1, -1).replace(/""/g, '"') : table.text).toLowerCase();
  if (!writes.hasStringColumn(name)) return false;
  let depth = 0;
  let skipped = false; // in a WHERE or RETURNING clause
  let decimal = false;
  let arithmetic = false;
  for (let i = at + 1; i < sig.length; i++) {
    const t = sig[i];
    if (isPunct(t, '(')) depth++;
    else if (isPunct(t, ')')) depth--;
    if (depth === 0 && (isWord(t, 'WHERE') || isWord(t, 'RETURNING'))) skipped = true;
    else if (depth === 0 && t.type === 'word' && /^(SET|UNION|INTERSECT|EXCEPT)$/i.test(t.text)) skipped = false;
    // (decimals in a set operation: its numeric column is written as PostgreSQL prints it, set-assignments.ts)
    if (t.type === 'word' && /^(UNION|INTERSECT|EXCEPT)$/i.test(t.text)) arithmetic = true;
    if (skipped) continue;
    if (t.type === 'op') {
      if (t.text === '::') return true;
      // (`SET col = ...`: the assignment, no comparison)
      const assigning = t.text === '=' && depth === 0 && (isPunct(sig[i - 2], ',') || isWord(sig[i - 2], 'SET'));
      if (COMPARISONS.has(t.text) && !assigning) return true;
      if (t.text === '+' || t.text === '-' || t.text === '*' || t.text === '/') arithmetic = true;
    } else if (t.type === 'number') decimal ||= /[.e]/i.test(t.text);
    // (a parameter the client declared a boolean, a timestamptz, a double: JDBC's setBoolean)
    else if (t.type === 'param' && writes.printedParam(Number(t.text.slice(1)))) return true;
    else if (t.type === 'word') {
      const upper = t.text.toUpperCase();
      if (BOOLEAN_WORDS.has(upper) || CLOCK_WORDS.has(upper) || upper === 'CAST') return true;
      if (isPunct(sig[i + 1], '(') && !NOT_CALLS.has(upper)) return true;
      const type = columnType(t.text.toLowerCase());
      if (type !== null && type !== 'int') return true;
    }
  }
  return decimal && arithmetic;
}

/** Words that begin a clause (the select list ends at the next one). */
const CLAUSE_WORDS = new Set(
  'SELECT FROM WHERE GROUP HAVING WINDOW ORDER LIMIT OFFSET FETCH VALUES INTO SET RETURNING UNION INTERSECT EXCEPT ON USING'.split(
    ' ',
  ),
);

export function mayHaveTypedOperators(
  sig: PgToken[],
  schemaType: (column: string) => string | null,
  strings: StringWrites = NO_STRING_WRITES,
): boolean {
  // (a subquery's alias of a column or string is of its kind: `x + 1` of `(SELECT name AS x ...)`)
  const aliases = aliasKinds(sig, schemaType);
  const columnType = aliases ? (c: string) => aliases.get(c) ?? schemaType(c) : schemaType;
  let arithmetic = false;
  let hint = false;
  let datedColumn = false;
  let literalTyped = false;
  let sum = false;
  let choice = false;
  let anyString = false;
  let string = false;
  let castToText = false; // a boolean cast to text is `true`/`false`: the tree tells whether the operand is one
  let intervalHint = false; // an interval compared, sorted, or in min/max: by its length, not its text
  let ordered = false;
  let castToInt = false;
  let numericHint = false;
  let castToTime = false;
  let castToScalar = false;
  let castToNumeric = false;
  let jsonbHint = false;
  let floatHint = false; // a double cast to an integer rounds half to even; its NaN in arithmetic is NaN
  let byteaHint = false; // bytea's LIKE matches bytes
  let negation = false;
  let prefixed = false; // a prefix operator of a name, a group or a cast literal (`- arr`: none of an array)
  let keyedArray = false;
  let keyedUse = false;
  let orderedArray = false;
  let arrays = 0;
  let compared = false;
  let datedWords = 0; // two date or time operands and a comparison: a date beside a timestamp is one at midnight
  if (mayHoldByteaCalls(sig, columnType) || mayHoldJsonArrays(sig) || mayHoldJsonNumerics(sig)) return true;
  if (mayHoldJsonBooleanKeys(sig)) return true;
  if (mayHoldTextSearch(sig, columnType)) return true;
  if (mayHoldRowItem(sig) || mayHoldSetOperationRow(sig, columnType)) return true;
  if (mayOverflowInt4(sig)) return true; // int4 or int2 arithmetic checked (int-overflow.ts)
  if (mayReadCharPadding(sig, columnType, strings.varcharParam)) return true;
  if (maySetLiterals(sig, columnType)) return true;
  if (mayPrintIntoText(sig, columnType, strings)) return true;
  // a write in a session not in UTC: a timestamptz written into a timestamp column (now(), a
  // column) is the zone's wall time, a timestamp into a timestamptz column read there (zoned-assignments.ts)
  // each token's text in lower case and its column kind (a word's is read, the others' null), the
  // words in upper case: read once, as the tests below ask for them of most tokens several times
  // (toUpperCase's words hold every word isWord finds)
  const lowers: string[] = new Array(sig.length);
  const kinds: (string | null)[] = new Array(sig.length);
  const words = new Set<string>();
  for (let k = 0; k < sig.length; k++) {
    const x = sig[k];
    lowers[k] = x.text.toLowerCase();
    kinds[k] = x.type === 'word' ? columnType(lowers[k]) : null;
    if (x.type === 'word') words.add(x.text.toUpperCase());
  }
  const writes = sessionZone() !== null && (words.has('INSERT') || words.has('UPDATE'));
  let listed: boolean | undefined; // whether an IN is written (asked of a string in a list)
  for (let i = 0; i < sig.length; i++) {
    const t = sig[i];
    const lw = lowers[i];
    const ct = kinds[i];
    const upper = t.type === 'word' ? t.text.toUpperCase() : '';
    if (isWord(t, 'AT') && isWord(sig[i + 1], 'TIME') && isWord(sig[i + 2], 'ZONE')) return true;
    if (writes && t.type === 'word' && (ZONED_WORDS.has(lw) || ct === 'date')) return true;
    if (isWord(t, 'TIMEZONE') && isPunct(sig[i + 1], '(')) return true;
    // a RANGE frame with an offset: checked and marked by the key's type (window-frames.ts)
    if (isWord(t, 'RANGE') && (isWord(sig[i + 1], 'BETWEEN') || !isWord(sig[i + 1], 'UNBOUNDED'))) return true;
    // a WINDOW clause: windows built on its named ones are checked (window-frames.ts)
    if (isWord(t, 'WINDOW') && sig[i + 1]?.type !== 'punct') return true;
    if (isWord(t, 'OVER') && (sig[i + 1]?.type === 'word' || sig[i + 1]?.type === 'quoted')) return true;
    // percentile_cont's key by its type (ordered-set-keys.ts)
    if (isWord(t, 'WITHIN') && isWord(sig[i + 1], 'GROUP')) return true;
    // with the session in a zone other than UTC, a timestamptz's date, wall time and fields are the
    // zone's (date_trunc, date_part and EXTRACT read it, ::date and ::timestamp give it)
    if (
      sessionZone() !== null &&
      (((isWord(t, 'DATE_TRUNC') || isWord(t, 'DATE_PART') || isWord(t, 'EXTRACT') || isWord(t, 'GENERATE_SERIES')) &&
        isPunct(sig[i + 1], '(')) ||
        (isOp(t, '::') &&
          (isWord(sig[i + 1], 'DATE') || isWord(sig[i + 1], 'TIMESTAMP') || isWord(sig[i + 1], 'TIMESTAMPTZ'))) ||
        (isWord(t, 'CAST') && isPunct(sig[i + 1], '(')))
    )
      return true;
    // date_trunc of a time or an interval cuts the interval's fields (a time column is 'date' here)
    if (
      isWord(t, 'DATE_TRUNC') &&
      isPunct(sig[i + 1], '(') &&
      sig.some(
        (x, k) =>
          isWord(x, 'TIME') || isWord(x, 'INTERVAL') || (x.type === 'word' && /^(date|interval)$/.test(kinds[k] ?? '')),
      )
    )
      return true;
    // date_part or date_trunc of a unit no type takes: its error names the value's type
    if (
      (isWord(t, 'DATE_PART') || isWord(t, 'DATE_TRUNC')) &&
      isPunct(sig[i + 1], '(') &&
      sig[i + 2]?.type === 'string' &&
      !(isWord(t, 'DATE_PART') ? isDateUnit : isTruncUnit)(sig[i + 2].text.slice(1, -1).replace(/''/g, "'"))
    )
      return true;
    // round(double) rounds half to even; pg_typeof names the type the tree gives its argument; avg,
    // stddev and variance are exact; array_to_string of dates prints them as their type does; to_hex
    // of an integer is 32-bit; numeric exp, ln, log, sqrt are exact; a string function of a number is
    // 42883 (function-arguments.ts), as is array_fill of text dimensions (array-fill.ts)
    if (
      (isWord(t, 'ROUND') ||
        isWord(t, 'ARRAY_FILL') ||
        isWord(t, 'PG_TYPEOF') ||
        isWord(t, 'AVG') ||
        isWord(t, 'TO_CHAR') ||
        isWord(t, 'ARRAY_TO_STRING') ||
        isWord(t, 'TO_HEX') ||
        (t.type === 'word' && (CHECKED_ARGUMENTS.has(lw) || EXACT_LOG_WORDS.has(lw) || EXACT_STATISTICS.has(lw)))) &&
      isPunct(sig[i + 1], '(')
    )
      return true;
    // array_agg(DISTINCT arr) and its kin sort arrays by their elements
    if (
      t.type === 'word' &&
      /^(array_agg|json_agg|jsonb_agg)$/i.test(t.text) &&
      isPunct(sig[i + 1], '(') &&
      isWord(sig[i + 2], 'DISTINCT')
    )
      return true;
    // extract(epoch from x) of a timestamp or interval is exact (exact-columns.ts)
    if (isWord(t, 'EXTRACT') && isPunct(sig[i + 1], '(') && /^'?epoch'?$/i.test(sig[i + 2]?.text ?? '')) return true;
    if (isWord(t, 'INTERSECT') && sig.some((x) => isWord(x, 'UNION') || isWord(x, 'EXCEPT'))) return true;
    if ((isOp(t, '::') || isWord(t, 'AS')) && TEXT_TYPE_WORDS.has(lowers[i + 1] ?? '')) castToText = true;
    // a numeric cast to an integer: its NaN is 0A000
    if ((isOp(t, '::') || isWord(t, 'AS')) && INT_TYPE_WORDS.has(lowers[i + 1] ?? '')) castToInt = true;
    if ((isOp(t, '::') || isWord(t, 'AS')) && lowers[i + 1] === 'time') castToTime = true;
    // a timestamptz cast to timetz is the zone's time and offset, an infinite one cast to time NULL
    if ((isOp(t, '::') || isWord(t, 'AS')) && /^time(tz)?$/i.test(sig[i + 1]?.text ?? '') && !isPunct(sig[i + 2], '['))
      return true;
    if ((isOp(t, '::') || isWord(t, 'AS')) && SCALAR_TYPE_WORDS.has(lowers[i + 1] ?? '')) castToScalar = true;
    if ((isOp(t, '::') || isWord(t, 'AS')) && /^(numeric|decimal)$/i.test(sig[i + 1]?.text ?? '')) castToNumeric = true;
    if (t.type === 'word' && !jsonbHint) jsonbHint = lw === 'jsonb' || ct === 'json';
    if (t.type === 'word' && !numericHint)
      numericHint = lw === 'numeric' || lw === 'decimal' || (ct !== null && /numeric|decimal/i.test(ct));
    if (t.type === 'word' && !byteaHint) byteaHint = lw === 'bytea' || ct === 'bytea';
    if (t.type === 'word' && !floatHint) floatHint = FLOAT_WORDS.has(lw) || ct === 'float';
    // concat(...), format(...) of a value whose type prints otherwise than SQLite's text (`||` below)
    if (t.type === 'word' && TEXT_FUNCTIONS.has(lw) && isPunct(sig[i + 1], '(')) castToText = true;
    if (t.type === 'op' && COMPARISONS.has(t.text) && comparesTextWithNumber(sig, i)) return true;
    if (t.type === 'op' && mayMismatch(sig, i, kinds)) return true;
    // a value compared with a subquery of a text column (`id IN (SELECT name ...)`: operand-types.ts)
    if (
      ((t.type === 'op' && COMPARISONS.has(t.text)) || isWord(t, 'IN') || isWord(t, 'ANY') || isWord(t, 'ALL')) &&
      isPunct(sig[i + 1], '(') &&
      isWord(sig[i + 2], 'SELECT') &&
      (sig[i + 3]?.type === 'string' || kinds.includes('text'))
    )
      return true;
    // a subquery on the left of a comparison or arithmetic (`(SELECT name ...) = id`: operand-types.ts)
    if (
      t.type === 'op' &&
      (COMPARISONS.has(t.text) || ARITHMETIC.has(t.text)) &&
      subqueryBefore(sig, i) &&
      sig.some((x) => x.type === 'string' || (x.type === 'word' && columnType(x.text.toLowerCase()) === 'text'))
    )
      return true;
    // a boolean beside another value in a VALUES column (not an INSERT's): 42804 (operand-types.ts)
    if (isWord(t, 'VALUES') && !isWord(sig[0], 'INSERT') && sig.some((x) => isWord(x, 'TRUE') || isWord(x, 'FALSE')))
      return true;
    // a string literal among numbers in ARRAY[...], NULLIF, VALUES rows (not an INSERT's): read as
    // their type (operand-types.ts)
    if (isWord(t, 'ARRAY') && isPunct(sig[i + 1], '[') && mixedLiterals(sig, i + 1, ']')) return true;
    if (isWord(t, 'NULLIF') && isPunct(sig[i + 1], '(') && mixedLiterals(sig, i + 1, ')')) return true;
    if (isWord(t, 'VALUES') && !isWord(sig[0], 'INSERT') && mixedLiterals(sig, i + 1, null)) return true;
    // min or max of a boolean column or literal: no such function (function-arguments.ts)
    if (
      (isWord(t, 'MIN') || isWord(t, 'MAX')) &&
      isPunct(sig[i + 1], '(') &&
      (columnType(lowers[i + 2] ?? '') === 'bool' ||
        columnType(lowers[i + 4] ?? '') === 'bool' ||
        isWord(sig[i + 2], 'TRUE') ||
        isWord(sig[i + 2], 'FALSE'))
    )
      return true;
    if (t.type === 'op' && (t.text === '@>' || t.text === '<@' || t.text === '&&')) return true; // of arrays or of jsonb
    // json's reads keep the value's text as written (jsonb's are not marked)
    if (t.type === 'op' && (t.text === '->' || t.text === '->>' || t.text === '#>' || t.text === '#>>')) return true;
    // a numeric or boolean array (a column, a cast) compared, in ANY/ALL or array_position and friends:
    // by its elements' values
    if (!keyedArray)
      keyedArray =
        (ct !== null && /^(numeric|bool)\[\]$/.test(ct)) ||
        (isPunct(t, '[') && KEYED_TYPE_WORDS.has(lowers[i - 1] ?? '') && isOp(sig[i - 2], '::')) ||
        // (ARRAY[true, false], ARRAY[1.5, 2]: the tree tells its element type)
        (isPunct(t, '[') && isWord(sig[i - 1], 'ARRAY'));
    // an array of other numbers or of text ordered: by their elements too
    if (!orderedArray) orderedArray = ct === 'ordered[]';
    // two arrays (ARRAY[...], a cast to one, an array column) compared: of element types PostgreSQL
    // cannot compare, 42883 (array-operands.ts)
    if (
      arrays < 2 &&
      (upper === 'ARRAY' ||
        (ct !== null && /\[\]$/.test(ct)) ||
        (isPunct(t, '[') && sig[i - 1]?.type === 'word' && isOp(sig[i - 2], '::')))
    )
      arrays++;
    compared ||= t.type === 'op' && COMPARISONS.has(t.text);
    if (t.type === 'word' && (HINTS.has(lw) || (ct !== null && DATETIME_DECL.test(ct)))) datedWords++;
    if (!keyedUse) keyedUse = compared || KEYED_USE_WORDS.has(upper) || (t.type === 'word' && KEYED_FUNCTIONS.has(lw));
    // (and what compares values for equality: IN lists, GROUP BY, DISTINCT, set operations)
    if (compared || ORDERED_WORDS.has(upper)) ordered = true;
    if (t.type === 'word' && !intervalHint)
      intervalHint = INTERVAL_WORDS.has(lw) || (ct !== null && /interval/i.test(ct));
    // PostgreSQL's operators SQLite has not or reads otherwise (`@ x`, `a << b`, `a ^@ b`, ...)
    if (t.type === 'op' && OWN_OPERATORS.has(t.text)) return true;
    if (t.type === 'op') {
      // a sign (`VALUES (-1.5, ...)`, what bulk literal INSERTs are full of) is no arithmetic; of a
      // name or a group it may negate a numeric (-NaN is NaN)
      if (!endsOperand(sig[i - 1])) {
        // (or a cast literal: - 'NaN'::float8)
        negation ||=
          t.text === '-' &&
          (sig[i + 1]?.type === 'word' ||
            isPunct(sig[i + 1], '(') ||
            (sig[i + 1]?.type === 'string' && isOp(sig[i + 2], '::')));
        prefixed ||=
          (t.text === '-' || t.text === '+' || t.text === '~') &&
          (sig[i + 1]?.type === 'word' || isPunct(sig[i + 1], '(') || sig[i + 1]?.type === 'string');
        continue;
      }
      if (t.text === '^' || t.text === '/' || t.text === '#' || t.text === '%') return true;
      // `||` of arrays (ARRAY[1] || 2), jsonb, or of text and a value its cast to text prints (`'x' || flag`)
      if (t.text === '||') return true;
      if (t.text === '+' || t.text === '-' || t.text === '*') arithmetic = true;
      // beside a string literal, which is read as the other operand's type (22P02 when it is none)
      if (arithmetic && (sig[i + 1]?.type === 'string' || sig[i - 1]?.type === 'string')) return true;
    } else if (isWord(t, 'SUM') && isPunct(sig[i + 1], '(')) sum = true;
    else if (t.type === 'word' && NAN_MATH.has(lw) && isPunct(sig[i + 1], '(')) sum = true;
    else if ((isWord(t, 'POWER') || isWord(t, 'POW') || isWord(t, 'MOD')) && isPunct(sig[i + 1], '(')) sum = true;
    else if (CHOICES.has(upper)) choice = true;
    else if ((isWord(t, 'LAG') || isWord(t, 'LEAD')) && isPunct(sig[i + 1], '('))
      choice = true; // (a default beside the value)
    else if (t.type === 'word' && (!hint || !datedColumn)) {
      const w = lw;
      const type = ct ?? '';
      const dated = DATETIME_DECL.test(type);
      // (and json: jsonb's `doc - 'key'` is no subtraction, json has none)
      hint ||= HINTS.has(w) || dated || JSONB_WORD.test(w) || /json/i.test(type);
      datedColumn ||= dated || /^bool/i.test(type);
      // a string compared with a bytea is read as bytes, with an integer must read as one, with a
      // char(n) without its trailing spaces (compared-literals.ts)
      literalTyped ||= type === 'bytea' || type === 'int' || type === 'bpchar';
    } else if (t.type === 'number' && !literalTyped) {
      // a number compared with a string literal (`1 IN ('a')`, `1 = 'a'`): the literal read as one
      const next = sig[i + 1];
      literalTyped =
        isWord(next, 'IN') ||
        (isWord(next, 'NOT') && isWord(sig[i + 2], 'IN')) ||
        (next?.type === 'op' && COMPARISONS.has(next.text) && sig[i + 2]?.type === 'string') ||
        (sig[i - 1]?.type === 'op' && COMPARISONS.has(sig[i - 1].text) && sig[i - 2]?.type === 'string');
    } else if (t.type === 'string' && !string) {
      anyString = true;
      // compared: beside a comparison, in BETWEEN, or in an IN list (not a VALUES list's)
      const before = sig[i - 1];
      string =
        (before?.type === 'op' && COMPARISONS.has(before.text)) ||
        (sig[i + 1]?.type === 'op' && COMPARISONS.has(sig[i + 1].text)) ||
        isWord(before, 'BETWEEN') ||
        isWord(before, 'AND') ||
        ((isPunct(before, '(') || isPunct(before, ',')) && (listed ??= sig.some((x) => isWord(x, 'IN'))));
    }
  }
  // a string literal compared with something, beside a date or time column, may be compared with it
  // (and sum() beside one: of an interval it adds the parts)
  // (and CASE, COALESCE, GREATEST, LEAST with a string literal: it takes the others' type)
  return (
    (arithmetic && hint) ||
    castToText ||
    ((compared || words.has('BETWEEN')) && datedWords >= 2) ||
    (keyedArray && keyedUse) ||
    (arrays >= 2 && compared) ||
    // an array compared with a string literal: the literal read as that array (array-operands.ts)
    (arrays >= 1 && string) ||
    // an array beside + - *: no such operator of an array (array-arithmetic.ts)
    (arrays >= 1 && arithmetic) ||
    // an array under a prefix operator (`- arr`): none takes one either
    (arrays >= 1 && prefixed) ||
    (orderedArray && sig.some((x) => isWord(x, 'ORDER') || (x.type === 'op' && /^[<>]=?$/.test(x.text)))) ||
    // ARRAY(SELECT ...) of an array (a column, ARRAY[...]): one more dimension
    (arrays >= 2 && sig.some((x, i) => isWord(x, 'ARRAY') && isPunct(sig[i + 1], '('))) ||
    // (and in min() or max(): by its elements too; array_agg of arrays: one more dimension)
    ((orderedArray || keyedArray || arrays > 0) &&
      sig.some(
        (x, i) => (isWord(x, 'MIN') || isWord(x, 'MAX') || isWord(x, 'ARRAY_AGG')) && isPunct(sig[i + 1], '('),
      )) ||
    ((string || sum) && datedColumn) ||
    (string && literalTyped) ||
    // a char(n) column = ANY (...): its elements without their trailing spaces (typed-operators.ts)
    ((words.has('ANY') || words.has('SOME') || words.has('ALL')) && kinds.includes('bpchar')) ||
    (choice && anyString) ||
    // (or beside a text or boolean column: COALESCE of an integer and text is 42804, operand-types.ts)
    (choice && (kinds.includes('text') || kinds.includes('bool'))) ||
    // a date beside a timestamp in CASE, COALESCE, GREATEST, LEAST, IN or a set operation: its midnight
    ((choice || words.has('IN') || words.has('UNION') || words.has('INTERSECT') || words.has('EXCEPT')) &&
      datedWords >= 2) ||
    // numerics of different scales there (`coalesce(p, 0)`, `lag(p, 1, 0)`): each keeps its own
    (choice && (numericHint || sig.some((x) => x.type === 'number' && x.text.includes('.')))) ||
    (intervalHint && ordered) ||
    // (extract's result is a numeric too: its infinity cast to an integer is 0A000, not 22003)
    (castToInt && (numericHint || floatHint || words.has('EXTRACT'))) ||
    // a double or real written into an integer column rounds half to even (zoned-assignments.ts);
    // a parameter declared float8 or float4 too (pgjdbc's setDouble)
    ((words.has('INSERT') || words.has('UPDATE')) &&
      (floatHint || sig.some((x) => x.type === 'param' && strings.floatParam?.(Number(x.text.slice(1))) === true))) ||
    // a double or real cast to numeric: its 15 or 6 significant digits
    (castToNumeric && floatHint) ||
    // an interval cast to time: its time of day
    (castToTime && intervalHint) ||
    // a jsonb cast to a number or boolean: its scalar
    ((castToInt || castToScalar) && jsonbHint) ||
    // numeric arithmetic and sum(): NaN in, NaN out
    ((arithmetic || sum || negation) && numericHint) ||
    // and a double's (`f + 'NaN'::float8`, `sum(f)`: SQLite's read the NaN text as 0)
    ((arithmetic || sum || negation) && floatHint) ||
    // jsonb ordered by jsonb's order, and equal as jsonb is (a stored 1.50 = '1.5')
    (jsonbHint && sig.some((x) => x.type === 'op' && /^(?:[<>]=?|=|<>|!=)$/.test(x.text))) ||
    // (min or max of a json or jsonb value: no such function there)
    (jsonbHint && sig.some((x, i) => (isWord(x, 'MIN') || isWord(x, 'MAX')) && isPunct(sig[i + 1], '('))) ||
    // and sorted, in a list or BETWEEN, grouped, DISTINCT or in a set operation (a column, or a value of
    // jsonb_array_elements and its kin): by jsonb's order and equality too
    (JSONB_KEYED_LIST.some((w) => words.has(w)) &&
      (jsonbHint || sig.some((x) => x.type === 'word' && /^jsonb_/i.test(x.text)))) ||
    // bytea's LIKE matches bytes
    (byteaHint && sig.some((x) => isWord(x, 'LIKE') || isOp(x, '~~') || isOp(x, '!~~'))) ||
    // and its || joins bytes (SQLite's made text of the blobs: a byte that is no UTF-8 became U+FFFD)
    (byteaHint && sig.some((x) => isOp(x, '||'))) ||
    // an interval negated field by field
    (negation && intervalHint) ||
    // an array of numerics: each element at its scale (numeric-elements.ts)
    ((words.has('ARRAY') || words.has('ARRAY_AGG')) &&
      (numericHint || floatHint || sig.some((x) => x.type === 'number' && /[.e]/i.test(x.text)))) ||
    // a set operation of numerics: each value printed at its own scale (exact-columns.ts)
    (numericHint && (words.has('UNION') || words.has('INTERSECT') || words.has('EXCEPT')))
  );
}

/** Words that order jsonb values or tell them apart (by __pg_jsonb_sortkey then, not the stored text). */
const JSONB_KEYED_WORDS = new Set([
  'ORDER', 'IN', 'BETWEEN', 'GROUP', 'DISTINCT', 'UNION', 'INTERSECT', 'EXCEPT', 'PARTITION', 'ANY', 'SOME',
  'ALL',
]); // biome-ignore format: a word list
const JSONB_KEYED_LIST = [...JSONB_KEYED_WORDS];

/** Operators typed-operators.ts marks wherever they stand (translate/typed-arithmetic.ts writes them). */
const OWN_OPERATORS = new Set(['@', '|/', '||/', '<<', '>>', '^@', '~<~', '~<=~', '~>~', '~>=~']);

/** Words that compare a numeric or boolean array's values (by its elements' values, then). */
const KEYED_USE_WORDS = new Set([
  'ORDER',
  'GROUP',
  'DISTINCT',
  'UNION',
  'INTERSECT',
  'EXCEPT',
  'IN',
  'ANY',
  'SOME',
  'ALL',
]);
/** Words that compare or sort an interval (by its length, then), beside the comparisons. */
const ORDERED_WORDS = new Set(['ORDER', 'MIN', 'MAX', 'IN', 'GROUP', 'DISTINCT', 'UNION', 'INTERSECT', 'EXCEPT']);

/** Element types whose arrays compare by their elements' values ('{1.50}' = '{1.5}'), as a cast names them. */
const KEYED_TYPE_WORDS = new Set(['numeric', 'decimal', 'bool', 'boolean']);
/** The array functions that match elements, renamed for numeric and boolean arrays. */
export const KEYED_FUNCTIONS = new Set(['array_position', 'array_positions', 'array_replace', 'array_remove']);

/** The integer types' names. */
const INT_TYPE_WORDS = new Set(['int', 'int2', 'int4', 'int8', 'integer', 'smallint', 'bigint']);
const SCALAR_TYPE_WORDS = new Set([
  'numeric',
  'decimal',
  'float',
  'float4',
  'float8',
  'real',
  'double',
  'bool',
  'boolean',
]);
const FLOAT_WORDS = new Set(['float', 'float4', 'float8', 'real', 'double']);

/** Words that make an interval: the type, and the functions that return one. */
const INTERVAL_WORDS = new Set([
  'interval',
  'age',
  'justify_hours',
  'justify_days',
  'justify_interval',
  'make_interval',
]);

export const COMPARISONS = new Set(['=', '<>', '!=', '<', '>', '<=', '>=']);
const CHOICES = new Set(['CASE', 'COALESCE', 'GREATEST', 'LEAST']);
const ARITHMETIC = new Set(['+', '-', '*', '/', '%']);

/**
 * Whether the comparison at sig[i] has a string literal on one side and, on the other, something
 * that is no bare column (a call, a group, a number): there SQLite compares text with a number
 * (text is greater than any number), where PostgreSQL reads the literal as a number. A bare column
 * converts the literal by its affinity in SQLite too, so those are not parsed for it.
 */
function comparesTextWithNumber(sig: PgToken[], i: number): boolean {
  const a = sig[i - 1];
  const b = sig[i + 1];
  const arithmetic = (x: PgToken | undefined) => x?.type === 'op' && ARITHMETIC.has(x.text);
  const computedAfter = b?.type === 'number' || isPunct(b, '(') || isPunct(sig[i + 2], '(') || arithmetic(sig[i + 2]);
  const computedBefore = a?.type === 'number' || isPunct(a, ')') || arithmetic(sig[i - 2]);
  // (an infinity compared with anything: a numeric or double column's affinity does not read it)
  const infinity = (x: PgToken | undefined) => x?.type === 'string' && /^'\s*[+-]?inf(inity)?\s*'$/i.test(x.text);
  if (infinity(a) || infinity(b)) return true;
  return (a?.type === 'string' && computedAfter) || (b?.type === 'string' && computedBefore);
}

/** Column kinds (schema-facts.ts) PostgreSQL has no arithmetic of, and those it compares with no number. */
const NO_ARITHMETIC = new Set(['text', 'bpchar', 'bool']);
const NOT_BESIDE_NUMBER = new Set(['text', 'bpchar', 'date', 'interval']);
const NUMBER_KINDS = new Set(['int', 'float', 'numeric']);

/**
 * Whether the operator at sig[i] stands where operand-types.ts may refuse it: arithmetic beside a
 * text or boolean column (`name + 1`, `$1 + flag`), a text, date or time column compared with a
 * number (`d = 5`) or with a text column (`d < name`). A column is its last name (`t.name`); a number may have a sign.
 */
function mayMismatch(sig: PgToken[], i: number, kinds: readonly (string | null)[]): boolean {
  const t = sig[i];
  const arithmetic = t.text === '+' || t.text === '-' || t.text === '*' || t.text === '/';
  if (!arithmetic && !COMPARISONS.has(t.text)) return false;
  const before = sig[i - 1];
  if (!endsOperand(before)) return false; // (a sign)
  let k = i + 1;
  const signed = isOp(sig[k], '-') || isOp(sig[k], '+');
  if (signed) k++;
  const at = sig[k]?.type === 'word' && isPunct(sig[k + 1], '.') ? k + 2 : k;
  const after = sig[at];
  // (a word's column kind, '' for any other token: mayHaveTypedOperators' kinds)
  const kindBefore = kinds[i - 1] ?? '';
  const kindAfter = kinds[at] ?? '';
  if (arithmetic) return NO_ARITHMETIC.has(kindBefore) || (!signed && NO_ARITHMETIC.has(kindAfter));
  // (a number written, or a number column's name)
  const numberBefore = before?.type === 'number' || NUMBER_KINDS.has(kindBefore);
  const numberAfter = after?.type === 'number' || NUMBER_KINDS.has(kindAfter);
  // (and a date, time or interval column compared with a text one)
  const datedBefore = kindBefore === 'date' || kindBefore === 'interval';
  const datedAfter = kindAfter === 'date' || kindAfter === 'interval';
  return (
    (NOT_BESIDE_NUMBER.has(kindBefore) && numberAfter) ||
    (numberBefore && !signed && NOT_BESIDE_NUMBER.has(kindAfter)) ||
    (datedBefore && kindAfter === 'text') ||
    (kindBefore === 'text' && !signed && datedAfter)
  );
}

/**
 * The kinds (schema-facts.ts) of the names a select list gives a column or a string literal
 * (`name AS x`, `'a' AS x`: text); null for none.
 */
function aliasKinds(sig: PgToken[], columnType: (column: string) => string | null): Map<string, string> | null {
  let out: Map<string, string> | null = null;
  // (twice: an alias of an alias written before it, `SELECT y AS x FROM (SELECT name AS y ...)`)
  for (let pass = 0; pass < (out ? 2 : 1); pass++)
    for (let i = 1; i + 1 < sig.length; i++) {
      if (!isWord(sig[i], 'AS') || sig[i + 1].type !== 'word') continue;
      const before = sig[i - 1];
      const name = before.text.toLowerCase();
      const kind =
        before.type === 'string' ? 'text' : before.type === 'word' ? (out?.get(name) ?? columnType(name)) : null;
      if (kind) (out ??= new Map()).set(sig[i + 1].text.toLowerCase(), kind);
    }
  // (and a subquery's or WITH query's column list: `(SELECT name FROM t) q(z)`, z text)
  const listed = new Map<string, string>();
  columnListKinds(sig, (name) => out?.get(name) ?? columnType(name), listed);
  for (const [name, kind] of listed) (out ??= new Map()).set(name, kind);
  return out;
}

/** Whether sig[i - 1] closes a subquery (`(SELECT ...)`). */
function subqueryBefore(sig: PgToken[], i: number): boolean {
  if (!isPunct(sig[i - 1], ')')) return false;
  for (let k = i - 2, depth = 0; k >= 0; k--) {
    if (isPunct(sig[k], ')')) depth++;
    else if (isPunct(sig[k], '(')) {
      if (depth === 0) return isWord(sig[k + 1], 'SELECT');
      depth--;
    }
  }
  return false;
}

/**
 * Whether from sig[open] to its closing `close` (to the statement's end when null) there are a
 * string literal and a number or a name (an operand that may be a number).
 */
function mixedLiterals(sig: PgToken[], open: number, close: string | null): boolean {
  let string = false;
  let other = false;
  for (let k = open + 1, depth = 0; k < sig.length; k++) {
    const x = sig[k];
    if (isPunct(x, '(') || isPunct(x, '[')) depth++;
    else if (isPunct(x, ')') || isPunct(x, ']')) {
      if (depth === 0 && close !== null) break;
      depth--;
    }
    string ||= x.type === 'string';
    other ||= x.type === 'number' || x.type === 'word';
    if (string && other) return true;
  }
  return false;
}

/** Values of a category of their own a set operation matches with no other (`SELECT id ... UNION SELECT true`, `now()`: 42804). */
const SET_TYPED_WORDS = new Set([
  'TRUE', 'FALSE', 'NOW', 'CURRENT_DATE', 'CURRENT_TIMESTAMP', 'CURRENT_TIME', 'LOCALTIMESTAMP', 'LOCALTIME',
]); // biome-ignore format: a word list

/** Words a select list's item may stand beside. */
const ITEM_EDGES = new Set([
  'SELECT', 'ALL', 'DISTINCT', 'UNION', 'INTERSECT', 'EXCEPT', 'FROM', 'AS', 'WHERE', 'GROUP', 'HAVING', 'WINDOW',
  'ORDER', 'LIMIT', 'OFFSET', 'FETCH',
]); // biome-ignore format: a word list

/**
 * Whether a set operation may have a column of a string literal beside a number literal or a column
 * (`SELECT 1 UNION SELECT 'a'`, `SELECT id ... UNION SELECT 'a'`): the string read as the other's
 * type; or one of a text or boolean column, a boolean literal or the clock's value (`now()`,
 * `CURRENT_DATE`), which PostgreSQL matches with no other category (operand-types.ts
 * setOperationLiterals).
 */
function maySetLiterals(sig: PgToken[], columnType: (column: string) => string | null): boolean {
  if (!sig.some((t) => isWord(t, 'UNION') || isWord(t, 'INTERSECT') || isWord(t, 'EXCEPT'))) return false;
  const edge = (t: PgToken | undefined) =>
    !t ||
    isPunct(t, ',') ||
    isPunct(t, ')') ||
    isPunct(t, '(') ||
    isPunct(t, ';') ||
    (t.type === 'word' && ITEM_EDGES.has(t.text.toUpperCase()));
  const item = (type: string) => sig.some((t, i) => t.type === type && edge(sig[i - 1]) && edge(sig[i + 1]));
  return (
    (item('string') && (item('number') || item('word'))) ||
    sig.some(
      (t) =>
        t.type === 'word' &&
        (/^(text|bool)$/.test(columnType(t.text.toLowerCase()) ?? '') || SET_TYPED_WORDS.has(t.text.toUpperCase())),
    )
  );
}
