// Tokens as the translation passes (sql/translate/) see them: tests of one token, matching
// brackets, where an operand starts and ends, a type name after `::`, and tokens joined back into SQL.
import { type PgToken, identName, lexPg } from './lexer';
import { INTERVAL_FIELDS } from '../../../src/engine/interval-qualifier';

/** A lexer token, or a group of tokens already rewritten into one piece of text. */
export type Tok = PgToken | { type: 'group'; text: string };

/**
 * Whether `t` is a word, and the word `w` (upper case) when given. Compared as PostgreSQL's scanner
 * folds keywords, ASCII letters only, without making a string: the passes call this for most tokens
 * many times over (it was a tenth of a first-seen statement's analysis with `toUpperCase()`).
 */
export const isWord = (t: Tok | undefined, w?: string) =>
  t !== undefined && t.type === 'word' && (w === undefined || sameWord(t.text, w));

/** Whether `text` folded to upper case as PostgreSQL folds keywords (ASCII a-z) is `upper`. */
function sameWord(text: string, upper: string): boolean {
  if (text.length !== upper.length) return false;
  for (let i = 0; i < upper.length; i++) {
    let c = text.charCodeAt(i);
    if (c >= 97 && c <= 122) c -= 32;
    if (c !== upper.charCodeAt(i)) return false;
  }
  return true;
}
export const isPunct = (t: Tok | undefined, p: string) => t !== undefined && t.type === 'punct' && t.text === p;
export const isOp = (t: Tok | undefined, o: string) => t !== undefined && t.type === 'op' && t.text === o;

/** Words that follow a FROM item and are no alias (of a table, a subquery, a function). */
export const NOT_FROM_ALIAS = new Set([
  'WHERE', 'ON', 'JOIN', 'LEFT', 'RIGHT', 'INNER', 'OUTER', 'FULL', 'CROSS', 'NATURAL', 'GROUP', 'ORDER',
  'LIMIT', 'OFFSET', 'HAVING', 'UNION', 'EXCEPT', 'INTERSECT', 'USING', 'WINDOW', 'FETCH', 'WITH', 'RETURNING',
  'SET', 'FOR', 'LATERAL',
]); // biome-ignore format: a word list

/** Words that end a FROM clause (and those that start another clause a FROM list is not in). */
export const FROM_ENDS = new Set([
  'WHERE', 'GROUP', 'HAVING', 'WINDOW', 'ORDER', 'LIMIT', 'OFFSET', 'FETCH', 'FOR', 'UNION', 'EXCEPT',
  'INTERSECT', 'RETURNING', 'SET', 'SELECT', 'VALUES',
]); // biome-ignore format: a word list

/**
 * Where FROM items start, for a pass walking a statement's tokens: right after FROM, JOIN, or a
 * comma of a FROM list (whether a clause is a FROM list is kept per parenthesis depth). Call the
 * returned function with each index the pass visits, in order.
 */
export function fromItemStarts(): (toks: readonly Tok[], i: number) => boolean {
  const inFrom: boolean[] = [false];
  return (toks, i) => {
    const t = toks[i];
    const depth = inFrom.length - 1;
    if (isPunct(t, '(')) inFrom.push(false);
    else if (isPunct(t, ')')) inFrom.length > 1 && inFrom.pop();
    else if (isWord(t, 'FROM') || isWord(t, 'JOIN')) inFrom[depth] = true;
    else if (t.type === 'word' && FROM_ENDS.has(t.text.toUpperCase())) inFrom[depth] = false;
    const before = toks[i - 1];
    return isWord(before, 'FROM') || isWord(before, 'JOIN') || (isPunct(before, ',') && inFrom[depth]);
  };
}

/** The items of toks[from, to) between commas outside parentheses and brackets, as [start, end) pairs. */
export function topLevelItems(toks: readonly Tok[], from: number, to: number): [number, number][] {
  const out: [number, number][] = [];
  let depth = 0;
  let start = from;
  for (let k = from; k < to; k++) {
    const t = toks[k];
    if (isPunct(t, '(') || isPunct(t, '[')) depth++;
    else if (isPunct(t, ')') || isPunct(t, ']')) depth--;
    else if (depth === 0 && isPunct(t, ',')) {
      out.push([start, k]);
      start = k + 1;
    }
  }
  out.push([start, to]);
  return out;
}

/** Index of the ')' matching the '(' at toks[i], or -1 when it is not closed. */
export function closer(toks: readonly Tok[], i: number): number {
  let depth = 0;
  for (; i < toks.length; i++) {
    if (isPunct(toks[i], '(')) depth++;
    else if (isPunct(toks[i], ')') && --depth === 0) return i;
  }
  return -1;
}

