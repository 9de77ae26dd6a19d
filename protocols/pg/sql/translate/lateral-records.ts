// `FROM kv, jsonb_to_recordset(kv.doc) AS r(a int, b text)` (and json_to_recordset, the _record
// forms, after a comma, JOIN or LATERAL): a call whose argument reads a FROM item before it, which
// the subquery json-records.ts makes of a call cannot see (SQLite's syntax error at the list). Such a
// call becomes a LATERAL subquery of the same rows,
//   LATERAL (SELECT json_extract(value, '$."a"')::int AS "a", ... FROM "json_each"(kv.doc)) AS r
// (one object: `FROM (SELECT kv.doc AS value)`), which lateral-json.ts then reads through SQLite's
// json_each as any LATERAL subquery; a member is cast to its listed type and a json or jsonb one
// that is JSON null is NULL, as json-records.ts writes them. Runs on PostgreSQL's tokens before the
// LATERAL passes. A call whose argument reads no column is left to json-records.ts.
import { quoteIdentifier, quoteLiteral } from '../../../../src/engine/sql-text';
import type { PgToken } from '../lexer';
import { NOT_FROM_ALIAS, closer, identText, isPunct, isWord, readType, topLevelItems } from '../tokens';

const RECORD_FUNCTIONS: Record<string, boolean> = {
  json_to_recordset: true,
  jsonb_to_recordset: true,
  json_to_record: false,
  jsonb_to_record: false,
};

const word = (text: string): PgToken => ({ type: 'word', text });
const punct = (text: string): PgToken => ({ type: 'punct', text });

export function rewriteLateralRecords(toks: PgToken[]): PgToken[] {
  if (!toks.some((t) => t.type === 'word' && Object.hasOwn(RECORD_FUNCTIONS, t.text.toLowerCase()))) return toks;
  const out: PgToken[] = [];
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    const fn = t.type === 'word' ? t.text.toLowerCase() : '';
    const lateral = isWord(toks[i - 1], 'LATERAL');
    const before = toks[lateral ? i - 2 : i - 1];
    const afterItem = isWord(before, 'JOIN') || isPunct(before, ',') || (lateral && isWord(before, 'FROM'));
    const close =
      afterItem && Object.hasOwn(RECORD_FUNCTIONS, fn) && isPunct(toks[i + 1], '(') ? closer(toks, i + 1) : -1;
    const arg = close < 0 ? [] : toks.slice(i + 2, close);
    // (an argument of no column, a parameter or a literal: json-records.ts)
    const readsColumn = arg.some((a, k) => (a.type === 'word' || a.type === 'quoted') && isPunct(arg[k + 1], '.'));
    let j = close + 1;
    if (isWord(toks[j], 'AS')) j++;
    const alias = toks[j];
    const named =
      alias !== undefined &&
      (alias.type === 'quoted' || (alias.type === 'word' && !NOT_FROM_ALIAS.has(alias.text.toUpperCase())));
    const listEnd = close > 0 && readsColumn && named && isPunct(toks[j + 1], '(') ? closer(toks, j + 1) : -1;
    const columns = listEnd < 0 ? null : definitions(toks, j + 2, listEnd);
    if (!columns) {
      out.push(t);
      continue;
    }
    if (!lateral) out.push(word('LATERAL'));
    out.push(punct('('), word('SELECT'));
    columns.forEach((c, k) => {
      const path: PgToken = { type: 'string', text: quoteLiteral(`$."${c.name.replace(/["\\]/g, (x) => `\\${x}`)}"`) };
      if (k > 0) out.push(punct(','));
      // (a member that is JSON null is SQL NULL in a json or jsonb column too, as populate_record makes it)
      // (SQLite's `->`, the member's JSON text, written as a group the later passes leave as it is)
      if (c.json) out.push({ type: 'group', text: `nullif(value -> ${path.text}, 'null')` } as unknown as PgToken);
      else out.push(word('json_extract'), punct('('), word('value'), punct(','), path, punct(')'));
      out.push({ type: 'op', text: '::' }, ...c.type, word('AS'), {
        type: 'quoted',
        text: quoteIdentifier(c.name),
      });
    });
    out.push(word('FROM'));
    if (RECORD_FUNCTIONS[fn]) out.push({ type: 'quoted', text: '"json_each"' }, punct('('), ...arg, punct(')'));
    else out.push(punct('('), word('SELECT'), ...arg, word('AS'), word('value'), punct(')'));
    out.push(word('AS'), word('__pg_rec'), punct(')'), word('AS'), alias);
    i = listEnd;
  }
  return out;
}

/** The column definitions `a int, b jsonb` of toks[from, to); null when one is not that. */
function definitions(
  toks: PgToken[],
  from: number,
  to: number,
): { name: string; type: PgToken[]; json: boolean }[] | null {
  const defs: { name: string; type: PgToken[]; json: boolean }[] = [];
  for (const [a, b] of topLevelItems(toks, from, to)) {
    const name = toks[a];
    if (b - a < 2 || !name || (name.type !== 'word' && name.type !== 'quoted')) return null;
    const type = readType(toks, a + 1);
    if (type.end !== b) return null;
    defs.push({ name: identText(name), type: toks.slice(a + 1, b), json: /^jsonb?$/i.test(type.name) });
  }
  return defs;
}
