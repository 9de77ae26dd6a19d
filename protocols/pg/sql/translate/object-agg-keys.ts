// json_object_agg(k, v) and jsonb_object_agg(k, v) of a row whose key is NULL: PostgreSQL's 22023
// `field name must not be null`; SQLite's json_group_object left the pair out. The key becomes
// coalesce(k, __pg_raise(...)), which reads k once and raises only for a NULL one. (The DISTINCT
// form's aggregate checks its keys itself: translate/distinct-object-agg.ts.)
import { type Tok, closer, isPunct, isWord, topLevelItems } from '../tokens';

const word = (text: string): Tok => ({ type: 'word', text });
const punct = (text: string): Tok => ({ type: 'punct', text });

/** Over json_group_object (both aggregates' SQLite name), after the JSON passes. */
export function rewriteObjectAggKeys(toks: Tok[]): Tok[] {
  if (!toks.some((t) => isWord(t, 'JSON_GROUP_OBJECT'))) return toks;
  const out = [...toks];
  for (let i = out.length - 3; i >= 0; i--) {
    if (!isWord(out[i], 'JSON_GROUP_OBJECT') || !isPunct(out[i + 1], '(') || isWord(out[i + 2], 'DISTINCT')) continue;
    const close = closer(out, i + 1);
    const items = close < 0 ? [] : topLevelItems(out, i + 2, close);
    if (items.length !== 2) continue;
    const [from, to] = items[0];
    out.splice(
      from,
      to - from,
      word('coalesce'),
      punct('('),
      ...out.slice(from, to),
      punct(','),
      word('__pg_raise'),
      punct('('),
      { type: 'string', text: "'22023'" },
      punct(','),
      { type: 'string', text: "'field name must not be null'" },
      punct(')'),
      punct(')'),
    );
  }
  return out;
}
