"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// pg_dump from Patina, loaded with psql into a fresh PostgreSQL 15 database: the tables, their
// columns, defaults, primary keys and indexes come out as PostgreSQL's own dump of the same schema.
const strict_1 = __importDefault(require("node:assert/strict"));
const node_child_process_1 = require("node:child_process");
const catalog_pair_1 = require("../helpers/catalog-pair");
const pg_1 = require("../helpers/pg");
function pgDump(port, args) {
    return (0, node_child_process_1.spawnSync)('pg_dump', ['-h', '127.0.0.1', '-p', String(port), '-U', 'tester', ...args, 'db'], {
        encoding: 'utf8',
        timeout: 60000,
        env: { ...process.env, PGCONNECT_TIMEOUT: '10' },
    });
}
/** A dump without its comments and pg_dump's per-run \restrict key. */
const body = (dump) => dump
    .split('\n')
    .filter((l) => !l.startsWith('--') && !/^\\(un)?restrict /.test(l) && l !== '')
    .join('\n');
/** Loads SQL into a new database of the oracle PostgreSQL, stopping at the first error. */
function load(pair, db, sql) {
    (0, catalog_pair_1.createDatabase)(pair.postgresPort, db);
    const r = (0, node_child_process_1.spawnSync)('psql', ['-X', '-v', 'ON_ERROR_STOP=1', '-q', '-h', '127.0.0.1', '-p', String(pair.postgresPort), '-U', 'tester', '-d', db], { input: sql, encoding: 'utf8' });
    strict_1.default.equal(r.status, 0, `psql could not load the dump:\n${r.stderr}`);
    strict_1.default.equal(r.stderr, '');
}
/** psql's description of every table and index of a database of the oracle. */
function descriptionOf(pair, db) {
    const r = (0, node_child_process_1.spawnSync)('psql', ['-X', '-h', '127.0.0.1', '-p', String(pair.postgresPort), '-U', 'tester', '-d', db, '-c', '\\d'], { encoding: 'utf8' });
    const tables = ['customers', 'orders', 'line_items', 'customers_pkey', 'orders_pkey', 'line_items_pkey'];
    const idx = ['orders_customer', 'orders_paid_placed'];
    const each = [...tables, ...idx].map((t) => (0, node_child_process_1.spawnSync)('psql', ['-X', '-h', '127.0.0.1', '-p', String(pair.postgresPort), '-U', 'tester', '-d', db, '-c', `\\d ${t}`], {
        encoding: 'utf8',
    }).stdout);
    return [r.stdout, ...each].join('\n');
}
describe('pg_dump', function () {
    this.timeout(120000);
    let pair;
    before(async () => {
        pair = await (0, catalog_pair_1.startCatalogPair)({ rows: true });
    });
    after(() => pair?.dispose());
    it('--schema-only writes the tables, defaults, primary keys and indexes as PostgreSQL does', () => {
        const fromPatina = pgDump(pair.patinaPort, ['--schema-only']);
        strict_1.default.equal(fromPatina.status, 0, fromPatina.stderr);
        strict_1.default.equal(fromPatina.stderr, '');
        const fromPostgres = pgDump(pair.postgresPort, ['--schema-only']);
        strict_1.default.equal(fromPostgres.status, 0, fromPostgres.stderr);
        strict_1.default.equal(body(fromPatina.stdout), body(fromPostgres.stdout));
        strict_1.default.match(fromPatina.stdout, /ADD CONSTRAINT line_items_pkey PRIMARY KEY \(order_id, line\)/);
    });
    it('a schema dump loads into a fresh PostgreSQL 15 and describes as the original does', () => {
        const dump = pgDump(pair.patinaPort, ['--schema-only']);
        strict_1.default.equal(dump.status, 0, dump.stderr);
        load(pair, 'from_patina', dump.stdout);
        strict_1.default.equal(descriptionOf(pair, 'from_patina'), descriptionOf(pair, 'db'));
    });
    it('a full dump carries the rows, which load into PostgreSQL', () => {
        const dump = pgDump(pair.patinaPort, []);
        strict_1.default.equal(dump.status, 0, dump.stderr);
        load(pair, 'with_rows', dump.stdout);
        const q = (db) => (0, node_child_process_1.spawnSync)('psql', [
            '-X',
            '-A',
            '-t',
            '-h',
            '127.0.0.1',
            '-p',
            String(pair.postgresPort),
            '-U',
            'tester',
            '-d',
            db,
            '-c',
            'SELECT id, customer_id, amount::float8, note, paid, placed_at, ref FROM orders ORDER BY id',
            '-c',
            'SELECT * FROM customers ORDER BY id',
            '-c',
            'SELECT * FROM line_items ORDER BY order_id, line',
        ], { encoding: 'utf8' }).stdout;
        strict_1.default.equal(q('with_rows'), q('db'));
        strict_1.default.match(q('with_rows'), /1\|ann\|ann@example.com/);
    });
    it("-t naming a table dumps that table alone; naming none that exists fails with pg_dump's message", () => {
        const one = pgDump(pair.patinaPort, ['--schema-only', '-t', 'orders']);
        strict_1.default.equal(one.status, 0, one.stderr);
        strict_1.default.match(one.stdout, /CREATE TABLE public\.orders/);
        strict_1.default.doesNotMatch(one.stdout, /CREATE TABLE public\.customers/);
        const none = pgDump(pair.patinaPort, ['--schema-only', '-t', 'no_such_table']);
        strict_1.default.notEqual(none.status, 0);
        strict_1.default.match(none.stderr, /no matching tables were found/);
    });
    it('LOCK TABLE IN ACCESS SHARE MODE (what pg_dump takes) is accepted; stronger modes are refused naming the mode', () => {
        const share = (0, pg_1.psql)(pair.patinaPort, ['BEGIN', 'LOCK TABLE public.orders IN ACCESS SHARE MODE', 'COMMIT']);
        strict_1.default.equal(share.status, 0, share.stderr);
        strict_1.default.equal(share.stdout, 'BEGIN\nLOCK TABLE\nCOMMIT\n');
        for (const [stmt, mode] of [
            ['LOCK TABLE orders', 'ACCESS EXCLUSIVE'],
            ['LOCK TABLE orders IN ROW EXCLUSIVE MODE', 'ROW EXCLUSIVE'],
        ]) {
            const r = (0, pg_1.psql)(pair.patinaPort, [stmt], ['-v', 'VERBOSITY=verbose']);
            strict_1.default.notEqual(r.status, 0);
            strict_1.default.match(r.stderr, new RegExp(`0A000: LOCK TABLE \\.\\.\\. IN ${mode} MODE is not supported`));
        }
    });
    it('the dump names the connected user as the owner', () => {
        const dump = pgDump(pair.patinaPort, ['--schema-only']);
        strict_1.default.equal(dump.status, 0, dump.stderr);
        strict_1.default.match(dump.stdout, /ALTER TABLE public\.orders OWNER TO tester;/);
    });
});
//# sourceMappingURL=pg-dump.test.js.map