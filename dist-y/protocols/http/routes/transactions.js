"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.handleTransaction = handleTransaction;
exports.transactionJson = transactionJson;
const errors_1 = require("../errors");
const node_perf_hooks_1 = require("node:perf_hooks");
const errors_2 = require("../../../src/errors");
const statements_1 = require("../statements");
const elapsed_1 = require("../../../src/engine/elapsed");
const values_1 = require("../../../src/engine/values");
/** POST /v1/transactions: statements in one transaction; a failure rolls back all and names the statement. */
function handleTransaction(svc) {
    return async (ctx) => {
        const body = ctx.state.body;
        if (!Array.isArray(body))
            throw new errors_2.PatinaError('user', 'body must be a JSON array of statements');
        if (body.length === 0)
            throw new errors_2.PatinaError('user', 'body is an empty array; a transaction needs at least one statement');
        const statements = body.map((s, i) => (0, statements_1.parseStatement)(s, `statement ${i + 1}`));
        const t0 = node_perf_hooks_1.performance.now();
        try {
            const { results, change } = await svc.transaction(statements);
            // The header as Koa's `ctx.type = 'application/json'` writes it, without its MIME lookup.
            ctx.set('content-type', 'application/json; charset=utf-8');
            ctx.body = transactionJson(results, (0, elapsed_1.secondsSince)(t0), svc.describeChange ? svc.describeChange(change) : {});
        }
        catch (err) {
            if (!(err instanceof errors_2.PatinaError) || err.kind === 'internal' || err.kind === 'unavailable')
                throw err;
            // The status from the error's kind, as every route: a constraint conflict is 409, a bad statement 400.
            ctx.status = errors_1.STATUS[err.kind];
            ctx.body = { results: [{ error: err.message }], time: (0, elapsed_1.secondsSince)(t0) };
        }
    };
}
/**
 * The answer's JSON text, `{"results": [{"rows_affected", "time", "columns"?, "rows"?}], "time", ...extra}`,
 * written directly: RETURNING rows cell by cell (cellToJson keeps 64-bit integers exact, which
 * JSON.stringify cannot), the rest as the numbers and strings they are.
 */
function transactionJson(results, time, extra) {
    let s = '{"results":[';
    for (let i = 0; i < results.length; i++) {
        const r = results[i];
        s += `${i ? ',' : ''}{"rows_affected":${(0, values_1.cellToJson)(r.rowsAffected)},"time":${(0, values_1.cellToJson)(r.time)}`;
        if (r.rows && r.columns) {
            s += `,"columns":${JSON.stringify(r.columns.map((c) => c.name))},"rows":[`;
            for (let j = 0; j < r.rows.length; j++)
                s += (j ? ',' : '') + (0, values_1.rowToJson)(r.rows[j]);
            s += ']';
        }
        s += '}';
    }
    s += `],"time":${(0, values_1.cellToJson)(time)}`;
    for (const k in extra)
        s += `,${JSON.stringify(k)}:${(0, values_1.cellToJson)(extra[k])}`;
    return s + '}';
}
//# sourceMappingURL=transactions.js.map