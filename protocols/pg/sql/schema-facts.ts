// What the analysis asks of the schema, by column name across its tables, cached per schema: which
// columns are dates, times, intervals, booleans or json (the cheap test before parsing for typed operators),
// whether a name is NOT NULL everywhere (NULL order), a column's declared type.
import type { Schema } from '../../../src/engine/schema/model';

const datedCache = new WeakMap<Schema, ReadonlyMap<string, string>>();
/**
 * The lower-case names of the schema's date, time and timestamp columns ('date'), interval ones
 * ('interval'), boolean ones ('bool'), json ones ('json': `doc - 'key'`), numeric ones ('numeric':
 * a cast of NaN to an integer), bytea ones ('bytea') and integer ones ('int': a string literal
 * compared with them), of any table, for mayHaveTypedOperators.
 */
/** Arrays of integers, floats and text, declared ('BIGINT[]', 'varchar(20)[]'). */
const ORDERED_ARRAY =
  /^\s*((big|small)?int(eger|[248])?|real|float[48]?|double precision|text|varchar|character varying)\s*(\(\s*\d+\s*\))?\s*\[/i;

export function datedColumns(schema: Schema): ReadonlyMap<string, string> {
  let names = datedCache.get(schema);
  if (!names) {
    const found = new Map<string, string>();
    for (const t of schema.tables.values())
      for (const c of t.columns) {
        // numeric and boolean arrays compare by their elements' values (typed-operators.ts)
        const keyedArray = /\[\s*\]\s*$/.test(c.type) && /^\s*(numeric|decimal|bool)/i.exec(c.type);
        if (keyedArray && !found.has(c.name.toLowerCase()))
          found.set(c.name.toLowerCase(), /^bool/i.test(keyedArray[1]) ? 'bool[]' : 'numeric[]');
        // and arrays of other numbers and of text are ordered by their elements
        else if (ORDERED_ARRAY.test(c.type) && !found.has(c.name.toLowerCase()))
          found.set(c.name.toLowerCase(), 'ordered[]');
        else if (/^ts(vector|query)\s*$/i.test(c.type) && !found.has(c.name.toLowerCase()))
          found.set(c.name.toLowerCase(), 'search'); // text search's operators (text-search-operators.ts)
        else if (/interval/i.test(c.type)) found.set(c.name.toLowerCase(), 'interval');
        else if (/date|time/i.test(c.type)) found.set(c.name.toLowerCase(), 'date');
        else if (/^bool/i.test(c.type) && !found.has(c.name.toLowerCase())) found.set(c.name.toLowerCase(), 'bool');
        else if (/^json/i.test(c.type) && !found.has(c.name.toLowerCase())) found.set(c.name.toLowerCase(), 'json');
        else if (/numeric|decimal/i.test(c.type) && !found.has(c.name.toLowerCase()))
          found.set(c.name.toLowerCase(), 'numeric');
      }
    // a string compared with a bytea is read as bytes, with an integer must read as one (names no
    // other table gives one of the kinds above)
    for (const t of schema.tables.values())
      for (const c of t.columns) {
        const name = c.name.toLowerCase();
        if (found.has(name)) continue;
        if (/^(bytea|blob)\b/i.test(c.type)) found.set(name, 'bytea');
        else if (/^((big|small)?int(eger|[248])?)\s*$/i.test(c.type)) found.set(name, 'int');
        // (a double cast to an integer rounds half to even: typed-operators.ts)
        else if (/^(float[48]?|real|double precision)\s*$/i.test(c.type)) found.set(name, 'float');
        // (a literal compared with char(n) drops its trailing spaces: compared-literals.ts)
        else if (/^\s*(char|character|bpchar)\b(?!\s+varying)/i.test(c.type)) found.set(name, 'bpchar');
        // (text has no arithmetic and no comparison with a number: operand-types.ts)
        else if (/char|text|clob|^\s*name\s*$/i.test(c.type)) found.set(name, 'text');
      }
    names = found;
    datedCache.set(schema, names);
  }
  return names;
}

const stringCache = new WeakMap<Schema, ReadonlySet<string>>();
/**
 * The lower-case names of the tables with a text, varchar or char(n) column (a value written into
 * one is printed by its type: zoned-assignments.ts), for mayHaveTypedOperators.
 */
export function stringColumnTables(schema: Schema): ReadonlySet<string> {
  let names = stringCache.get(schema);
  if (!names) {
    names = new Set(
      [...schema.tables.values()]
        .filter((t) =>
          t.columns.some((c) => /^\s*(text|varchar|character varying|char|character|bpchar)\b/i.test(c.type)),
        )
        .map((t) => t.name.toLowerCase()),
    );
    stringCache.set(schema, names);
  }
  return names;
}

const notNullCache = new WeakMap<Schema, Map<string, boolean>>();
/** Whether every table with a column of this name declares it NOT NULL or in its primary key. */
export function notNullEverywhere(schema: Schema, column: string): boolean {
  let known = notNullCache.get(schema);
  if (!known) notNullCache.set(schema, (known = new Map()));
  let v = known.get(column);
  if (v === undefined) {
    const cols = [...schema.tables.values()].flatMap((t) => t.columns.filter((c) => c.name.toLowerCase() === column));
    v = cols.length > 0 && cols.every((c) => c.notNull || c.pk > 0);
    known.set(column, v);
  }
  return v;
}

/** The declared type of a schema column, in `table` when named, else the first table that has it. */
export function columnType(schema: Schema, table: string | null, column: string): string | null {
  for (const t of table === null ? schema.tables.values() : [schema.tables.get(table)]) {
    const c = t?.columns.find((c) => c.name.toLowerCase() === column);
    if (c) return c.type;
  }
  return null;
}
