"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// The client as its own package, as a user installs it: `npm pack` of packages/client, installed into
// an empty project from the tarball (no registry), brings nothing but itself; it loads from CommonJS
// and ES modules and talks to a real agent; its types resolve under TypeScript's node10, node16 and
// bundler module resolution.
const strict_1 = __importDefault(require("node:assert/strict"));
const node_child_process_1 = require("node:child_process");
const node_fs_1 = __importDefault(require("node:fs"));
const node_os_1 = __importDefault(require("node:os"));
const node_path_1 = __importDefault(require("node:path"));
const agent_1 = require("../helpers/agent");
const ROOT = node_path_1.default.resolve(__dirname, '..', '..', '..');
const TSC = node_path_1.default.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
function npm(args, cwd) {
    return (0, node_child_process_1.execFileSync)('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], {
        cwd,
        encoding: 'utf8',
        env: { ...process.env, npm_config_update_notifier: 'false' },
    });
}
describe('the client package (@patina/client), packed and installed', function () {
    this.timeout(120_000);
    let dir;
    let agent;
    before(async () => {
        dir = node_fs_1.default.mkdtempSync(node_path_1.default.join(node_os_1.default.tmpdir(), 'patina-client-pkg-'));
        const tarball = npm(['pack', '--pack-destination', dir, node_path_1.default.join(ROOT, 'packages', 'client')], dir).trim();
        node_fs_1.default.writeFileSync(node_path_1.default.join(dir, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true }));
        npm(['install', '--offline', node_path_1.default.join(dir, tarball.split('\n').pop())], dir);
        agent = await (0, agent_1.startAgent)({ schema: 'CREATE TABLE items (id INTEGER NOT NULL PRIMARY KEY, name TEXT);' });
    });
    after(async () => {
        await agent?.dispose();
        if (dir)
            node_fs_1.default.rmSync(dir, { recursive: true, force: true });
    });
    it('installs alone: no dependency, no server, a small package', () => {
        const installed = node_fs_1.default.readdirSync(node_path_1.default.join(dir, 'node_modules')).filter((n) => !n.startsWith('.'));
        strict_1.default.deepEqual(installed, ['@patina']);
        strict_1.default.deepEqual(node_fs_1.default.readdirSync(node_path_1.default.join(dir, 'node_modules', '@patina')), ['client']);
        let bytes = 0;
        const walk = (d) => {
            for (const e of node_fs_1.default.readdirSync(d, { withFileTypes: true }))
                e.isDirectory() ? walk(node_path_1.default.join(d, e.name)) : (bytes += node_fs_1.default.statSync(node_path_1.default.join(d, e.name)).size);
        };
        walk(node_path_1.default.join(dir, 'node_modules'));
        strict_1.default.ok(bytes < 500_000, `${bytes} bytes installed`);
    });
    it('works from CommonJS and from ES modules against a real agent', () => {
        const script = (kind) => `
${kind === 'cjs' ? "const { PatinaClient } = require('@patina/client');" : "import { PatinaClient } from '@patina/client';"}
const db = new PatinaClient({ url: ${JSON.stringify(agent.http)} });
(async () => {
  await db.transaction([['INSERT INTO items (id, name) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET name = excluded.name', [9223372036854775807n, '${kind}']]]);
  const rows = await db.query('SELECT id, name FROM items').all();
  console.log(JSON.stringify(rows.rows, (k, v) => (typeof v === 'bigint' ? v.toString() + 'n' : v)));
})();
`;
        for (const kind of ['cjs', 'mjs']) {
            node_fs_1.default.writeFileSync(node_path_1.default.join(dir, `use.${kind}`), script(kind));
            const out = (0, node_child_process_1.execFileSync)(process.execPath, [`use.${kind}`], { cwd: dir, encoding: 'utf8' });
            strict_1.default.equal(out.trim(), `[["9223372036854775807n","${kind}"]]`);
        }
    });
    it('type-checks under moduleResolution node10, node16 (CommonJS and ESM) and bundler', () => {
        const use = `import { PatinaClient, PatinaError, type SubscriptionEvent } from '@patina/client';
export async function f(): Promise<number> {
  const c = new PatinaClient({ url: 'http://127.0.0.1:8080' });
  const sub = c.subscribe('SELECT 1', [1n]);
  for await (const ev of sub) { const e: SubscriptionEvent = ev; if (e.type === 'change') return e.changeId; }
  try { await c.transaction(['SELECT 1']); } catch (e) { if (e instanceof PatinaError) return e.status; }
  // @ts-expect-error a query takes SQL text
  c.query(42);
  return sub.rows.size;
}
`;
        for (const [name, module, resolution, file] of [
            ['node10', 'commonjs', 'node10', 'use.ts'],
            ['node16-cjs', 'node16', 'node16', 'use.cts'],
            ['node16-esm', 'node16', 'node16', 'use.mts'],
            ['bundler', 'esnext', 'bundler', 'use.ts'],
        ]) {
            const project = node_path_1.default.join(dir, `types-${name}`);
            node_fs_1.default.mkdirSync(project);
            node_fs_1.default.symlinkSync(node_path_1.default.join(dir, 'node_modules'), node_path_1.default.join(project, 'node_modules'));
            node_fs_1.default.writeFileSync(node_path_1.default.join(project, file), use);
            node_fs_1.default.writeFileSync(node_path_1.default.join(project, 'tsconfig.json'), JSON.stringify({
                compilerOptions: {
                    module,
                    moduleResolution: resolution,
                    target: 'ES2022',
                    lib: ['ES2022', 'DOM'],
                    types: [],
                    strict: true,
                    noEmit: true,
                    skipLibCheck: false,
                },
                files: [file],
            }));
            try {
                (0, node_child_process_1.execFileSync)(process.execPath, [TSC, '-p', project], { cwd: project, encoding: 'utf8', stdio: 'pipe' });
            }
            catch (err) {
                strict_1.default.fail(`${name}: ${err.stdout}`);
            }
        }
    });
});
//# sourceMappingURL=package.test.js.map