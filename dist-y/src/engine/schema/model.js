"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.INTERNAL_PREFIX = void 0;
exports.isInternalName = isInternalName;
/** Internal tables (the agent's own bookkeeping, clocks) start with this and are never schema tables. */
exports.INTERNAL_PREFIX = '__patina';
function isInternalName(name) {
    return name.toLowerCase().startsWith(exports.INTERNAL_PREFIX) || name.toLowerCase().startsWith('sqlite_');
}
//# sourceMappingURL=model.js.map