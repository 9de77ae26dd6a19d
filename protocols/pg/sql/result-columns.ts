// Names and types of result columns where SQLite does not declare them: PostgreSQL's name for an
// unaliased expression column, the type an expression has whatever its values (a bare parameter,
// a cast to boolean), and at last the type guessed from a value; catalog queries answered with no
// rows name their columns from the select list.
import { OID, oidOfDeclType } from '../types/oids';
import type { ColumnDesc } from './analyzed';
import { type PgToken, identName } from './lexer';
import { selectListItems } from './select-list';
import { lookup } from '../../../src/lookup';

/** The type OID of a result column from its declared type, or a guess from its expression. */
export function columnOid(c: ColumnDesc, sample: unknown): number {
  if (c.declType) return oidOfDeclType(c.declType);
  if (c.oid) return c.oid;
  if (sample !== undefined && sample !== null) {
    if (typeof sample === 'bigint' || (typeof sample === 'number' && Number.isInteger(sample))) return OID.int8;
    if (typeof sample === 'number') return OID.float8;
    if (sample instanceof Uint8Array) return OID.bytea;
    return OID.text;
  }
  if (/^(count|length|octet_length|char_length)\(/i.test(c.name)) return OID.int8;
  return OID.text;
}

/**
 * The type an expression column has whatever its values: a bare parameter has the parameter's
 * type (text when open), a cast to boolean (__pg_bool) is bool. 0 when the values must tell.
 */
export function expressionOid(sqliteName: string, paramTypes: number[]): number {
  const p = /^\$(\d+)$/.exec(sqliteName);
  // (one whose type the statement leaves open is text, as PostgreSQL resolves it and Describe says:
  // EXECUTE's column was typed by the value, `EXECUTE p (1)` of `SELECT $1` answering an int8)
  if (p) return paramTypes[Number(p[1]) - 1] || OID.text;
  if (/^__pg_bool\(.*\)$/.test(sqliteName)) return OID.bool;
  return 0;
}

/** PostgreSQL's name for an unaliased expression column: the function's name, else ?column?. */
export function pgColumnName(name: string, sql: string): string {
  if (/^[A-Za-z_][A-Za-z0-9_$]*$/.test(name) || sql.includes(`"${name}"`)) return name;
  if (/^__pg_bool\(.*\)$/.test(name)) return 'bool';
  const f = /^(?:\w+\.)?(\w+)\s*\(/.exec(name);
  if (f?.[1].startsWith('__pg_')) return INTERNAL_NAMES[f[1]] ?? '?column?'; // what the dialect wrote, not the user
  if (f && f[1].toUpperCase() !== 'CAST') return f[1].toLowerCase();
  const c = /^CAST\(.* AS (\w+)\)$/i.exec(name);
  if (c) return c[1].toLowerCase();
  return '?column?';
}

const INTERNAL_NAMES: Record<string, string> = lookup({
  __pg_int: 'int4',
  __pg_float: 'float8',
  __pg_typeof: 'pg_typeof',
  __pg_date: 'date',
  __pg_timestamp: 'timestamp',
  __pg_timestamptz: 'timestamptz',
  __pg_time: 'time',
  __pg_interval: 'interval',
  __pg_substr: 'substr',
});

/** Column names of a select list, read from the SQL (for catalog queries answered with no rows). */
export function selectListNames(tokens: PgToken[]): string[] {
  const items = selectListItems(tokens.filter((t) => t.type !== 'space' && t.type !== 'comment')) ?? [];
  return items
    .filter((item) => item.length > 0)
    .map((item) => {
      const last = item[item.length - 1];
      const asAt = item.length >= 2 && item[item.length - 2].text.toUpperCase() === 'AS';
      if (
        (last.type === 'word' || last.type === 'quoted') &&
        (asAt ||
          item.length === 1 ||
          item[item.length - 2].text === '.' ||
          (item[item.length - 2].type === 'punct' && item[item.length - 2].text === ')') ||
          item[item.length - 2].type === 'word')
      )
        return identName(last);
      if (item[0].type === 'word' && item[1]?.text === '(') return item[0].text.toLowerCase();
      return '?column?';
    });
}
