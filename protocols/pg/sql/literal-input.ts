// A string literal cast to a number, boolean, uuid or json type (`'abc'::int`, `int4 'x'`,
// `CAST('x' AS bool)`) is read by the type's input function at analysis, as PostgreSQL's parser
// reads such a constant: a bad one is its error (22P02, 22003) with the position of the literal
// (psql's caret under it). The translation read it when the statement ran, and the error had no
// position. The same functions read it (src/engine/pg-functions.ts, translate/casts.ts), so the
// values and messages are theirs; dates and times, read in the session's styles, are left to them.
import { uuidIn } from '../../../src/engine/pg-array-input';
import { pgBool, pgFloat, pgInteger, pgToNumeric } from '../../../src/engine/pg-functions';
import { PatinaError } from '../../../src/errors';
import { PgError } from '../sqlstate';
import { OID } from '../types/oids';
import type { PgToken } from './lexer';
import { parseTree } from './parse';
import { jsonIn } from './translate/casts';
import { jsonPathText } from '../../../src/engine/pg-jsonpath-functions';
import { typeNameOid } from './type-signatures';
import { writtenAt } from './type-names';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

/** The input functions by the type's OID (a scalar's: an array literal is read by its translation). */
const INPUTS: Record<number, (text: string) => unknown> = {
  [OID.int2]: (t) => pgInteger(t, 'smallint'),
  [OID.int4]: (t) => pgInteger(t, 'integer'),
  [OID.int8]: (t) => pgInteger(t, 'bigint'),
  [OID.float4]: (t) => pgFloat(t, 'real'),
  [OID.float8]: (t) => pgFloat(t, 'double precision'),
  [OID.numeric]: (t) => pgToNumeric(t),
  [OID.bool]: (t) => pgBool(t),
  [OID.uuid]: (t) => uuidIn(t),
  [OID.json]: (t) => jsonIn(t),
  [OID.jsonb]: (t) => jsonIn(t),
  [OID.jsonpath]: (t) => jsonPathText(t),
};

/** Throws the input function's error, at the literal, for the first string literal of the statement its cast's type refuses. */
export function checkLiteralInput(text: string, tokens: readonly PgToken[]): void {
  let tree: Node;
  try {
    tree = parseTree(text);
  } catch {
    return; // (the parser's refusal is reported where the statement is translated)
  }
  const visit = (n: Node): void => {
    if (n === null || typeof n !== 'object') return;
    if (Array.isArray(n)) {
      for (const x of n) visit(x);
      return;
    }
    const c = n.TypeCast;
    const input = c?.arg?.A_Const?.sval !== undefined ? INPUTS[typeNameOid(c.typeName)] : undefined;
    if (input) {
      try {
        input(String(c.arg.A_Const.sval.sval ?? ''));
      } catch (err) {
        // (anything else is left to the statement, which reads the literal again)
        if (!(err instanceof PatinaError) || !err.sqlstate) return;
        const at = writtenAt(Buffer.from(text).subarray(0, c.arg.A_Const.location).toString().length, tokens);
        const placed = new PgError('user', err.message, err.sqlstate, err.detail);
        placed.position = at;
        throw placed;
      }
    }
    for (const k in n) if (k !== 'location') visit(n[k]);
  };
  visit(tree.stmts);
}
