// `json_to_recordset($1) AS x(id int, name text)`, `jsonb_to_record(doc) AS r(a int)`: a JSON array
// of objects (or one object) as rows of the columns the list defines, each the object's member of
// that name cast to its type (PostgreSQL's populate_record; a member the object lacks is NULL). The
// bulk insert node-postgres users write (`INSERT INTO t SELECT * FROM json_to_recordset($1) AS
// x(...)`) was SQLite's syntax error at the list. The call becomes a subquery over SQLite's
// json_each, `(SELECT CAST(json_extract(value, '$."id"') AS int) AS id, ... FROM json_each($1)) x`,
// written here with PostgreSQL's casts for the later passes to translate. Its argument must not
// read a column of another FROM item (a subquery cannot see one; LATERAL stays a syntax error).
// `json_populate_recordset(NULL::t, $1)` (and json_populate_record, the jsonb_ forms) is the same
// with the columns and types of schema table t, named by the alias or the function.
import { quoteIdentifier, quoteLiteral } from '../../../../src/engine/sql-text';
import { lexPg } from '../lexer';
import { NOT_FROM_ALIAS, type Tok, closer, identText, isOp, isPunct, isWord, readType, topLevelItems } from '../tokens';

/** A schema table's columns in order with their declared types; null when no such table. */
export type TableColumns = (table: string) => { name: string; type: string }[] | null;

const POPULATE_FUNCTIONS: Record<string, boolean> = {
  json_populate_recordset: true,
  jsonb_populate_recordset: true,
  json_populate_record: false,
  jsonb_populate_record: false,
};
/** Declared types that are no type of a cast (a serial column holds its integer). */
const SERIALS: Record<string, string> = { smallserial: 'smallint', serial: 'integer', bigserial: 'bigint' };

const RECORD_FUNCTIONS: Record<string, boolean> = {
  json_to_recordset: true,
  jsonb_to_recordset: true,
  json_to_record: false,
  jsonb_to_record: false,
};
/** Types whose member keeps its JSON text (an object, an array, a string with its quotes). */
const JSON_TYPES = new Set(['json', 'jsonb']);

type Definition = { name: string; type: string; typeTokens: Tok[] };

export function rewriteJsonRecords(toks: Tok[], tableColumns: TableColumns = () => null): Tok[] {
  const isCall = (t: Tok, i: number) =>
    t.type === 'word' &&
    (Object.hasOwn(RECORD_FUNCTIONS, t.text.toLowerCase()) ||
      Object.hasOwn(POPULATE_FUNCTIONS, t.text.toLowerCase())) &&
    isPunct(toks[i + 1], '(');
  if (!toks.some(isCall)) return toks;
  const out: Tok[] = [];
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    const before = toks[i - 1];
    const inFrom = isWord(before, 'FROM') || isWord(before, 'JOIN') || isPunct(before, ',');
    const close = inFrom && isCall(t, i) ? closer(toks, i + 1) : -1;
    if (close < 0) {
      out.push(t);
      continue;
    }
    const fn = t.text.toLowerCase();
    const populated = Object.hasOwn(POPULATE_FUNCTIONS, fn) ? populateCall(toks, i + 2, close, tableColumns) : null;
    let j = close + 1;
    if (isWord(toks[j], 'AS')) j++;
    const named =
      toks[j] !== undefined &&
      (toks[j].type === 'quoted' || (toks[j].type === 'word' && !NOT_FROM_ALIAS.has(toks[j].text.toUpperCase())));
    if (populated) {
      // the alias (a bare one, not a keyword that goes on the statement) or the function's name
      if (isPunct(toks[j + 1], '(') || (!named && j > close + 1) || !standsAlone(populated.arg)) {
        out.push(t);
        continue;
      }
      const alias: Tok = named ? toks[j] : { type: 'quoted', text: quoteIdentifier(fn) };
      out.push(...recordRows(populated.columns, populated.arg, POPULATE_FUNCTIONS[fn], alias));
      i = named ? j : close;
      continue;
    }
    const alias = toks[j];
    const listEnd =
      alias && (alias.type === 'word' || alias.type === 'quoted') && isPunct(toks[j + 1], '(')
        ? closer(toks, j + 1)
        : -1;
    const arg = toks.slice(i + 2, close);
    const columns = listEnd < 0 ? null : columnDefinitions(toks, j + 2, listEnd);
    if (!columns || !standsAlone(arg) || !Object.hasOwn(RECORD_FUNCTIONS, fn)) {
      out.push(t);
      continue;
    }
    out.push(...recordRows(columns, arg, RECORD_FUNCTIONS[fn], alias));
    i = listEnd;
  }
  return out;
}

