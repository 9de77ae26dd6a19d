// `json_to_recordset($1) AS x(id int, name text)`, `jsonb_to_record(doc) AS r(a int)`: a JSON array
// of objects (or one object) as rows of the columns the list defines, each the object's member of
// that name cast to its type (PostgreSQL's populate_record; a member the object lacks is NULL). The
// bulk insert node-postgres users write (`INSERT INTO t SELECT * FROM json_to_recordset($1) AS
// x(...)`) was SQLite's syntax error at the list. The call becomes a subquery over SQLite's
// json_each, `(SELECT CAST(json_extract(value, '$."id"') AS int) AS id, ... FROM json_each($1)) x`,
// written here with PostgreSQL's casts for the later passes to translate. Its argument must not
// read a column of another FROM item (a subquery cannot see one; LATERAL stays a syntax error).
import { quoteIdentifier, quoteLiteral } from '../../../../src/engine/sql-text';
import { type Tok, closer, identText, isOp, isPunct, isWord, readType, topLevelItems } from '../tokens';

const RECORD_FUNCTIONS: Record<string, boolean> = {
  json_to_recordset: true,
  jsonb_to_recordset: true,
  json_to_record: false,
  jsonb_to_record: false,
};
/** Types whose member keeps its JSON text (an object, an array, a string with its quotes). */
const JSON_TYPES = new Set(['json', 'jsonb']);

export function rewriteJsonRecords(toks: Tok[]): Tok[] {
  const isCall = (t: Tok, i: number) =>
    t.type === 'word' && Object.hasOwn(RECORD_FUNCTIONS, t.text.toLowerCase()) && isPunct(toks[i + 1], '(');
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
    let j = close + 1;
    if (isWord(toks[j], 'AS')) j++;
    const alias = toks[j];
    const listEnd =
      alias && (alias.type === 'word' || alias.type === 'quoted') && isPunct(toks[j + 1], '(')
        ? closer(toks, j + 1)
        : -1;
    const arg = toks.slice(i + 2, close);
    const columns = listEnd < 0 ? null : columnDefinitions(toks, j + 2, listEnd);
    if (!columns || !standsAlone(arg)) {
      out.push(t);
      continue;
    }
    const set = RECORD_FUNCTIONS[t.text.toLowerCase()];
    const w = (text: string): Tok => ({ type: 'word', text });
    const pu = (text: string): Tok => ({ type: 'punct', text });
    out.push(pu('('), w('SELECT'));
    columns.forEach((c, k) => {
      const path = quoteLiteral(`$."${c.name.replace(/["\\]/g, (x) => `\\${x}`)}"`);
      const member = JSON_TYPES.has(c.type) ? `(value -> ${path})` : `json_extract(value, ${path})`;
      if (k > 0) out.push(pu(','));
      out.push({ type: 'group', text: member }, { type: 'op', text: '::' }, ...c.typeTokens);
      out.push(w('AS'), { type: 'quoted', text: quoteIdentifier(c.name) });
    });
    out.push(w('FROM'));
    // (each element of the array; one object is a row of its own)
    if (set) out.push({ type: 'group', text: 'json_each' }, pu('('), ...arg, pu(')'));
    else out.push(pu('('), w('SELECT'), ...arg, w('AS'), w('value'), pu(')'));
    out.push(pu(')'), alias);
    i = listEnd;
  }
  return out;
}

/** The column definitions `a int, b text[]` of toks[from, to): names and types; null when one is not that. */
function columnDefinitions(
  toks: Tok[],
  from: number,
  to: number,
): { name: string; type: string; typeTokens: Tok[] }[] | null {
  const defs: { name: string; type: string; typeTokens: Tok[] }[] = [];
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
