// Named arguments (`make_interval(days => 2, hours => 3)`), as positions, for the functions whose
// parameter names PostgreSQL documents: SQLite's functions take positions only (`=>` was a syntax
// error). A name the function has not is 42883, as PostgreSQL finds no such function.
import { pgError } from '../../sqlstate';
import { type Tok, closer, isPunct, topLevelItems } from '../tokens';
import { lookup } from '../../../../src/lookup';

/** The SQL/JSON path functions' parameters (`jsonb_path_exists(doc, '$.a', silent => true)`): vars defaults to {}, silent to false. */
const JSONPATH = { names: ['target', 'path', 'vars', 'silent'], missing: ['', '', "'{}'", '0'] };

/** Parameter names in order, and what a left-out one is (one for all, or one per parameter). */
const PARAMS: Record<string, { names: string[]; missing: string | string[] }> = lookup({
  make_interval: { names: ['years', 'months', 'weeks', 'days', 'hours', 'mins', 'secs'], missing: '0' },
  jsonb_path_exists: JSONPATH,
  jsonb_path_match: JSONPATH,
  jsonb_path_query: JSONPATH,
  jsonb_path_query_array: JSONPATH,
  jsonb_path_query_first: JSONPATH,
});

export function rewriteNamedArguments(toks: Tok[]): Tok[] {
  if (!toks.some((t) => t.type === 'op' && t.text === '=>')) return toks;
  for (let i = toks.length - 2; i >= 0; i--) {
    const fn = toks[i].type === 'word' ? PARAMS[toks[i].text.toLowerCase()] : undefined;
    if (!fn || !isPunct(toks[i + 1], '(')) continue;
    const close = closer(toks, i + 1);
    if (close < 0) continue;
    const items = topLevelItems(toks, i + 2, close).filter(([a, b]) => b > a);
    if (!items.some(([a]) => toks[a + 1]?.type === 'op' && toks[a + 1].text === '=>')) continue;
    const args: Tok[][] = [];
    items.forEach(([a, b], k) => {
      const named = toks[a + 1]?.type === 'op' && toks[a + 1].text === '=>';
      const at = named ? fn.names.indexOf(toks[a].text.toLowerCase()) : k;
      if (at < 0)
        throw pgError(
          '42883',
          `function ${toks[i].text.toLowerCase()}(${toks[a].text} => ...) does not exist: its parameters are ${fn.names.join(', ')}`,
        );
      args[at] = toks.slice(named ? a + 2 : a, b);
    });
    const body: Tok[] = [];
    for (let k = 0; k < args.length; k++) {
      if (k > 0) body.push({ type: 'punct', text: ',' });
      const missing = typeof fn.missing === 'string' ? fn.missing : fn.missing[k];
      body.push(...(args[k] ?? [{ type: missing.startsWith("'") ? 'string' : 'number', text: missing } as Tok]));
    }
    toks = [...toks.slice(0, i + 2), ...body, ...toks.slice(close)];
  }
  return toks;
}
