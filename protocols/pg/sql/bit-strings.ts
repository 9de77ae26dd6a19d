// Bit-string constants (B'101', X'1F'): PostgreSQL's values of type bit, which Patina has none of
// (a cast to bit or varbit is refused by name in translate/casts.ts). The lexer keeps them as written
// so that PostgreSQL's parser reads them as it does; here they are refused by name. They were read
// as a type named b or x (42704 `type "b" does not exist`), and SQLite would read X'1F' as a blob.
import { pgError } from '../sqlstate';
import { type PgToken, bitStringToken } from './lexer';

/**
 * PostgreSQL's 22P02 for a digit its bit input refuses, else a 0A000 naming the constant; null
 * when the statement has none.
 */
export function bitStringRefusal(sig: readonly PgToken[]): Error | null {
  const t = sig.find(bitStringToken);
  if (!t) return null;
  const hex = /^[xX]/.test(t.text);
  const digits = t.text.slice(2, -1);
  const bad = [...digits].find((d) => !(hex ? /[0-9a-fA-F]/ : /[01]/).test(d));
  if (bad !== undefined) return pgError('22P02', `"${bad}" is not a valid ${hex ? 'hexadecimal' : 'binary'} digit`);
  return pgError(
    '0A000',
    `bit-string constants (${t.text}) are not supported: Patina has no bit or bit varying values (a byte string is written '\\x1f'::bytea)`,
  );
}
