// bytea values where SQLite's own functions would lose them, marked by the analysis from their
// types: string_agg of bytea (group_concat made text of the bytes, cut at a NUL: '\x00ff' joined
// was empty) and a bytea or bytea[] in a json builder (SQLite's JSON functions refuse a blob,
// 'JSON cannot hold BLOB values', and would put a bytea[]'s array text in as a string).
// translate/words.ts renames the marked string_agg; json-builders.ts marks a builder's bytea values,
// which translate/json-values.ts makes JSON as PostgreSQL's output functions print them.
import { OID } from '../types/oids';
import type { Typer } from './expression-types';
import { BUILDER_VALUES } from './json-builders';
import type { PgToken } from './lexer';
import { isPunct } from './tokens';
import { FIXED, strings } from './type-signatures';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

/** The mark of string_agg of bytea, which joins bytes (translate/words.ts renames it). */
export const BYTEA_AGG = 'bytea-agg';

/** The mark of string_agg of bytea (see the top of this file), else undefined; a builder's bytea values json-builders.ts marks. */
export function byteaCallMark(f: Node, typer: Typer): string | undefined {
  const name = strings(f.funcname).pop()?.toLowerCase() ?? '';
  const args: Node[] = f.args ?? [];
  return name === 'string_agg' && args.length === 2 && typer.type(args[0]) === OID.bytea ? BYTEA_AGG : undefined;
}

/**
 * Whether a statement may hold such a call, or `x = ANY (bs)` of a bytea array (typed-operators.ts
 * marks it): string_agg, a builder, ANY or ALL where a bytea may be (a word bytea, a bytea column,
 * a function that returns one). A cheap test before parsing.
 */
export function mayHoldByteaCalls(sig: PgToken[], columnType: (column: string) => string | null): boolean {
  let call = false;
  let bytea = false;
  for (let i = 0; i < sig.length; i++) {
    const t = sig[i];
    if (t.type !== 'word') continue;
    const w = t.text.toLowerCase();
    call ||=
      (w === 'string_agg' || w === 'any' || w === 'all' || BUILDER_VALUES[w] !== undefined) && isPunct(sig[i + 1], '(');
    bytea ||= w === 'bytea' || columnType(w) === 'bytea' || FIXED[w] === OID.bytea;
    if (call && bytea) return true;
  }
  return false;
}
