// `tableoid`, the system column PostgreSQL gives every table's rows, which no table here has: it
// becomes the OID of the relation it belongs to, a constant, as the catalog lists it (pg_dump keys
// every catalog object by `c.tableoid`; ORMs and tools write `WHERE tableoid = 't'::regclass` and
// `tableoid::regclass` over their own tables). `c.tableoid` is the OID of the relation the alias
// names; a bare `tableoid` that of the first relation of its own SELECT. First of the passes, on the
// statement's own tokens, so that the casts after it (`tableoid::regclass`) see a number.
import { catalogRelation } from '../../catalog/catalog-relation';
import { CATALOG_RELATION_OIDS } from '../../catalog/relation-oids';
import { relationNames } from '../../types/relation-names';
import { type PgToken, lexPg } from '../lexer';
import { NOT_FROM_ALIAS, type Tok, identText, isPunct, isWord, selectOpen } from '../tokens';
import type { DialectContext } from './translate';

const SET_OPERATIONS = new Set(['UNION', 'INTERSECT', 'EXCEPT']);

const isName = (t: Tok | undefined) => t !== undefined && (t.type === 'word' || t.type === 'quoted');

/**
 * The relation toks[i] names (a catalog table, after an optional `pg_catalog.`, or a table of the
 * database, after an optional `public.`): its OID (undefined for a catalog table without one here),
 * its name and the index of its name; null when none.
 */
function relationAt(
  toks: Tok[],
  i: number,
  ctx: DialectContext,
): { oid: number | undefined; relname: string; catalog: boolean; name: number } | null {
  // (INSERT INTO t (a, b): a column list, not a call)
  const into = isWord(toks[i - 1], 'INTO');
  const qualified = isName(toks[i]) && isPunct(toks[i + 1], '.');
  const schema = qualified ? identText(toks[i]).toLowerCase() : null;
  const at = qualified ? i + 2 : i;
  const t = toks[at];
  if (!isName(t) || (isPunct(toks[at + 1], '(') && !into) || isPunct(toks[at + 1], '.')) return null;
  const name = t.type === 'quoted' ? identText(t) : t.text.toLowerCase();
  if ((schema === null || schema === 'pg_catalog') && Object.hasOwn(CATALOG_RELATION_OIDS, name))
    return { oid: CATALOG_RELATION_OIDS[name], relname: name, catalog: true, name: at };
  if ((schema !== null && schema !== 'public') || !ctx.columns?.(name)) {
    if ((schema === null || schema === 'pg_catalog') && catalogRelation('pg_catalog', name))
      return { oid: undefined, relname: name, catalog: true, name: at };
    return null;
  }
  const oid = relationNames().oid(name);
  return oid === undefined ? null : { oid, relname: name, catalog: false, name: at };
}

/** A FROM item that is a relation: where it stands, what it is, and the name a column is qualified by (its alias, else its own). */
export interface RelationItem {
  at: number;
  oid: number | undefined;
  relname: string;
  catalog: boolean;
  ref: string;
}

/** The relations of a statement's FROM items, the names they go by, and each token's parenthesis depth. */
export function relationItems(
  toks: Tok[],
  ctx: DialectContext,
): { items: RelationItem[]; names: Map<string, RelationItem>; depth: number[] } {
  const depth: number[] = [];
  let d = 0;
  for (const t of toks) {
    if (isPunct(t, ')')) d--;
    depth.push(d);
    if (isPunct(t, '(')) d++;
  }
  const items: RelationItem[] = [];
  const names = new Map<string, RelationItem>();
  for (let i = 1; i < toks.length; i++) {
    const before = toks[i - 1];
    // (FROM t, JOIN t, FROM a, b; UPDATE t and INSERT INTO t ... RETURNING tableoid; ONLY t)
    if (!['FROM', 'JOIN', 'UPDATE', 'INTO', 'ONLY'].some((w) => isWord(before, w)) && !isPunct(before, ',')) continue;
    const table = relationAt(toks, i, ctx);
    if (!table) continue;
    const item: RelationItem = { at: i, oid: table.oid, relname: table.relname, catalog: table.catalog, ref: '' };
    items.push(item);
    item.ref = toks[table.name].text;
    names.set(identText(toks[table.name]).toLowerCase(), item);
    let j = table.name + 1;
    if (isWord(toks[j], 'AS')) j++;
    const a = toks[j];
    if ((a?.type === 'word' && !NOT_FROM_ALIAS.has(a.text.toUpperCase())) || a?.type === 'quoted') {
      names.set(identText(a).toLowerCase(), item);
      item.ref = a.text;
    }
  }
  return { items, names, depth };
}

