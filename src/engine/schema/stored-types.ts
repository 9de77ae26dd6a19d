import { type Token, significant, tokenize } from '../sql-text';

// SQLite reads a declared type for its affinity only, and JSON, JSONB and NAME name none of its
// words (INT, CHAR/CLOB/TEXT, BLOB, REAL/FLOA/DOUB), so they get NUMERIC affinity (and so do TSVECTOR
// and TSQUERY, whose text '1' would become the number 1): a value that
// reads as a number is stored as one. A json document `1.50` became the REAL 1.5,
// `12345678901234567890` lost digits, a name `007` became 7, where PostgreSQL keeps the text (json
// and name as written, jsonb with numeric's digits). So a schema file's column of such a type is
// created as `<type> TEXT` (`doc JSONB TEXT`), which SQLite reads as TEXT affinity, and read back
// as the type the file gave (`JSONB`): the catalog, the PG front end and the schema diff see only
// that. Arrays (`JSON[]`) hold `{...}` text, never a number, and are left as they are.

/** The declared types whose values are text in PostgreSQL but which SQLite gives NUMERIC affinity. */
const TEXT_VALUED = new Set(['JSON', 'JSONB', 'NAME', 'TSVECTOR', 'TSQUERY']);

/**
 * Whether a column SQLite was given this declared type (pragma_table_info's) is one of TEXT_VALUED
 * with NUMERIC affinity: a table created before they were stored as text (`JSONB`, not `JSONB TEXT`).
 */
export const storedAsNumber = (storedType: string): boolean => TEXT_VALUED.has(storedType.trim().toUpperCase());

/** The words that end a column's type and start its constraints (SQLite's column-constraint grammar). */
export const CONSTRAINT_START = new Set([
  'CONSTRAINT',
  'PRIMARY',
  'NOT',
  'NULL',
  'UNIQUE',
  'CHECK',
  'DEFAULT',
  'COLLATE',
  'REFERENCES',
  'GENERATED',
  'AS',
]);

/** The words that start a table constraint rather than a column. */
export const TABLE_CONSTRAINT = new Set(['CONSTRAINT', 'PRIMARY', 'UNIQUE', 'CHECK', 'FOREIGN']);

const STORED = /^\s*(\S+)\s+TEXT\s*$/i;

/**
 * A CREATE TABLE statement with each column declared as one of TEXT_VALUED alone (no size, no
 * array) written `<type> TEXT`, so that SQLite stores its values as text; other statements as given.
 */
export function withTextStorage(createSql: string): string {
  const toks = significant(tokenize(createSql));
  const at: number[] = [];
  let depth = 0;
  let partStart = -1;
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (t.type === 'punct' && t.text === '(') {
      depth++;
      if (depth === 1) partStart = i + 1;
    } else if (t.type === 'punct' && t.text === ')') {
      depth--;
    } else if (t.type === 'punct' && t.text === ',' && depth === 1) {
      partStart = i + 1;
    } else if (depth === 1 && i === partStart + 1 && isColumnName(toks[partStart])) {
      // the second token of a column definition is its type's first word
      const next = toks[i + 1];
      const ends =
        next === undefined ||
        (next.type === 'punct' && (next.text === ',' || next.text === ')')) ||
        (next.type === 'word' && CONSTRAINT_START.has(next.text.toUpperCase()));
      if (t.type === 'word' && TEXT_VALUED.has(t.text.toUpperCase()) && ends) at.push(t.start + t.text.length);
    }
  }
  let out = createSql;
  for (const p of at.reverse()) out = `${out.slice(0, p)} TEXT${out.slice(p)}`;
  return out;
}

const isColumnName = (t: Token): boolean =>
  t.type === 'quoted' || (t.type === 'word' && !TABLE_CONSTRAINT.has(t.text.toUpperCase()));

/**
 * The type a column was declared with in the schema file, from the one SQLite reports
 * (pragma_table_info, a statement's columns()): `JSONB TEXT` is `JSONB`; null (no column) stays null.
 */
export function declaredType<T extends string | null>(stored: T): T {
  const m = stored === null ? null : STORED.exec(stored);
  return m && TEXT_VALUED.has(m[1].toUpperCase()) ? (m[1] as T) : stored;
}
