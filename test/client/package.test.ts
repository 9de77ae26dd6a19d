// The client as its own package, as a user installs it: `npm pack` of packages/client, installed into
// an empty project from the tarball (no registry), brings nothing but itself; it loads from CommonJS
// and ES modules and talks to a real agent; its types resolve under TypeScript's node10, node16 and
// bundler module resolution.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type AgentProcess, startAgent } from '../helpers/agent';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const TSC = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

function npm(args: string[], cwd: string): string {
  return execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });
}

describe('the client package (@patina/client), packed and installed', function () {
  this.timeout(120_000);
  let dir: string;
  let agent: AgentProcess;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'patina-client-pkg-'));
    const tarball = npm(['pack', '--pack-destination', dir, path.join(ROOT, 'packages', 'client')], dir).trim();
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true }));
    npm(['install', '--offline', path.join(dir, tarball.split('\n').pop()!)], dir);
    agent = await startAgent({ schema: 'CREATE TABLE items (id INTEGER NOT NULL PRIMARY KEY, name TEXT);' });
  });
  after(async () => {
    await agent?.dispose();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('installs alone: no dependency, no server, a small package', () => {
    const installed = fs.readdirSync(path.join(dir, 'node_modules')).filter((n) => !n.startsWith('.'));
    assert.deepEqual(installed, ['@patina']);
    assert.deepEqual(fs.readdirSync(path.join(dir, 'node_modules', '@patina')), ['client']);
    let bytes = 0;
    const walk = (d: string) => {
      for (const e of fs.readdirSync(d, { withFileTypes: true }))
        e.isDirectory() ? walk(path.join(d, e.name)) : (bytes += fs.statSync(path.join(d, e.name)).size);
    };
    walk(path.join(dir, 'node_modules'));
    assert.ok(bytes < 500_000, `${bytes} bytes installed`);
  });

  it('works from CommonJS and from ES modules against a real agent', () => {
    const script = (kind: 'cjs' | 'mjs') => `
${kind === 'cjs' ? "const { PatinaClient } = require('@patina/client');" : "import { PatinaClient } from '@patina/client';"}
const db = new PatinaClient({ url: ${JSON.stringify(agent.http)} });
(async () => {
  await db.transaction([['INSERT INTO items (id, name) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET name = excluded.name', [9223372036854775807n, '${kind}']]]);
  const rows = await db.query('SELECT id, name FROM items').all();
  console.log(JSON.stringify(rows.rows, (k, v) => (typeof v === 'bigint' ? v.toString() + 'n' : v)));
})();
`;
    for (const kind of ['cjs', 'mjs'] as const) {
      fs.writeFileSync(path.join(dir, `use.${kind}`), script(kind));
      const out = execFileSync(process.execPath, [`use.${kind}`], { cwd: dir, encoding: 'utf8' });
      assert.equal(out.trim(), `[["9223372036854775807n","${kind}"]]`);
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
      const project = path.join(dir, `types-${name}`);
      fs.mkdirSync(project);
      fs.symlinkSync(path.join(dir, 'node_modules'), path.join(project, 'node_modules'));
      fs.writeFileSync(path.join(project, file), use);
      fs.writeFileSync(
        path.join(project, 'tsconfig.json'),
        JSON.stringify({
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
        }),
      );
      try {
        execFileSync(process.execPath, [TSC, '-p', project], { cwd: project, encoding: 'utf8', stdio: 'pipe' });
      } catch (err) {
        assert.fail(`${name}: ${(err as { stdout: string }).stdout}`);
      }
    }
  });
});
