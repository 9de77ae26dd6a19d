"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.secondsSince = secondsSince;
const node_perf_hooks_1 = require("node:perf_hooks");
/** Seconds since `t0` (a performance.now() reading), rounded to microseconds: what responses report as "time". */
function secondsSince(t0) {
    return Math.round((node_perf_hooks_1.performance.now() - t0) * 1000) / 1e6;
}
//# sourceMappingURL=elapsed.js.map