// A column whose default is the clock (`DEFAULT CURRENT_TIMESTAMP`, `DEFAULT CURRENT_DATE` in the
// schema) filled as PostgreSQL fills it: SQLite's own default is UTC's clock to the second, so a
// timestamp column got UTC's wall time in a session in another zone (wrong data) and no column got
// the transaction's now() to the microsecond. An INSERT that leaves such a column out, or writes
// DEFAULT for it, is given the PostgreSQL value instead: CURRENT_TIMESTAMP or CURRENT_DATE as
// translate/words.ts reads them, converted into the column's type through the session's zone
// (assignment.ts). A string column's `DEFAULT true` (or false) is filled the same way with the text
// PostgreSQL's assignment of a boolean stores, `true`: SQLite's default of that word is 1, stored
// as '1' (and replicated so).
import type { Tok } from '../tokens';
import { OID, oidOfDeclType } from '../../types/oids';
import { assignment } from './assignment';
import type { InsertTarget } from './insert-defaults';
import type { DialectContext } from './translate';

const CLOCK = /^\(?\s*(current_timestamp|current_date)\s*\)?$/i;

/** A default that is a boolean literal: `true`, `FALSE`, `(true)`. */
const BOOLEAN = /^\(?\s*(true|false)\s*\)?$/i;

/** The string types, whose boolean default is its text. */
const STRING_COLUMNS = new Set<number>([OID.text, OID.varchar, OID.bpchar]);

/**
 * The value of a clock default for a column of `decl` (not yet converted for the column): the
 * clock word, its first token marked with its conversion through the session's zone as
 * sql/zoned-assignments.ts marks a value; a string column's boolean default as its text ('true');
 * null for any other default.
 */
export function clockDefault(decl: string | null, defaultSql: string | null): Tok[] | null {
  const column = oidOfDeclType(decl);
  const bool = defaultSql === null || !STRING_COLUMNS.has(column) ? null : BOOLEAN.exec(defaultSql.trim());
  if (bool) return [{ type: 'string', text: `'${bool[1].toLowerCase()}'` }];
  const m = defaultSql === null ? null : CLOCK.exec(defaultSql.trim());
  if (!m) return null;
  // (a text column keeps SQLite's text: PostgreSQL's would be the value printed in DateStyle)
  if (column !== OID.timestamp && column !== OID.timestamptz && column !== OID.date && column !== OID.time) return null;
  const instant = m[1].toLowerCase() === 'current_timestamp'; // a timestamptz; current_date a date
  const assign = instant
    ? column === OID.timestamp || column === OID.date || column === OID.time
      ? 'wall'
      : undefined
    : column === OID.timestamptz
      ? 'zoned'
      : undefined;
  return [{ type: 'word', text: m[1].toUpperCase(), ...(assign ? { assign } : {}) }];
}

/** The columns an INSERT leaves out (it names `names`) that have a clock (or string column's boolean) default, with their values converted for the column. */
export function clockDefaults(target: InsertTarget, names: string[], ctx: DialectContext): [string, Tok[]][] {
  const named = new Set(names.map((n) => n.toLowerCase()));
  const out: [string, Tok[]][] = [];
  for (const c of target.columns) {
    if (c.defaultSql === null || named.has(c.name.toLowerCase())) continue;
    const decl = ctx.columnType?.(target.name, c.name) ?? null;
    const value = clockDefault(decl, c.defaultSql);
    if (!value) continue;
    const wrap = assignment(decl);
    out.push([c.name, wrap ? wrap(value) : value]);
  }
  return out;
}
