// The type names a statement writes (`x::t`, `CAST(x AS t)`, `t 'literal'`, a column definition
// list's `AS r(a t)`), and its collation names (`COLLATE "C"`), looked up as PostgreSQL's parser looks them up: a name that is no type is its
// 42704 `type "t" does not exist` (3F000 for a schema that is none) at the name, before anything
// runs. The translation passed such a name through (`'x'::nosuchtype` answered x, `CAST(1 AS
// nosuchtype)` 1), and `'x'::foo.bar` read a column. What Patina does with a type PostgreSQL has is
// the translation's (translate/casts.ts: a cast to one Patina has no values of is 0A000).
import {
  CATALOG_ROW_TYPE_NAMES,
  INFORMATION_SCHEMA_TYPE_NAMES,
  OTHER_TYPE_ROWS,
  PG_TYPE_ROWS,
} from '../catalog/pg-type-rows';
import { pgError, pgErrorAt } from '../sqlstate';
import { NAMESPACE_NAMES } from '../types/oids';
import { relationNames } from '../types/relation-names';
import type { PgToken } from './lexer';
import { parseTree } from './parse';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

/** pg_catalog's type names (its types, its relations' row types and their arrays). */
const CATALOG_TYPES = new Set([
  ...PG_TYPE_ROWS.map((r) => r[1]),
  ...OTHER_TYPE_ROWS.map((r) => r[1]),
  ...CATALOG_ROW_TYPE_NAMES,
]);
const INFORMATION_SCHEMA_TYPES = new Set(INFORMATION_SCHEMA_TYPE_NAMES);
/** Names PostgreSQL has no type of that Patina reads all the same. */
const KEPT = new Set(['citext', 'blob']);

/** Whether the statement may name a type or a collation: a `::`, a CAST, a COLLATE, or a word before a string (`date '...'`, `AS r(a t)`: parsed then). */
export function mayNameTypes(sig: readonly PgToken[]): boolean {
  for (let i = 0; i < sig.length; i++) {
    const t = sig[i];
    if (t.type === 'op' && t.text === '::') return true;
    if (t.type === 'word' && (t.text.toUpperCase() === 'CAST' || sig[i + 1]?.type === 'string')) return true;
    if (t.type === 'word' && t.text.toUpperCase() === 'COLLATE') return true;
    // a column definition list: `) AS r(a t)` or `) r(a t)`
    if (t.type === 'punct' && t.text === ')' && sig[i + 1]?.type === 'word' && sig[i + 2]?.text === '(') return true;
    if (t.type === 'punct' && t.text === ')' && sig[i + 2]?.type === 'word' && sig[i + 3]?.text === '(') return true;
  }
  return false;
}

/**
 * Throws PostgreSQL's error for the first type name of the statement that names no type (or
 * collation name that names no collation). `text` is
 * the statement's `tokens` joined by single spaces (the text the tree's offsets are in); the error's
 * position is taken back to the statement as written.
 */
export function checkTypeNames(text: string, tokens: readonly PgToken[], database: string): void {
  let tree: Node;
  try {
    tree = parseTree(text);
  } catch {
    return; // (the parser's refusal is reported where the statement is translated)
  }
  const bad = firstUnknown(tree.stmts, database);
  if (!bad) return;
  if (bad.location < 0) throw pgError(bad.code, bad.message); // (PostgreSQL gives this one no position)
  const at = writtenAt(Buffer.from(text).subarray(0, bad.location).toString().length, tokens);
  throw pgErrorAt(bad.code, bad.message, at);
}

/** The first TypeName of the tree (in text order: the tree's order) that names no type, with its error. */
function firstUnknown(n: Node, database: string): { code: string; message: string; location: number } | null {
  if (n === null || typeof n !== 'object') return null;
  if (Array.isArray(n)) {
    for (const x of n) {
      const f = firstUnknown(x, database);
      if (f) return f;
    }
    return null;
  }
  if (n.CollateClause?.collname) {
    const f = unknownCollation(n.CollateClause, database);
    if (f) return f;
  }
  for (const k in n) {
    // (a TypeCast's, a ColumnDef's typeName; PREPARE's list holds TypeName nodes)
    const typeName = k === 'typeName' || k === 'TypeName' ? n[k] : null;
    const f = typeName?.names ? unknownType(typeName, database) : firstUnknown(n[k], database);
    if (f) return f;
  }
  return null;
}

