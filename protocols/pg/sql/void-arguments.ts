// Parameters declared `void` as a function's arguments are not arguments, as in PostgreSQL (which
// drops such Params from a call before it looks the function up, for this one client): pgjdbc runs
// a CallableStatement `{? = call upper(?)}` as `select * from upper($1,$2) as result`, binding the
// OUT parameter $1 as void. The call then has the arguments the function takes.
import type { PgToken } from './lexer';

const VOID = 2278;

/** `tokens` without the void-typed parameters that are arguments of a call (with one comma each); the same array when there are none. */
export function dropVoidArguments(tokens: PgToken[], declaredTypes: number[]): PgToken[] {
  if (!declaredTypes.includes(VOID)) return tokens;
  const isVoid = (t: PgToken) => t.type === 'param' && declaredTypes[Number(t.text.slice(1)) - 1] === VOID;
  // indices of significant tokens, to look past spaces and comments
  const sig: number[] = [];
  tokens.forEach((t, i) => t.type !== 'space' && t.type !== 'comment' && sig.push(i));
  const drop = new Set<number>();
  for (let k = 0; k < sig.length; k++) {
    const t = tokens[sig[k]];
    if (!isVoid(t)) continue;
    const before = tokens[sig[k - 1]]?.text;
    const after = tokens[sig[k + 1]]?.text;
    // an argument: after `(` of a call (a word before it) or a comma, before `,` or `)`
    const opens = before === '(' && tokens[sig[k - 2]]?.type === 'word';
    if (!(opens || before === ',') || (after !== ',' && after !== ')')) continue;
    drop.add(sig[k]);
    if (after === ',') drop.add(sig[k + 1]);
    else if (before === ',') drop.add(sig[k - 1]);
  }
  return drop.size === 0 ? tokens : tokens.filter((_, i) => !drop.has(i));
}
