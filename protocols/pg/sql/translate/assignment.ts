// What a value written into a column becomes, for typed-assignments.ts and insert-select.ts: the
// call that converts it for the column's type modifier, and the checks of an INSERT's width.
import { tsQueryText, tsVectorText } from '../../../../src/engine/pg-text-search-functions';
import { storedDateTime } from '../../../../src/engine/dates';
import { type ElementKind, arrayInput } from '../../../../src/engine/pg-array-input';
import { declaredElementKind } from '../../types/element-kind';
import { pgError } from '../../sqlstate';
import { quoteString } from '../lexer';
import { keptNumber, keptNumeric, numericNotKept } from '../../../../src/engine/numeric-kept';
import { decimalAtScale, parseDecimal } from '../../../../src/engine/decimal';
import { literalSessionZone, sessionZone } from '../session-zone';
import { sessionInputStyle } from '../session-styles';
import { OID, declaredModifier, oidOfDeclType, timePrecisionOf } from '../../types/oids';
import { type Tok, isOp, isWord } from '../tokens';
import { lexPg } from '../lexer';
import { textOfKind } from '../text-kinds';
import type { InsertTarget } from './insert-defaults';

/** A value that is an integer already: an integer literal (signed), a parameter (bound by its type), NULL. */
const isInteger = (v: Tok[]) => {
  const t = v.length === 2 && (isOp(v[0], '-') || isOp(v[0], '+')) ? v[1] : v.length === 1 ? v[0] : undefined;
  return t !== undefined && ((t.type === 'number' && /^\d+$/.test(t.text)) || t.type === 'param' || isWord(t, 'NULL'));
};

/** The text of a value that is a number literal, signed or not (`-1.50`, `1e3`); else null. */
export function numberLiteral(v: Tok[]): string | null {
  if (v.length === 1 && v[0].type === 'number') return v[0].text;
  if (v.length === 2 && (isOp(v[0], '-') || isOp(v[0], '+')) && v[1].type === 'number') return v[0].text + v[1].text;
  return null;
}

const call = (fn: string, v: Tok[]): Tok[] => [
  { type: 'word', text: fn },
  { type: 'punct', text: '(' },
  ...v,
  { type: 'punct', text: ')' },
];

/** A value written as it is: one token (a literal, parameter, column, NULL), a signed number, `$n::numeric`. */
const isPlainValue = (v: Tok[]) =>
  (v.length === 1 && v[0].type !== 'group') ||
  (v.length === 2 && (isOp(v[0], '-') || isOp(v[0], '+')) && v[1].type === 'number') ||
  (v.length === 3 && v[0].type === 'param' && isOp(v[1], '::') && /^(numeric|decimal)$/i.test(v[2].text));

const DATE_KINDS: Record<number, string> = {
  [OID.date]: 'date',
  [OID.timestamp]: 'timestamp',
  [OID.timestamptz]: 'timestamptz',
  [OID.time]: 'time',
  [OID.interval]: 'interval',
};

/**
 * A value for a date or time column in the form the column keeps ('2024-03-10 23:30:00-05' as the
 * UTC '2024-03-11 04:30:00'): a literal converted here, an expression by __pg_store_dt per row; a
 * parameter is converted when it is bound.
 */
