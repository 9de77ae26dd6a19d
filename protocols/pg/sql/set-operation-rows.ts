// A set operation's column of whole rows (`SELECT t FROM t UNION SELECT ROW(1, 2)`): PostgreSQL
// resolves its branches to one type as any other column's, and a table's row type matches only
// itself, an untyped literal or NULL: beside a record (`ROW(...)`, `(1, 2)`, a subquery's row) or a
// value of another type it is 42804 `UNION types t and record cannot be matched`, beside another
// table's row 42846 `UNION could not convert type u to t`, each at the right branch's value. SQLite
// ran them, each row as its text (operand-types.ts' setColumn asks here).
import { pgError } from '../sqlstate';
import { OID } from '../types/oids';
import type { Typer } from './expression-types';
import type { PgToken } from './lexer';
import { isPunct, isWord } from './tokens';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

/** The row type a branch's value is, by its name (a table's, or `record`), or undefined for none. */
export function rowTypeOf(v: Node, typer: Typer): string | undefined {
  if (v?.RowExpr) return 'record';
  if (!v?.ColumnRef && !v?.SubLink) return undefined;
  const table = typer.wholeRowTable(v);
  if (table) return table;
  return v.ColumnRef && typer.type(v) === OID.record ? 'record' : undefined;
}

/**
 * PostgreSQL's error for two branches' values of which one is a row (`row`: its type's name; `type`
 * the other's OID where it is no row, `typeName` its name), placed at `at`; undefined where they match.
 */
export function rowsMismatch(
  context: string,
  l: { row?: string; typeName: string },
  r: { row?: string; typeName: string },
  at: number,
): Error | undefined {
  const [ln, rn] = [l.row ?? l.typeName, r.row ?? r.typeName];
  if (ln === rn) return undefined;
  const err =
    l.row && r.row && l.row !== 'record' && r.row !== 'record'
      ? pgError('42846', `${context} could not convert type ${rn} to ${ln}`)
      : pgError('42804', `${context} types ${ln} and ${rn} cannot be matched`);
  (err as { location?: number }).location = at;
  return err;
}

/** What may stand before and after a select item. */
const ITEM_START = /^(SELECT|DISTINCT|ALL)$/i;
const ITEM_END = /^(FROM|UNION|INTERSECT|EXCEPT|ORDER|LIMIT|OFFSET|WHERE)$/i;

/**
 * The cheap test of the tokens (typed-operators-hint.ts): a set operation with a select item that is
 * a name of no column (`SELECT t FROM t UNION ...`: a FROM item's row, or an alias), so the tree is
 * asked what the item is.
 */
export function mayHoldSetOperationRow(sig: PgToken[], columnType: (column: string) => string | null): boolean {
  if (!sig.some((t) => isWord(t, 'UNION') || isWord(t, 'INTERSECT') || isWord(t, 'EXCEPT'))) return false;
  for (let i = 1; i < sig.length; i++) {
    const t = sig[i];
    if (t.type !== 'word' || /^(NULL|TRUE|FALSE)$/i.test(t.text)) continue;
    const before = sig[i - 1];
    const after = sig[i + 1];
    const starts = (before.type === 'word' && ITEM_START.test(before.text)) || isPunct(before, ',');
    const ends =
      !after || isPunct(after, ',') || isPunct(after, ')') || (after.type === 'word' && ITEM_END.test(after.text));
    if (starts && ends && columnType(t.text.toLowerCase()) === null) return true;
  }
  return false;
}
