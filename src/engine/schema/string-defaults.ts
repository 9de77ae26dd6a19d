import { type Token, significant, tokenize } from '../sql-text';
import { CONSTRAINT_START, TABLE_CONSTRAINT } from './stored-types';

// A string column's boolean default (`t TEXT DEFAULT true`, `v VARCHAR(10) DEFAULT FALSE`) is, in
// PostgreSQL, the boolean assigned to the column: the text 'true' or 'false'. SQLite reads the word
// TRUE as the integer 1, so a row that left the column out stored '1' (a TEXT column turns the
// number into text) wherever it was written: the PG front end fills such a default itself
// (protocols/pg/sql/translate/clock-defaults.ts), but the HTTP API runs SQLite's. So a schema
// file's CREATE TABLE is stored with such a default quoted (`DEFAULT 'true'`), and every writer gets
// PostgreSQL's text. A table created before keeps its `DEFAULT true` (its rows are not touched): the
// schema diff reads the two as one default (sameStringDefault).

/** A string column's declared type: text, varchar, char, or none (text, as Patina maps it). */
const STRING_TYPE = /^(TEXT|VARCHAR|CHARACTER VARYING|CHAR|CHARACTER|BPCHAR)?\s*(\(\s*\d+\s*\))?$/i;

/** Whether a declared type is one of the string types (not an array of them). */
export const isStringType = (declared: string): boolean => STRING_TYPE.test(declared.trim().replace(/\s+/g, ' '));

/** A default that is a boolean word, possibly in parentheses: `true`, `(FALSE)`. */
const BOOLEAN_DEFAULT = /^\(?\s*(true|false)\s*\)?$/i;

/** The text PostgreSQL stores for a string column's boolean default (`'true'`), or null for any other. */
export function stringDefault(declared: string, defaultSql: string | null): string | null {
  if (defaultSql === null || !isStringType(declared)) return null;
  const m = BOOLEAN_DEFAULT.exec(defaultSql.trim());
  return m ? `'${m[1].toLowerCase()}'` : null;
}

/** Whether two defaults of a column of `declared` are the same: as written, or a boolean word and its quoted text. */
export function sameStringDefault(declared: string, a: string | null, b: string | null): boolean {
  const norm = (s: string | null) => stringDefault(declared, s) ?? (s ?? '').replace(/\s+/g, ' ').trim().toLowerCase();
  return norm(a) === norm(b);
}

/** A CREATE TABLE statement with each string column's boolean default quoted; other statements as given. */
export function withStringDefaults(createSql: string): string {
  const toks = significant(tokenize(createSql));
  const edits: { start: number; end: number; text: string }[] = [];
  let depth = 0;
  let part: Token[] = [];
  const done = () => {
    const e = booleanDefault(part);
    if (e) edits.push(e);
    part = [];
  };
  for (const t of toks) {
    if (t.type === 'punct' && t.text === '(') {
      depth++;
      if (depth === 1) {
        part = [];
        continue;
      }
    } else if (t.type === 'punct' && t.text === ')') {
      depth--;
      if (depth === 0) {
        done();
        continue;
      }
    } else if (t.type === 'punct' && t.text === ',' && depth === 1) {
      done();
      continue;
    }
    if (depth >= 1) part.push(t);
  }
  let out = createSql;
  for (const e of edits.reverse()) out = `${out.slice(0, e.start)}${e.text}${out.slice(e.end)}`;
  return out;
}

/** In one column definition's tokens, a boolean default of a string column: where it is and its text. */
function booleanDefault(part: Token[]): { start: number; end: number; text: string } | null {
  const name = part[0];
  if (!name || !(name.type === 'quoted' || (name.type === 'word' && !TABLE_CONSTRAINT.has(name.text.toUpperCase()))))
    return null;
  let i = 1;
  let depth = 0;
  while (i < part.length) {
    const t = part[i];
    if (depth === 0 && t.type === 'word' && CONSTRAINT_START.has(t.text.toUpperCase())) break;
    if (t.type === 'punct' && t.text === '(') depth++;
    else if (t.type === 'punct' && t.text === ')') depth--;
    i++;
  }
  const type = part
    .slice(1, i)
    .map((t) => t.text)
    .join(' ')
    .replace(/\s*\(\s*/g, '(')
    .replace(/\s*\)/g, ')');
  if (!isStringType(type)) return null;
  for (; i < part.length; i++) {
    if (part[i].type !== 'word' || part[i].text.toUpperCase() !== 'DEFAULT') continue;
    const a = part[i + 1];
    const paren = a?.type === 'punct' && a.text === '(';
    const word = paren ? part[i + 2] : a;
    const close = paren ? part[i + 3] : word;
    if (word?.type !== 'word' || !/^(true|false)$/i.test(word.text)) return null;
    if (paren && !(close?.type === 'punct' && close.text === ')')) return null;
    return { start: a.start, end: close.start + close.text.length, text: `'${word.text.toLowerCase()}'` };
  }
  return null;
}
