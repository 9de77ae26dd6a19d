// The SQL/JSON path functions PostgreSQL 15 has (jsonb_path_exists, _match, _query, _query_array,
// _query_first, the operators @? and @@, and jsonpath input), under __pg_ names the PG front end
// calls (protocols/pg/sql/translate/words.ts, jsonb-ops.ts). jsonb_path_query is a table-valued
// function, so it runs in FROM and, through the select-list rewrite, beside other select items.
// All are strict (a NULL argument gives NULL or no rows); `silent` turns the path's own errors
// (jsonpath-eval.ts's JsonPathError) into no items, as there.
import type Database from 'better-sqlite3';
import { hiddenName } from './sql-text';
import { valueTable } from './value-twins';
import { type Json, jsonOperand, printJsonb } from './jsonb';
import { type JsonPath, parseJsonPath, printJsonPath } from './jsonpath-parse';
import { JsonPathError, checkRegexes, runJsonPath } from './jsonpath-eval';

const cache = new Map<string, JsonPath>();

/** A jsonpath argument read (and kept: the same path text is usually run per row). */
export function jsonPathOf(text: unknown): JsonPath {
  const s = Buffer.isBuffer(text) ? text.toString('utf8') : String(text);
  let p = cache.get(s);
  if (!p) {
    p = parseJsonPath(s);
    checkRegexes(p.expr);
    if (cache.size > 500) cache.clear();
    cache.set(s, p);
  }
  return p;
}

/** jsonpath's input and output: the text as PostgreSQL prints the path (42601 for a bad one). */
export function jsonPathText(text: string): string {
  return printJsonPath(jsonPathOf(text));
}

const isTrue = (v: unknown) =>
  v !== undefined && v !== null && v !== 0 && v !== 0n && v !== '0' && v !== 'f' && v !== 'false';

/**
 * The path's items; when silent and the path failed, null for `failed` (jsonb_path_exists and
 * _match), else the items found before (as PostgreSQL's query functions keep them); undefined for a
 * NULL argument.
 */
function items(args: unknown[], failed: 'null' | 'found' = 'null', exists = false): Json[] | null | undefined {
  const [target, path, vars, silent] = args;
  if (target === null || target === undefined || path === null || path === undefined) return undefined;
  if (vars === null || silent === null) return undefined;
  const p = jsonPathOf(path);
  const found: Json[] = [];
  try {
    return runJsonPath(
      p,
      jsonOperand(target),
      vars === undefined ? new Map() : jsonOperand(vars),
      found,
      exists,
      isTrue(silent),
    );
  } catch (err) {
    if (err instanceof JsonPathError && isTrue(silent)) return failed === 'found' ? found : null;
    throw err;
  }
}

/** jsonb_path_query's values as jsonb text (for __pg_srf_zip, which runs it beside other calls in a select list). */
export function jsonPathQueryTexts(args: unknown[]): string[] {
  return (items(args, 'found') ?? []).map(printJsonb);
}

export function installJsonPathFunctions(db: Database.Database): void {
  const fn = (name: string, f: (...args: unknown[]) => unknown) =>
    db.function(name, { deterministic: true, varargs: true }, (...args: unknown[]) => f(...args) as never);
  fn('__pg_jsonpath_in', (t) => (t === null || t === undefined ? null : jsonPathText(String(t))));
  fn('__pg_jsonb_path_exists', (...args) => {
    const vs = items(args, 'null', true);
    return vs === undefined || vs === null ? null : vs.length > 0 ? 1 : 0;
  });
  fn('__pg_jsonb_path_match', (...args) => {
    const vs = items(args);
    if (vs === undefined || vs === null) return null;
    if (vs.length === 1 && (vs[0] === null || typeof vs[0] === 'boolean')) return vs[0] === null ? null : vs[0] ? 1 : 0;
    if (isTrue(args[3])) return null;
    throw Object.assign(new JsonPathError('user', 'single boolean result is expected', undefined, '22038'));
  });
  // the operators: jsonb_path_exists and jsonb_path_match with silent true and no variables
  fn('__pg_jsonb_path_exists_op', (t, p) => {
    const vs = items([t, p, undefined, 1], 'null', true);
    return vs === undefined || vs === null ? null : vs.length > 0 ? 1 : 0;
  });
  fn('__pg_jsonb_path_match_op', (t, p) => {
    const vs = items([t, p, undefined, 1]);
    if (vs === undefined || vs === null) return null;
    return vs.length === 1 && typeof vs[0] === 'boolean' ? (vs[0] ? 1 : 0) : null;
  });
  fn('__pg_jsonb_path_query_array', (...args) => {
    const vs = items(args, 'found');
    return vs === undefined ? null : printJsonb(vs ?? []);
  });
  fn('__pg_jsonb_path_query_first', (...args) => {
    const vs = items(args, 'found');
    return vs === undefined || vs === null || vs.length === 0 ? null : printJsonb(vs[0]);
  });
  valueTable(db, '__pg_jsonb_path_query', {
    columns: ['value'],
    parameters: ['target', 'path', 'vars', 'silent'].map(hiddenName),
    *rows(...args: unknown[]) {
      for (const v of jsonPathQueryTexts(args)) yield [v];
    },
  });
}
