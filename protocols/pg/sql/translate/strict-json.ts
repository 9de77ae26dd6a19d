// to_json and to_jsonb are strict in PostgreSQL: of NULL they are SQL NULL, where SQLite's json_quote
// answers the JSON text null. The words pass renames them __pg_to_json; this one, after it, writes
// `(CASE WHEN (x) IS NULL THEN NULL ELSE json_quote(x) END)`, which keeps json_quote's JSON subtype
// (a json_build_object of it embeds the value, not its text). The argument is written twice, so a
// volatile one (random(), nextval) is evaluated twice.
import { type Tok, closer, isPunct, isWord } from '../tokens';

export const STRICT_TO_JSON = '__pg_to_json';

const punct = (text: string): Tok => ({ type: 'punct', text });
const word = (text: string): Tok => ({ type: 'word', text });

export function rewriteStrictToJson(toks: Tok[]): Tok[] {
  if (!toks.some((t) => isWord(t, STRICT_TO_JSON.toUpperCase()))) return toks;
  let out = toks;
  // last first: an inner call is rewritten before the outer one copies it
  for (let i = out.length - 1; i >= 0; i--) {
    if (!isWord(out[i], STRICT_TO_JSON.toUpperCase()) || !isPunct(out[i + 1], '(')) continue;
    const c = closer(out, i + 1);
    if (c < 0) continue;
    const arg = out.slice(i + 2, c);
    const rewritten: Tok[] = [
      punct('('),
      word('CASE'),
      word('WHEN'),
      punct('('),
      ...arg,
      punct(')'),
      word('IS'),
      word('NULL'),
      word('THEN'),
      word('NULL'),
      word('ELSE'),
      word('json_quote'),
      punct('('),
      ...arg,
      punct(')'),
      word('END'),
      punct(')'),
    ];
    out = [...out.slice(0, i), ...rewritten, ...out.slice(c + 1)];
  }
  return out;
}