/** `(SELECT <member cast to its type> AS <name>, ... FROM json_each(arg)) alias`: the rows of one call. */
function recordRows(columns: Definition[], arg: Tok[], set: boolean, alias: Tok): Tok[] {
  const out: Tok[] = [];
  const w = (text: string): Tok => ({ type: 'word', text });
  const pu = (text: string): Tok => ({ type: 'punct', text });
  out.push(pu('('), w('SELECT'));
  columns.forEach((c, k) => {
    const path = quoteLiteral(`$."${c.name.replace(/["\\]/g, (x) => `\\${x}`)}"`);
    // (a member that is JSON null is SQL NULL there too, as PostgreSQL's populate_record makes it)
    const member = JSON_TYPES.has(c.type) ? `nullif(value -> ${path}, 'null')` : `json_extract(value, ${path})`;
    if (k > 0) out.push(pu(','));
    out.push({ type: 'group', text: member }, { type: 'op', text: '::' }, ...c.typeTokens);
    out.push(w('AS'), { type: 'quoted', text: quoteIdentifier(c.name) });
  });
  out.push(w('FROM'));
  // (each element of the array; one object is a row of its own)
  if (set) out.push({ type: 'group', text: 'json_each' }, pu('('), ...arg, pu(')'));
  else out.push(pu('('), w('SELECT'), ...arg, w('AS'), w('value'), pu(')'));
  out.push(pu(')'), alias);
  return out;
}

/**
 * `NULL::t, arg` in toks[from, to): schema table t's columns as definitions, and the argument;
 * null when the first argument is no NULL of a schema table's row type (a base record's values
 * stay PostgreSQL's alone).
 */
function populateCall(
  toks: Tok[],
  from: number,
  to: number,
  tableColumns: TableColumns,
): { columns: Definition[]; arg: Tok[] } | null {
  const items = topLevelItems(toks, from, to);
  if (items.length !== 2) return null;
  const [[a, b], [c, d]] = items;
  const name = toks[b - 1];
  if (!isWord(toks[a], 'NULL') || !isOp(toks[a + 1], '::') || !name || (name.type !== 'word' && name.type !== 'quoted'))
    return null;
  // NULL::t or NULL::public.t
  const qualified = b - a === 5 && isPunct(toks[a + 3], '.') && identText(toks[a + 2]).toLowerCase() === 'public';
  if (b - a !== 3 && !qualified) return null;
  const cols = tableColumns(identText(name));
  if (!cols) return null;
  const columns: Definition[] = [];
  for (const col of cols) {
    const declared = SERIALS[col.type.trim().toLowerCase()] ?? col.type;
    const typeTokens: Tok[] = lexPg(declared).filter((x) => x.type !== 'space' && x.type !== 'comment');
    const type = readType(typeTokens, 0);
    if (type.end !== typeTokens.length) return null;
    columns.push({ name: col.name, type: type.name.toLowerCase(), typeTokens });
  }
  return { columns, arg: toks.slice(c, d) };
}

/** The column definitions `a int, b text[]` of toks[from, to): names and types; null when one is not that. */
function columnDefinitions(toks: Tok[], from: number, to: number): Definition[] | null {
  const defs: Definition[] = [];
  for (const [a, b] of topLevelItems(toks, from, to)) {
    const name = toks[a];
    if (b - a < 2 || !name || (name.type !== 'word' && name.type !== 'quoted')) return null;
    const type = readType(toks, a + 1);
    if (type.end !== b) return null;
    defs.push({ name: identText(name), type: type.name.toLowerCase(), typeTokens: toks.slice(a + 1, b) });
  }
  return defs;
}

/** Whether a call's argument reads no column: a parameter, a literal, casts of these. */
function standsAlone(arg: Tok[]): boolean {
  return arg.every(
    (t, k) =>
      t.type === 'param' ||
      t.type === 'string' ||
      t.type === 'number' ||
      isOp(t, '::') ||
      isPunct(t, '[') ||
      isPunct(t, ']') ||
      ((t.type === 'word' || t.type === 'quoted') && isOp(arg[k - 1], '::')),
  );
}
