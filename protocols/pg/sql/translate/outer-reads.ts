// The FROM clause of a LATERAL subquery that reads the row beside it (`LATERAL (SELECT * FROM
// unnest(t.a)) x`) does not prepare alone, so the names of its `*` (lateral-json.ts asks SQLite for
// those of `SELECT * FROM <its FROM clause>`) were not known and the subquery was refused (0A000).
// Of a clause that is one call of unnest, generate_series, generate_subscripts or
// regexp_split_to_table, the names do not depend on the values the call reads from outside: those
// reads (`t.a`) become NULL for that probe.
import type { PgToken } from '../lexer';
import { NOT_FROM_ALIAS, closer, isPunct, isWord } from '../tokens';

/** The functions read so: of one value, its type the one the call's own analysis gives (not JSON's, as jsonb_array_elements' would be). */
const ONE_VALUE = new Set(['unnest', 'generate_series', 'generate_subscripts', 'regexp_split_to_table']);
const isName = (t: PgToken | undefined) => t !== undefined && (t.type === 'word' || t.type === 'quoted');

/**
 * `from` (a FROM clause, its FROM word first) of one function's call, `FROM unnest(t.a) [WITH
 * ORDINALITY] [[AS] u[(v)]]`, with each qualified reference `a.c` in its arguments made NULL; null
 * when it is of another form or has none. (A table joined beside the call makes the call a
 * table-valued function, whose column SQLite names otherwise: such a `*` stays refused.)
 */
export function outerReadsNulled(from: PgToken[]): PgToken[] | null {
  const at = isWord(from[1], 'PG_CATALOG') && isPunct(from[2], '.') ? 3 : 1;
  if (!isWord(from[0], 'FROM') || !ONE_VALUE.has(from[at]?.text.toLowerCase()) || !isPunct(from[at + 1], '('))
    return null;
  const close = closer(from, at + 1);
  if (close < 0) return null;
  let end = close + 1;
  if (isWord(from[end], 'WITH') && isWord(from[end + 1], 'ORDINALITY')) end += 2;
  if (isWord(from[end], 'AS')) end++;
  if (isName(from[end]) && !(from[end].type === 'word' && NOT_FROM_ALIAS.has(from[end].text.toUpperCase()))) end++;
  if (isPunct(from[end], '(')) end = closer(from, end) + 1;
  if (end !== from.length) return null;
  const out = [...from];
  for (let k = at + 2; k < close; k++) {
    const t = out[k];
    if (
      isName(t) &&
      isPunct(out[k + 1], '.') &&
      isName(out[k + 2]) &&
      !isPunct(out[k - 1], '.') &&
      !isPunct(out[k + 3], '.') &&
      !isPunct(out[k + 3], '(')
    ) {
      out.splice(k, 3, { type: 'word', text: 'NULL' });
      // (and the next ones, the call's closing parenthesis two tokens nearer)
      return outerReadsNulled(out) ?? out;
    }
  }
  return null;
}
