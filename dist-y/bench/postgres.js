"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.stopPostgres = exports.startPostgres = exports.PG_BIN = void 0;
exports.postmasterPid = postmasterPid;
exports.psql = psql;
exports.cpuOfTree = cpuOfTree;
exports.pgbench = pgbench;
// A throwaway PostgreSQL server for the benchmarks' anchors (initdb into a temp folder), psql, and
// pgbench runs measured with the CPU time they cost the server and pgbench. Shared by pg.bench.ts
// and writes.bench.ts.
const node_child_process_1 = require("node:child_process");
const postgres_server_1 = require("../test/helpers/postgres-server");
const node_fs_1 = __importDefault(require("node:fs"));
const node_path_1 = __importDefault(require("node:path"));
var postgres_server_2 = require("../test/helpers/postgres-server");
Object.defineProperty(exports, "PG_BIN", { enumerable: true, get: function () { return postgres_server_2.PG_BIN; } });
Object.defineProperty(exports, "startPostgres", { enumerable: true, get: function () { return postgres_server_2.startPostgres; } });
Object.defineProperty(exports, "stopPostgres", { enumerable: true, get: function () { return postgres_server_2.stopPostgres; } });
/** The postmaster's pid (the root of the server's processes). */
function postmasterPid(pg) {
    return Number(node_fs_1.default.readFileSync(node_path_1.default.join(pg.dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
}
/** Runs SQL with psql; user 'bench' is the bench's PostgreSQL, connecting to database postgres. */
function psql(port, user, sql) {
    return (0, postgres_server_1.run)('psql', [
        '-X',
        '-q',
        '-A',
        '-t',
        '-v',
        'ON_ERROR_STOP=1',
        '-h',
        '127.0.0.1',
        '-p',
        String(port),
        '-U',
        user,
        '-d',
        user === 'bench' ? 'postgres' : 'db',
        '-c',
        sql,
    ]);
}
const TICK_US = 1e6 / Number((0, node_child_process_1.spawnSync)('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim() || 100);
/** CPU time (user, system; µs) of a process and its descendants, living and reaped (Linux /proc). */
function cpuOfTree(pid) {
    const total = { user: 0, sys: 0 };
    const visit = (p) => {
        let stat;
        try {
            stat = node_fs_1.default.readFileSync(`/proc/${p}/stat`, 'utf8');
        }
        catch {
            return; // gone
        }
        const f = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // f[11] is field 14 (utime)
        total.user += (Number(f[11]) + Number(f[13])) * TICK_US;
        total.sys += (Number(f[12]) + Number(f[14])) * TICK_US;
        for (const task of node_fs_1.default.readdirSync(`/proc/${p}/task`)) {
            const kids = node_fs_1.default.readFileSync(`/proc/${p}/task/${task}/children`, 'utf8').trim();
            for (const k of kids ? kids.split(' ') : [])
                visit(Number(k));
        }
    };
    visit(pid);
    return total;
}
/**
 * One pgbench run (`args`: script, duration, clients, mode) against `port`; `serverPid` is the root
 * of the server's processes. pgbench's own CPU is this process's reaped-children time (the only
 * child that exits during the run).
 */
async function pgbench(port, user, args, serverPid) {
    const self0 = cpuOfTree(process.pid);
    const server0 = cpuOfTree(serverPid);
    const out = (0, postgres_server_1.run)('pgbench', [
        '-n',
        ...args,
        '-h',
        '127.0.0.1',
        '-p',
        String(port),
        '-U',
        user,
        user === 'bench' ? 'postgres' : 'db',
    ]);
    await new Promise((r) => setTimeout(r, 300)); // PostgreSQL's backends exit and are reaped after pgbench disconnects
    const server1 = cpuOfTree(serverPid);
    const self1 = cpuOfTree(process.pid);
    const m = /tps = ([\d.]+) \(without initial connection time\)/.exec(out);
    const n = /number of transactions actually processed: (\d+)/.exec(out);
    if (!m || !n)
        throw new Error(`no tps in pgbench output:\n${out}`);
    const failed = Number(/number of failed transactions: (\d+)/.exec(out)?.[1] ?? 0);
    const txns = Number(n[1]);
    const server = (k) => (server1[k] - server0[k]) / txns;
    // this process's own tree includes the servers it started; subtract their share
    const clientUs = (self1.user + self1.sys - self0.user - self0.sys - (server1.user + server1.sys - server0.user - server0.sys)) /
        txns;
    return { tps: Number(m[1]), failed, serverUser: server('user'), serverSys: server('sys'), clientUs };
}
//# sourceMappingURL=postgres.js.map