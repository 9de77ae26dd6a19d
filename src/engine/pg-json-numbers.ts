import type Database from 'better-sqlite3';
import { decimalAtScale, decimalText, parseDecimal } from './decimal';

// A numeric in PostgreSQL's JSON keeps its display scale: to_json(1.50) is 1.50, a numeric(10,2)
// column's 2.5 is 2.50, sum() of it 12.50. SQLite holds the value as a double or an integer and its
// JSON functions write 1.5 and 10; they keep a number's text as given, so the translation
// (protocols/pg/sql/translate/json-values.ts) passes the value through __pg_json_numeric with the
// scale the analysis found (sql/json-builders.ts), and json() of that text embeds it as a number.

/**
 * A numeric's JSON text at `scale` fraction digits (a negative `scale`: the value's own, an exact
 * avg's `6.2500000000000000`, a computed double's 15 significant digits, or with -2 a plain
 * column's or parameter's double as it is); NaN and the infinities as JSON strings, as PostgreSQL
 * writes them.
 */
export function jsonNumeric(x: number | bigint | string, scale: number, least = false): string {
  // (`least`: a parameter's double whose own digits fit the scale sent is that value, '0.30000000000000004')
  if (least && typeof x === 'number') {
    const own = parseDecimal(String(x));
    if (own && !own.special && own.frac.length <= scale) return decimalText(decimalAtScale(own, scale));
  }
  // (a computed double at its 15 significant digits, as PostgreSQL's exact numeric holds it)
  // (scale -2: a stored or sent value's own digits, as its cell prints them)
  const text =
    typeof x === 'number' && Number.isFinite(x) && !Number.isInteger(x) && scale !== -2
      ? String(Number(x.toPrecision(15)))
      : String(x);
  const d = parseDecimal(text);
  if (d === null) return JSON.stringify(text);
  if (d.special) return JSON.stringify(d.special);
  // (`least`: at `scale` or the value's own digits beyond it, as `price + $1` carries the larger scale)
  return decimalText(scale < 0 || (least && d.frac.length > scale) ? d : decimalAtScale(d, scale));
}

export function installPgJsonNumbers(db: Database.Database): void {
  db.function('__pg_json_numeric', { deterministic: true, safeIntegers: true }, (x: unknown, scale: unknown) =>
    x === null || x === undefined || Buffer.isBuffer(x) ? (x as null) : jsonNumeric(x as number, Number(scale)),
  );
  // a numeric whose scale parameters give (`$1::numeric`, `price + $1`): at least the scale Bind
  // wrote in for the text sent (protocols/pg/sql/json-builders.ts, PARAM_SCALE), or, where it was
  // not written in ('pg-param-scale:2;1+0'), the least the statement gives, 2
  db.function('__pg_json_numeric_least', { deterministic: true, safeIntegers: true }, (x: unknown, scale: unknown) =>
    x === null || x === undefined || Buffer.isBuffer(x)
      ? (x as null)
      : jsonNumeric(x as number, typeof scale === 'string' ? Number(/\d+/.exec(scale)?.[0] ?? 0) : Number(scale), true),
  );
}
