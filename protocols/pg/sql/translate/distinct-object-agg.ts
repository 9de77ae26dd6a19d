// json_object_agg(DISTINCT k, v [ORDER BY ...]) and jsonb_object_agg(DISTINCT ...): PostgreSQL drops
// repeated (k, v) pairs, sorting them by the ORDER BY's keys and then by the arguments it does not
// name, and adds the pairs in that order. SQLite's DISTINCT takes one argument only (its 42000
// "DISTINCT aggregates must have exactly one argument"), so the pair goes as one JSON array:
// json_group_object(DISTINCT k, v ORDER BY o) → json(__pg_json_object_distinct(DISTINCT
// json_array(k, v) ORDER BY o, k NULLS LAST, v NULLS LAST)) (src/engine/json-object-distinct-agg.ts),
// over the arguments as the JSON passes wrote them (a timestamp's ISO text, a json value's marked
// text). jsonb_object_agg's later pairs replace the earlier of a key when its text is made jsonb.
import { pgError } from '../../sqlstate';
import { type Tok, closer, isPunct, isWord, topLevelItems, topLevelWord } from '../tokens';

const NAMES = new Set(['JSON_OBJECT_AGG', 'JSONB_OBJECT_AGG']);

const same = (a: readonly Tok[], b: readonly Tok[]) =>
  a.length === b.length && a.every((t, k) => t.type === b[k].type && t.text.toLowerCase() === b[k].text.toLowerCase());

/** Without the analysis's sort marks, as the user wrote them. */
const plain = (toks: readonly Tok[]) =>
  toks.map((t) => {
    if (!('sortKey' in t)) return t;
    const { sortKey: _, ...rest } = t;
    return rest as Tok;
  });

/**
 * Before the JSON passes rewrite the arguments: an ORDER BY key that is not one of the arguments is
 * PostgreSQL's 42P10, as for any DISTINCT aggregate.
 */
export function checkDistinctObjectAggs(toks: Tok[]): void {
  for (let i = 0; i + 2 < toks.length; i++) {
    if (toks[i].type !== 'word' || !NAMES.has(toks[i].text.toUpperCase())) continue;
    if (!isPunct(toks[i + 1], '(') || !isWord(toks[i + 2], 'DISTINCT')) continue;
    const close = closer(toks, i + 1);
    const order = close < 0 ? -1 : topLevelWord(toks, i + 3, close, 'ORDER');
    if (order < 0) continue;
    const args = topLevelItems(toks, i + 3, order).map(([a, b]) => plain(toks.slice(a, b)));
    for (const [a, b] of topLevelItems(toks, order + 2, close)) {
      let key = plain(toks.slice(a, b));
      while (key.length > 1 && ['ASC', 'DESC', 'FIRST', 'LAST', 'NULLS'].some((w) => isWord(key[key.length - 1], w)))
        key = key.slice(0, -1);
      if (!args.some((x) => same(x, key)))
        throw pgError('42P10', 'in an aggregate with DISTINCT, ORDER BY expressions must appear in argument list');
    }
  }
}

const word = (text: string): Tok => ({ type: 'word', text });
const punct = (text: string): Tok => ({ type: 'punct', text });

/** After the JSON passes, over json_group_object (both aggregates' SQLite name). */
export function rewriteDistinctObjectAggs(toks: Tok[]): Tok[] {
  if (!toks.some((t) => isWord(t, 'DISTINCT'))) return toks;
  const out = [...toks];
  for (let i = out.length - 3; i >= 0; i--) {
    if (!isWord(out[i], 'JSON_GROUP_OBJECT') || !isPunct(out[i + 1], '(') || !isWord(out[i + 2], 'DISTINCT')) continue;
    const close = closer(out, i + 1);
    if (close < 0) continue;
    const order = topLevelWord(out, i + 3, close, 'ORDER');
    const items = topLevelItems(out, i + 3, order < 0 ? close : order);
    if (items.length !== 2) continue;
    const [k, v] = items.map(([a, b]) => out.slice(a, b));
    const keys = order < 0 ? [] : [...out.slice(order + 2, close), punct(',')];
    out.splice(
      i,
      close - i + 1,
      word('json'),
      punct('('),
      word('__pg_json_object_distinct'),
      punct('('),
      word('DISTINCT'),
      word('json_array'),
      punct('('),
      ...k,
      punct(','),
      ...v,
      punct(')'),
      word('ORDER'),
      word('BY'),
      ...keys,
      ...k,
      word('NULLS'),
      word('LAST'),
      punct(','),
      ...v,
      word('NULLS'),
      word('LAST'),
      punct(')'),
      punct(')'),
    );
  }
  return out;
}
