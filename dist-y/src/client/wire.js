"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.parseLine = parseLine;
const errors_js_1 = require("./errors.js");
const json_js_1 = require("./json.js");
/** Parses one NDJSON line; in 'bigint' mode ids (row, change) still come back as numbers. */
function parseLine(line, ints) {
    const ev = (0, json_js_1.parseExact)(line, ints);
    if (ev === null || typeof ev !== 'object' || Array.isArray(ev))
        throw new errors_js_1.PatinaError('protocol', `unexpected line from the agent: ${line.slice(0, 200)}`);
    if (ints === 'bigint') {
        if ('row' in ev)
            ev.row[0] = Number(ev.row[0]);
        else if ('change' in ev) {
            const c = ev.change;
            c[1] = Number(c[1]);
            c[3] = Number(c[3]);
        }
        else if ('eoq' in ev) {
            const e = ev.eoq;
            e.time = Number(e.time);
            if (e.change_id !== undefined)
                e.change_id = Number(e.change_id);
        }
    }
    return ev;
}
//# sourceMappingURL=wire.js.map