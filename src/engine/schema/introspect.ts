import type Database from 'better-sqlite3';
import { significant, tokenize, unquoteIdentifier } from '../sql-text';
import { declaredType } from './stored-types';
import { type ColumnDef, type IndexDef, type Schema, type TableDef, isInternalName } from './model';

const CONSTRAINT_WORDS = new Set(['CONSTRAINT', 'PRIMARY', 'UNIQUE', 'CHECK', 'FOREIGN']);

/**
 * Cuts the column definitions out of a CREATE TABLE statement, keyed by column name, so that a new
 * column can be added with exactly the text the schema file gave it.
 */
export function columnDefinitions(createSql: string): Map<string, string> {
  const toks = tokenize(createSql);
  const out = new Map<string, string>();
  let depth = 0;
  let partStart = -1;
  const flush = (end: number) => {
    if (partStart < 0) return;
    const text = createSql.slice(partStart, end).trim();
    const sig = significant(tokenize(text));
    if (sig.length > 0 && !(sig[0].type === 'word' && CONSTRAINT_WORDS.has(sig[0].text.toUpperCase()))) {
      out.set(unquoteIdentifier(sig[0].text), text);
    }
  };
  for (const t of toks) {
    if (t.type !== 'punct') continue;
    if (t.text === '(') {
      depth++;
      if (depth === 1) partStart = t.start + 1;
    } else if (t.text === ')') {
      if (depth === 1) {
        flush(t.start);
        partStart = -1;
      }
      depth--;
    } else if (t.text === ',' && depth === 1) {
      flush(t.start);
      partStart = t.start + 1;
    }
  }
  return out;
}

type Where = (table: string) => { file: string; line: number };

/** Reads the schema tables of a database (all tables but SQLite's and the agent's own). */
export function introspect(db: Database.Database, where: Where = () => ({ file: '', line: 0 })): Schema {
  const tables = new Map<string, TableDef>();
  const rows = db
    .prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'table' ORDER BY name")
    .safeIntegers(false)
    .all() as { name: string; sql: string }[];
  for (const { name, sql } of rows) {
    if (isInternalName(name)) continue;
    const defs = columnDefinitions(sql);
    const info = db.prepare('SELECT * FROM pragma_table_info(?)').safeIntegers(false).all(name) as {
      name: string;
      type: string;
      notnull: number;
      dflt_value: string | null;
      pk: number;
    }[];
    const columns: ColumnDef[] = info.map((c) => ({
      name: c.name,
      type: declaredType(c.type),
      storedType: c.type,
      notNull: c.notnull === 1,
      defaultSql: c.dflt_value,
      pk: c.pk,
      definition: defs.get(c.name) ?? `"${c.name}" ${c.type}`,
    }));
    const primaryKey = columns
      .filter((c) => c.pk > 0)
      .sort((a, b) => a.pk - b.pk)
      .map((c) => c.name);
    const indexes: IndexDef[] = [];
    const list = db.prepare('SELECT * FROM pragma_index_list(?)').safeIntegers(false).all(name) as {
      name: string;
      unique: number;
      origin: string;
    }[];
    for (const ix of list) {
      const cols = (
        db.prepare('SELECT name FROM pragma_index_info(?) ORDER BY seqno').safeIntegers(false).all(ix.name) as {
          name: string | null;
        }[]
      ).map((r) => r.name ?? '<expr>');
      // (pragma_index_xinfo's `desc` of each key column: the catalog's pg_index.indoption)
      const desc = (
        db
          .prepare('SELECT "desc" AS d FROM pragma_index_xinfo(?) WHERE key = 1 ORDER BY seqno')
          .safeIntegers(false)
          .all(ix.name) as { d: number }[]
      ).map((r) => r.d === 1);
      const ixSql =
        (
          db
            .prepare("SELECT sql FROM sqlite_schema WHERE type = 'index' AND name = ?")
            .safeIntegers(false)
            .get(ix.name) as { sql: string | null } | undefined
        )?.sql ?? '';
      indexes.push({
        name: ix.name,
        table: name,
        unique: ix.unique === 1,
        columns: cols,
        ...(desc.some((d) => d) ? { descending: desc } : {}),
        origin: ix.origin,
        sql: ixSql,
      });
    }
    const w = where(name);
    tables.set(name, { name, columns, primaryKey, indexes, sql, file: w.file, line: w.line });
  }
  return { tables };
}
