"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// COPY in binary format, what drivers' bulk loaders send (asyncpg's copy_records_to_table, psycopg
// 3's binary copy, pgx's CopyFrom, Npgsql's binary import): the same script on PostgreSQL 15 and on
// Patina must print the same document (rows read back, COPY tags, SQLSTATEs of bad rows, bad data).
// It was refused with 0A000; asyncpg's copy_records_to_table could not load a table. And text COPY
// into an array column (a BIGINT[] was read as one bigint: 22P02).
const strict_1 = __importDefault(require("node:assert/strict"));
const node_child_process_1 = require("node:child_process");
const node_path_1 = __importDefault(require("node:path"));
const catalog_pair_1 = require("../helpers/catalog-pair");
const PYTHON = '/usr/bin/python3'; // Debian's python3, which has asyncpg and psycopg 3
const SCRIPT = node_path_1.default.resolve(__dirname, '..', '..', '..', 'test', 'fixtures', 'copy-clients', 'copy_binary.py');
const TABLE = `CREATE TABLE cb (id BIGINT NOT NULL PRIMARY KEY, i4 BIGINT, f DOUBLE PRECISION, n NUMERIC(12,3), t TEXT,
  b BYTEA, d DATE, ts TIMESTAMPTZ, tsn TIMESTAMP, iv INTERVAL, j JSONB, arr BIGINT[], tags TEXT[], ok BOOLEAN,
  u UUID, v VARCHAR(5));`;
function run(port) {
    const r = (0, node_child_process_1.spawnSync)(PYTHON, [SCRIPT, String(port)], { encoding: 'utf8', timeout: 60_000 });
    strict_1.default.equal(r.status, 0, `${SCRIPT} on ${port}:\n${r.stderr}${r.stdout}`);
    return JSON.parse(r.stdout);
}
describe('COPY FORMAT binary through asyncpg and psycopg 3, against PostgreSQL 15', function () {
    this.timeout(120_000);
    let pair;
    before(async () => {
        pair = await (0, catalog_pair_1.startCatalogPair)({ schemas: { patina: TABLE, postgres: TABLE }, rows: [] });
    });
    after(() => pair?.dispose());
    it('loads and reads back every column type both ways, refuses bad rows and bad data with the same SQLSTATEs', () => {
        const postgres = run(pair.postgresPort);
        const patina = run(pair.patinaPort);
        // the script checked what it should (a sanity check of the oracle's own answer)
        strict_1.default.equal(postgres.records, 'COPY 3');
        strict_1.default.deepEqual(postgres.bad, ['22001', '23505']);
        strict_1.default.equal(postgres.garbage, '22P04');
        strict_1.default.deepEqual(postgres.arrays, [
            [20, [1, 2, 3], ['a', 'b c', null]],
            [21, [], null],
        ]);
        strict_1.default.equal(postgres.bad_array, '22P02');
        strict_1.default.deepEqual(patina, postgres);
    });
    it("takes an int4, int2 or float4 field for an integer or double column (Patina's INTEGER is int8)", () => {
        // what a client sends when its types come from a PostgreSQL schema with INTEGER and REAL columns
        const script = `import psycopg, sys
with psycopg.connect(f'host=127.0.0.1 port={sys.argv[1]} user=tester dbname=db sslmode=disable', autocommit=True) as c:
    with c.cursor() as cur:
        with cur.copy('COPY cb (id, i4, f) FROM STDIN (FORMAT BINARY)') as cp:
            cp.set_types(['int4', 'int2', 'float4'])
            cp.write_row((90, -7, 0.5))
        print(cur.execute('SELECT id, i4, f FROM cb WHERE id = 90').fetchone())
`;
        const r = (0, node_child_process_1.spawnSync)(PYTHON, ['-c', script, String(pair.patinaPort)], { encoding: 'utf8', timeout: 30_000 });
        strict_1.default.equal(r.status, 0, r.stderr);
        strict_1.default.equal(r.stdout, '(90, -7, 0.5)\n');
    });
});
//# sourceMappingURL=copy-binary-oracle.test.js.map