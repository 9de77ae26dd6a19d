"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.Real = void 0;
exports.real = real;
/** A number to bind as REAL even when it is whole (see real()). */
class Real {
    value;
    constructor(value) {
        this.value = value;
    }
}
exports.Real = Real;
/** Binds a number as REAL: `real(2)` is 2.0, where a plain 2 binds as INTEGER. */
function real(value) {
    return new Real(value);
}
//# sourceMappingURL=types.js.map