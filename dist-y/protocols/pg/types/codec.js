"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.bytes = exports.NotEncodable = exports.BadBinary = void 0;
exports.expectLength = expectLength;
exports.notA = notA;
/** A binary value that is no value of its type (wrong length, bad digits): SQLSTATE 22P03 unless `code` says otherwise. */
class BadBinary extends Error {
    code;
    constructor(message, code = '22P03') {
        super(message);
        this.code = code;
    }
}
exports.BadBinary = BadBinary;
/** A stored value that has no binary form in the column's type (text in a date column, say). */
class NotEncodable extends Error {
}
exports.NotEncodable = NotEncodable;
/** Fails unless `raw` is `n` bytes long. */
function expectLength(raw, n, type) {
    if (raw.length !== n)
        throw new BadBinary(`${type} takes ${n} bytes, got ${raw.length}`);
}
/** A buffer of `n` bytes from the shared pool (small values are the rule). */
const bytes = (n) => Buffer.allocUnsafe(n);
exports.bytes = bytes;
/** Fails for a value the type cannot encode, naming the value (clipped) and the type. */
function notA(type, v) {
    const shown = v instanceof Uint8Array ? `a ${v.length}-byte blob` : JSON.stringify(String(v).slice(0, 40));
    throw new NotEncodable(`${shown} is not a value of type ${type}`);
}
//# sourceMappingURL=codec.js.map