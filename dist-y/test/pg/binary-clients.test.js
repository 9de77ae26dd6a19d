"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// Round trips through the drivers that use the binary format: asyncpg (binary for every value),
// psycopg 3 (binary=True, prepare=True) and pgjdbc (binary once a PreparedStatement has run 5
// times). Each inserts NUMERIC, int8, timestamps, bytea, uuid and arrays and reads them back.
const strict_1 = __importDefault(require("node:assert/strict"));
const node_child_process_1 = require("node:child_process");
const node_fs_1 = __importDefault(require("node:fs"));
const node_os_1 = __importDefault(require("node:os"));
const node_path_1 = __importDefault(require("node:path"));
const agent_1 = require("../helpers/agent");
const pg_1 = require("../helpers/pg");
const PYTHON = '/usr/bin/python3'; // Debian's python3, which has asyncpg and psycopg 3
const FIXTURES = node_path_1.default.resolve(__dirname, '..', '..', '..', 'test', 'fixtures', 'binary-clients');
const SCHEMA = `CREATE TABLE vals (id INTEGER NOT NULL PRIMARY KEY, n NUMERIC, big INTEGER, ts TIMESTAMP, tstz TIMESTAMPTZ,
  d DATE, b BYTEA, u UUID, tags TEXT[], ints INT4[], f DOUBLE PRECISION, ok BOOLEAN);
`;
function run(cmd, args) {
    const r = (0, node_child_process_1.spawnSync)(cmd, args, { encoding: 'utf8', timeout: 90000 });
    strict_1.default.equal(r.status, 0, `${cmd} ${args.join(' ')}:\n${r.stderr}${r.stdout}`);
    return r.stdout.trim();
}
describe('binary-format drivers round-trip every type', function () {
    this.timeout(120000);
    let agent;
    let port;
    before(async () => {
        agent = await (0, agent_1.startAgent)({ schema: SCHEMA, args: ['--pg-addr', '127.0.0.1:0'] });
        port = agent.pg.port;
        const r = (0, pg_1.psql)(port, [`INSERT INTO vals (id, tags, ints) VALUES (50, '{"a b","",NULL,"NULL"}', '{1,NULL,3}')`]);
        strict_1.default.equal(r.status, 0, r.stderr);
    });
    after(async () => {
        await agent?.dispose();
    });
    it('asyncpg: NUMERIC (-0.0001, 1E+30, NaN), int8 extremes, timestamps before 2000 with microseconds, bytea, uuid, arrays with NULLs', () => {
        const out = JSON.parse(run(PYTHON, [node_path_1.default.join(FIXTURES, 'asyncpg_roundtrip.py'), String(port)]));
        strict_1.default.deepEqual(out, { rows: 4, bad: [] });
    });
    it('psycopg 3 with binary=True and prepare=True', () => {
        const out = JSON.parse(run(PYTHON, [node_path_1.default.join(FIXTURES, 'psycopg_roundtrip.py'), String(port)]));
        strict_1.default.deepEqual(out, { rows: 3, bad: [] });
    });
    it('pgjdbc: setBigDecimal in, getBigDecimal out, over 10 executions of one PreparedStatement', () => {
        const dir = node_fs_1.default.mkdtempSync(node_path_1.default.join(node_os_1.default.tmpdir(), 'patina-jdbc-'));
        try {
            run('javac', ['-d', dir, node_path_1.default.join(FIXTURES, 'JdbcRoundTrip.java')]);
            const out = run('java', ['-cp', `${dir}:/usr/share/java/postgresql.jar`, 'JdbcRoundTrip', String(port)]);
            strict_1.default.equal(out, 'ok');
        }
        finally {
            node_fs_1.default.rmSync(dir, { recursive: true, force: true });
        }
        // what pgjdbc stored is the number, not its driver's bytes
        const r = (0, pg_1.psql)(port, ['SELECT n FROM vals WHERE id BETWEEN 100 AND 109 ORDER BY id'], ['-A', '-t']);
        strict_1.default.equal(r.status, 0, r.stderr);
        strict_1.default.deepEqual(r.stdout.trim().split('\n'), [
            '-0.0001',
            '12345.678',
            '0',
            '1000000000000000000000000000000',
            '-42',
            '0.5',
            '9999.0001',
            '0.0000000001',
            '7',
            '-123.25',
        ]);
    });
});
//# sourceMappingURL=binary-clients.test.js.map