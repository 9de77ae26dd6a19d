// Calls PostgreSQL cannot resolve because every argument is a string literal, of type unknown there:
// `generate_series('1', '2')`, `date_trunc('day', '2024-01-01')` (42725 `function
// generate_series(unknown, unknown) is not unique`, at the call) and `to_json('a')` (42804 `could not
// determine polymorphic type because input has type unknown`). Patina read the literals as text and
// answered (generate_series of two strings never ended). untyped-params.ts' ambiguousUse finds them,
// as it finds the same calls of untyped parameters; here for a statement as the analysis reads it.
import { PgError } from '../sqlstate';
import type { PgToken } from './lexer';
import { parseTree } from './parse';
import { isPunct } from './tokens';
import { writtenAt } from './type-names';
import { AMBIGUOUS_FUNCTIONS, POLYMORPHIC_FUNCTIONS, ambiguousUse } from './untyped-params';

/** Whether a call of one of those functions opens with a string literal (the cheap test before the tree's). */
export function mayCallUnknown(sig: readonly PgToken[]): boolean {
  for (let i = 0; i + 2 < sig.length; i++) {
    const t = sig[i];
    if (t.type !== 'word' || !isPunct(sig[i + 1], '(')) continue;
    const name = t.text.toLowerCase();
    if (!AMBIGUOUS_FUNCTIONS.has(name) && !POLYMORPHIC_FUNCTIONS.has(name)) continue;
    // (extract(year FROM '...'): its field is a string constant in the tree)
    if (sig[i + 2].type === 'string' || (name === 'extract' && sig[i + 4]?.type === 'string')) return true;
  }
  return false;
}

/** Throws PostgreSQL's error for the first call of `text` (the tokens joined) of unknown arguments only. */
export function checkUnknownCalls(text: string, tokens: readonly PgToken[]): void {
  let tree: unknown;
  try {
    tree = parseTree(text);
  } catch {
    return;
  }
  const found = ambiguousUse(tree, () => false);
  if (!found) return;
  const err = new PgError('user', found.message, found.code);
  if (found.position !== undefined)
    err.position = writtenAt(Buffer.from(text).subarray(0, found.position).toString().length, tokens);
  if (found.hint !== undefined) err.hint = found.hint;
  throw err;
}
