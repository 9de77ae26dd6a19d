// pg_typeof(x): PostgreSQL's name of the type the SQL gives x (a literal, a cast, a schema column)
// as a string literal; where the SQL does not tell, __pg_typeof names the type of the value SQLite
// holds when the statement runs.
import { TYPE_DISPLAY, oidOfDeclType } from '../../types/oids';
import { type PgToken, identName, quoteString } from '../lexer';
import { type Tok, closerAfter, isOp, isPunct, isWord, readType } from '../tokens';
import type { DialectContext } from './translate';
import { lookup } from '../../../../src/lookup';

/** PostgreSQL's display names of types as a cast spells them (what pg_typeof answers). */
const TYPEOF_NAMES: Record<string, string> = lookup({
  int: 'integer',
  int4: 'integer',
  integer: 'integer',
  serial: 'integer',
  int2: 'smallint',
  smallint: 'smallint',
  int8: 'bigint',
  bigint: 'bigint',
  bigserial: 'bigint',
  float4: 'real',
  real: 'real',
  float8: 'double precision',
  float: 'double precision',
  'double precision': 'double precision',
  numeric: 'numeric',
  decimal: 'numeric',
  bool: 'boolean',
  boolean: 'boolean',
  text: 'text',
  varchar: 'character varying',
  'character varying': 'character varying',
  char: 'character',
  character: 'character',
  bpchar: 'character',
  name: 'name',
  date: 'date',
  time: 'time without time zone',
  timestamp: 'timestamp without time zone',
  timestamptz: 'timestamp with time zone',
  timetz: 'time with time zone',
  interval: 'interval',
  json: 'json',
  jsonb: 'jsonb',
  jsonpath: 'jsonpath',
  tsvector: 'tsvector',
  tsquery: 'tsquery',
  uuid: 'uuid',
  bytea: 'bytea',
  oid: 'oid',
  regclass: 'regclass',
});

/**
 * pg_typeof(x): the type the SQL gives x (a literal, a cast, a schema column) as a string; otherwise
 * __pg_typeof, which names the type of the value SQLite holds.
 */
export function rewriteTypeof(toks: Tok[], ctx: DialectContext): Tok[] {
  for (let i = toks.length - 2; i >= 0; i--) {
    if (!isWord(toks[i], 'PG_TYPEOF') || !isPunct(toks[i + 1], '(') || isPunct(toks[i - 1], '.')) continue;
    const close = closerAfter(toks, i + 1);
    const arg = toks.slice(i + 2, close);
    // the type the parse tree gives the argument (sql/typed-operators.ts marked it), else the tokens'
    const mark = (toks[i] as { arith?: string }).arith;
    const marked = mark?.startsWith('typeof:') ? mark.slice(7) : undefined;
    const known = marked ?? staticType(arg, ctx);
    // pg_typeof's value is a regtype already: a cast to regtype leaves it as it is (ORMs write
    // `pg_typeof(x)::regtype`; the cast's function is the catalog connection's only)
    if (isOp(toks[close + 1], '::')) {
      const cast = readType(toks, close + 2);
      if (cast.name === 'regtype' && !cast.isArray) toks.splice(close + 1, cast.end - close - 1);
    }
    if (known) toks.splice(i, close - i + 1, { type: 'string', text: quoteString(known) });
    else toks[i] = { type: 'word', text: '__pg_typeof' };
  }
  return toks;
}

function staticType(arg: Tok[], ctx: DialectContext): string | null {
  if (arg.length === 0) return null;
  const lit = arg.length === 2 && (isOp(arg[0], '-') || isOp(arg[0], '+')) ? arg[1] : arg.length === 1 ? arg[0] : null;
  if (lit?.type === 'number') {
    if (!/^\d+$/.test(lit.text)) return 'numeric';
    const n = BigInt(lit.text);
    return n <= 2147483647n ? 'integer' : n <= 9223372036854775807n ? 'bigint' : 'numeric';
  }
  if (lit?.type === 'string') return 'unknown';
  if (lit && (isWord(lit, 'TRUE') || isWord(lit, 'FALSE'))) return 'boolean';
  let depth = 0;
  let cast = -1;
  for (let k = 0; k < arg.length; k++) {
    if (isPunct(arg[k], '(')) depth++;
    else if (isPunct(arg[k], ')')) depth--;
    else if (depth === 0 && isOp(arg[k], '::')) cast = k;
  }
  if (cast > 0) {
    const { name, isArray, end } = readType(arg, cast + 1);
    if (end === arg.length && TYPEOF_NAMES[name]) return TYPEOF_NAMES[name] + (isArray ? '[]' : '');
    return null;
  }
  const ident = (t: Tok | undefined) => t !== undefined && (t.type === 'word' || t.type === 'quoted');
  if (
    ctx.columnType &&
    (arg.length === 1 || (arg.length === 3 && isPunct(arg[1], '.'))) &&
    arg.every((t, k) => (k % 2 === 0 ? ident(t) : true))
  ) {
    const column = identName(arg[arg.length - 1] as PgToken);
    const decl = ctx.columnType(arg.length === 3 ? identName(arg[0] as PgToken) : null, column);
    if (decl !== null) {
      const oid = oidOfDeclType(decl);
      return TYPE_DISPLAY[oid] ?? 'text'; // as RowDescription types the column
    }
  }
  return null;
}
