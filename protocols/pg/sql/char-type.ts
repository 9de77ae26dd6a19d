// PostgreSQL's "char" (OID 18, the quoted name; plain `char` is char(1), bpchar): a one-byte type,
// what the catalog's relkind and attalign columns are. A cast to it keeps a string's first character
// (`'ab'::"char"` is `a`; charin takes the first byte) and makes an integer the character of that
// code (`65::"char"` is `A`, 22003 `"char" out of range` past -128..127; i4tochar). Patina cast it
// as text, typed bpchar (`'ab'::"char"` was `ab`); the translation calls __pg_char
// (src/engine/pg-functions.ts), the analysis types it "char" (type-signatures.ts' typeNameOid).
import { identName, type PgToken } from './lexer';
import { type Tok, isPunct, isWord } from './tokens';

/** The name a cast's type is translated by: '"char"' where the type written at toks[k] is the quoted "char", else `name`. */
export function charTypeName(toks: Tok[], k: number, name: string): string {
  const at = isWord(toks[k], 'PG_CATALOG') && isPunct(toks[k + 1], '.') ? k + 2 : k;
  const t = toks[at];
  return name === 'char' && t?.type === 'quoted' && identName(t as PgToken) === 'char' ? '"char"' : name;
}
