// A call the analysis marked with the function that computes it for its argument's type
// (`call:__pg_tsvector_length` on length of a tsvector, sql/typed-operators.ts): that function's name.
import { type PgToken, quoteString } from '../lexer';
import { sessionTextSearchConfig } from '../session-styles';
import { type Tok, closer, isPunct, topLevelItems } from '../tokens';

export function rewriteMarkedCalls(toks: PgToken[]): PgToken[] {
  return toks.map((t, i) =>
    'arith' in t && typeof t.arith === 'string' && t.arith.startsWith('call:') && isPunct(toks[i + 1], '(')
      ? { ...t, text: t.arith.slice(5), arith: undefined }
      : t,
  );
}

/** The calls that take the session's default_text_search_config when given no configuration: their arguments then. */
const DEFAULT_CONFIGURED = new Map([
  ['__pg_to_tsvector', 1],
  ['__pg_to_tsquery', 1],
  ['__pg_plainto_tsquery', 1],
  ['__pg_phraseto_tsquery', 1],
  ['__pg_websearch_to_tsquery', 1],
  ['__pg_json_string_to_tsvector', 1],
  ['__pg_json_to_tsvector', 2],
  ['__pg_jsonb_to_tsvector', 2],
]);

/** `to_tsvector(x)` (after translate/words.ts) with the session's configuration when it is not english: `__pg_to_tsvector('simple', x)`. */
export function rewriteDefaultConfig(toks: Tok[]): Tok[] {
  const config = sessionTextSearchConfig();
  if (config === null) return toks;
  for (let i = toks.length - 2; i >= 0; i--) {
    const t = toks[i];
    // (ts_headline without one: the configured call with the session's first)
    if (t.type === 'word' && t.text === '__pg_ts_headline_d' && isPunct(toks[i + 1], '(')) {
      toks.splice(i, 1, { ...t, text: '__pg_ts_headline' });
      toks.splice(i + 2, 0, { type: 'string', text: quoteString(config) }, { type: 'punct', text: ',' });
      continue;
    }
    if (t.type !== 'word' || !DEFAULT_CONFIGURED.has(t.text) || !isPunct(toks[i + 1], '(')) continue;
    const close = closer(toks, i + 1);
    if (close < 0 || topLevelItems(toks, i + 2, close).length !== DEFAULT_CONFIGURED.get(t.text)) continue;
    toks.splice(i + 2, 0, { type: 'string', text: quoteString(config) }, { type: 'punct', text: ',' });
  }
  return toks;
}
