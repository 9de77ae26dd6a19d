"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
const strict_1 = __importDefault(require("node:assert/strict"));
const node_child_process_1 = require("node:child_process");
const node_fs_1 = __importDefault(require("node:fs"));
const node_os_1 = __importDefault(require("node:os"));
const node_path_1 = __importDefault(require("node:path"));
const agent_1 = require("../helpers/agent");
const http_1 = require("../helpers/http");
const ROOT = node_path_1.default.resolve(__dirname, '..', '..', '..');
/** Where `npm start` listens, as the README writes it. */
const DEFAULT_ADDR = /\b(localhost|127\.0\.0\.1):8080\b/;
/** The pages whose examples run, in reading order (a later page's examples use an earlier page's rows). */
const PAGES = [
    'README.md',
    'docs/http-api.md',
    'docs/subscriptions.md',
    'docs/client.md',
    'docs/replication.md',
    'docs/postgres.md',
    'docs/schema.md',
    'docs/security.md',
    'docs/configuration.md',
    'docs/operations.md',
];
/** The shell commands of the docs' ```sh blocks, continuation lines joined, comments dropped. */
function readmeCommands() {
    const text = PAGES.map((p) => node_fs_1.default.readFileSync(node_path_1.default.join(ROOT, p), 'utf8')).join('\n');
    const out = [];
    for (const m of text.matchAll(/```sh\n([\s\S]*?)```/g)) {
        let current = '';
        let inQuote = false;
        for (const line of m[1].split('\n')) {
            current += (current ? '\n' : '') + line;
            // A single-quoted argument may span lines (the transactions example); so may a trailing backslash.
            inQuote = (current.replace(/'\\''/g, '').split("'").length - 1) % 2 === 1;
            if (inQuote || line.endsWith('\\'))
                continue;
            const cmd = current
                .replace(/\\\n\s*/g, ' ')
                .replace(/\s+#[^'"\n]*$/, '')
                .trim();
            if (cmd)
                out.push(cmd);
            current = '';
        }
    }
    return out;
}
/** The commands that talk to the agent `npm start` runs: curl and the client commands of the CLI. */
function againstNpmStart(cmds) {
    return cmds.filter((c) => (/^curl /.test(c) && DEFAULT_ADDR.test(c)) || /^patina (query|exec|reload)\b/.test(c));
}
describe('the examples of the README and docs run against npm start as written', function () {
    this.timeout(120_000);
    let agent;
    let dir;
    before(async () => {
        // What `npm start` runs: the example schema (and a PG listener, which these examples do not use).
        agent = await (0, agent_1.startAgent)({ args: ['--schema', node_path_1.default.join(ROOT, 'examples', 'schema')] });
        dir = node_fs_1.default.mkdtempSync(node_path_1.default.join(node_os_1.default.tmpdir(), 'patina-readme-'));
    });
    after(async () => {
        await agent.dispose();
        node_fs_1.default.rmSync(dir, { recursive: true, force: true });
    });
    it('finds the HTTP and CLI examples', () => {
        const cmds = againstNpmStart(readmeCommands());
        strict_1.default.ok(cmds.filter((c) => c.startsWith('curl')).length >= 8, cmds.join('\n'));
        strict_1.default.ok(cmds.filter((c) => c.startsWith('patina')).length >= 3, cmds.join('\n'));
    });
    it('runs each one without an error', async () => {
        const addr = agent.http.replace('http://', '');
        const env = { ...process.env, PATH: `${dir}:${process.env.PATH}` };
        // `patina` on PATH, as `npm install -g` or `npx` would give it.
        node_fs_1.default.writeFileSync(node_path_1.default.join(dir, 'patina'), `#!/bin/sh\nexec "${process.execPath}" "${agent_1.CLI}" "$@" --api-addr ${addr}\n`, { mode: 0o755 });
        for (const original of againstNpmStart(readmeCommands())) {
            let cmd = original.replace(new RegExp(DEFAULT_ADDR.source, 'g'), addr);
            const streams = /^curl -sN/.test(cmd);
            if (streams)
                cmd = cmd.replace(/^curl -sN/, `curl -sN --max-time 2 -D ${dir}/headers`);
            const r = (0, node_child_process_1.spawnSync)('bash', ['-c', cmd], { encoding: 'utf8', env, timeout: 20_000 });
            // curl's 28 is its own --max-time ending a stream that would go on for ever.
            strict_1.default.ok(r.status === 0 || (streams && r.status === 28), `${original}\nexit ${r.status}\n${r.stdout}\n${r.stderr}`);
            strict_1.default.doesNotMatch(r.stdout, /"error"/, `${original}\n${r.stdout}`);
            strict_1.default.doesNotMatch(r.stderr, /error/i, `${original}\n${r.stderr}`);
            if (!streams)
                strict_1.default.notEqual(r.stdout.trim(), '', original);
            if (streams && /v1\/subscriptions -H/.test(original) && /todos/.test(original)) {
                // The subscriptions page's next examples resume this subscription (of todos) by its id, from
                // change 2: give it two changes.
                env.ID = /patina-query-id: (\S+)/i.exec(node_fs_1.default.readFileSync(`${dir}/headers`, 'utf8'))[1];
                const w = await (0, http_1.postJson)(agent.http, '/v1/transactions', [
                    "INSERT INTO users (id, name) VALUES (1, 'ann') ON CONFLICT (id) DO NOTHING",
                    "INSERT INTO todos (id, user_id, title) VALUES (patina_id(), 1, 'buy milk'), (patina_id(), 1, 'call bob')",
                ]);
                strict_1.default.equal(w.status, 200, w.text);
            }
        }
        strict_1.default.ok(env.ID, 'the README subscribes before it resumes');
    });
});
//# sourceMappingURL=readme-examples.test.js.map