// The system columns of a catalog table's rows, which PostgreSQL gives every table and which
// pgAdmin, DBeaver and other browsers read off catalog rows (`SELECT c.xmin, ... FROM pg_class c`):
// it was 0A000 here, as for a table of the database. A catalog row is written by no transaction a
// client sees and is never updated by one, so PostgreSQL-shaped constants tell no lie there: xmin
// 1 (the bootstrap transaction's, as initdb's rows have it), xmax, cmin and cmax 0, and ctid the
// row's place `(0,n)`, n its SQLite rowid. Their types (xid, cid, tid) are the typer's
// (expression-types.ts). A table of the database keeps its 0A000 (unsupported.ts): a constant
// xmin there would make an ORM's optimistic lock pass whatever another writer did. A view (pg_tables,
// pg_settings) has none, as in PostgreSQL. A bare name is placed only where its SELECT reads the one
// catalog table and nothing else (PostgreSQL's answer to a join is 42703 or 42702, not a value).
import { catalogRelation } from '../../catalog/catalog-relation';
import { type PgToken, lexPg } from '../lexer';
import { FROM_ENDS, type Tok, identText, isPunct, isWord } from '../tokens';
import { type RelationItem, ownSelect, relationItems, termAlone } from './table-oids';
import type { DialectContext } from './translate';

/** The system columns a catalog table's rows answer, with their constants (ctid: the row's place). */
const SYSTEM_VALUES: Record<string, string | null> = { xmin: '1', xmax: '0', cmin: '0', cmax: '0', ctid: null };

/** The system column toks[i] names, lower case; undefined when it is none. */
function systemColumn(t: Tok | undefined): string | undefined {
  if (t?.type !== 'word') return undefined;
  const name = t.text.toLowerCase();
  return Object.hasOwn(SYSTEM_VALUES, name) ? name : undefined;
}

/** Whether a FROM item is a table of the catalog (not a view), whose rows have system columns. */
const catalogTable = (it: RelationItem | undefined): it is RelationItem =>
  it?.catalog === true && catalogRelation('pg_catalog', it.relname)?.view === false;

export function rewriteSystemColumns(toks: PgToken[], ctx: DialectContext): PgToken[] {
  if (!toks.some((t) => systemColumn(t) !== undefined)) return toks;
  const { items, names, depth } = relationItems(toks, ctx);
  if (!items.some(catalogTable)) return toks;
  const out: PgToken[] = [];
  const value = (column: string, it: RelationItem, from: number, to: number): PgToken[] => {
    const constant = SYSTEM_VALUES[column];
    // (of INTEGER affinity, so that `xmax = '0'` compares as a number, as PostgreSQL reads the literal)
    if (constant !== null) return lexPg(`CAST(${constant} AS INTEGER)`).filter((t) => t.type !== 'space');
    // (sorted or grouped by alone: by the row's place, (0,10) after (0,9))
    if (termAlone(toks, depth, from, to)) return lexPg(`${it.ref}.rowid`).filter((t) => t.type !== 'space');
    return lexPg(`('(0,' || ${it.ref}.rowid || ')')`).filter((t) => t.type !== 'space');
  };
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    const qualified = (t.type === 'word' || t.type === 'quoted') && isPunct(toks[i + 1], '.');
    const column = qualified ? systemColumn(toks[i + 2]) : undefined;
    if (qualified && column !== undefined && !isPunct(toks[i - 1], '.')) {
      const it = names.get(identText(t).toLowerCase());
      if (catalogTable(it)) {
        out.push(...value(column, it, i, i + 2));
        i += 2;
        continue;
      }
    }
    const bare = systemColumn(t);
    if (bare !== undefined && !isPunct(toks[i - 1], '.') && !isPunct(toks[i + 1], '(')) {
      const it = onlyItem(toks, depth, items, i);
      if (catalogTable(it)) {
        out.push(...value(bare, it, i, i));
        continue;
      }
    }
    out.push(t);
  }
  return out;
}

/** The FROM item of toks[b]'s own SELECT when it reads that one relation alone (no comma nor JOIN in its FROM); else undefined. */
function onlyItem(toks: Tok[], depth: number[], items: RelationItem[], b: number): RelationItem | undefined {
  const { start, end, inside } = ownSelect(toks, depth, b);
  const own = items.filter((it) => it.at > start && it.at < end && depth[it.at] === inside);
  if (own.length !== 1) return undefined;
  // the FROM clause at that depth: from its FROM to the word that ends it
  let from = -1;
  for (let i = start + 1; i < end; i++)
    if (depth[i] === inside && isWord(toks[i], 'FROM')) {
      from = i;
      break;
    }
  if (from < 0 || from > own[0].at) return undefined;
  for (let i = from + 1; i < end; i++) {
    if (depth[i] !== inside) continue;
    const w = toks[i];
    if (w.type === 'word' && FROM_ENDS.has(w.text.toUpperCase())) break;
    if (isPunct(w, ',') || isWord(w, 'JOIN')) return undefined;
  }
  return own[0];
}
