"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.psqlOk = psqlOk;
exports.createDatabase = createDatabase;
exports.startCatalogPair = startCatalogPair;
exports.startOracle = startOracle;
exports.oracleSuite = oracleSuite;
exports.sameOnBoth = sameOnBoth;
// A Patina agent and a real PostgreSQL 15 holding the same tables (test/fixtures/catalog-schema.ts):
// PostgreSQL is the oracle of what a client's schema browsing should see.
const strict_1 = __importDefault(require("node:assert/strict"));
const node_child_process_1 = require("node:child_process");
const node_fs_1 = __importDefault(require("node:fs"));
const node_os_1 = __importDefault(require("node:os"));
const node_path_1 = __importDefault(require("node:path"));
const catalog_schema_1 = require("../fixtures/catalog-schema");
const agent_1 = require("./agent");
const pg_1 = require("./pg");
const postgres_server_1 = require("./postgres-server");
/** Runs psql on `port` as tester@db; its stdout, failing the test on any error. */
function psqlOk(port, commands, extra = []) {
    const r = (0, pg_1.psql)(port, commands, extra);
    strict_1.default.equal(r.status, 0, `psql ${commands.join('; ')}:\n${r.stderr}`);
    return r.stdout;
}
/** CREATE DATABASE on a PostgreSQL server (connected to its `postgres` database). */
function createDatabase(port, name) {
    const r = (0, node_child_process_1.spawnSync)('psql', ['-X', '-h', '127.0.0.1', '-p', String(port), '-U', 'tester', '-d', 'postgres', '-c', `CREATE DATABASE ${name}`], { encoding: 'utf8' });
    strict_1.default.equal(r.status, 0, `CREATE DATABASE ${name}: ${r.stderr}`);
}
/**
 * Starts both servers with the fixture's schema (and its rows when `rows`), or with a schema of the
 * test's own: `schemas` as Patina's schema file and PostgreSQL's DDL, then `rows` run on both.
 */
async function startCatalogPair(opts = {}) {
    const dir = node_fs_1.default.mkdtempSync(node_path_1.default.join(node_os_1.default.tmpdir(), 'patina-catalog-'));
    const postgres = await (0, postgres_server_1.startPostgres)(dir, ['fsync=off', 'TimeZone=UTC'], 'tester');
    let agent;
    try {
        createDatabase(postgres.port, 'db');
        psqlOk(postgres.port, [opts.schemas?.postgres ?? catalog_schema_1.POSTGRES_SCHEMA]);
        agent = await (0, agent_1.startAgent)({ schema: opts.schemas?.patina ?? catalog_schema_1.PATINA_SCHEMA, args: ['--pg-addr', '127.0.0.1:0'] });
        const rows = opts.rows === true ? catalog_schema_1.ROWS : opts.rows || [];
        for (const port of [postgres.port, agent.pg.port])
            if (rows.length > 0)
                psqlOk(port, rows);
    }
    catch (err) {
        await agent?.dispose();
        (0, postgres_server_1.stopPostgres)(postgres);
        node_fs_1.default.rmSync(dir, { recursive: true, force: true });
        throw err;
    }
    const a = agent;
    return {
        agent: a,
        postgres,
        patinaPort: a.pg.port,
        postgresPort: postgres.port,
        async dispose() {
            await a.dispose();
            (0, postgres_server_1.stopPostgres)(postgres);
            node_fs_1.default.rmSync(dir, { recursive: true, force: true });
        },
    };
}
async function startOracle(opts = {}) {
    const pair = await startCatalogPair(opts);
    const patina = (0, pg_1.pgClient)(pair.patinaPort);
    const postgres = (0, pg_1.pgClient)(pair.postgresPort);
    await patina.connect();
    await postgres.connect();
    return {
        pair,
        patina,
        postgres,
        async close() {
            await patina.end();
            await postgres.end();
            await pair.dispose();
        },
    };
}
/**
 * The oracle for one `describe`: both servers started before its tests (the same schema on each)
 * and closed after; `same` runs a statement on both and compares, `clients()` gives the clients.
 */
function oracleSuite(schema, rows) {
    let o;
    before(async () => {
        o = await startOracle({ schemas: { patina: schema, postgres: schema }, rows });
    });
    after(() => o?.close());
    return { same: (sql, params) => sameOnBoth(o, sql, params), clients: () => o };
}
/**
 * Runs `sql` on both servers; fails unless the rows (in any order when `sorted`), the column type
 * OIDs and the row counts are the same. Returns Patina's rows.
 */
async function sameOnBoth(o, sql, params, opts = {}) {
    const p = await o.patina.query({ text: sql, values: params, rowMode: 'array' });
    const g = await o.postgres.query({ text: sql, values: params, rowMode: 'array' });
    const order = (rows) => opts.sorted ? [...rows].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1)) : rows;
    strict_1.default.deepEqual(order(p.rows), order(g.rows), `${sql} ${JSON.stringify(params ?? [])}`);
    const types = (r) => r.fields.map((f) => f.dataTypeID);
    if (opts.types !== false)
        strict_1.default.deepEqual(types(p), types(g), `column types of ${sql}`);
    strict_1.default.equal(p.rowCount, g.rowCount, `row count of ${sql}`);
    return p.rows;
}
//# sourceMappingURL=catalog-pair.js.map