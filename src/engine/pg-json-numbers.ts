import type Database from 'better-sqlite3';
import { decimalAtScale, decimalText, parseDecimal } from './decimal';

// A numeric in PostgreSQL's JSON keeps its display scale: to_json(1.50) is 1.50, a numeric(10,2)
// column's 2.5 is 2.50, sum() of it 12.50. SQLite holds the value as a double or an integer and its
// JSON functions write 1.5 and 10; they keep a number's text as given, so the translation
// (protocols/pg/sql/translate/json-values.ts) passes the value through __pg_json_numeric with the
// scale the analysis found (sql/json-builders.ts), and json() of that text embeds it as a number.

/** A numeric's JSON text at `scale` fraction digits; NaN and the infinities as JSON strings, as PostgreSQL writes them. */
export function jsonNumeric(x: number | bigint | string, scale: number): string {
  // (a computed double at its 15 significant digits, as PostgreSQL's exact numeric holds it)
  const text =
    typeof x === 'number' && Number.isFinite(x) && !Number.isInteger(x) ? String(Number(x.toPrecision(15))) : String(x);
  const d = parseDecimal(text);
  if (d === null) return JSON.stringify(text);
  return d.special ? JSON.stringify(d.special) : decimalText(decimalAtScale(d, scale));
}

export function installPgJsonNumbers(db: Database.Database): void {
  db.function('__pg_json_numeric', { deterministic: true, safeIntegers: true }, (x: unknown, scale: unknown) =>
    x === null || x === undefined || Buffer.isBuffer(x) ? (x as null) : jsonNumeric(x as number, Number(scale)),
  );
}
