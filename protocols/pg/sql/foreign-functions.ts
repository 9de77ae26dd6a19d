// A call of a function PostgreSQL does not have is its 42883 `function instr(unknown, unknown) does
// not exist` at the name, with its HINT, before anything runs. The translation passes calls on to
// SQLite, which has functions of its own (instr, printf, glob, typeof, hex, ifnull, iif, total,
// group_concat, julianday, strftime, json_extract, changes, last_insert_rowid, sqlite_version, ...):
// they ran with SQLite's meaning, a guess PostgreSQL's users would not expect and code written
// against Patina would carry to PostgreSQL. A name is PostgreSQL's when pg_catalog has a function of
// it (catalog/pg-function-names.ts, written from PostgreSQL 15), or information_schema when the call
// names that schema; Patina's own `patina_id()` (and any `patina_` name) is Patina's. A call naming
// public is none (public has no functions), one naming a schema that is none 3F000. Which PostgreSQL functions
// Patina runs is the translation's business: one it does not is an error there, as before.
import { KEYWORD_CATEGORIES } from '../../../src/engine/pg-keywords';
import type { Schema } from '../../../src/engine/schema/model';
import { pgErrorAt } from '../sqlstate';
import { INFORMATION_SCHEMA_FUNCTIONS, PG_CATALOG_FUNCTIONS } from '../catalog/pg-function-names';
import { NAMESPACE_NAMES, TYPE_DISPLAY } from '../types/oids';
import { declaredColumnType } from './cast-paths';
import type { Typer } from './expression-types';
import type { PgToken } from './lexer';
import { firstInStatement } from './scoped-walk';
import { strings } from './type-signatures';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

/**
 * Words before `(` that are no function name, for the gate below: PostgreSQL's reserved keywords
 * (`IN (`, `VALUES (`, `JOIN (`, `UNION (`), and the others that take a parenthesis
 * (`ON CONFLICT (`, `OVER (`, `ROLLUP (`, `SET (a, b) =`, type names with a modifier).
 */
const NOT_CALLS = new Set([
  ...KEYWORD_CATEGORIES.R.trim().split(' '),
  ...'join ilike like is similar conflict over filter within rollup cube sets set values exists row between'.split(' '),
  ...'varchar character numeric decimal char timestamp time interval bit float varbit nchar'.split(' '),
]);

/** Words after which a name before `(` names a table or query, not a function. */
const NAMED_BEFORE = new Set(['into', 'as', 'with', 'recursive', 'references']);

const isOwn = (name: string) => name.startsWith('patina_');

/**
 * Whether a word before `(` may name a function PostgreSQL does not have: a cheap test before the
 * tree is read. (A table or alias named before its column list passes it too; the tree tells.)
 */
export function mayCallForeign(sig: readonly PgToken[]): boolean {
  for (let i = 0; i + 1 < sig.length; i++) {
    const t = sig[i];
    if (sig[i + 1].text !== '(' || (t.type !== 'word' && t.type !== 'quoted')) continue;
    const name = t.type === 'word' ? t.text.toLowerCase() : t.text.slice(1, -1).replace(/""/g, '"');
    if (t.type === 'word' && NOT_CALLS.has(name)) continue;
    // a table or query named before its column list: INSERT INTO t (...), AS x (...), WITH c (...)
    const before = sig[i - 1];
    if (before?.type === 'word' && NAMED_BEFORE.has(before.text.toLowerCase())) continue;
    if (!PG_CATALOG_FUNCTIONS.has(name) && !isOwn(name)) return true;
    // (a call naming a schema other than pg_catalog's and information_schema's: `public.upper(`)
    const schema = before?.text === '.' ? sig[i - 2] : undefined;
    if (schema && !/^"?(pg_catalog|information_schema)"?$/i.test(schema.text)) return true;
  }
  return false;
}

interface Foreign {
  call: string;
  location: number;
  /** The schema the call names when there is no such schema (3F000, not 42883). */
  noSchema?: string;
}

/**
 * Throws PostgreSQL's 42883 for the first call (innermost first, as PostgreSQL transforms) of a
 * function it does not have. `text` is `tokens` joined by single spaces (the tree's offsets are in it).
 */
export function checkForeignFunctions(
  text: string,
  tokens: readonly PgToken[],
  schema: Schema,
  declared: number[],
): void {
  const bad = firstInStatement(text, tokens, schema, (n, t) => foreignCall(n, t, declared));
  if (!bad) return;
  if (bad.found.noSchema !== undefined)
    throw pgErrorAt('3F000', `schema "${bad.found.noSchema}" does not exist`, bad.at);
  const err = pgErrorAt('42883', `function ${bad.found.call} does not exist`, bad.at);
  err.hint = 'No function matches the given name and argument types. You might need to add explicit type casts.';
  throw err;
}

/** The call at `n` when PostgreSQL has no function of its name, as its error names the call. */
function foreignCall(n: Node, typer: Typer, declared: number[]): Foreign | null {
  const f = n.FuncCall;
  if (!f) return null;
  const parts = strings(f.funcname);
  const name = parts[parts.length - 1];
  const schema = parts.length === 2 ? parts[0] : parts.length === 1 ? null : undefined;
  if (schema === undefined) return null; // (a name of three parts: the translation's)
  // a schema that is none is PostgreSQL's 3F000 at the call (SQLite's syntax error at the `(`)
  if (schema !== null && !Object.values(NAMESPACE_NAMES).includes(schema) && schema !== 'pg_toast')
    return { call: '', location: f.location, noSchema: schema };
  // public has no functions (Patina creates none): `public.upper(x)` is 42883 there (it ran as upper)
  const known =
    schema === 'information_schema'
      ? INFORMATION_SCHEMA_FUNCTIONS.has(name)
      : schema === 'public' || schema === 'pg_toast'
        ? false
        : PG_CATALOG_FUNCTIONS.has(name) || (schema === null && isOwn(name));
  if (known) return null;
  const args = (f.args ?? []).map((a: Node) => argumentName(a, typer, declared));
  const shown = parts.join('.'); // (as NameListToString: unquoted)
  return { call: `${shown}(${f.agg_star ? '*' : args.join(', ')})`, location: f.location };
}

/** An argument as PostgreSQL's error lists it: its type's name (`unknown` for a string literal or NULL). */
function argumentName(a: Node, typer: Typer, declared: number[]): string {
  if (a?.NamedArgExpr) return `${a.NamedArgExpr.name} => ${argumentName(a.NamedArgExpr.arg, typer, declared)}`;
  if (a?.A_Const && (a.A_Const.sval !== undefined || a.A_Const.isnull)) return 'unknown';
  if (a?.ParamRef) return TYPE_DISPLAY[declared[a.ParamRef.number - 1] ?? 0] ?? 'unknown';
  return TYPE_DISPLAY[a?.ColumnRef ? declaredColumnType(a, typer) : typer.type(a)] ?? 'unknown';
}
