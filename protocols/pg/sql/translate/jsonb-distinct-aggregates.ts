// array_agg(DISTINCT doc), jsonb_agg(DISTINCT doc) and json_agg(DISTINCT doc) of a jsonb value (the
// argument marked 'jb-distinct-agg' by sql/jsonb-keys.ts) → __pg_jsonb_distinct_agg(kind, desc, doc),
// which drops repeats by jsonb's equality and sorts in jsonb's order as PostgreSQL does
// (src/engine/jsonb-distinct-agg.ts); SQLite's DISTINCT went by the stored text, and jsonb_agg's
// elements came out as JSON strings (json_agg's too, of a subquery's jsonb column). json_agg's array
// is written as jsonb_agg's: `[1.50, {"a": 1}]`, each element as its jsonb text. An ORDER BY may name the argument only (PostgreSQL's 42P10).
import { pgError } from '../../sqlstate';
import { type Tok, closer, isPunct, isWord, topLevelWord } from '../tokens';

const COLLECTORS = new Set(['ARRAY_AGG', 'JSONB_AGG', 'JSON_AGG']);

/** What sql/json-layout.ts wraps a json builder's jsonb argument in: its text kept, printed as jsonb prints it. */
const WRAPPERS = new Set(['__pg_json_verbatim', '__pg_jsonb_text']);

const marked = (t: Tok | undefined) => t !== undefined && 'sortKey' in t && t.sortKey === 'jb-distinct-agg';

/** The token without the analysis's sort mark. */
function unmarked(t: Tok): Tok {
  if (!('sortKey' in t)) return t;
  const { sortKey: _, ...rest } = t;
  return rest as Tok;
}

const same = (a: Tok[], b: Tok[]) =>
  a.length === b.length && a.every((t, k) => t.type === b[k].type && t.text.toLowerCase() === b[k].text.toLowerCase());

export function rewriteJsonbDistinctAggregates(toks: Tok[]): Tok[] {
  if (!toks.some(marked)) return toks;
  const out = [...toks];
  for (let i = out.length - 4; i >= 0; i--) {
    const t = out[i];
    if (t.type !== 'word' || !COLLECTORS.has(t.text.toUpperCase()) || !isPunct(out[i + 1], '(')) continue;
    if (!isWord(out[i + 2], 'DISTINCT')) continue;
    // (json_agg's argument as sql/json-layout.ts wrapped it to keep its text: the value itself, whose
    // stored text the aggregate keeps)
    let a = i + 3;
    while (out[a]?.type === 'word' && WRAPPERS.has(out[a].text.toLowerCase()) && isPunct(out[a + 1], '(')) a += 2;
    const wraps = (a - i - 3) / 2;
    if (!marked(out[a])) continue;
    const close = closer(out, i + 1);
    if (close < 0) continue;
    const order = topLevelWord(out, i + 3, close, 'ORDER');
    const end = (order < 0 ? close : order) - wraps;
    if (!out.slice(end, end + wraps).every((w) => isPunct(w, ')'))) continue;
    const x = out.slice(a, end).map(unmarked);
    let desc = false;
    if (order >= 0) {
      let key = out.slice(order + 2, close);
      const last = key[key.length - 1];
      if (isWord(last, 'ASC') || isWord(last, 'DESC')) {
        desc = isWord(last, 'DESC');
        key = key.slice(0, -1);
      }
      if (!same(key.map(unmarked), x))
        throw pgError('42P10', 'in an aggregate with DISTINCT, ORDER BY expressions must appear in argument list');
    }
    const kind = t.text.toUpperCase() === 'ARRAY_AGG' ? 'array' : 'jsonb';
    out.splice(
      i,
      close - i + 1,
      { type: 'word', text: '__pg_jsonb_distinct_agg' },
      { type: 'punct', text: '(' },
      { type: 'string', text: `'${kind}'` },
      { type: 'punct', text: ',' },
      { type: 'number', text: desc ? '1' : '0' },
      { type: 'punct', text: ',' },
      ...x,
      { type: 'punct', text: ')' },
    );
  }
  return out;
}
