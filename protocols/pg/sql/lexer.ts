// The PostgreSQL SQL lexer: tokens (words, strings with their E'' and $$ forms, quoted names,
// numbers, $n, operators, comments), statements split at top-level semicolons, identifiers folded as
// PostgreSQL folds them, and literals quoted back.

/** A lexical token of PostgreSQL SQL: enough to split statements and rewrite them for SQLite. */
export interface PgToken {
  type: 'word' | 'string' | 'quoted' | 'number' | 'param' | 'op' | 'punct' | 'space' | 'comment';
  text: string;
  /** For an operator: what it computes given its operands' types (sql/typed-operators.ts), when that is not SQLite's. */
  arith?: string;
  /** For the first token of an ORDER BY term: sort by this key rather than the value ('iv-order': an interval's length). */
  sortKey?: string;
  /**
   * For the first token of a value written into a date or time column: its conversion through the
   * session's zone ('wall', 'zoned'); into a string column: the kind it is printed as ('text:bool';
   * sql/zoned-assignments.ts).
   */
  assign?: string;
  /** For the first token of a date or timestamp beside a later type (sql/instant-choices.ts): 's' made a timestamp, 'z' a timestamptz; `:name` the name an unaliased select item keeps. */
  asInstant?: string;
  /** For the '(' of a function of one value in FROM made a subquery (translate/scalar-from.ts): its name alone is that value, not a row. */
  scalarFrom?: boolean;
}

import { escapeStringValue, unicodeStringValue } from './string-escapes';

const OP_CHARS = '+-*/<>=~!@#%^&|`?';

/**
 * Lexes PostgreSQL SQL: E'' and $$ strings, nested block comments, $n parameters and multi-character
 * operators. Strings are turned into SQLite literals as they are read ('' quoting, no backslashes).
 */
