// Row comparisons with timetz fields (`(a, tz) < (1, '10:00+02'::timetz)`, `ROW(a, tz) = ROW(...)`):
// SQLite compares row values field by field as PostgreSQL does, but a timetz field is its text there,
// where PostgreSQL's timetz_cmp goes by the instant in UTC, then the offset. The analysis marks the
// comparison 'row-ord:' and each field's kind ('timetz' or empty, comma-separated); the translation
// (translate/typed-arithmetic.ts) puts each marked field of both rows in its sort key, as a timetz
// compared alone is ('arr-ord:timetz'); a row `IN` a list of rows likewise ('arr-in:row:...').
import type { Typer } from './expression-types';
import { type Tok, closer, isPunct, isWord, topLevelItems } from './tokens';

/** time with time zone's OID (types/timetz.ts). */
const TIMETZ = 1266;

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's JSON tree
type Node = any;

/** 'row-ord:k1,k2,...' for a comparison of two rows of one length with a timetz field pair; else null. */
export function rowKeyMark(e: Node, typer: Typer): string | null {
  const [l, r]: (Node[] | undefined)[] = [e.lexpr?.RowExpr?.args, e.rexpr?.RowExpr?.args];
  if (!l || !r || l.length !== r.length) return null;
  const kinds = l.map((x, i) => (typer.type(x) === TIMETZ || typer.type(r[i]) === TIMETZ ? 'timetz' : ''));
  return kinds.some((k) => k) ? `row-ord:${kinds.join(',')}` : null;
}

/** 'arr-in:row:k1,k2,...' for a row `IN` a list of rows of its length with a timetz field; else null. */
export function rowInMark(e: Node, typer: Typer): string | null {
  const l: Node[] | undefined = e.lexpr?.RowExpr?.args;
  const rows: Node[][] | undefined = (e.rexpr?.List?.items ?? e.rexpr)?.map?.((x: Node) => x?.RowExpr?.args);
  if (!l || !rows?.length || rows.some((r) => r?.length !== l.length)) return null;
  const kinds = l.map((x, i) => ([x, ...rows.map((r) => r[i])].some((y) => typer.type(y) === TIMETZ) ? 'timetz' : ''));
  return kinds.some((k) => k) ? `arr-in:row:${kinds.join(',')}` : null;
}

/**
 * A row operand's text (`(a, b)` or `ROW(a, b)`) with each field whose kind is given in its key
 * (`key(kind, text)`), the others as `text` makes them; null when it is no row of that length.
 */
export function keyedRow(
  toks: Tok[],
  kinds: string[],
  text: (t: Tok[]) => string,
  key: (kind: string, x: string) => string,
): string | null {
  const open = isWord(toks[0], 'ROW') ? 1 : 0;
  if (!isPunct(toks[open], '(') || closer(toks, open) !== toks.length - 1) return null;
  const items = topLevelItems(toks, open + 1, toks.length - 1);
  if (items.length !== kinds.length) return null;
  const fields = items.map(([a, b], i) => (kinds[i] ? key(kinds[i], text(toks.slice(a, b))) : text(toks.slice(a, b))));
  return `${open ? 'ROW' : ''}(${fields.join(', ')})`;
}
