// A table named with its database (`SELECT * FROM db.public.t`, `INSERT INTO db.public.t ...`):
// PostgreSQL takes the name of the session's own database there and refuses any other's with 0A000
// `cross-database references are not implemented: "other.public.t"`. SQLite has no such name (it was
// its `near ".": syntax error`): the session's database's name is dropped before the analysis.
import { pgError } from '../sqlstate';
import { type PgToken, identName } from './lexer';
import { parseTree } from './parse';
import { isPunct } from './tokens';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

const isName = (t: PgToken | undefined) => t?.type === 'word' || t?.type === 'quoted';

/** Whether the tokens hold a name of three parts (`a.b.c`): a cheap test before the tree's. */
function mayNameDatabase(sig: PgToken[]): boolean {
  return sig.some(
    (t, i) =>
      isName(t) && isPunct(sig[i + 1], '.') && isName(sig[i + 2]) && isPunct(sig[i + 3], '.') && isName(sig[i + 4]),
  );
}

/**
 * The tokens without the database's name (and its dot) before each table named with `database`;
 * PostgreSQL's 0A000 for a table of another database. Tokens that do not parse are returned as
 * they are (the analysis gives the parser's error).
 */
export function dropOwnDatabase(tokens: PgToken[], database: string): PgToken[] {
  if (!mayNameDatabase(tokens.filter((t) => t.type !== 'space' && t.type !== 'comment'))) return tokens;
  let tree: Node;
  try {
    tree = parseTree(tokens.map((t) => t.text).join(' '));
  } catch {
    return tokens;
  }
  const at = new Set<number>();
  const visit = (n: Node): void => {
    if (n === null || typeof n !== 'object') return;
    if (Array.isArray(n)) {
      for (const x of n) visit(x);
      return;
    }
    // (a FROM item's RangeVar, or INSERT's, UPDATE's, DELETE's relation, unwrapped)
    const rv = n.RangeVar ?? (n.relname !== undefined ? n : null);
    if (rv?.catalogname !== undefined) {
      if (rv.catalogname !== database)
        throw pgError(
          '0A000',
          `cross-database references are not implemented: "${rv.catalogname}.${rv.schemaname}.${rv.relname}"`,
        );
      at.add(rv.location);
    }
    for (const k in n) visit(n[k]);
  };
  visit(tree.stmts);
  if (at.size === 0) return tokens;
  const drop = new Set<number>();
  for (let i = 0, offset = 0; i < tokens.length; offset += Buffer.byteLength(tokens[i++].text) + 1) {
    if (!at.has(offset) || !isName(tokens[i]) || identName(tokens[i]) !== database) continue;
    // the name and its dot, with any space between (`db . public . t`)
    let k = i + 1;
    while (tokens[k]?.type === 'space' || tokens[k]?.type === 'comment') k++;
    if (isPunct(tokens[k], '.')) for (let j = i; j <= k; j++) drop.add(j);
  }
  const out = tokens.filter((_, i) => !drop.has(i));
  return out;
}
