// An aggregate over DISTINCT values gets them sorted in PostgreSQL (its executor sorts an aggregate's
// input to find the distinct values), so `array_agg(DISTINCT x)` is `{a,b,NULL}` whatever order the
// rows came in; SQLite keeps the first of each value in the order the rows come. The aggregates
// whose result shows the order get the ORDER BY PostgreSQL implies, by the first argument:
// `array_agg(DISTINCT x ORDER BY x)` (NULLs last, as translate/null-order.ts places them; an array
// of numbers, booleans or text by its elements, as PostgreSQL orders arrays). An aggregate with its
// own ORDER BY keeps it.
import { type Tok, closer, isPunct, isWord, topLevelItems, topLevelWord } from '../tokens';

const ORDER_SHOWN = new Set(['array_agg', 'string_agg', 'json_agg', 'jsonb_agg']);

export function rewriteDistinctAggregates(toks: Tok[]): Tok[] {
  if (!toks.some((t) => isWord(t, 'DISTINCT'))) return toks;
  let out = toks;
  for (let i = 0; i + 2 < out.length; i++) {
    const t = out[i];
    if (t.type !== 'word' || !isPunct(out[i + 1], '(') || !isWord(out[i + 2], 'DISTINCT')) continue;
    if (!ORDER_SHOWN.has(t.text.toLowerCase())) continue;
    const close = closer(out, i + 1);
    if (close < 0 || topLevelWord(out, i + 3, close, 'ORDER') >= 0) continue;
    const [[from, to]] = topLevelItems(out, i + 3, close);
    if (to <= from) continue;
    // (the copy sorts by the value the aggregate reads: the argument's tokens with their marks, not a
    // sort key the analysis placed on them; an array of numbers, booleans or text by its elements,
    // 'arr-distinct:kind' of typed-operators.ts)
    const key = out.slice(from, to).map((k) => {
      if (!('sortKey' in k)) return k;
      const { sortKey, ...rest } = k;
      return (
        sortKey?.startsWith('arr-distinct:') ? { ...rest, sortKey: `arr-order:${sortKey.slice(13)}` } : rest
      ) as Tok;
    });
    out = [
      ...out.slice(0, close),
      { type: 'word', text: 'ORDER' },
      { type: 'word', text: 'BY' },
      ...key,
      ...out.slice(close),
    ];
  }
  return out;
}
