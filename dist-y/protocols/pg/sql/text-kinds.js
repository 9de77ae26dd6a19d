"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.TEXT_FUNCTIONS = void 0;
exports.textKind = textKind;
// How a value made text (a cast to text, `||`, concat, concat_ws, format) is printed where SQLite's
// text of the stored value differs from PostgreSQL's: the kinds __pg_text (src/engine/pg-functions.ts)
// takes, read off the parse tree's types (typed-operators.ts marks them).
const oids_1 = require("../types/oids");
const registry_1 = require("../types/registry");
const numeric_scale_1 = require("./numeric-scale");
/** Types whose PostgreSQL text differs from SQLite's text of the stored value (__pg_text prints them). */
const TEXT_KIND = {
    [oids_1.OID.bool]: 'bool',
    [oids_1.OID.float8]: 'float8',
    [oids_1.OID.float4]: 'float4',
    [oids_1.OID.date]: 'date',
    [oids_1.OID.timestamp]: 'timestamp',
    [oids_1.OID.timestamptz]: 'timestamptz',
    [oids_1.OID.time]: 'time',
    [oids_1.OID.jsonb]: 'jsonb',
    [oids_1.OID.bytea]: 'bytea',
    // arrays built by expressions keep SQLite's text of their elements (array_agg of booleans: {1,0})
    [(0, registry_1.arrayOidOf)(oids_1.OID.bool)]: 'array:boolean',
    [(0, registry_1.arrayOidOf)(oids_1.OID.float8)]: 'array:double precision',
    [(0, registry_1.arrayOidOf)(oids_1.OID.float4)]: 'array:real',
    // arrays of dates keep their elements as the columns do (a year BC as '/9956')
    [(0, registry_1.arrayOidOf)(oids_1.OID.date)]: 'datearray:date',
    [(0, registry_1.arrayOidOf)(oids_1.OID.timestamp)]: 'datearray:timestamp',
    [(0, registry_1.arrayOidOf)(oids_1.OID.timestamptz)]: 'datearray:timestamptz',
};
/** How __pg_text prints an expression made text, when SQLite's text of the value would differ; null when it would not. */
function textKind(typer, n) {
    const type = typer.type(n);
    if (type === oids_1.OID.numeric) {
        const scale = (0, numeric_scale_1.scaleOf)(typer, n);
        return scale === undefined ? null : `numeric:${scale}`;
    }
    return TEXT_KIND[type] ?? null;
}
/** Functions that make text of each argument. */
exports.TEXT_FUNCTIONS = new Set(['concat', 'concat_ws', 'format']);
//# sourceMappingURL=text-kinds.js.map