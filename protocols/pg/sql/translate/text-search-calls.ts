// A call the analysis marked with the function that computes it for its argument's type
// (`call:__pg_tsvector_length` on length of a tsvector, sql/typed-operators.ts): that function's name.
import type { PgToken } from '../lexer';
import { isPunct } from '../tokens';

export function rewriteMarkedCalls(toks: PgToken[]): PgToken[] {
  return toks.map((t, i) =>
    'arith' in t && typeof t.arith === 'string' && t.arith.startsWith('call:') && isPunct(toks[i + 1], '(')
      ? { ...t, text: t.arith.slice(5), arith: undefined }
      : t,
  );
}
