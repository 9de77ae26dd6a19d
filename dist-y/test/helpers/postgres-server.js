"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.PG_BIN = void 0;
exports.freePort = freePort;
exports.run = run;
exports.startPostgres = startPostgres;
exports.stopPostgres = stopPostgres;
// A throwaway PostgreSQL server (initdb into a temp folder, loopback port, socket in the folder):
// the oracle of the byte-comparison tests and the anchor of the benchmarks.
const node_child_process_1 = require("node:child_process");
const node_fs_1 = __importDefault(require("node:fs"));
const node_net_1 = __importDefault(require("node:net"));
const node_path_1 = __importDefault(require("node:path"));
exports.PG_BIN = ['/usr/lib/postgresql/15/bin', '/usr/lib/postgresql/16/bin', '/usr/lib/postgresql/17/bin'].find((d) => node_fs_1.default.existsSync(node_path_1.default.join(d, 'initdb')));
function freePort() {
    return new Promise((resolve) => {
        const s = node_net_1.default.createServer().listen(0, '127.0.0.1', () => {
            const port = s.address().port;
            s.close(() => resolve(port));
        });
    });
}
/** Runs a command (as the postgres user when we are root and `asPostgres`); its stdout, or an error with its output. */
function run(cmd, args, opts = {}) {
    const [c, a] = opts.asPostgres && process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
    const r = (0, node_child_process_1.spawnSync)(c, a, { encoding: 'utf8' });
    if (r.status !== 0)
        throw new Error(`${cmd} ${args.join(' ')} failed:\n${r.stderr}${r.stdout}`);
    return r.stdout;
}
/**
 * A throwaway PostgreSQL server in `dir` (as the postgres user when we are root: it refuses to run as
 * root), with `settings` (name=value) on top of shared_buffers=128MB; `user` is its superuser (trust).
 */
async function startPostgres(dir, settings = ['fsync=off'], user = 'bench') {
    if (!exports.PG_BIN)
        throw new Error('no PostgreSQL server binaries under /usr/lib/postgresql');
    if (process.getuid?.() === 0)
        (0, node_child_process_1.spawnSync)('chown', ['-R', 'postgres', dir]);
    run(node_path_1.default.join(exports.PG_BIN, 'initdb'), ['-D', node_path_1.default.join(dir, 'data'), '-A', 'trust', '-U', user, '--no-sync'], {
        asPostgres: true,
    });
    const port = await freePort();
    const args = [
        '-D',
        node_path_1.default.join(dir, 'data'),
        '-p',
        String(port),
        '-k',
        dir,
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'shared_buffers=128MB',
        ...settings.flatMap((s) => ['-c', s]),
    ];
    const postgresBin = node_path_1.default.join(exports.PG_BIN, 'postgres');
    const proc = process.getuid?.() === 0
        ? (0, node_child_process_1.spawn)('runuser', ['-u', 'postgres', '--', postgresBin, ...args], { stdio: 'ignore' })
        : (0, node_child_process_1.spawn)(postgresBin, args, { stdio: 'ignore' });
    for (let i = 0; i < 100; i++) {
        if ((0, node_child_process_1.spawnSync)('pg_isready', ['-h', '127.0.0.1', '-p', String(port)]).status === 0)
            return { port, proc, dir };
        await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('PostgreSQL did not start');
}
/** Stops a server startPostgres started (runuser does not pass signals on; pg_ctl stops it). */
function stopPostgres(pg) {
    const ctl = node_path_1.default.join(exports.PG_BIN, 'pg_ctl');
    const args = ['stop', '-D', node_path_1.default.join(pg.dir, 'data'), '-m', 'fast'];
    if (process.getuid?.() === 0)
        (0, node_child_process_1.spawnSync)('runuser', ['-u', 'postgres', '--', ctl, ...args]);
    else
        (0, node_child_process_1.spawnSync)(ctl, args);
}
//# sourceMappingURL=postgres-server.js.map