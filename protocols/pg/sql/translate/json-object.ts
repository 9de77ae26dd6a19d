// json_object(text[]) and json_object(keys text[], values text[]), and jsonb_object: PostgreSQL's
// functions of arrays, called by Patina's names (src/engine/pg-json-functions.ts). SQLite's
// json_object of key and value arguments took the two arrays for one key and its value and refused
// one (42000). First, on the statement's own tokens: the passes after it write SQLite's json_object
// for the JSON builders (json_build_object, a row's JSON), which must keep that name.
import type { PgToken } from '../lexer';
import { isPunct, isWord } from '../tokens';

/** The user's json_object( and jsonb_object( (bare or pg_catalog's) renamed __pg_json_object( and __pg_jsonb_object(. */
export function rewriteJsonObjectCalls(toks: PgToken[]): PgToken[] {
  if (!toks.some((t) => isWord(t, 'JSON_OBJECT') || isWord(t, 'JSONB_OBJECT'))) return toks;
  return toks.map((t, i) => {
    if (!(isWord(t, 'JSON_OBJECT') || isWord(t, 'JSONB_OBJECT')) || !isPunct(toks[i + 1], '(')) return t;
    if (isPunct(toks[i - 1], '.') && !isWord(toks[i - 2], 'PG_CATALOG')) return t;
    return { ...t, text: `__pg_${t.text.toLowerCase()}` };
  });
}
