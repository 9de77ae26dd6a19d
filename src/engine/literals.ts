/**
 * Writes whose values are written into the SQL text share one prepared statement per shape.
 *
 * `UPDATE t SET v = 'x17' WHERE pk = 17` becomes `UPDATE t SET v = ? WHERE pk = ?` with the values
 * ['x17', 17n]. A prepared write carries the compiled change-capture triggers (hundreds of KB of
 * native memory) and better-sqlite3 frees a statement only when V8 collects its small wrapper, so
 * one statement per distinct text grew the agent by gigabytes. One per shape is bounded, and a
 * known shape also skips the prepare.
 *
 * Only what keeps the statement's meaning is rewritten (see docs/internals/literal-writes.md):
 * INSERT, UPDATE, DELETE and REPLACE without parameters of their own; strings, blobs, integers that
 * fit 64 bits and decimals of at most 15 digits (SQLite and JavaScript read those to the same
 * double). Texts with `BY` (ORDER BY 1 names a column), a conflict target with WHERE (a partial
 * index must match it literally) or more than one statement are left alone, as are the RETURNING
 * list (its column names come from the text) and type arguments (`CAST(x AS NUMERIC(10, 2))`).
 */

export type LiteralValue = string | bigint | number | Buffer;

export interface SharedShape {
  /** The text with `?` in place of each literal. */
  sql: string;
  /** The literals, in order. */
  values: LiteralValue[];
}

const WRITES = new Set(['INSERT', 'UPDATE', 'DELETE', 'REPLACE']);
const MAX_VALUES = 32766;
const INT64_MAX = 9223372036854775807n;

function isIdentStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c >= 128;
}
function isIdentPart(c: number): boolean {
  return isIdentStart(c) || (c >= 48 && c <= 57) || c === 36;
}
function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}
function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 12 || c === 11;
}

/**
 * The shape of a literal write and its values, or null when the text is to be run as it is.
 * `numbered`: the text's own `$1`, `$2`, ... are kept (the PostgreSQL front end's parameters, bound
 * by name beside the shape's anonymous `?`s) instead of making it run as it is.
 */
