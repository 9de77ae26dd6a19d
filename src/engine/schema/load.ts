import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { PatinaError } from '../../errors';
import { firstKeyword, significant, splitStatements, tokenize, unquoteIdentifier } from '../sql-text';
import { ACCEPTED_TYPES, isAcceptedType } from './column-types';
import { introspect } from './introspect';
import { withTextStorage } from './stored-types';
import { withStringDefaults } from './string-defaults';
import { type Schema, isInternalName } from './model';

/** The .sql files named by schema_paths: files as given, folders' *.sql files in name order. */
export function schemaFiles(paths: string[]): string[] {
  const files: string[] = [];
  for (const p of paths) {
    let st: fs.Stats;
    try {
      st = fs.statSync(p);
    } catch {
      throw new PatinaError('user', `schema path ${p} does not exist`);
    }
    if (st.isDirectory()) {
      for (const f of fs
        .readdirSync(p)
        .filter((f) => f.endsWith('.sql'))
        .sort())
        files.push(path.join(p, f));
    } else {
      files.push(p);
    }
  }
  return files;
}

/** What a schema statement declares, read from its tokens. */
function declared(sql: string): {
  kind: 'table' | 'index' | 'other';
  name: string;
  table: string;
  unique: boolean;
  autoincrement: boolean;
} {
  const words = significant(tokenize(sql));
  const upper = words.map((t) => (t.type === 'word' ? t.text.toUpperCase() : t.text));
  const autoincrement = upper.includes('AUTOINCREMENT');
  let i = 1;
  const unique = upper[i] === 'UNIQUE';
  if (unique) i++;
  if (upper[i] === 'TEMP' || upper[i] === 'TEMPORARY' || upper[i] === 'VIRTUAL')
    return { kind: 'other', name: '', table: '', unique, autoincrement };
  const kind = upper[i] === 'TABLE' ? 'table' : upper[i] === 'INDEX' ? 'index' : 'other';
  i++;
  if (upper[i] === 'IF' && upper[i + 1] === 'NOT' && upper[i + 2] === 'EXISTS') i += 3;
  let nameTok = words[i];
  if (words[i + 1]?.text === '.') nameTok = words[i + 2]; // main.name
  const name = nameTok ? unquoteIdentifier(nameTok.text) : '';
  // An index names its table after ON, so errors about the index can name the table too.
  const on = kind === 'index' ? upper.indexOf('ON') : -1;
  const table = kind === 'table' ? name : on > 0 && words[on + 1] ? unquoteIdentifier(words[on + 1].text) : '';
  return { kind, name, table, unique, autoincrement };
}

/**
 * An index's access method as PostgreSQL writes it (`ON t USING gin (...)`), which SQLite does not
 * parse: where the words are in the statement, or null when it names none.
 */
function indexMethod(sql: string): { method: string; start: number; end: number } | null {
  const words = significant(tokenize(sql));
  const on = words.findIndex((w) => w.type === 'word' && w.text.toUpperCase() === 'ON');
  for (let i = on + 1; on > 0 && i < words.length && words[i].text !== '('; i++) {
    const method = words[i + 1];
    if (words[i].type === 'word' && words[i].text.toUpperCase() === 'USING' && method?.type === 'word')
      return { method: method.text.toLowerCase(), start: words[i].start, end: method.start + method.text.length };
  }
  return null;
}

/**
 * Loads and checks the schema files: only CREATE TABLE and CREATE INDEX; every table has a primary
 * key of NOT NULL columns, non-key NOT NULL columns have a DEFAULT, and there are no UNIQUE indexes
 * besides the key, no foreign keys and no AUTOINCREMENT. Errors name the file, line, table and rule.
 */
