// A constant as an ORDER BY, GROUP BY or DISTINCT ON term: PostgreSQL reads these terms by SQL92's
// rules (its findTargetlistEntrySQL92), where an integer is a select list position and any other
// constant an error: 42601 `non-integer constant in GROUP BY` (`GROUP BY ''`, `'x'`, `true`, `1.5`,
// `NULL`), 42P10 `GROUP BY position 7 is not in select list`, each at the constant. SQLite grouped by
// the string (one group) and ran; refused a position past the list in its own words only in a plain
// query (not in a set operation's member, nor before EXCEPT ALL, whose translation gave up on it: 0A000),
// and took DISTINCT ON (3) as a constant. Read off the parse tree in the order PostgreSQL reads a
// query (its WITH queries, FROM, select list, WHERE and HAVING, then ORDER BY, GROUP BY, DISTINCT ON);
// the analysis throws the error only once SQLite has taken the statement or refused it for one of
// these terms or with 0A000 (termFirst): PostgreSQL reports an unknown column of the select list first.
import type { Schema } from '../../../src/engine/schema/model';
import { PgError } from '../sqlstate';
import type { PgToken } from './lexer';
import { parseTree } from './parse';
import { Level, addCtes, fromNamespace, spread } from './range-table';
import { writtenAt } from './type-names';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

/** Whether the tokens may hold an ORDER BY, GROUP BY or DISTINCT ON (a cheap test before the tree's). */
export function mayHoldTerms(sig: readonly PgToken[]): boolean {
  return sig.some(
    (t, i) =>
      t.type === 'word' &&
      ((/^(order|group)$/i.test(t.text) && sig[i + 1]?.text.toUpperCase() === 'BY') ||
        (/^distinct$/i.test(t.text) && sig[i + 1]?.text.toUpperCase() === 'ON')),
  );
}

/** PostgreSQL's error for the first constant term it refuses in `text` (tokens joined by spaces), or null. */
export function constantTermError(text: string, tokens: readonly PgToken[], schema: Schema): PgError | null {
  let found: { code: string; message: string; location: number } | null;
  try {
    found = first(parseTree(text).stmts, schema);
  } catch {
    return null; // the translation or SQLite reports it
  }
  if (!found) return null;
  const err = new PgError('user', found.message, found.code);
  if (found.location >= 0)
    err.position = writtenAt(Buffer.from(text).subarray(0, found.location).toString().length, tokens);
  return err;
}

/**
 * What to throw when the statement failed with `err` while `pending` (a constant term's error) was
 * found: `pending` where PostgreSQL would have reached it first, that is where SQLite refused one of
 * these terms (its `1st GROUP BY term out of range`, an aggregate it took a position to), the
 * translation refused a construct (0A000) or a position (42P10), or the grouping check found a
 * column outside the groups (which PostgreSQL checks after reading the GROUP BY).
 */
export function termFirst(err: unknown, pending: PgError | null): unknown {
  if (!pending) return err;
  const state = (err as { sqlstate?: string } | null)?.sqlstate;
  const message = String((err as { message?: unknown } | null)?.message ?? '');
  if (state === '0A000' || state === '42P10') return pending;
  if (state === '42803' && /must appear in the GROUP BY clause|ungrouped column|not allowed in GROUP BY/.test(message))
    return pending;
  if (!(err instanceof PgError) && /BY term|not allowed in the GROUP BY clause/.test(message)) return pending;
  return err;
}

type Found = { code: string; message: string; location: number } | null;

/** The first refused term of the statements below n, in PostgreSQL's order of reading them. */
function first(n: Node, schema: Schema): Found {
  if (n === null || typeof n !== 'object') return null;
  if (Array.isArray(n)) {
    for (const x of n) {
      const f = first(x, schema);
      if (f) return f;
    }
    return null;
  }
  if (n.SelectStmt) return query(n.SelectStmt, schema);
  for (const k in n) {
    const f = first(n[k], schema);
    if (f) return f;
  }
  return null;
}

/** A query's own terms after what PostgreSQL reads before them; a set operation's members first. */
function query(q: Node, schema: Schema): Found {
  const setop = q.op && q.op !== 'SETOP_NONE';
  const before = setop
    ? [q.withClause, q.larg ? { SelectStmt: q.larg } : null, q.rarg ? { SelectStmt: q.rarg } : null]
    : [q.withClause, q.fromClause, q.targetList, q.whereClause, q.havingClause, q.valuesLists];
  const found = first(before, schema);
  if (found) return found;
  // (a set operation's ORDER BY reads the result's columns: SQLite's refusal of a position is mapped)
  const width = setop ? null : listWidth(q, schema);
  const distinctOn = (q.distinctClause ?? []).filter((d: Node) => Object.keys(d ?? {}).length > 0);
  const own =
    term(
      (q.sortClause ?? []).map((s: Node) => s.SortBy?.node),
      'ORDER BY',
      width,
    ) ??
    (setop ? null : term(groupTerms(q.groupClause ?? []), 'GROUP BY', width)) ??
    (setop ? null : term(distinctOn, 'DISTINCT ON', width));
  if (own) return own;
  const { withClause, larg, rarg, fromClause, targetList, whereClause, havingClause, valuesLists, ...rest } = q;
  return first(rest, schema);
}

/** A GROUP BY's terms, those inside ROLLUP, CUBE and GROUPING SETS and their rows too. */
function groupTerms(list: Node[]): Node[] {
  return list.flatMap((g: Node) =>
    g?.GroupingSet ? groupTerms(g.GroupingSet.content ?? []) : g?.RowExpr ? groupTerms(g.RowExpr.args ?? []) : [g],
  );
}

/** The first constant of `terms` PostgreSQL refuses: not an integer, or a position past `width` items (when known). */
function term(terms: Node[], clause: string, width: number | null): Found {
  for (const t of terms) {
    const c = t?.A_Const;
    if (!c) continue;
    // (the tree leaves out a zero: `GROUP BY 0`'s ival is {})
    if (c.ival === undefined)
      return { code: '42601', message: `non-integer constant in ${clause}`, location: c.location ?? -1 };
    const k = Number(c.ival.ival ?? 0);
    if (width !== null && (k < 1 || k > width))
      return { code: '42P10', message: `${clause} position ${k} is not in select list`, location: c.location ?? -1 };
  }
  return null;
}

/** How many columns a query's select list gives (`*` spread over its FROM), null when not known here. */
function listWidth(q: Node, schema: Schema): number | null {
  if (q.valuesLists) return q.valuesLists[0]?.List?.items?.length ?? null;
  const list: Node[] = q.targetList ?? [];
  if (!list.some((t) => t.ResTarget?.val?.ColumnRef?.fields?.some((f: Node) => f.A_Star))) return list.length;
  try {
    const level = new Level(schema, null);
    addCtes(q.withClause, level, {});
    const ns = fromNamespace(q.fromClause, level);
    let width = 0;
    for (const t of list) {
      const star = spread(t.ResTarget?.val, ns);
      if (star === null) return null;
      width += star ? star.length : 1;
    }
    return width;
  } catch {
    return null;
  }
}
