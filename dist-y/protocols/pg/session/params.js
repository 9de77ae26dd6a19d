"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.paramRecord = paramRecord;
/** Positional parameters as SQLite's named ones ($1 is "1"); undefined when there are none. */
function paramRecord(list) {
    // literals for the common counts: adding indexed properties one by one goes through V8's runtime
    switch (list.length) {
        case 0:
            return undefined;
        case 1:
            return { 1: list[0] };
        case 2:
            return { 1: list[0], 2: list[1] };
        case 3:
            return { 1: list[0], 2: list[1], 3: list[2] };
    }
    const params = {};
    for (let i = 0; i < list.length; i++)
        params[i + 1] = list[i];
    return params;
}
//# sourceMappingURL=params.js.map