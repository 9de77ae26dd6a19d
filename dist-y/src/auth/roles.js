"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.roleAllows = roleAllows;
const config_1 = require("../config/config");
/** Whether a principal with role `have` may do what needs `need` (admin ⊇ write ⊇ read). */
function roleAllows(have, need) {
    return config_1.ROLES.indexOf(have) >= config_1.ROLES.indexOf(need);
}
//# sourceMappingURL=roles.js.map