/** The index of the word `w` in toks[from, to) outside any parentheses, or -1. */
export function topLevelWord(toks: readonly Tok[], from: number, to: number, w: string): number {
  let depth = 0;
  for (let i = from; i < to; i++) {
    if (isPunct(toks[i], '(')) depth++;
    else if (isPunct(toks[i], ')')) depth--;
    else if (depth === 0 && isWord(toks[i], w)) return i;
  }
  return -1;
}

/** Words that end an operand rather than name a function before '('. */
export const NOT_FUNCTIONS = new Set([
  'AND',
  'OR',
  'NOT',
  'IN',
  'SELECT',
  'WHERE',
  'ON',
  'FROM',
  'AS',
  'THEN',
  'ELSE',
  'WHEN',
  'IS',
  'EXISTS',
  'VALUES',
  'BY',
  'LIKE',
  'CASE',
  'RETURNING',
  'SET',
  'INTO',
  'JOIN',
  'USING',
  'HAVING',
  'ANY',
  'ALL',
  // (`SELECT DISTINCT (x)::numeric`, `y BETWEEN (x)::int AND z`: the cast's operand is the group
  // alone; it took the word as a call's name, `__pg_to_numeric(DISTINCT(x))`, whose rows were not distinct)
  'DISTINCT',
  'BETWEEN',
  'SYMMETRIC',
  'RETURN',
]);

const MULTIWORD_TYPES: [string[], string][] = [
  [['DOUBLE', 'PRECISION'], 'double precision'],
  [['CHARACTER', 'VARYING'], 'character varying'],
  [['TIMESTAMP', 'WITH', 'TIME', 'ZONE'], 'timestamptz'],
  [['TIMESTAMP', 'WITHOUT', 'TIME', 'ZONE'], 'timestamp'],
  [['TIME', 'WITH', 'TIME', 'ZONE'], 'timetz'],
  [['TIME', 'WITHOUT', 'TIME', 'ZONE'], 'time'],
];

/** Reads a type name at toks[i] (after '::'): returns the name, its modifiers (`numeric(10, 2)`) and the index after it. */
export function readType(
  toks: Tok[],
  i: number,
): { name: string; isArray: boolean; end: number; mods: number[]; fields?: { first: string; last: string } } {
  if (isWord(toks[i], 'PG_CATALOG') && isPunct(toks[i + 1], '.')) i += 2;
  let name = toks[i] ? (toks[i].type === 'quoted' ? identName(toks[i] as PgToken) : toks[i].text.toLowerCase()) : '';
  let end = i + 1;
  for (const [words, n] of MULTIWORD_TYPES) {
    if (words.every((w, k) => isWord(toks[i + k], w))) {
      name = n;
      end = i + words.length;
      break;
    }
  }
  const mods: number[] = [];
  if (isPunct(toks[end], '(')) {
    while (end < toks.length && !isPunct(toks[end], ')')) {
      if (toks[end].type === 'number') mods.push(Number(toks[end].text));
      end++;
    }
    end++;
    // timestamp(0) with time zone, time(3) without time zone: the zone words after the digits
    if ((name === 'timestamp' || name === 'time') && (isWord(toks[end], 'WITH') || isWord(toks[end], 'WITHOUT'))) {
      if (isWord(toks[end + 1], 'TIME') && isWord(toks[end + 2], 'ZONE')) {
        if (isWord(toks[end], 'WITH')) name = name === 'timestamp' ? 'timestamptz' : 'timetz';
        end += 3;
      }
    }
  }
  // interval's qualifier (`interval hour`, `interval minute to second(0)`): its fields, its precision a modifier
  let fields: { first: string; last: string } | undefined;
  const q = name === 'interval' && mods.length === 0 ? intervalQualifier(toks, end) : null;
  if (q) {
    fields = { first: q.first, last: q.last };
    if (q.precision !== null) mods.push(q.precision);
    end = q.end;
  }
  let isArray = false;
  while (isPunct(toks[end], '[') && isPunct(toks[end + 1], ']')) {
    isArray = true;
    end += 2;
  }
  return { name, isArray, end, mods, ...(fields ? { fields } : {}) };
}