/**
 * The tokens of toks[b]'s own SELECT: from its SELECT (or the statement's start) to the next set
 * operation at that depth or the end of its parentheses, and that depth.
 */
export function ownSelect(toks: Tok[], depth: number[], b: number): { start: number; end: number; inside: number } {
  const open = selectOpen(toks, b);
  const inside = open < 0 ? 0 : depth[open] + 1;
  let start = open;
  for (let i = b - 1; i > open; i--)
    if (depth[i] === inside && isWord(toks[i], 'SELECT')) {
      start = i;
      break;
    }
  let end = toks.length;
  for (let i = b + 1; i < toks.length; i++)
    if (
      depth[i] < inside ||
      (depth[i] === inside && toks[i].type === 'word' && SET_OPERATIONS.has(toks[i].text.toUpperCase()))
    ) {
      end = i;
      break;
    }
  return { start, end, inside };
}

/** A constant `n` in place of toks[from..to]: a GROUP BY or ORDER BY term alone is cast (a number there is a column's position). */
function constantTokens(toks: Tok[], depth: number[], from: number, to: number, n: string): PgToken[] {
  // (a GROUP BY or ORDER BY term that is a number is a column's position to SQLite, as in PostgreSQL)
  if (!termAlone(toks, depth, from, to)) return lexPg(n).filter((t) => t.type !== 'space');
  return lexPg(`CAST(${n} AS INTEGER)`).filter((t) => t.type !== 'space');
}

export function rewriteTableOids(toks: PgToken[], ctx: DialectContext): PgToken[] {
  if (!toks.some((t) => isWord(t, 'TABLEOID'))) return toks;
  // (a table of the schema may have a column of that name: it is that column)
  if (ctx.columnType?.(null, 'tableoid')) return toks;
  // each FROM item that is a relation: where it stands, at what depth, and the names it goes by
  const found = relationItems(toks, ctx);
  const { depth } = found;
  const items = found.items.filter((it) => it.oid !== undefined);
  const names = new Map([...found.names].filter(([, it]) => it.oid !== undefined));
  if (items.length === 0) return toks;
  // a bare tableoid: the first relation of its own SELECT (between the SELECT and the next set
  // operation at that depth), else the statement's first
  const ownTable = (b: number): number => {
    const { start, end, inside } = ownSelect(toks, depth, b);
    return (items.find((it) => it.at > start && it.at < end && depth[it.at] === inside) ?? items[0]).oid as number;
  };
  const out: PgToken[] = [];
  const oid = (n: number, from: number, to: number) => out.push(...constantTokens(toks, depth, from, to, String(n)));
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (isName(t) && isPunct(toks[i + 1], '.') && isWord(toks[i + 2], 'TABLEOID')) {
      const o = names.get(identText(t).toLowerCase())?.oid;
      if (o !== undefined) oid(o, i, i + 2);
      else out.push(t, toks[i + 1], toks[i + 2]);
      i += 2;
      continue;
    }
    if (isWord(t, 'TABLEOID') && !isPunct(toks[i - 1], '.')) oid(ownTable(i), i, i);
    else out.push(t);
  }
  return out;
}

/** Words that end a GROUP BY or ORDER BY term. */
const TERM_ENDS = new Set([
  'ASC',
  'DESC',
  'NULLS',
  'ORDER',
  'USING',
  'LIMIT',
  'OFFSET',
  'FETCH',
  'HAVING',
  'WINDOW',
  'FOR',
]);

/** Whether toks[from..to] is a whole GROUP BY or ORDER BY term. */
export function termAlone(toks: Tok[], depth: number[], from: number, to: number): boolean {
  const next = toks[to + 1];
  const ends =
    next === undefined ||
    isPunct(next, ',') ||
    isPunct(next, ')') ||
    isPunct(next, ';') ||
    (next.type === 'word' && (TERM_ENDS.has(next.text.toUpperCase()) || SET_OPERATIONS.has(next.text.toUpperCase())));
  if (!ends) return false;
  // the clause the term is in: the nearest BY at its depth, before any other clause's word
  for (let i = from - 1; i >= 0; i--) {
    if (depth[i] !== depth[from]) continue;
    if (isWord(toks[i], 'BY')) return isWord(toks[i - 1], 'GROUP') || isWord(toks[i - 1], 'ORDER');
    if (isPunct(toks[i], ',')) continue;
    if (toks[i].type === 'word' && CLAUSES.has(toks[i].text.toUpperCase())) return false;
  }
  return false;
}

const CLAUSES = new Set(['SELECT', 'FROM', 'WHERE', 'HAVING', 'RETURNING', 'SET', 'VALUES', 'ON', 'WINDOW']);