export function lexPg(sql: string): PgToken[] {
  const out: PgToken[] = [];
  let i = 0;
  const n = sql.length;
  while (i < n) {
    const c = sql[i];
    const start = i;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f') {
      while (i < n && /\s/.test(sql[i])) i++;
      out.push({ type: 'space', text: sql.slice(start, i) });
    } else if (c === '-' && sql[i + 1] === '-') {
      while (i < n && sql[i] !== '\n') i++;
      out.push({ type: 'comment', text: sql.slice(start, i) });
    } else if (c === '/' && sql[i + 1] === '*') {
      let depth = 0;
      while (i < n) {
        if (sql[i] === '/' && sql[i + 1] === '*') depth++, (i += 2);
        else if (sql[i] === '*' && sql[i + 1] === '/') {
          i += 2;
          if (--depth === 0) break;
        } else i++;
      }
      out.push({ type: 'comment', text: sql.slice(start, i) });
    } else if ((c === 'E' || c === 'e') && sql[i + 1] === "'") {
      // its escapes read as PostgreSQL reads them; a string it refuses stays as written, for its parser to refuse
      i += 2;
      while (i < n && !(sql[i] === "'" && sql[i + 1] !== "'")) i += sql[i] === '\\' || sql[i] === "'" ? 2 : 1;
      const value = escapeStringValue(sql.slice(start + 2, Math.min(i, n)));
      i++;
      out.push({ type: 'string', text: value === null ? sql.slice(start, Math.min(i, n)) : quoteString(value) });
    } else if ((c === 'U' || c === 'u') && sql[i + 1] === '&' && (sql[i + 2] === "'" || sql[i + 2] === '"')) {
      // U&'d\0061t' and U&"n\0061me", with an escape character of their own after UESCAPE
      const quote = sql[i + 2];
      i += 3;
      while (i < n && !(sql[i] === quote && sql[i + 1] !== quote)) i += sql[i] === quote ? 2 : 1;
      const body = sql.slice(start + 3, Math.min(i, n));
      i++;
      const uescape = /^\s*UESCAPE\s*'((?:[^']|'')*)'/i.exec(sql.slice(i));
      if (uescape) i += uescape[0].length;
      const value = unicodeStringValue(body, quote, uescape ? uescape[1].split("''").join("'") : '\\');
      const text = sql.slice(start, Math.min(i, n));
      if (value === null) out.push({ type: quote === "'" ? 'string' : 'quoted', text });
      else if (quote === "'") out.push({ type: 'string', text: quoteString(value) });
      else out.push({ type: 'quoted', text: `"${value.split('"').join('""')}"` });
    } else if ((c === 'B' || c === 'b' || c === 'X' || c === 'x') && sql[i + 1] === "'") {
      // a bit-string constant, kept as written (a string token whose text is no SQLite string: see bitStringToken)
      i += 2;
      while (i < n && sql[i] !== "'") i++;
      i++;
      out.push({ type: 'string', text: sql.slice(start, Math.min(i, n)) });
    } else if (c === "'") {
      i++;
      while (i < n && !(sql[i] === "'" && sql[i + 1] !== "'")) i += sql[i] === "'" ? 2 : 1;
      i++;
      out.push({ type: 'string', text: sql.slice(start, Math.min(i, n)) });
    } else if (c === '"') {
      i++;
      while (i < n && !(sql[i] === '"' && sql[i + 1] !== '"')) i += sql[i] === '"' ? 2 : 1;
      i++;
      out.push({ type: 'quoted', text: sql.slice(start, Math.min(i, n)) });
    } else if (c === '$' && /[0-9]/.test(sql[i + 1] ?? '')) {
      i++;
      while (i < n && /[0-9]/.test(sql[i])) i++;
      out.push({ type: 'param', text: sql.slice(start, i) });
    } else if (c === '$' && /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.test(sql.slice(i))) {
      const tag = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(sql.slice(i))![0];
      const end = sql.indexOf(tag, i + tag.length);
      const body = sql.slice(i + tag.length, end < 0 ? n : end);
      i = end < 0 ? n : end + tag.length;
      out.push({ type: 'string', text: quoteString(body) });
    } else if (/[A-Za-z_\u0080-\uffff]/.test(c)) {
      while (i < n && /[A-Za-z0-9_$\u0080-\uffff]/.test(sql[i])) i++;
      out.push({ type: 'word', text: sql.slice(start, i) });
    } else if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(sql[i + 1] ?? ''))) {
      while (i < n && /[0-9.]/.test(sql[i])) i++;
      if ((sql[i] === 'e' || sql[i] === 'E') && /[-+0-9]/.test(sql[i + 1] ?? '')) {
        i += 2;
        while (i < n && /[0-9]/.test(sql[i])) i++;
      }
      out.push({ type: 'number', text: sql.slice(start, i) });
    } else if (c === ':' && sql[i + 1] === ':') {
      i += 2;
      out.push({ type: 'op', text: '::' });
    } else if (OP_CHARS.includes(c)) {
      while (
        i < n &&
        OP_CHARS.includes(sql[i]) &&
        !(sql[i] === '-' && sql[i + 1] === '-') &&
        !(sql[i] === '/' && sql[i + 1] === '*')
      )
        i++;
      // as PostgreSQL reads `1/-2`: an operator ends in + or - only if it holds one of ~!@#%^&|`?
      while (i - start > 1 && (sql[i - 1] === '+' || sql[i - 1] === '-') && !/[~!@#%^&|`?]/.test(sql.slice(start, i)))
        i--;
      out.push({ type: 'op', text: sql.slice(start, i) });
    } else {
      i++;
      out.push({ type: 'punct', text: c });
    }
  }
  return out;
}

/** A SQLite string literal holding `s`. */
export function quoteString(s: string): string {
  return "'" + s.split("'").join("''") + "'";
}

/** Splits a query string at top-level semicolons; empty statements are dropped. */
export function splitPgStatements(sql: string): PgToken[][] {
  const out: PgToken[][] = [];
  let cur: PgToken[] = [];
  let depth = 0;
  const flush = () => {
    if (cur.some((t) => t.type !== 'space' && t.type !== 'comment')) out.push(cur);
    cur = [];
  };
  for (const t of lexPg(sql)) {
    if (t.type === 'punct' && t.text === '(') depth++;
    else if (t.type === 'punct' && t.text === ')') depth--;
    if (t.type === 'punct' && t.text === ';' && depth <= 0) flush();
    else cur.push(t);
  }
  flush();
  return out;
}

/** The identifier a word or quoted token names: unquoted words fold to lower case, as in PostgreSQL. */
export function identName(t: PgToken): string {
  if (t.type === 'quoted') return t.text.slice(1, -1).split('""').join('"');
  return t.text.toLowerCase();
}

/** The highest $n a statement uses. */
export function maxParam(tokens: PgToken[]): number {
  let m = 0;
  for (const t of tokens) if (t.type === 'param') m = Math.max(m, Number(t.text.slice(1)));
  return m;
}

/** Whether a string token is a bit-string constant (B'101', X'1F'), which the lexer keeps as written. */
export function bitStringToken(t: PgToken): boolean {
  return t.type === 'string' && /^[bBxX]'/.test(t.text);
}