/** SQL's interval qualifier at toks[i] (`hour`, `day to second(3)`): its fields and precision and the index after it; null when none is there. */
export function intervalQualifier(
  toks: Tok[],
  i: number,
): { first: string; last: string; precision: number | null; end: number } | null {
  const field = (k: number) => (isWord(toks[k]) ? toks[k].text.toUpperCase() : '');
  const first = field(i);
  if (!INTERVAL_FIELDS.includes(first)) return null;
  let last = first;
  let end = i + 1;
  if (isWord(toks[end], 'TO') && INTERVAL_FIELDS.includes(field(end + 1))) {
    last = field(end + 1);
    end += 2;
    if (INTERVAL_FIELDS.indexOf(last) <= INTERVAL_FIELDS.indexOf(first)) return null; // (PostgreSQL's syntax error stays SQLite's)
  }
  let precision: number | null = null;
  if (last === 'SECOND' && isPunct(toks[end], '(') && toks[end + 1]?.type === 'number' && isPunct(toks[end + 2], ')')) {
    precision = Number(toks[end + 1].text);
    end += 3;
  }
  return { first, last, precision, end };
}

/** Index of the '(' matching the ')' at out[j], scanning back. */
export function openerBefore(out: Tok[], j: number, open: string, close: string): number {
  let depth = 0;
  for (; j >= 0; j--) {
    if (isPunct(out[j], close)) depth++;
    else if (isPunct(out[j], open) && --depth === 0) return j;
  }
  return 0;
}

/** Index of the ')' matching the '(' at toks[i]. */
export function closerAfter(toks: Tok[], i: number, open = '(', close = ')'): number {
  const at = closerIndex(toks, i, open, close);
  return at < 0 ? toks.length - 1 : at;
}

/** Index of the bracket closing the one at toks[i]; -1 when the statement ends first. */
export function closerIndex(toks: Tok[], i: number, open = '(', close = ')'): number {
  let depth = 0;
  for (; i < toks.length; i++) {
    if (isPunct(toks[i], open)) depth++;
    else if (isPunct(toks[i], close) && --depth === 0) return i;
  }
  return -1;
}

/**
 * The tokens with every group read back into the tokens of its text, for the late passes that look
 * at the structure earlier passes wrote as text (a subquery, a call's arguments); `toks` itself when
 * it holds no group.
 */
export function ungroup(toks: Tok[]): Tok[] {
  if (!toks.some((t) => t.type === 'group')) return toks;
  return toks.flatMap((t) => (t.type === 'group' ? groupTokens(t.text) : [t]));
}

/** The tokens of a group's text; SQLite's blob literal `X'01'` (casts.ts writes it) stays one token. */
function groupTokens(text: string): Tok[] {
  const out: Tok[] = [];
  const lexed = lexPg(text);
  for (let k = 0; k < lexed.length; k++) {
    const t = lexed[k];
    if ((t.text === 'X' || t.text === 'x') && t.type === 'word' && lexed[k + 1]?.type === 'string') {
      out.push({ type: 'string', text: t.text + lexed[++k].text });
    } else if (t.type !== 'space' && t.type !== 'comment') out.push(t);
  }
  return out;
}

/** Joins tokens with spaces where SQL needs them. */
export function joinTokens(toks: Tok[]): string {
  let s = '';
  let prev: Tok | undefined;
  for (const t of toks) {
    const tight =
      prev === undefined ||
      isPunct(t, '.') ||
      isPunct(prev, '.') ||
      isPunct(t, ',') ||
      isPunct(t, ')') ||
      isPunct(prev, '(') ||
      isPunct(t, ']') ||
      isPunct(prev, '[') ||
      (isPunct(t, '(') && (prev.type === 'word' || prev.type === 'quoted'));
    s += (tight ? '' : ' ') + t.text;
    prev = t;
  }
  return s;
}

/** An identifier token as PostgreSQL reads it: quoted kept, bare folded to lower case. */
export function identText(t: Tok): string {
  return t.type === 'quoted' ? t.text.slice(1, -1).replace(/""/g, '"') : t.text.toLowerCase();
}

