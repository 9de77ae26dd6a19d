"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.lockTable = lockTable;
const sqlstate_1 = require("../sqlstate");
/** The command tag of a LOCK statement Patina honours; a 0A000 error naming the mode otherwise. */
function lockTable(sig) {
    const words = sig.map((t) => t.text.toUpperCase());
    const inAt = words.indexOf('IN');
    const mode = inAt < 0 ? 'ACCESS EXCLUSIVE' : words.slice(inAt + 1, words.lastIndexOf('MODE')).join(' ');
    if (mode !== 'ACCESS SHARE')
        throw (0, sqlstate_1.pgError)('0A000', `LOCK TABLE ... IN ${mode} MODE is not supported: Patina can only take ACCESS SHARE`);
    return 'LOCK TABLE';
}
//# sourceMappingURL=lock-table.js.map