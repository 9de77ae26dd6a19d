"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// Schema browsing with psql's \d family, pgcli (completion refresher and \d) and SQLAlchemy/pandas, on Patina and on
// a real PostgreSQL 15 holding the same tables: what the user sees must be the same.
const strict_1 = __importDefault(require("node:assert/strict"));
const node_child_process_1 = require("node:child_process");
const node_path_1 = __importDefault(require("node:path"));
const bi_catalog_queries_1 = require("../fixtures/bi-catalog-queries");
const catalog_pair_1 = require("../helpers/catalog-pair");
const pg_1 = require("../helpers/pg");
const PYTHON = '/usr/bin/python3'; // Debian's python3, which has pgcli, SQLAlchemy and pandas
const FIXTURES = node_path_1.default.resolve(__dirname, '..', '..', '..', 'test', 'fixtures', 'catalog-clients');
function python(script, args) {
    const r = (0, node_child_process_1.spawnSync)(PYTHON, [node_path_1.default.join(FIXTURES, script), ...args], { encoding: 'utf8', timeout: 90000 });
    strict_1.default.equal(r.status, 0, `${script}:\n${r.stderr}`);
    return JSON.parse(r.stdout);
}
describe('schema browsing in psql, pgcli and SQLAlchemy against PostgreSQL 15', function () {
    this.timeout(120000);
    let pair;
    before(async () => {
        pair = await (0, catalog_pair_1.startCatalogPair)({ rows: true });
    });
    after(() => pair?.dispose());
    /** psql's output and errors for one command on both servers. */
    const both = (cmd) => [pair.patinaPort, pair.postgresPort].map((port) => {
        const r = (0, pg_1.psql)(port, [cmd]);
        return { status: r.status, out: r.stdout, err: r.stderr };
    });
    for (const cmd of [
        '\\d',
        '\\dt',
        '\\di',
        '\\d orders',
        '\\d+ orders',
        '\\d line_items',
        '\\d+ line_items',
        '\\d customers',
        '\\d orders_pkey',
        '\\d line_items_pkey',
        '\\d orders_paid_placed',
        '\\dn',
        '\\dv',
        '\\ds',
        '\\df',
        '\\dT',
    ])
        it(`psql ${cmd} shows what PostgreSQL shows`, () => {
            const [patina, postgres] = both(cmd);
            strict_1.default.equal(postgres.status, 0, postgres.err);
            strict_1.default.deepEqual(patina, postgres);
        });
    it("Npgsql's type loading query: every type Patina lists is listed so by PostgreSQL, arrays with their element", () => {
        const rows = (port) => {
            const r = (0, pg_1.psql)(port, [bi_catalog_queries_1.NPGSQL_LOAD_TYPES], ['-A', '-t']);
            strict_1.default.equal(r.status, 0, r.stderr);
            return r.stdout.trim().split('\n');
        };
        const postgres = new Set(rows(pair.postgresPort));
        const patina = rows(pair.patinaPort);
        strict_1.default.ok(patina.includes('pg_catalog|1016|_int8|a|f|20'), 'int8[] is an array of int8');
        strict_1.default.deepEqual(patina.filter((r) => !postgres.has(r)), []);
    });
    it('psql \\d on a relation that does not exist says so as PostgreSQL does', () => {
        const [patina, postgres] = both('\\d no_such_table');
        strict_1.default.match(postgres.err, /Did not find any relation named "no_such_table"/);
        strict_1.default.deepEqual(patina, postgres);
    });
    it('current_setting: max_index_keys as PostgreSQL has it; an unknown name is 42704, or NULL with missing_ok', () => {
        for (const sql of [
            "SELECT current_setting('max_index_keys'), current_setting('max_identifier_length')",
            "SELECT current_setting('no_such_setting', true) IS NULL",
            "SELECT setting FROM pg_settings WHERE name = 'max_index_keys'",
        ]) {
            const [patina, postgres] = both(sql);
            strict_1.default.equal(postgres.status, 0, postgres.err);
            strict_1.default.deepEqual(patina, postgres, sql);
        }
        const [patina, postgres] = both("SELECT current_setting('no_such_setting')");
        strict_1.default.match(postgres.err, /unrecognized configuration parameter "no_such_setting"/);
        strict_1.default.deepEqual(patina, postgres);
    });
    it("pgcli's completion refresher, completions and \\d show what they show on PostgreSQL", () => {
        const cmds = ['\\d orders', '\\d line_items', '\\dt', '\\di', '\\d no_such_table'];
        const patina = python('pgcli_catalog.py', [String(pair.patinaPort), ...cmds]);
        const postgres = python('pgcli_catalog.py', [String(pair.postgresPort), ...cmds]);
        strict_1.default.deepEqual(patina['columns of o.'], ['amount', 'customer_id', 'id', 'note', 'paid', 'placed_at', 'ref']);
        strict_1.default.deepEqual(patina, postgres);
    });
    it('SQLAlchemy reflection and pandas.read_sql_table see what they see on PostgreSQL', () => {
        const patina = python('sqlalchemy_catalog.py', [String(pair.patinaPort)]);
        const postgres = python('sqlalchemy_catalog.py', [String(pair.postgresPort)]);
        strict_1.default.deepEqual(patina.line_items.pk, { constrained_columns: ['order_id', 'line'], name: 'line_items_pkey' });
        strict_1.default.deepEqual(patina, postgres);
    });
});
//# sourceMappingURL=catalog-psql.test.js.map