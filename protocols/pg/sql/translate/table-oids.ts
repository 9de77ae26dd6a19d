// `tableoid`, the system column PostgreSQL gives every table's rows, which no table here has: it
// becomes the OID of the relation it belongs to, a constant, as the catalog lists it (pg_dump keys
// every catalog object by `c.tableoid`; ORMs and tools write `WHERE tableoid = 't'::regclass` and
// `tableoid::regclass` over their own tables). `c.tableoid` is the OID of the relation the alias
// names; a bare `tableoid` that of the first relation of its own SELECT. First of the passes, on the
// statement's own tokens, so that the casts after it (`tableoid::regclass`) see a number.
import { CATALOG_RELATION_OIDS } from '../../catalog/relation-oids';
import { relationNames } from '../../types/relation-names';
import { type PgToken, lexPg } from '../lexer';
import { NOT_FROM_ALIAS, type Tok, identText, isPunct, isWord, selectOpen } from '../tokens';
import type { DialectContext } from './translate';

const SET_OPERATIONS = new Set(['UNION', 'INTERSECT', 'EXCEPT']);

const isName = (t: Tok | undefined) => t !== undefined && (t.type === 'word' || t.type === 'quoted');

/**
 * The OID of the relation toks[i] names (a catalog table, after an optional `pg_catalog.`, or a
 * table of the database, after an optional `public.`), with the index of its name; null when none.
 */
function relationAt(toks: Tok[], i: number, ctx: DialectContext): { oid: number; name: number } | null {
  // (INSERT INTO t (a, b): a column list, not a call)
  const into = isWord(toks[i - 1], 'INTO');
  const qualified = isName(toks[i]) && isPunct(toks[i + 1], '.');
  const schema = qualified ? identText(toks[i]).toLowerCase() : null;
  const at = qualified ? i + 2 : i;
  const t = toks[at];
  if (!isName(t) || (isPunct(toks[at + 1], '(') && !into) || isPunct(toks[at + 1], '.')) return null;
  const name = t.type === 'quoted' ? identText(t) : t.text.toLowerCase();
  if ((schema === null || schema === 'pg_catalog') && Object.hasOwn(CATALOG_RELATION_OIDS, name))
    return { oid: CATALOG_RELATION_OIDS[name], name: at };
  if ((schema !== null && schema !== 'public') || !ctx.columns?.(name)) return null;
  const oid = relationNames().oid(name);
  return oid === undefined ? null : { oid, name: at };
}

export function rewriteTableOids(toks: PgToken[], ctx: DialectContext): PgToken[] {
  if (!toks.some((t) => isWord(t, 'TABLEOID'))) return toks;
  // (a table of the schema may have a column of that name: it is that column)
  if (ctx.columnType?.(null, 'tableoid')) return toks;
  // each FROM item that is a relation: where it stands, at what depth, and the names it goes by
  const depth: number[] = [];
  let d = 0;
  for (const t of toks) {
    if (isPunct(t, ')')) d--;
    depth.push(d);
    if (isPunct(t, '(')) d++;
  }
  const items: { at: number; oid: number }[] = [];
  const names = new Map<string, number>();
  for (let i = 1; i < toks.length; i++) {
    const before = toks[i - 1];
    // (FROM t, JOIN t, FROM a, b; UPDATE t and INSERT INTO t ... RETURNING tableoid; ONLY t)
    if (!['FROM', 'JOIN', 'UPDATE', 'INTO', 'ONLY'].some((w) => isWord(before, w)) && !isPunct(before, ',')) continue;
    const table = relationAt(toks, i, ctx);
    if (!table) continue;
    items.push({ at: i, oid: table.oid });
    names.set(identText(toks[table.name]).toLowerCase(), table.oid);
    let j = table.name + 1;
    if (isWord(toks[j], 'AS')) j++;
    const a = toks[j];
    if ((a?.type === 'word' && !NOT_FROM_ALIAS.has(a.text.toUpperCase())) || a?.type === 'quoted')
      names.set(identText(a).toLowerCase(), table.oid);
  }
  if (items.length === 0) return toks;
  // a bare tableoid: the first relation of its own SELECT (between the SELECT and the next set
  // operation at that depth), else the statement's first
  const ownTable = (b: number): number => {
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
    return (items.find((it) => it.at > start && it.at < end && depth[it.at] === inside) ?? items[0]).oid;
  };
  const out: PgToken[] = [];
  const oid = (n: number, from: number, to: number) => {
    // (a GROUP BY or ORDER BY term that is a number is a column's position to SQLite, as in PostgreSQL)
    if (!termAlone(toks, depth, from, to)) out.push({ type: 'number', text: String(n) });
    else out.push(...lexPg(`CAST(${n} AS INTEGER)`).filter((t) => t.type !== 'space'));
  };
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (isName(t) && isPunct(toks[i + 1], '.') && isWord(toks[i + 2], 'TABLEOID')) {
      const o = names.get(identText(t).toLowerCase());
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
function termAlone(toks: Tok[], depth: number[], from: number, to: number): boolean {
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
