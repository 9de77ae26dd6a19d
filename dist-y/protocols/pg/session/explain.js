"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.explainText = explainText;
exports.explainLines = explainLines;
const constraint_errors_1 = require("./constraint-errors");
/** EXPLAIN [ANALYZE]'s lines: the plan, and for ANALYZE the statement run (by `run`), its rows counted and timed. */
async function explainText(plan, explain, run) {
    const { inner } = explain;
    const lines = explainLines(plan, inner);
    if (!explain.run)
        return lines;
    const t0 = performance.now();
    const out = await run();
    let rows = out.all?.length ?? 0;
    if (out.rows)
        for (let batch = await out.rows.next(); batch; batch = await out.rows.next())
            rows += batch.length;
    if (out.affected !== undefined && inner.command !== 'SELECT')
        rows = out.affected;
    const ms = performance.now() - t0;
    lines[0] += ` (actual rows=${rows} loops=1)`;
    lines.push(`Execution Time: ${ms.toFixed(3)} ms`);
    return lines;
}
/** The plan lines EXPLAIN answers for `inner` from SQLite's plan rows. */
function explainLines(plan, inner) {
    let lines = planLines(plan);
    if (!inner.readonly) {
        // as PostgreSQL shows a write: the write on its table, over the plan of what it reads
        const verb = inner.command === 'TRUNCATE TABLE' ? 'Delete' : inner.command[0] + inner.command.slice(1).toLowerCase();
        const reads = plan.length > 0 ? lines.map((l) => `  ->  ${l.trimStart().replace(/^-> {2}/, '')}`) : ['  ->  Result'];
        lines = [`${verb} on ${(0, constraint_errors_1.targetTable)(inner.sql) ?? '?'}`, ...reads];
    }
    return lines;
}
/** SQLite's EXPLAIN QUERY PLAN rows (id, parent, notused, detail) as PostgreSQL-style indented lines. */
function planLines(rows) {
    const depth = new Map([[0, -1]]);
    const lines = [];
    for (const [id, parent, , detail] of rows) {
        const d = (depth.get(parent) ?? -1) + 1;
        depth.set(id, d);
        lines.push(d === 0 ? String(detail) : `${' '.repeat(6 * (d - 1))}  ->  ${detail}`);
    }
    return lines.length > 0 ? lines : ['(no plan)'];
}
//# sourceMappingURL=explain.js.map