/** PostgreSQL's error for a TypeName that names no type (LookupTypeName's), or null. */
function unknownType(t: Node, database: string): { code: string; message: string; location: number } | null {
  if (t.pct_type) return null; // (t.col%TYPE: PL/pgSQL's and CREATE FUNCTION's, which are not run)
  const names: string[] = t.names.map((p: Node) => String(p.String?.sval ?? ''));
  const location = typeof t.location === 'number' && t.location >= 0 ? t.location : 0;
  // (PostgreSQL gives a type's database part no position, a collation's the COLLATE's)
  const across = databasePart(names, database, -1);
  if (across) return across;
  const [schema, name] = names.length === 2 ? names : [null, names[0]];
  if (schema !== null && !Object.values(NAMESPACE_NAMES).includes(schema) && schema !== 'pg_toast')
    return { code: '3F000', message: `schema "${schema}" does not exist`, location };
  const inCatalog = (schema === null || schema === 'pg_catalog') && CATALOG_TYPES.has(name);
  const inPublic = (schema === null || schema === 'public') && relationNames().typeOid(name) !== undefined;
  const inInformationSchema = schema === 'information_schema' && INFORMATION_SCHEMA_TYPES.has(name);
  // citext, an extension's type, is read as text, and blob, SQLite's name of its own type, runs as
  // SQLite's cast (translate/casts.ts: `CAST(x AS BLOB)`, a schema file's column type)
  if (inCatalog || inPublic || inInformationSchema || (schema === null && KEPT.has(name))) return null;
  return { code: '42704', message: `type "${names.join('.')}${t.arrayBounds ? '[]' : ''}" does not exist`, location };
}

/**
 * The error for a name of three parts (`db.pg_catalog.text`), whose first part names a database:
 * another database's is PostgreSQL's 0A000; the session's own, which PostgreSQL takes, is 0A000 too
 * (Patina's translation does not read such a name: it answered with no rows).
 */
function databasePart(
  names: string[],
  database: string,
  location: number,
): { code: string; message: string; location: number } | null {
  if (names.length < 3) return null;
  if (names.length > 3)
    return { code: '42601', message: `improper qualified name (too many dotted names): ${names.join('.')}`, location };
  const message =
    names[0] === database
      ? `a name qualified by its database (${names.join('.')}) is not supported: leave out "${database}."`
      : `cross-database references are not implemented: ${names.join('.')}`;
  return { code: '0A000', message, location };
}

/** The collations PostgreSQL 15 has in every database (pg_collation's libc ones): each compares as SQLite does, by code point. */
const COLLATIONS = new Set(['default', 'C', 'POSIX', 'ucs_basic', 'C.utf8']);

/**
 * PostgreSQL's error for a COLLATE naming no collation (42704, 3F000 for a schema that is none), or
 * null; an ICU collation (`"und-x-icu"`), which PostgreSQL may have, is 0A000: Patina compares
 * text by code point only. (COLLATE "nosuch" was dropped, and the text compared by code point.)
 */
function unknownCollation(c: Node, database: string): { code: string; message: string; location: number } | null {
  const names: string[] = c.collname.map((p: Node) => String(p.String?.sval ?? ''));
  const location = typeof c.location === 'number' && c.location >= 0 ? c.location : 0;
  const across = databasePart(names, database, location);
  if (across) return across;
  const [schema, name] = names.length === 2 ? names : [null, names[0]];
  if (schema !== null && !Object.values(NAMESPACE_NAMES).includes(schema) && schema !== 'pg_toast')
    return { code: '3F000', message: `schema "${schema}" does not exist`, location };
  if ((schema === null || schema === 'pg_catalog') && COLLATIONS.has(name)) return null;
  if ((schema === null || schema === 'pg_catalog') && name.endsWith('-x-icu'))
    return {
      code: '0A000',
      message: `collation "${name}" is not supported: Patina compares text by code point (C, POSIX, ucs_basic, C.utf8, default)`,
      location,
    };
  return { code: '42704', message: `collation "${names.join('.')}" for encoding "UTF8" does not exist`, location };
}

/** The place in the statement as written (its tokens joined as they came) of `at` in the tokens joined by single spaces. */
export function writtenAt(at: number, tokens: readonly PgToken[]): number {
  let inText = 0;
  let written = 0;
  for (const t of tokens) {
    if (at <= inText + t.text.length) break;
    inText += t.text.length + 1;
    written += t.text.length;
  }
  return written + Math.max(0, at - inText);
}
