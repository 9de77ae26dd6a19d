// The JSON of an anonymous row, `row_to_json(row(b, id > 1))`, `to_json(row(...))`, `to_jsonb((a,
// b))`: PostgreSQL names its fields f1, f2, ... (`{"f1":true,"f2":false}`); SQLite has no row values
// as arguments (it was 0A000). On the statement's own tokens, before the JSON builders' passes,
// such a call becomes the builder of those keys, `json_build_object('f1', b, 'f2', id > 1)` (jsonb's
// for to_jsonb), which those passes write for SQLite with PostgreSQL's values (booleans, numbers,
// nested JSON). A field that spreads a row (`row(t.*)`) or a call with row_to_json's second argument
// is left as it was.
import type { PgToken } from '../lexer';
import { closer, isPunct, isWord, topLevelItems } from '../tokens';

const CALLS = new Map([
  ['ROW_TO_JSON', 'json_build_object'],
  ['TO_JSON', 'json_build_object'],
  ['TO_JSONB', 'jsonb_build_object'],
]);

/** `row_to_json(row(a, b))` and the like → `json_build_object('f1', a, 'f2', b)`. */
export function rewriteAnonymousRows(toks: PgToken[]): PgToken[] {
  if (!toks.some((t) => t.type === 'word' && CALLS.has(t.text.toUpperCase()))) return toks;
  const out: PgToken[] = [];
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    const builder = t.type === 'word' ? CALLS.get(t.text.toUpperCase()) : undefined;
    const open = i + 1;
    // row(...) or a parenthesised list of two or more, as the call's only argument
    const row = isWord(toks[open + 1], 'ROW') ? open + 2 : open + 1;
    const close = isPunct(toks[open], '(') ? closer(toks, open) : -1;
    const rowClose = isPunct(toks[row], '(') ? closer(toks, row) : -1;
    if (
      !builder ||
      (isPunct(toks[i - 1], '.') && !isWord(toks[i - 2], 'PG_CATALOG')) ||
      close < 0 ||
      rowClose !== close - 1
    ) {
      out.push(t);
      continue;
    }
    const fields = topLevelItems(toks, row + 1, rowClose);
    const spread = fields.some(([a, b]) => b === a || toks[b - 1].text === '*');
    if (spread || (row === open + 1 && fields.length < 2)) {
      out.push(t);
      continue;
    }
    // (the analysis's mark of the values' types, on the call's first token: sql/json-builders.ts)
    const qualified = isPunct(toks[i - 1], '.');
    if (qualified) out.splice(out.length - 2, 2);
    out.push({ ...(qualified ? toks[i - 2] : t), type: 'word', text: builder }, { type: 'punct', text: '(' });
    fields.forEach(([a, b], k) => {
      if (k > 0) out.push({ type: 'punct', text: ',' });
      out.push({ type: 'string', text: `'f${k + 1}'` }, { type: 'punct', text: ',' }, ...toks.slice(a, b));
    });
    out.push({ type: 'punct', text: ')' });
    i = close;
  }
  return out;
}
