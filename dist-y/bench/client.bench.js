"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
// What the client library costs when reading: rows/s of a 300,000-row result read through
// PatinaClient.query() (its own NDJSON reader and integer-exact JSON parse), against the same
// result read with fetch, the same line splitting and plain JSON.parse (which rounds integers past
// 2^53), in the same run. Once with small integers (the library takes JSON.parse's path) and once
// with integers past 2^53 in every row (its own parser).
const agent_1 = require("../test/helpers/agent");
const client_1 = require("../src/client");
const ndjson_1 = require("../src/client/ndjson");
const util_1 = require("./util");
const N = 300_000;
const ROUNDS = 3;
const SMALL = `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ${N}) SELECT x, 'row ' || x AS label, x * 1.5 AS r FROM c`;
const BIG = `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ${N}) SELECT x + 9007199254740993, 'row ' || x AS label, x * 1.5 AS r FROM c`;
async function plain(url, sql) {
    const t0 = performance.now();
    const res = await fetch(`${url}/v1/queries`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(sql),
    });
    let rows = 0;
    for await (const line of (0, ndjson_1.ndjsonLines)(res.body)) {
        const ev = JSON.parse(line);
        if (ev.row)
            rows++;
    }
    if (rows !== N)
        throw new Error(`read ${rows} rows`);
    return N / ((performance.now() - t0) / 1000);
}
async function library(client, sql) {
    const t0 = performance.now();
    let rows = 0;
    for await (const _ of client.query(sql))
        rows++;
    if (rows !== N)
        throw new Error(`read ${rows} rows`);
    return N / ((performance.now() - t0) / 1000);
}
async function main() {
    const agent = await new agent_1.AgentProcess({ schema: 'CREATE TABLE t (id INTEGER NOT NULL PRIMARY KEY);\n' }).start();
    try {
        const auto = new client_1.PatinaClient({ url: agent.http });
        const bigint = new client_1.PatinaClient({ url: agent.http, integers: 'bigint' });
        await plain(agent.http, SMALL); // warm-up
        await library(auto, SMALL);
        const r = { plainSmall: [], libSmall: [], plainBig: [], libBig: [], libBigint: [] };
        for (let i = 0; i < ROUNDS; i++) {
            r.plainSmall.push(await plain(agent.http, SMALL));
            r.libSmall.push(await library(auto, SMALL));
            r.plainBig.push(await plain(agent.http, BIG));
            r.libBig.push(await library(auto, BIG));
            r.libBigint.push(await library(bigint, SMALL));
        }
        (0, util_1.report)('query() rows/s, small integers', (0, util_1.median)(r.libSmall), 'rows/s', 'fetch + JSON.parse', (0, util_1.median)(r.plainSmall));
        (0, util_1.report)('query() rows/s, integers past 2^53 (exact)', (0, util_1.median)(r.libBig), 'rows/s', 'fetch + JSON.parse (rounds them)', (0, util_1.median)(r.plainBig));
        (0, util_1.report)("query() rows/s, integers: 'bigint'", (0, util_1.median)(r.libBigint), 'rows/s', 'fetch + JSON.parse', (0, util_1.median)(r.plainSmall));
    }
    finally {
        await agent.dispose();
    }
}
void main().then(() => process.exit(0), (err) => {
    console.error(err);
    process.exit(1);
});
//# sourceMappingURL=client.bench.js.map