function dateAssignment(column: string): Assign {
  return (v, untypedText = false, assign = zoneMark(v)) => {
    // a timestamptz into a timestamp, date or time column is its wall time in the session's zone; a
    // timestamp or date into a timestamptz column is read there (sql/zoned-assignments.ts)
    const session = sessionZone();
    if (assign !== undefined && session !== null) {
      const wall = assign === 'wall';
      const value: Tok[] = wall
        ? [
            word('__pg_wall_in'),
            punct('('),
            ...v,
            punct(','),
            { type: 'string', text: quoteString(session) },
            // (a time of day: NULL of an infinity)
            ...(column.startsWith('time') && !column.startsWith('timestamp') ? [punct(','), word('1')] : []),
            punct(')'),
          ]
        : v;
      const kind = wall ? column : `${column}@${session}`;
      return [
        word('__pg_store_dt'),
        punct('('),
        { type: 'string', text: quoteString(kind) },
        punct(','),
        ...value,
        punct(')'),
      ];
    }
    if (v.length === 1 && v[0].type === 'string') {
      // a timestamptz literal's text without an offset is a wall time in the session's zone (when
      // not UTC)
      const zone = column.startsWith('timestamptz') ? literalSessionZone() : null;
      const text = v[0].text.slice(1, -1).split("''").join("'");
      const stored = storedDateTime(zone === null ? column : `${column}@${zone}`, text);
      return stored === text ? v : [{ type: 'string', text: quoteString(String(stored)) }];
    }
    // Anything else is in the stored form already, UTC text without an offset (a parameter was
    // converted at Bind by its type, in the session's zone; a column or an expression holds that
    // form): never read in the session's zone again (`INSERT ... SELECT ts` and `SET ts = ts` in a
    // session not in UTC moved the value by the zone's offset each time). A parameter is converted
    // again only for the column's fractional digits, which its type does not know.
    // (INSERT ... SELECT of a string literal: its column is that text, read as a literal is)
    const zone = untypedText && column.startsWith('timestamptz') ? literalSessionZone() : null;
    const order = untypedText ? sessionInputStyle() : 'mdy';
    const zoned = zone === null ? column : `${column}@${zone}`;
    const kind = order === 'mdy' ? zoned : `${zoned}~${order}`;
    if (isInteger(v) && !(kind.includes('(') && v.length === 1 && v[0].type === 'param')) return v;
    // CURRENT_TIMESTAMP (now(), words.ts) is UTC text in the form a timestamp or timestamptz column
    // keeps already: no call per row (pgbench's and ORMs' INSERTs write it); a column with fewer
    // digits rounds its microseconds
    if (v.length === 1 && isWord(v[0], 'CURRENT_TIMESTAMP') && (column === 'timestamp' || column === 'timestamptz'))
      return v;
    return [
      { type: 'word', text: '__pg_store_dt' },
      { type: 'punct', text: '(' },
      { type: 'string', text: quoteString(kind) },
      { type: 'punct', text: ',' },
      ...v,
      { type: 'punct', text: ')' },
    ];
  };
}

/** The conversion through the session's zone marked on a value's first token (sql/zoned-assignments.ts). */
export function zoneMark(v: Tok[]): string | undefined {
  for (const t of v) if ('assign' in t && t.assign) return t.assign;
  return undefined;
}

const word = (text: string): Tok => ({ type: 'word', text });
const punct = (text: string): Tok => ({ type: 'punct', text });

/**
 * A value for an array column in PostgreSQL's form ('{ a , b }' as '{a,b}'; a parameter was read so
 * by Bind): a literal read here as array_in reads it, an expression per row by __pg_array_in, where
 * a decimal into an integer array rounds as PostgreSQL's assignment of numeric[] does.
 */
function arrayAssignment(kind: ElementKind): (v: Tok[]) => Tok[] {
  return (v) => {
    if (v.length === 1 && (v[0].type === 'param' || isWord(v[0], 'NULL'))) return v;
    if (v.length === 1 && v[0].type === 'string' && /^'(?:[^']|'')*'$/.test(v[0].text))
      return [{ type: 'string', text: quoteString(arrayInput(v[0].text.slice(1, -1).split("''").join("'"), kind)) }];
    return [
      { type: 'word', text: '__pg_array_in' },
      { type: 'punct', text: '(' },
      ...v,
      { type: 'punct', text: ',' },
      { type: 'string', text: `'${kind}'` },
      { type: 'punct', text: ',' },
      { type: 'number', text: '1' },
      { type: 'punct', text: ')' },
    ];
  };
}

/**
 * What a value written into a column becomes. `untypedText`: the value is the column of a query
 * whose item there is a string literal (INSERT ... SELECT 'text'), which PostgreSQL reads as the
 * column's type, as it reads a literal.
 */
export type Assign = (v: Tok[], untypedText?: boolean, assign?: string) => Tok[];

