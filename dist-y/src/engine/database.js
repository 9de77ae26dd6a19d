"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.openDatabase = openDatabase;
exports.compile = compile;
const node_fs_1 = __importDefault(require("node:fs"));
const node_path_1 = __importDefault(require("node:path"));
const knex_1 = __importDefault(require("knex"));
const dates_1 = require("./dates");
const pg_functions_1 = require("./pg-functions");
/** Opens (creating if needed) the SQLite file in WAL mode with the pragmas the agent relies on. */
async function openDatabase(file) {
    if (file !== ':memory:')
        node_fs_1.default.mkdirSync(node_path_1.default.dirname(node_path_1.default.resolve(file)), { recursive: true });
    const knex = (0, knex_1.default)({
        client: 'better-sqlite3',
        connection: { filename: file },
        useNullAsDefault: true,
        pool: {
            min: 1,
            max: 1,
            afterCreate(conn, done) {
                try {
                    conn.pragma('journal_mode = WAL');
                    // NORMAL in WAL mode: a commit is in the OS before it is acknowledged, so it survives a
                    // SIGKILL of the agent; only an OS crash or power loss can take the last commits.
                    conn.pragma('synchronous = NORMAL');
                    conn.pragma('busy_timeout = 5000');
                    conn.pragma('foreign_keys = OFF');
                    // The writer's page cache: 64 MiB at most, taken as pages are used. At SQLite's default
                    // (2 MiB) a random one-row write to a 100,000-row table and its clock table read most of
                    // its pages back from the OS each time.
                    conn.pragma('cache_size = -65536');
                    // Change capture's per-transaction state lives in temp tables (src/crdt/clock-sql.ts).
                    conn.pragma('temp_store = MEMORY');
                    // ON so that rows deleted by REPLACE conflict resolution fire delete triggers: change
                    // capture must see them (SQLite skips those triggers when this is OFF).
                    conn.pragma('recursive_triggers = ON');
                    conn.defaultSafeIntegers(true);
                    (0, dates_1.installDateFunctions)(conn); // PostgreSQL's date functions, for writes that use them
                    (0, pg_functions_1.installPgFunctions)(conn); // and its strict casts and division
                    done(null, conn);
                }
                catch (err) {
                    done(err, conn);
                }
            },
        },
    });
    // The agent holds the single connection for its lifetime; knex gets it back on destroy().
    const db = (await knex.client.acquireConnection());
    return { knex, db };
}
/** Runs a query built with knex synchronously on the writer connection. */
function compile(qb) {
    const native = qb.toSQL().toNative();
    return { sql: native.sql, bindings: [...native.bindings] };
}
//# sourceMappingURL=database.js.map