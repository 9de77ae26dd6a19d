// The last step of a translation: a one-value table function the translation joined in itself, in a
// select list's rewrite (`SELECT value, unnest(tags) FROM kv` is `... FROM kv, unnest(tags) AS
// "__pg_srf"`) or per row after a comma or JOIN (`FROM kv, unnest(kv.tags) AS u`, read as `u.value`),
// calls its twin whose column is `__pg_value` (src/engine/value-twins.ts), so that a column `value`
// of the user's tables stays theirs (it was 42702 ambiguous). jsonb_array_elements and its kin keep
// their `value` in FROM, as PostgreSQL names it there; in a select list they are twinned too. A bare
// `value` beside such a call after a comma or JOIN twins it too (`SELECT value FROM kv, unnest(kv.tags)`
// read kv's column; it was 42702), unless the statement spreads a `*`.
import { TWIN_COLUMN, VALUE_TWIN } from '../../../../src/engine/value-twins';
import { lexPg } from '../lexer';

/** The functions named in the SQLite text, and whether PostgreSQL names their FROM column `value`. */
const TWINNED: Record<string, boolean> = {
  unnest: false,
  generate_series: false,
  generate_subscripts: false,
  regexp_split_to_table: false,
  __pg_regexp_matches: false,
  __pg_json_array_elements: true,
  __pg_jsonb_array_elements: true,
  __pg_json_array_elements_text: true,
  __pg_jsonb_array_elements_text: true,
  __pg_json_object_keys: false,
  __pg_jsonb_object_keys: false,
  __pg_jsonb_path_query: false,
};
const SELECT_LIST_ALIAS = '"__pg_srf"';

export function useValueTwins(sql: string): string {
  if (!/\bvalue\b/i.test(sql)) return sql;
  const toks = lexPg(sql);
  const sig: number[] = [];
  toks.forEach((t, i) => {
    if (t.type !== 'space' && t.type !== 'comment') sig.push(i);
  });
  const at = (k: number) => toks[sig[k]];
  const aliases = new Set<string>();
  const calls: number[] = [];
  for (let k = 0; k < sig.length; k++) {
    const t = at(k);
    const name = t.type === 'word' ? t.text.toLowerCase() : '';
    if (!Object.hasOwn(TWINNED, name) || at(k + 1)?.text !== '(' || at(k - 1)?.text === '.') continue;
    let depth = 0;
    let close = -1;
    for (let j = k + 1; j < sig.length; j++) {
      if (at(j).text === '(' && at(j).type === 'punct') depth++;
      else if (at(j).text === ')' && at(j).type === 'punct' && --depth === 0) {
        close = j;
        break;
      }
    }
    if (close < 0) continue;
    let a = close + 1;
    if (at(a)?.type === 'word' && at(a).text.toUpperCase() === 'AS') a++;
    const alias = at(a);
    if (!alias || (alias.type !== 'word' && alias.type !== 'quoted')) continue;
    const before = at(k - 1);
    const joined =
      before?.text === ',' || (before?.type === 'word' && ['JOIN', 'LATERAL'].includes(before.text.toUpperCase()));
    if (alias.text !== SELECT_LIST_ALIAS && (TWINNED[name] || !joined)) continue;
    aliases.add(key(alias.text));
    calls.push(sig[k]);
  }
  if (calls.length === 0) return sql;
  let changed = false;
  // the aliases' `.value` read the twin's column
  for (let k = 2; k < sig.length; k++) {
    const t = at(k);
    if (
      t.type === 'word' &&
      t.text.toLowerCase() === 'value' &&
      at(k - 1).text === '.' &&
      aliases.has(key(at(k - 2).text))
    ) {
      toks[sig[k]] = { type: 'word', text: TWIN_COLUMN };
      changed = true;
    }
  }
  // a bare `value` beside such a call is a table's (`SELECT value FROM kv, unnest(kv.tags)`, PostgreSQL
  // names the call's column after it), unless a `*` would then spread the twin's column by its own name
  if (!changed && bareValue(at, sig.length) && !spreadsStar(at, sig.length)) changed = true;
  if (!changed) return sql;
  for (const i of calls) toks[i] = { type: 'word', text: `${VALUE_TWIN}${toks[i].text.toLowerCase()}` };
  return toks.map((t) => t.text).join('');
}

/** An alias as compared: a quoted one as written, a word without case. */
const key = (text: string) => (text.startsWith('"') ? text : text.toLowerCase());

type At = (k: number) => { type: string; text: string } | undefined;

/** Whether the statement reads a column `value` unqualified (not `x.value`, not a call `value(...)`). */
function bareValue(at: At, n: number): boolean {
  for (let k = 0; k < n; k++) {
    const t = at(k)!;
    const named =
      (t.type === 'word' && t.text.toLowerCase() === 'value') || (t.type === 'quoted' && t.text === '"value"');
    if (named && at(k - 1)?.text !== '.' && at(k + 1)?.text !== '(' && at(k + 1)?.text !== '.') return true;
  }
  return false;
}

/** Whether a select list has a `*` or `x.*`, which would spread a twin's column as `__pg_value`. */
function spreadsStar(at: At, n: number): boolean {
  for (let k = 1; k < n; k++) {
    const t = at(k)!;
    const before = at(k - 1)!;
    if (t.text !== '*') continue;
    if (before.text === '.' || before.text === ',' || ['SELECT', 'DISTINCT', 'ALL'].includes(before.text.toUpperCase()))
      return true;
  }
  return false;
}
