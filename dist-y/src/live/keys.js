"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.encodeKey = encodeKey;
exports.encodeValue = encodeValue;
exports.identityKey = identityKey;
exports.identityParts = identityParts;
/**
 * Row identity as text. A source row is named by its primary-key values; a result row of a selection
 * or join by the primary keys of every table occurrence it was built from. Integers compare as
 * integers whatever their JS type (number or bigint), so keys from a changeset and keys read back
 * with safe integers agree.
 */
function encodeKey(values) {
    let s = '';
    for (const v of values)
        s += (s ? '\u001f' : '') + encodeValue(v);
    return s;
}
/** One value as encodeKey encodes it (encodeKey([v]) without the array). */
function encodeValue(v) {
    if (v === null || v === undefined)
        return 'n';
    switch (typeof v) {
        case 'bigint':
            return 'i' + v.toString();
        case 'number':
            return Number.isInteger(v) ? 'i' + v.toString() : 'r' + v.toString();
        case 'string':
            return 's' + v.replace(/\\/g, '\\\\').replace(/\u001f/g, '\\u');
        case 'boolean':
            return v ? 'i1' : 'i0';
    }
    if (v instanceof Uint8Array)
        return 'b' + Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex');
    return 'x' + String(v);
}
/** The identity of a result row from its per-occurrence key parts. */
function identityKey(parts) {
    return parts.length === 1 ? parts[0] : JSON.stringify(parts);
}
/** The per-occurrence key parts of an identity made by identityKey with `n` parts. */
function identityParts(key, n) {
    return n === 1 ? [key] : JSON.parse(key);
}
//# sourceMappingURL=keys.js.map