"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.datedColumns = datedColumns;
exports.notNullEverywhere = notNullEverywhere;
exports.columnType = columnType;
const datedCache = new WeakMap();
/**
 * The lower-case names of the schema's date, time and timestamp columns ('date'), interval ones
 * ('interval'), boolean ones ('bool'), json ones ('json': `doc - 'key'`) and numeric ones ('numeric':
 * a cast of NaN to an integer), of any table, for mayHaveTypedOperators.
 */
/** Arrays of integers, floats and text, declared ('BIGINT[]', 'varchar(20)[]'). */
const ORDERED_ARRAY = /^\s*((big|small)?int(eger|[248])?|real|float[48]?|double precision|text|varchar|character varying)\s*(\(\s*\d+\s*\))?\s*\[/i;
function datedColumns(schema) {
    let names = datedCache.get(schema);
    if (!names) {
        const found = new Map();
        for (const t of schema.tables.values())
            for (const c of t.columns) {
                // numeric and boolean arrays compare by their elements' values (typed-operators.ts)
                const keyedArray = /\[\s*\]\s*$/.test(c.type) && /^\s*(numeric|decimal|bool)/i.exec(c.type);
                if (keyedArray && !found.has(c.name.toLowerCase()))
                    found.set(c.name.toLowerCase(), /^bool/i.test(keyedArray[1]) ? 'bool[]' : 'numeric[]');
                // and arrays of other numbers and of text are ordered by their elements
                else if (ORDERED_ARRAY.test(c.type) && !found.has(c.name.toLowerCase()))
                    found.set(c.name.toLowerCase(), 'ordered[]');
                else if (/interval/i.test(c.type))
                    found.set(c.name.toLowerCase(), 'interval');
                else if (/date|time/i.test(c.type))
                    found.set(c.name.toLowerCase(), 'date');
                else if (/^bool/i.test(c.type) && !found.has(c.name.toLowerCase()))
                    found.set(c.name.toLowerCase(), 'bool');
                else if (/^json/i.test(c.type) && !found.has(c.name.toLowerCase()))
                    found.set(c.name.toLowerCase(), 'json');
                else if (/numeric|decimal/i.test(c.type) && !found.has(c.name.toLowerCase()))
                    found.set(c.name.toLowerCase(), 'numeric');
            }
        names = found;
        datedCache.set(schema, names);
    }
    return names;
}
const notNullCache = new WeakMap();
/** Whether every table with a column of this name declares it NOT NULL or in its primary key. */
function notNullEverywhere(schema, column) {
    let known = notNullCache.get(schema);
    if (!known)
        notNullCache.set(schema, (known = new Map()));
    let v = known.get(column);
    if (v === undefined) {
        const cols = [...schema.tables.values()].flatMap((t) => t.columns.filter((c) => c.name.toLowerCase() === column));
        v = cols.length > 0 && cols.every((c) => c.notNull || c.pk > 0);
        known.set(column, v);
    }
    return v;
}
/** The declared type of a schema column, in `table` when named, else the first table that has it. */
function columnType(schema, table, column) {
    for (const t of table === null ? schema.tables.values() : [schema.tables.get(table)]) {
        const c = t?.columns.find((c) => c.name.toLowerCase() === column);
        if (c)
            return c.type;
    }
    return null;
}
//# sourceMappingURL=schema-facts.js.map