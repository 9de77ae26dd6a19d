"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.markComparedLiterals = markComparedLiterals;
// String literals compared with a boolean, date, time or timestamp, read as that type (SQLite holds
// booleans as 1 and 0 and dates as text, and would compare the literal's text with them).
const dates_1 = require("../../../src/engine/dates");
const pg_functions_1 = require("../../../src/engine/pg-functions");
const oids_1 = require("../types/oids");
const DATE_INPUT = {
    [oids_1.OID.date]: dates_1.castDate,
    [oids_1.OID.timestamp]: dates_1.castTimestamp,
    [oids_1.OID.timestamptz]: (v) => (0, dates_1.castTimestamptz)(v)?.replace(/\+00$/, '') ?? null,
    [oids_1.OID.time]: dates_1.castTime,
};
/**
 * String literals compared with a boolean ('t', 'yes': `num:1`, SQLite holds booleans as 1 and 0
 * and compared the text), or with a date, time or timestamp (`ts > '2024-01-15 10:30'`, BETWEEN, IN):
 * 'str:' and the literal as the type stores it ('2024-01-15 10:30:00'), since SQLite compares the
 * text and '2024-01-15 10:30:00' > '2024-01-15 10:30' there; bad input is PostgreSQL's error.
 */
function markComparedLiterals(items, type, out) {
    if (type === oids_1.OID.bool) {
        for (const lit of items)
            if (typeof lit?.A_Const?.sval?.sval === 'string')
                out.set(lit.A_Const.location, `num:${(0, pg_functions_1.pgBool)(lit.A_Const.sval.sval) ? 1 : 0}`);
        return;
    }
    const input = DATE_INPUT[type];
    if (!input)
        return;
    for (const lit of items) {
        const text = lit?.A_Const?.sval?.sval;
        if (typeof text !== 'string')
            continue;
        const v = input(text);
        if (v !== null)
            out.set(lit.A_Const.location, `str:${v}`);
    }
}
//# sourceMappingURL=compared-literals.js.map