/** The text mark of a value for a string column (sql/zoned-assignments.ts): the kind it prints as, or none. */
export function textMark(v: Tok[]): string | undefined {
  const mark = zoneMark(v);
  return mark?.startsWith('text:') ? mark.slice(5) : undefined;
}

/**
 * A value written into a string column printed as PostgreSQL's output function of its type prints
 * it (`true`, not SQLite's 1): text-kinds.ts's SQL, with the value's tokens in place of the operand
 * so that the later rewrites still translate them.
 */
export function asText(kind: string, v: Tok[]): Tok[] {
  const sql = textOfKind(kind, '__PG_ASSIGNED');
  if (sql === '__PG_ASSIGNED') return v;
  return lexPg(sql)
    .filter((t) => t.type !== 'space' && t.type !== 'comment')
    .flatMap((t): Tok[] => (isWord(t, '__PG_ASSIGNED') ? [punct('('), ...v, punct(')')] : [t]));
}

const STRING_TYPES = new Set<number>([OID.text, OID.varchar, OID.bpchar]);

/**
 * The call that gives a value PostgreSQL's meaning in a column of this declared type; null for none.
 * `printed`: some value written into this string column carries a text mark (a string column
 * needs no call otherwise).
 */
export function assignment(decl: string | null, printed = false): Assign | null {
  const modified = modifierAssignment(decl);
  if (!printed || !STRING_TYPES.has(oidOfDeclType(decl))) return modified;
  return (v, untypedText, assign = zoneMark(v)) => {
    const kind = assign?.startsWith('text:') ? assign.slice(5) : undefined;
    const text = kind === undefined ? v : asText(kind, v);
    return modified ? modified(text, untypedText, assign) : text;
  };
}

/** assignment's call for a column of any type but a string column's printing. */
function modifierAssignment(decl: string | null): Assign | null {
  // (the declared type read once: every assigned column of a write asks)
  const oid = oidOfDeclType(decl);
  const dated = DATE_KINDS[oid];
  // timestamp(0), time(3): the value is rounded to the column's fractional digits
  const digits = timePrecisionOf(decl);
  if (dated) return dateAssignment(digits === null || digits >= 6 ? dated : `${dated}(${digits})`);
  const kind = declaredElementKind(decl);
  if (kind) return arrayAssignment(kind);
  // a tsvector or tsquery column keeps the value as its input function reads it (sorted, merged;
  // 42601 for a bad one): a literal read here, anything else per row (src/engine/pg-text-search-functions.ts)
  const search = oid;
  if (search === OID.tsvector || search === OID.tsquery)
    return (v) => {
      const [print, fn] =
        search === OID.tsvector ? [tsVectorText, '__pg_tsvector_in'] : [tsQueryText, '__pg_tsquery_in'];
      if (v.length === 1 && v[0].type === 'string')
        return [{ type: 'string', text: quoteString(print(v[0].text.slice(1, -1).split("''").join("'"))) }];
      return [{ type: 'word', text: fn }, { type: 'punct', text: '(' }, ...v, { type: 'punct', text: ')' }];
    };
  // an integer column (int8 here) takes a fraction rounded and text strictly (2.5 was stored as 2.5)
  // (a double or real rounds half to even: marked 'float', sql/zoned-assignments.ts)
  if (oid === OID.int8)
    return (v, _untypedText, assign = zoneMark(v)) =>
      isInteger(v) && assign !== 'float' // (a parameter declared float8 is bound as a double)
        ? v
        : assign === 'float'
          ? [word('__pg_int_assign'), punct('('), ...v, punct(','), word('1'), punct(')')]
          : [word('__pg_int_assign'), punct('('), ...v, punct(')')];
  // a real column keeps the nearest single-precision value, as PostgreSQL's float4 does (0.1 read
  // back as float8 is 0.10000000149011612; it kept the double 0.1), 22003 past its range
  if (oid === OID.float4)
    return (v) => [
      { type: 'word', text: '__pg_float' },
      { type: 'punct', text: '(' },
      ...v,
      { type: 'punct', text: ',' },
      { type: 'string', text: "'real'" },
      { type: 'punct', text: ')' },
    ];
  const m = declaredModifier(decl);
  // a plain NUMERIC column takes a computed value at a double's 15 significant digits (0.1 * 3 was
  // stored 0.30000000000000004); a literal, a parameter or a column keeps its own digits
  // A literal or parameter the column cannot keep (more digits than a double's) is 22003, where it
  // was stored as the nearest double (src/engine/numeric-kept.ts)
  if (!m && oid === OID.numeric)
    return (v) => {
      const literal = numberLiteral(v);
      if (literal !== null) {
        keptNumeric(literal);
        return v;
      }
      if (!isPlainValue(v)) return call('__pg_numeric_assign', v);
      return v.some((t) => t.type === 'param') ? call('__pg_numeric_param', v) : v;
    };
  if (!m) return null;
  const fn = m.type === 'numeric' ? '__pg_numeric' : m.type === 'varchar' ? '__pg_varchar' : '__pg_char';
  const args: Tok[] = (m.type === 'numeric' ? [m.precision, m.scale] : [m.precision]).flatMap((n) => [
    { type: 'punct', text: ',' },
    { type: 'number', text: String(n) },
  ]);
  if (m.type === 'numeric')
    return (v) => {
      // a literal goes as its text (the double SQLite read it as kept 15 of its digits) and it and a
      // parameter are checked as written values; a computed value keeps a double's digits
      const literal = numberLiteral(v);
      const value: Tok[] = literal !== null ? [{ type: 'string', text: quoteString(literal) }] : v;
      const written = literal !== null || (isPlainValue(v) && v.some((t) => t.type === 'param'));
      const flag: Tok[] = written ? [punct(','), word('1')] : [];
      return [word(fn), punct('('), ...value, ...args, ...flag, punct(')')];
    };
  return (v) => [{ type: 'word', text: fn }, { type: 'punct', text: '(' }, ...v, ...args, { type: 'punct', text: ')' }];
}

