"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.logSchemaPlan = logSchemaPlan;
exports.reloadSchemaLogged = reloadSchemaLogged;
const log_1 = require("../../observability/log");
const diff_1 = require("./diff");
/** Logs what a schema plan changed under `msg`; a plan that changed nothing is not logged. */
function logSchemaPlan(msg, plan) {
    if (plan.statements.length > 0)
        log_1.log.info((0, diff_1.planSummary)(plan), msg);
}
/**
 * Re-reads the schema files (POST /v1/admin/reload, `patina reload`), logging what changed or
 * why it was refused; resolves with the plan's summary.
 */
async function reloadSchemaLogged(engine) {
    let plan;
    try {
        plan = await engine.reloadSchema();
    }
    catch (err) {
        log_1.log.warn((0, log_1.errorFields)(err), 'schema reload refused');
        throw err;
    }
    logSchemaPlan('schema reloaded', plan);
    return (0, diff_1.planSummary)(plan);
}
//# sourceMappingURL=plan-log.js.map