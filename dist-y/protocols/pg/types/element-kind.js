"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.elementKindOf = void 0;
exports.declaredElementKind = declaredElementKind;
const oids_1 = require("./oids");
const registry_1 = require("./registry");
const KINDS = {
    [oids_1.OID.int2]: 'smallint',
    [oids_1.OID.int4]: 'integer',
    [oids_1.OID.int8]: 'bigint',
    [oids_1.OID.numeric]: 'numeric',
    [oids_1.OID.float4]: 'real',
    [oids_1.OID.float8]: 'double precision',
    [oids_1.OID.bool]: 'boolean',
    [oids_1.OID.text]: 'text',
    [oids_1.OID.varchar]: 'text',
    [oids_1.OID.bpchar]: 'text',
    [oids_1.OID.name]: 'text',
    [oids_1.OID.uuid]: 'uuid',
    [oids_1.OID.date]: 'date',
    [oids_1.OID.timestamp]: 'timestamp without time zone',
    [oids_1.OID.timestamptz]: 'timestamp with time zone',
    [oids_1.OID.time]: 'time without time zone',
    [oids_1.OID.json]: 'json',
    [oids_1.OID.jsonb]: 'jsonb',
};
/** How the elements of an array of `elem` are read and printed; undefined for those kept as written (intervals, bytea, ...). */
const elementKindOf = (elem) => KINDS[elem];
exports.elementKindOf = elementKindOf;
/** The element kind of an array column's declared type (`BIGINT[]`); undefined for no array or one kept as written. */
function declaredElementKind(decl) {
    if (!decl || !/\[\s*\]\s*$/.test(decl))
        return undefined;
    const elem = (0, registry_1.elementOidOf)((0, oids_1.oidOfDeclType)(decl));
    return elem === undefined ? undefined : KINDS[elem];
}
//# sourceMappingURL=element-kind.js.map