/** Where the operand that ends `out` starts: a call or parenthesized group, a subscript, a (dotted) name or a literal. */
export function operandStart(out: Tok[]): number {
  let j = out.length - 1;
  for (;;) {
    // (a call's arguments an earlier pass wrote as one group, `concat` + `(a, __pg_text(...))`: the
    // call is the operand; `concat(t, f) || t` took the group alone, SQLite's row value misused)
    const args = out[j]?.type === 'group' && out[j].text.startsWith('(');
    if (isPunct(out[j], ')') || args) {
      if (!args) j = openerBefore(out, j, '(', ')');
      // a call's FILTER (...) or OVER (...): the call before it is part of the operand
      if (j > 1 && (isWord(out[j - 1], 'OVER') || isWord(out[j - 1], 'FILTER')) && isPunct(out[j - 2], ')')) {
        j -= 2;
        continue;
      }
      if (j > 0 && out[j - 1].type === 'word' && !NOT_FUNCTIONS.has(out[j - 1].text.toUpperCase())) j--;
    } else if (isPunct(out[j], ']')) {
      j = openerBefore(out, j, '[', ']');
      if (j > 0) j--;
    } else if (isWord(out[j], 'END')) {
      // `CASE ... END::text`: the whole CASE (it was its END alone, a syntax error)
      let depth = 0;
      for (let k = j; k >= 0; k--) {
        if (isWord(out[k], 'END')) depth++;
        else if (isWord(out[k], 'CASE') && --depth === 0) {
          j = k;
          break;
        }
      }
    }
    // OVER a named window (`sum(x) OVER w`)
    if (j > 1 && out[j].type === 'word' && isWord(out[j - 1], 'OVER') && isPunct(out[j - 2], ')')) {
      j -= 2;
      continue;
    }
    // a qualified name (a.b, s.f(x)) or a field of a parenthesised value (f(a).b): one operand
    const before = out[j - 2];
    if (
      j > 1 &&
      isPunct(out[j - 1], '.') &&
      (before.type === 'word' || before.type === 'quoted' || isPunct(before, ')'))
    ) {
      j -= 2;
      continue;
    }
    return j;
  }
}

/** Whether a token can end a left operand (not a keyword, '(' or ',': then the sign is unary). */
export function endsOperand(t: Tok | undefined): boolean {
  if (t === undefined) return false;
  if (t.type === 'punct') return t.text === ')' || t.text === ']';
  if (t.type === 'word')
    return (
      !NOT_FUNCTIONS.has(t.text.toUpperCase()) &&
      !['SELECT', 'DISTINCT', 'BETWEEN', 'ELSE', 'RETURN'].includes(t.text.toUpperCase())
    );
  return t.type !== 'op';
}

/**
 * The index of the last token of the operand that starts at toks[j] (after any signs): a literal,
 * parameter or group, a parenthesized group, CASE ... END, or a (dotted) name or call; -1 at the end.
 */
export function operandEnd(toks: Tok[], j: number): number {
  while (isOp(toks[j], '-') || isOp(toks[j], '+')) j++;
  const t = toks[j];
  if (t === undefined) return -1;
  let end = j;
  if (isPunct(t, '(')) end = closerAfter(toks, j);
  else if (isWord(t, 'CASE')) {
    for (let depth = 0; end < toks.length; end++) {
      if (isWord(toks[end], 'CASE')) depth++;
      else if (isWord(toks[end], 'END') && --depth === 0) break;
    }
  } else if (t.type === 'word' || t.type === 'quoted') {
    while (
      isPunct(toks[end + 1], '.') &&
      toks[end + 2] &&
      (toks[end + 2].type === 'word' || toks[end + 2].type === 'quoted')
    )
      end += 2;
    if (isPunct(toks[end + 1], '(')) {
      end = closerAfter(toks, end + 1);
      // an aggregate's FILTER (...) and a window call's OVER (...) or OVER name belong to it
      if (isWord(toks[end + 1], 'FILTER') && isPunct(toks[end + 2], '(')) end = closerAfter(toks, end + 2);
      if (isWord(toks[end + 1], 'OVER'))
        end = isPunct(toks[end + 2], '(') ? closerAfter(toks, end + 2) : Math.min(end + 2, toks.length - 1);
    } else if (toks[end + 1]?.type === 'group' && toks[end + 1].text.startsWith('(')) end++; // (arguments written as a group)
  }
  return end;
}

/** The parenthesis that opens the SELECT toks[at] belongs to (the innermost enclosing one that starts with SELECT), or -1 for the statement. */
export function selectOpen(toks: Tok[], at: number): number {
  let depth = 0;
  for (let i = at - 1; i >= 0; i--) {
    if (isPunct(toks[i], ')')) depth++;
    else if (isPunct(toks[i], '(')) {
      if (depth === 0 && isWord(toks[i + 1], 'SELECT')) return i;
      depth = Math.max(0, depth - 1);
    }
  }
  return -1;
}

/** The '(' around toks[at] (-1 at the top level). */
export function enclosing(toks: readonly Tok[], at: number): number {
  let depth = 0;
  for (let i = at - 1; i >= 0; i--) {
    if (isPunct(toks[i], ')')) depth++;
    else if (isPunct(toks[i], '(') && depth-- === 0) return i;
  }
  return -1;
}
