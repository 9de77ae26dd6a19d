"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// pgjdbc's DatabaseMetaData (what DBeaver, Metabase and Tableau browse a schema with) on Patina and
// on a real PostgreSQL 15 holding the same tables: each call's rows, column by column, must agree.
const strict_1 = __importDefault(require("node:assert/strict"));
const node_child_process_1 = require("node:child_process");
const node_fs_1 = __importDefault(require("node:fs"));
const node_os_1 = __importDefault(require("node:os"));
const node_path_1 = __importDefault(require("node:path"));
const catalog_pair_1 = require("../helpers/catalog-pair");
const FIXTURES = node_path_1.default.resolve(__dirname, '..', '..', '..', 'test', 'fixtures', 'catalog-clients');
function run(cmd, args) {
    const r = (0, node_child_process_1.spawnSync)(cmd, args, { encoding: 'utf8', timeout: 90000 });
    strict_1.default.equal(r.status, 0, `${cmd} ${args.join(' ')}:\n${r.stderr}${r.stdout}`);
    return r.stdout;
}
/** The program's output as sections: call name → lines (the header first). */
function sections(out) {
    const m = new Map();
    let cur = [];
    for (const line of out.split('\n')) {
        if (line.startsWith('## '))
            m.set(line.slice(3), (cur = []));
        else if (line !== '')
            cur.push(line);
    }
    return m;
}
describe('pgjdbc DatabaseMetaData against PostgreSQL 15', function () {
    this.timeout(120000);
    let pair;
    let patina;
    let postgres;
    let dir;
    before(async () => {
        pair = await (0, catalog_pair_1.startCatalogPair)();
        dir = node_fs_1.default.mkdtempSync(node_path_1.default.join(node_os_1.default.tmpdir(), 'patina-jdbc-meta-'));
        run('javac', ['-d', dir, node_path_1.default.join(FIXTURES, 'CatalogMeta.java')]);
        const call = (port) => sections(run('java', ['-cp', `${dir}:/usr/share/java/postgresql.jar`, 'CatalogMeta', String(port)]));
        patina = call(pair.patinaPort);
        postgres = call(pair.postgresPort);
    });
    after(async () => {
        await pair?.dispose();
        if (dir)
            node_fs_1.default.rmSync(dir, { recursive: true, force: true });
    });
    const same = (prefix, opts = {}) => () => {
        const names = [...postgres.keys()].filter((k) => k === prefix || k.startsWith(`${prefix} `));
        strict_1.default.ok(names.length > 0, `PostgreSQL answered no ${prefix}`);
        for (const name of names) {
            const p = patina.get(name);
            strict_1.default.ok(p, `Patina answered no ${name}`);
            const want = postgres.get(name);
            strict_1.default.ok(!p[0].startsWith('ERROR'), `${name}: ${p[0]}`);
            if (opts.header === false)
                strict_1.default.deepEqual(p.slice(1), want.slice(1), name);
            else
                strict_1.default.deepEqual(p, want, name);
        }
    };
    it('getSchemas, getCatalogs and getTableTypes', () => {
        same('schemas')();
        same('catalogs')();
        same('tableTypes')();
    });
    it('getTables lists the tables', same('tables'));
    it('getColumns gives each column its type, size, nullability and default', same('columns'));
    it('getPrimaryKeys names the key columns in order (none for a table that does not exist)', same('primaryKeys'));
    it('getIndexInfo lists the primary key and the indexes column by column', same('indexInfo'));
    it('getImportedKeys, getExportedKeys and getCrossReference answer empty, without an error', () => {
        for (const call of ['importedKeys', 'exportedKeys', 'crossReference']) {
            same(call)();
            for (const [name, lines] of patina)
                if (name.startsWith(call))
                    strict_1.default.equal(lines.length, 1, name);
        }
    });
    it('getBestRowIdentifier picks the primary key', same('bestRowIdentifier'));
    it('getTablePrivileges and getColumnPrivileges', () => {
        same('tablePrivileges')();
        same('columnPrivileges')();
    });
    it('getFunctions and getProcedures (no user functions)', () => {
        same('functions')();
        // the rows agree; the labels of pgjdbc's unaliased NULL columns are the SQL front end's to name
        same('procedures', { header: false })();
    });
    it('getTypeInfo describes every type Patina announces as PostgreSQL does', () => {
        const pg = new Map(postgres
            .get('typeInfo')
            .slice(1)
            .map((l) => [l.split('\t')[0], l]));
        const rows = patina.get('typeInfo');
        strict_1.default.deepEqual(rows[0], postgres.get('typeInfo')[0]);
        const names = rows.slice(1).map((l) => l.split('\t')[0]);
        for (const t of [
            'bool',
            'int8',
            'int4',
            'text',
            'numeric',
            'float8',
            'timestamp',
            'uuid',
            'jsonb',
            '_int8',
            '_text',
        ])
            strict_1.default.ok(names.includes(t), `getTypeInfo lacks ${t}`);
        for (const line of rows.slice(1))
            strict_1.default.equal(line, pg.get(line.split('\t')[0]), 'type row');
    });
});
//# sourceMappingURL=catalog-jdbc.test.js.map