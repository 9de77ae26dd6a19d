"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// The three-agent example (examples/cluster/run.sh) runs as the README says: certificates made with
// openssl, mutual TLS between agents, HTTPS with tokens, and replication across the three.
const strict_1 = __importDefault(require("node:assert/strict"));
const node_child_process_1 = require("node:child_process");
const node_fs_1 = __importDefault(require("node:fs"));
const node_net_1 = __importDefault(require("node:net"));
const node_os_1 = __importDefault(require("node:os"));
const node_path_1 = __importDefault(require("node:path"));
const agent_1 = require("../helpers/agent");
const EXAMPLES = node_path_1.default.resolve(__dirname, '..', '..', '..', 'examples');
async function freePort() {
    return new Promise((resolve) => {
        const s = node_net_1.default.createServer().listen(0, '127.0.0.1', () => {
            const port = s.address().port;
            s.close(() => resolve(port));
        });
    });
}
describe('the three-agent example over TLS with tokens', function () {
    this.timeout(90000);
    it('replicates a write made on agent 1 to agents 2 and 3', async () => {
        const root = node_fs_1.default.mkdtempSync(node_path_1.default.join(node_os_1.default.tmpdir(), 'patina-example-'));
        try {
            for (const d of ['cluster', 'tls', 'schema'])
                node_fs_1.default.cpSync(node_path_1.default.join(EXAMPLES, d), node_path_1.default.join(root, 'examples', d), { recursive: true });
            // the example's fixed ports, moved to free ones so that parallel runs do not collide
            const ports = new Map();
            for (const p of ['8081', '8082', '8083', '5471', '5472', '5473', '8791', '8792', '8793'])
                ports.set(p, await freePort());
            for (let i = 1; i <= 3; i++) {
                const f = node_path_1.default.join(root, 'examples', 'cluster', `agent${i}.toml`);
                node_fs_1.default.writeFileSync(f, node_fs_1.default
                    .readFileSync(f, 'utf8')
                    .replace(/127\.0\.0\.1:(\d{4})/g, (m, p) => `127.0.0.1:${ports.get(p) ?? p}`));
            }
            const out = await new Promise((resolve) => {
                const p = (0, node_child_process_1.spawn)('bash', [node_path_1.default.join(root, 'examples', 'cluster', 'run.sh')], {
                    env: { ...process.env, EXAMPLE_ONCE: '1', PATINA_CLI: agent_1.CLI },
                    stdio: ['ignore', 'pipe', 'pipe'],
                });
                let text = '';
                p.stdout.on('data', (d) => (text += d));
                p.stderr.on('data', (d) => (text += d));
                p.on('close', (code) => resolve({ code, text }));
            });
            strict_1.default.equal(out.code, 0, out.text);
            strict_1.default.match(out.text, /agent ready, HTTP API on https:\/\//);
            strict_1.default.match(out.text, /agent 2 sees: written on agent 1\n/);
            strict_1.default.match(out.text, /agent 3 sees: written on agent 1\n/);
            strict_1.default.match(out.text, /alive/);
            const secrets = node_path_1.default.join(root, 'data', 'cluster', 'secrets');
            for (const f of ['ca.crt', 'agent1.crt', 'agent1.key', 'admin.token', 'read.token', 'app.password'])
                strict_1.default.ok(node_fs_1.default.existsSync(node_path_1.default.join(secrets, f)), f);
            const token = node_fs_1.default.readFileSync(node_path_1.default.join(secrets, 'admin.token'), 'utf8').trim();
            strict_1.default.ok(!out.text.includes(token), 'the example printed a token');
        }
        finally {
            node_fs_1.default.rmSync(root, { recursive: true, force: true });
        }
    });
});
//# sourceMappingURL=examples-cluster-tls.test.js.map