"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// The type of each parameter, from where it stands (PostgreSQL's parse tree: BETWEEN, IN lists,
// `= ANY($1)`, arithmetic, COALESCE, CASE, conditions, INSERT ... SELECT, ON CONFLICT SET, UPDATE
// SET): asyncpg encodes every argument in binary by the type ParameterDescription names, so a
// parameter left `text` refused a datetime or an int ("expected str, got datetime"). The same
// statements through asyncpg on PostgreSQL 15 and on Patina: the same parameter types and rows.
const strict_1 = __importDefault(require("node:assert/strict"));
const node_child_process_1 = require("node:child_process");
const node_path_1 = __importDefault(require("node:path"));
const catalog_pair_1 = require("../helpers/catalog-pair");
const PYTHON = '/usr/bin/python3'; // Debian's python3, which has asyncpg
const SCRIPT = node_path_1.default.resolve(__dirname, '..', '..', '..', 'test', 'fixtures', 'param-types', 'asyncpg_params.py');
function run(port) {
    const r = (0, node_child_process_1.spawnSync)(PYTHON, [SCRIPT, String(port)], { encoding: 'utf8', timeout: 60_000 });
    strict_1.default.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout);
}
describe('parameter types from where they stand, through asyncpg, against PostgreSQL 15', function () {
    this.timeout(90_000);
    let o;
    before(async () => {
        o = await (0, catalog_pair_1.startOracle)({ rows: true });
    });
    after(() => o?.close());
    it('BETWEEN, IN, = ANY, arithmetic, COALESCE, CASE, conditions, subqueries and writes type their parameters', () => {
        const postgres = run(o.pair.postgresPort);
        const patina = run(o.pair.patinaPort);
        strict_1.default.ok(postgres.length > 20);
        // PostgreSQL itself runs every case (the list holds no statement it refuses)
        strict_1.default.deepEqual(postgres.filter((c) => c[1] === 'error' || c[1] === 'client error'), []);
        postgres.forEach((want, i) => strict_1.default.deepEqual(patina[i], want, String(want[0])));
    });
});
//# sourceMappingURL=param-types-oracle.test.js.map