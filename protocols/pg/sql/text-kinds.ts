// How a value made text (a cast to text, `||`, concat, concat_ws, format) is printed where SQLite's
// text of the stored value differs from PostgreSQL's: the kinds __pg_text (src/engine/pg-functions.ts)
// takes, read off the parse tree's types (typed-operators.ts marks them).
import { NAMESPACE_NAMES, OID, regtypeName } from '../types/oids';
import { REGCONFIG, regconfigName } from '../catalog/regconfig';
import { relationNames } from '../types/relation-names';
import { arrayOidOf } from '../types/registry';
import type { Typer } from './expression-types';
import { PARAM_SCALE } from './json-builders';
import { isComputed, scaleOf } from './numeric-scale';
import { quoteString } from './lexer';
import { styledTextKind } from './session-styles';
import { zonedTextKind } from './session-zone';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

/** Types whose PostgreSQL text differs from SQLite's text of the stored value (__pg_text prints them). */
const TEXT_KIND: Record<number, string> = {
  [OID.bool]: 'bool',
  [OID.float8]: 'float8',
  [OID.float4]: 'float4',
  [OID.date]: 'date',
  [OID.timestamp]: 'timestamp',
  [OID.timestamptz]: 'timestamptz',
  [OID.time]: 'time',
  [OID.jsonb]: 'jsonb',
  [OID.bytea]: 'bytea',
  // stored in the postgres style: printed anew under another IntervalStyle (session-styles.ts)
  [OID.interval]: 'interval',
  // an OID here, its relation's name in PostgreSQL's text (catalog/catalog-functions.ts)
  [OID.regclass]: 'regclass',
  // arrays built by expressions keep SQLite's text of their elements (array_agg of booleans: {1,0})
  [arrayOidOf(OID.bool)!]: 'array:boolean',
  [arrayOidOf(OID.float8)!]: 'array:double precision',
  [arrayOidOf(OID.float4)!]: 'array:real',
  // arrays of dates keep their elements as the columns do (a year BC as '/9956')
  [arrayOidOf(OID.date)!]: 'datearray:date',
  [arrayOidOf(OID.timestamp)!]: 'datearray:timestamp',
  [arrayOidOf(OID.timestamptz)!]: 'datearray:timestamptz',
  // arrays of bytea keep their elements in hex: printed anew under bytea_output escape
  [arrayOidOf(OID.bytea)!]: 'byteaarray',
};

/** How __pg_text prints an expression made text, when SQLite's text of the value would differ; null when it would not. */
export function textKind(typer: Typer, n: Node): string | null {
  const type = typer.type(n);
  if (type === OID.numeric) {
    const scale = scaleOf(typer, n);
    if (scale !== undefined) return `numeric:${scale}`;
    // a computed value's double prints at its 15 significant digits (0.1 * 3 made text is 0.3); a
    // column's, a cast's or a parameter's as it is, but an infinity (a REAL in SQLite, whose text is
    // `Inf`) as `Infinity`
    if (isComputed(n)) return 'numeric';
    let v = n;
    while (v?.TypeCast) v = v.TypeCast.arg;
    return v?.ColumnRef || v?.ParamRef || v?.A_Const ? 'numeric:own' : null;
  }
  // a cast from a name ('integer'::regtype, 'public'::regnamespace) holds the OID, printed as the name
  // (only a cast: pg_typeof's value is its name already, on connections without these functions)
  if ((type === OID.regtype || type === OID.regnamespace) && n?.TypeCast)
    return type === OID.regtype ? 'regtype' : 'regnamespace';
  if (type === REGCONFIG && n?.TypeCast) return 'regconfig';
  return TEXT_KIND[type] ?? null;
}

/**
 * A constant OID's text (a name cast resolved by translate/casts.ts): its name, as the catalog
 * connection's __pg_reg*_text would print it, here so that every connection runs it.
 */
function regText(kind: 'regclass' | 'regtype' | 'regnamespace' | 'regconfig', oid: number): string {
  if (kind === 'regtype') return regtypeName(oid);
  if (kind === 'regconfig') return regconfigName(oid);
  if (kind === 'regnamespace') return NAMESPACE_NAMES[oid] ?? String(oid);
  return oid === 0 ? '-' : (relationNames().name(oid) ?? String(oid));
}

/** Functions that make text of each argument. */
export const TEXT_FUNCTIONS = new Set(['concat', 'concat_ws', 'format', 'quote_literal', 'quote_nullable']);

/** SQL printing `x` as PostgreSQL makes text of a value of `kind` (textKind's), in the session's zone and styles. */
export function textOfKind(kind: string, x: string): string {
  // (SQL, read three times: a column, parameter or literal's)
  if (kind === 'rtrim') return `rtrim(${x}, ' ')`;
  // (a REAL SQLite would print with an exponent, 1e20's '1.0e+20', in full digits as numeric prints it)
  if (kind === 'numeric:own')
    return `(CASE WHEN (${x}) IN (9e999, -9e999) THEN iif((${x}) > 0, 'Infinity', '-Infinity') WHEN typeof(${x}) = 'real' AND (abs(${x}) >= 1e15 OR abs(${x}) < 1e-4) THEN __pg_text('numeric', ${x}) ELSE ${x} END)`;
  // (a numeric parameter written into a string column: at the scale of the text sent, which Bind
  // writes in for PARAM_SCALE; unreplaced, as the value is)
  if (kind.startsWith('numeric:param:'))
    return `__pg_text('numeric:' || ${quoteString(`${PARAM_SCALE}0;${kind.slice(14)}+0`)}, ${x})`;
  if (kind === 'regclass' || kind === 'regtype' || kind === 'regnamespace' || kind === 'regconfig') {
    // (a constant is printed here: pg_typeof's name as it is, an OID as its name)
    if (kind !== 'regclass' && /^'(?:[^']|'')*'$/.test(x)) return x;
    return /^\d+$/.test(x) ? quoteString(regText(kind, Number(x))) : `__pg_${kind}_text(${x})`;
  }
  const styled = styledTextKind(kind);
  return styled === null ? x : `__pg_text(${quoteString(zonedTextKind(styled))}, ${x})`;
}