/**
 * A number literal a query's row writes into a NUMERIC column (`INSERT ... SELECT 1, 12.5`), which
 * the column reads as the double SQLite makes of it: 22003 when the column cannot keep its digits
 * (at the column's scale), as a literal of VALUES is (numeric-kept.ts).
 */
export function checkWrittenLiteral(decl: string | null, item: Tok[]): void {
  const literal = numberLiteral(item);
  if (literal === null || decl === null || oidOfDeclType(decl) !== OID.numeric) return;
  const m = declaredModifier(decl);
  const d = parseDecimal(literal);
  if (m?.type !== 'numeric' || d === null || d.special) return void keptNumeric(literal);
  const at = decimalAtScale(d, m.scale);
  if (at.int.length <= m.precision - m.scale && keptNumber(at) === null) throw numericNotKept(literal);
}

/** PostgreSQL's refusal of an INSERT whose rows do not have as many values as it names columns. */
export function checkWidth(target: InsertTarget, width: number): void {
  if (width > target.names.length) throw pgError('42601', 'INSERT has more expressions than target columns');
  if (target.listed && width < target.names.length)
    throw pgError('42601', 'INSERT has more target columns than expressions');
}

/**
 * The tokens before `at` with a column list of `names` added when the statement had none (SQLite
 * wants a value for every column then; PostgreSQL fills the columns left out with their defaults).
 */
export function withColumnList(toks: Tok[], target: InsertTarget, names: string[], added: string[] = []): Tok[] {
  const head = toks.slice(0, target.at);
  const quoted = (n: string) => `"${n.replace(/"/g, '""')}"`;
  // (columns added after the list: clock-defaults.ts's)
  if (target.listed && added.length > 0)
    return [...head.slice(0, -1), { type: 'group', text: `, ${added.map(quoted).join(', ')}` }, head[head.length - 1]];
  if (added.length === 0 && (target.listed || names.length === target.columns.length)) return head;
  return [...head, { type: 'group', text: `(${[...names, ...added].map(quoted).join(', ')})` }];
}