export function shareLiterals(sql: string, numbered = false): SharedShape | null {
  const n = sql.length;
  let out = '';
  let from = 0; // sql[from, i) is still to be copied to out
  const values: LiteralValue[] = [];
  let first = true;
  let lastWord = '';
  let prevWord = ''; // the word before lastWord
  let conflictTarget = false; // between ON CONFLICT and DO
  let typeArgs = 0; // depth inside `AS type(...)`
  let depth = 0;
  let ended = false; // a top-level ';' was seen
  let ownParams = false; // a $n of the text's own was kept
  const replace = (start: number, end: number, v: LiteralValue) => {
    out += sql.slice(from, start) + '?';
    from = end;
    values.push(v);
  };
  let i = 0;
  while (i < n) {
    const c = sql.charCodeAt(i);
    if (isSpace(c)) {
      i++;
      continue;
    }
    if (ended) return null; // more than one statement
    if (c === 45 && sql.charCodeAt(i + 1) === 45) {
      const j = sql.indexOf('\n', i);
      i = j < 0 ? n : j + 1;
      continue;
    }
    if (c === 47 && sql.charCodeAt(i + 1) === 42) {
      const j = sql.indexOf('*/', i + 2);
      if (j < 0) return null;
      i = j + 2;
      continue;
    }
    if (isIdentStart(c)) {
      let j = i + 1;
      while (j < n && isIdentPart(sql.charCodeAt(j))) j++;
      if ((c === 88 || c === 120) && j === i + 1 && sql.charCodeAt(j) === 39) {
        // X'..' blob
        const k = sql.indexOf("'", j + 1);
        if (k < 0) return null;
        const hex = sql.slice(j + 1, k);
        if (hex.length % 2 !== 0 || !/^[0-9A-Fa-f]*$/.test(hex)) return null;
        if (typeArgs === 0) replace(i, k + 1, Buffer.from(hex, 'hex'));
        i = k + 1;
        lastWord = '';
        continue;
      }
      const word = sql.slice(i, j).toUpperCase();
      if (first) {
        if (!WRITES.has(word)) return null;
        first = false;
      }
      if (word === 'BY') return null;
      if (word === 'RETURNING' && depth === 0) {
        i = n; // the rest is copied as it is
        break;
      }
      if (word === 'CONFLICT') conflictTarget = true;
      else if (word === 'DO') conflictTarget = false;
      else if (word === 'WHERE' && conflictTarget) return null;
      prevWord = lastWord;
      lastWord = word;
      i = j;
      continue;
    }
    if (first) return null;
    if (c === 39) {
      // 'string' with '' for a quote
      let j = i + 1;
      let text = '';
      for (;;) {
        const k = sql.indexOf("'", j);
        if (k < 0) return null;
        text += sql.slice(j, k);
        if (sql.charCodeAt(k + 1) === 39) {
          text += "'";
          j = k + 2;
          continue;
        }
        j = k + 1;
        break;
      }
      if (typeArgs === 0) replace(i, j, text);
      i = j;
      lastWord = '';
      continue;
    }
    if (c === 34 || c === 96 || c === 91) {
      // "identifier", `identifier`, [identifier]
      const close = c === 91 ? ']' : sql[i];
      let j = i + 1;
      for (;;) {
        const k = sql.indexOf(close, j);
        if (k < 0) return null;
        if (c !== 91 && sql[k + 1] === close) {
          j = k + 2;
          continue;
        }
        j = k + 1;
        break;
      }
      i = j;
      lastWord = '"';
      continue;
    }
    if (isDigit(c) || (c === 46 && isDigit(sql.charCodeAt(i + 1)))) {
      let j = i;
      if (c === 48 && (sql.charCodeAt(i + 1) | 32) === 120) {
        // 0x hex integers are kept as they are (two's complement beyond 2^63)
        j = i + 2;
        while (j < n && isIdentPart(sql.charCodeAt(j))) j++;
        i = j;
        lastWord = '';
        continue;
      }
      let digits = 0;
      let float = false;
      while (j < n && isDigit(sql.charCodeAt(j))) j++;
      digits += j - i;
      if (sql.charCodeAt(j) === 46) {
        float = true;
        const d0 = j + 1;
        j++;
        while (j < n && isDigit(sql.charCodeAt(j))) j++;
        digits += j - d0;
      }
      let exponent = 0;
      if ((sql.charCodeAt(j) | 32) === 101) {
        let k = j + 1;
        const sign = sql.charCodeAt(k);
        if (sign === 43 || sign === 45) k++;
        const e0 = k;
        while (k < n && isDigit(sql.charCodeAt(k))) k++;
        if (k === e0) return null;
        exponent = Math.abs(Number(sql.slice(e0, k)));
        float = true;
        j = k;
      }
      if (j < n && (isIdentPart(sql.charCodeAt(j)) || sql.charCodeAt(j) === 46)) return null; // 1abc, 1_000, 1.2.3
      const text = sql.slice(i, j);
      if (typeArgs === 0) {
        if (!float) {
          const v = BigInt(text);
          if (v <= INT64_MAX) replace(i, j, v);
        } else if (digits <= 15 && exponent <= 300) replace(i, j, Number(text));
      }
      i = j;
      lastWord = '';
      continue;
    }
    // punctuation
    if (c === 36 && numbered && isDigit(sql.charCodeAt(i + 1))) {
      let j = i + 1;
      while (j < n && isDigit(sql.charCodeAt(j))) j++;
      if (j < n && isIdentPart(sql.charCodeAt(j))) return null; // $1abc
      ownParams = true;
      i = j;
      lastWord = '';
      continue;
    }
    if (c === 63 || c === 58 || c === 64 || c === 36) return null; // ? :name @name $name: parameters of its own
    if (c === 59) {
      if (depth !== 0) return null;
      ended = true;
      i++;
      continue;
    }
    if (c === 40) {
      depth++;
      if (typeArgs > 0) typeArgs++;
      else if (prevWord === 'AS' && lastWord !== '' && lastWord !== '"') typeArgs = 1;
    } else if (c === 41) {
      depth--;
      if (typeArgs > 0) typeArgs--;
    }
    prevWord = lastWord;
    lastWord = '';
    i++;
  }
  if (values.length === 0 || values.length > MAX_VALUES || (numbered && !ownParams)) return null;
  return { sql: out + sql.slice(from), values };
}
