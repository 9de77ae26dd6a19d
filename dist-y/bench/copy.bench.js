"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
// COPY over the PG port: rows per second loaded with COPY FROM STDIN (pg-copy-streams) against the
// same rows as 500-row INSERT statements in one BEGIN block, and dumped with COPY TO STDOUT against
// a plain SELECT of the same rows through node-postgres; one agent, alternating rounds, medians.
const node_stream_1 = require("node:stream");
const promises_1 = require("node:stream/promises");
const agent_1 = require("../test/helpers/agent");
const pg_1 = require("../test/helpers/pg");
const util_1 = require("./util");
// eslint-disable-next-line @typescript-eslint/no-require-imports
const copyStreams = require('pg-copy-streams');
const ROWS = 100_000;
const ROUNDS = 3;
const SCHEMA = "CREATE TABLE t (id INTEGER NOT NULL PRIMARY KEY, name TEXT NOT NULL DEFAULT '', score REAL, note TEXT);";
const row = (i) => [i, `name ${i}`, i / 4, i % 3 ? `note number ${i}` : null];
async function copyIn(c) {
    let text = '';
    for (let i = 1; i <= ROWS; i++) {
        const [id, name, score, note] = row(i);
        text += `${id}\t${name}\t${score}\t${note ?? '\\N'}\n`;
    }
    const t0 = performance.now();
    await (0, promises_1.pipeline)(node_stream_1.Readable.from([Buffer.from(text)]), c.query(copyStreams.from('COPY t FROM STDIN')));
    return ROWS / ((performance.now() - t0) / 1000);
}
async function inserts(c) {
    const batches = [];
    for (let i = 1; i <= ROWS; i += 500) {
        const values = [];
        for (let k = i; k < i + 500 && k <= ROWS; k++) {
            const [id, name, score, note] = row(k);
            values.push(`(${id}, '${name}', ${score}, ${note === null ? 'NULL' : `'${note}'`})`);
        }
        batches.push(`INSERT INTO t (id, name, score, note) VALUES ${values.join(', ')}`);
    }
    const t0 = performance.now();
    await c.query('BEGIN');
    for (const b of batches)
        await c.query(b);
    await c.query('COMMIT');
    return ROWS / ((performance.now() - t0) / 1000);
}
async function copyOut(c) {
    const t0 = performance.now();
    let lines = 0;
    for await (const chunk of c.query(copyStreams.to('COPY t TO STDOUT'))) {
        const b = chunk;
        for (let i = b.indexOf(10); i >= 0; i = b.indexOf(10, i + 1))
            lines++;
    }
    if (lines !== ROWS)
        throw new Error(`COPY TO gave ${lines} rows`);
    return ROWS / ((performance.now() - t0) / 1000);
}
async function select(c) {
    const t0 = performance.now();
    const r = await c.query({ text: 'SELECT id, name, score, note FROM t', rowMode: 'array' });
    if (r.rows.length !== ROWS)
        throw new Error(`SELECT gave ${r.rows.length} rows`);
    return ROWS / ((performance.now() - t0) / 1000);
}
async function main() {
    const agent = new agent_1.AgentProcess({ schema: SCHEMA, args: ['--pg-addr', '127.0.0.1:0'] });
    await agent.start();
    const c = (0, pg_1.pgClient)(agent.pg.port);
    await c.connect();
    const r = { copyIn: [], inserts: [], copyOut: [], select: [] };
    try {
        for (let k = 0; k < ROUNDS; k++) {
            await c.query('TRUNCATE t');
            r.inserts.push(await inserts(c));
            await c.query('TRUNCATE t');
            r.copyIn.push(await copyIn(c));
            r.copyOut.push(await copyOut(c));
            r.select.push(await select(c));
        }
    }
    finally {
        await c.end();
        await agent.dispose();
    }
    process.stdout.write(`${ROWS} rows of 4 columns, ${ROUNDS} rounds, medians\n`);
    (0, util_1.report)('COPY FROM STDIN', (0, util_1.median)(r.copyIn), 'rows/s', '500-row INSERTs in one block', (0, util_1.median)(r.inserts));
    (0, util_1.report)('COPY TO STDOUT', (0, util_1.median)(r.copyOut), 'rows/s', 'SELECT through node-postgres', (0, util_1.median)(r.select));
}
main().catch((err) => {
    process.stderr.write(`${err?.stack ?? err}\n`);
    process.exit(1);
});
//# sourceMappingURL=copy.bench.js.map