export function loadSchema(paths: string[]): Schema {
  const mem = new Database(':memory:');
  try {
    const where = new Map<string, { file: string; line: number }>();
    const statementOf = new Map<string, string>();
    for (const file of schemaFiles(paths)) {
      const text = fs.readFileSync(file, 'utf8');
      for (const st of splitStatements(text)) {
        const at = `${file}:${st.line}`;
        const kw = firstKeyword(st.sql);
        const d = declared(st.sql);
        if (kw !== 'CREATE' || d.kind === 'other') {
          throw new PatinaError(
            'user',
            `${at}: only CREATE TABLE and CREATE INDEX statements are allowed in schema files`,
          );
        }
        if (isInternalName(d.name)) {
          throw new PatinaError(
            'user',
            `${at}: ${d.kind} "${d.name}": names starting with __patina or sqlite_ are reserved`,
          );
        }
        if (d.kind === 'index' && d.unique) {
          throw new PatinaError(
            'user',
            `${at}: index "${d.name}" on table "${d.table}": UNIQUE indexes are not allowed; the primary key is the only unique constraint, because replicas merge rows by key`,
          );
        }
        if (d.kind === 'table' && d.autoincrement) {
          throw new PatinaError(
            'user',
            `${at}: table "${d.name}": AUTOINCREMENT is not allowed; agents would hand out the same ids`,
          );
        }
        // USING btree is SQLite's only kind of index (the words dropped); PostgreSQL's other methods
        // (a GIN index for text search or jsonb) it has not: SQLite would say `near "USING"`
        const method = d.kind === 'index' ? indexMethod(st.sql) : null;
        if (method && method.method !== 'btree')
          throw new PatinaError(
            'user',
            `${at}: index "${d.name}" on table "${d.table}": USING ${method.method} is not supported: Patina's indexes are SQLite's b-trees, and text search (@@), jsonb and array containment read the table without one; remove the index`,
          );
        const indexSql = method ? st.sql.slice(0, method.start) + st.sql.slice(method.end) : st.sql;
        // a JSON, JSONB or NAME column is created with TEXT affinity (stored-types.ts), a string
        // column's boolean default as its text (string-defaults.ts)
        const sql = d.kind === 'table' ? withStringDefaults(withTextStorage(st.sql)) : indexSql;
        try {
          mem.exec(sql);
        } catch (err) {
          // an array of a type with a size (VARCHAR(40)[]): SQLite's type names take no [] after a
          // size, and said only `near "[]": syntax error`
          const sized = d.kind === 'table' ? /([A-Za-z][\w ]*?)\s*\([^()]*\)\s*\[\s*\]/.exec(st.sql) : null;
          if (sized)
            throw new PatinaError(
              'user',
              `${at}: table "${d.name}": "${sized[0]}": an array of a type with a size is not supported; declare the array without the size ("${sized[1].trim()}[]")`,
            );
          throw new PatinaError(
            'user',
            `${at}: ${d.kind} "${d.name}"${d.kind === 'index' ? ` on table "${d.table}"` : ''}: ${(err as Error).message}`,
          );
        }
        if (d.kind === 'table') {
          where.set(d.name, { file, line: st.line });
          statementOf.set(d.name, sql);
        }
      }
    }
    const schema = introspect(mem, (t) => where.get(t) ?? { file: '', line: 0 });
    for (const t of schema.tables.values()) {
      const at = `${t.file}:${t.line}: table "${t.name}"`;
      if (t.primaryKey.length === 0) throw new PatinaError('user', `${at}: a table must have a PRIMARY KEY`);
      for (const c of t.columns) {
        if (!isAcceptedType(c.type)) {
          const line = t.line + linesBefore(statementOf.get(t.name) ?? '', c.name, c.type);
          throw new PatinaError(
            'user',
            `${t.file}:${line}: table "${t.name}", column "${c.name}": type ${JSON.stringify(c.type.replace(/\s+/g, ' '))} is not a type Patina maps to PostgreSQL (a missing comma between two columns reads as one column with a long type); accepted: ${ACCEPTED_TYPES.join(', ')}, with an optional size such as VARCHAR(40) or NUMERIC(12, 2) and [] for an array`,
          );
        }
        if (c.pk > 0 && !c.notNull)
          throw new PatinaError('user', `${at}: primary key column "${c.name}" must be declared NOT NULL`);
        if (c.pk === 0 && c.notNull && c.defaultSql === null) {
          throw new PatinaError(
            'user',
            `${at}: NOT NULL column "${c.name}" needs a DEFAULT, so that rows from agents that lack it can merge`,
          );
        }
      }
      if (t.indexes.some((ix) => ix.origin === 'u'))
        throw new PatinaError('user', `${at}: UNIQUE constraints are not allowed besides the primary key`);
      const fks = mem.prepare('SELECT * FROM pragma_foreign_key_list(?)').all(t.name);
      if (fks.length > 0)
        throw new PatinaError('user', `${at}: foreign keys are not allowed; replicas apply rows in any order`);
    }
    return schema;
  } finally {
    mem.close();
  }
}

/** How many lines into a CREATE TABLE statement a column's definition starts (0 when not found). */
function linesBefore(sql: string, column: string, type: string): number {
  const first = type.trim().split(/\s+/)[0] ?? '';
  const esc = (x: string) => x.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const m = new RegExp(`["\`\\[]?${esc(column)}["\`\\]]?\\s+${esc(first)}`, 'i').exec(sql);
  return m ? sql.slice(0, m.index).split('\n').length - 1 : 0;
}
