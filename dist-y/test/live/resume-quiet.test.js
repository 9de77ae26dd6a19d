"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
const strict_1 = __importDefault(require("node:assert/strict"));
const node_http_1 = __importDefault(require("node:http"));
const client_1 = require("../../src/client");
const agent_1 = require("../helpers/agent");
const http_1 = require("../helpers/http");
const subscriptions_1 = require("../helpers/subscriptions");
const tcp_proxy_1 = require("../helpers/tcp-proxy");
const wait_1 = require("../helpers/wait");
const SQL = 'SELECT id, name, score FROM users WHERE score > 50';
/** The longest a status line may take: a client with a request timeout must never mistake a quiet stream for a hang. */
const STATUS_WITHIN_MS = 1000;
/**
 * Opens a streaming request over a raw socket and fails unless the status line and headers arrive
 * within STATUS_WITHIN_MS, whatever the stream then has to say.
 */
function openPromptly(base, method, path, body) {
    const started = Date.now();
    return new Promise((resolve, reject) => {
        const url = new URL(path, base);
        const req = node_http_1.default.request(url, {
            method,
            agent: false,
            headers: body !== undefined ? { 'content-type': 'application/json' } : {},
        });
        const timer = setTimeout(() => {
            req.destroy();
            reject(new Error(`${method} ${path}: no status line within ${STATUS_WITHIN_MS} ms`));
        }, STATUS_WITHIN_MS);
        req.on('response', (res) => {
            clearTimeout(timer);
            strict_1.default.ok(Date.now() - started <= STATUS_WITHIN_MS);
            // The helper's reader takes the events from here on.
            resolve(new http_1.NdjsonStream(req, res));
        });
        req.on('error', (err) => {
            clearTimeout(timer);
            reject(err);
        });
        if (body !== undefined)
            req.write(body);
        req.end();
    });
}
/** Writes `n` rows that the subscription's WHERE keeps. */
async function writeKept(base, from, n) {
    for (let i = from; i < from + n; i++)
        await (0, subscriptions_1.write)(base, [['INSERT INTO users (id, name, score) VALUES (?, ?, ?)', [i, `u${i}`, 51 + (i % 40)]]]);
}
/** Checks a prompt, quiet resume: 200, the query id, no event for a while, then exactly the next change. */
async function quietResume(agent, id, last, nextRow) {
    const routes = [
        ['GET', `/v1/subscriptions/${id}?from=${last}`, undefined],
        ['POST', `/v1/subscriptions?from=${last}`, JSON.stringify(SQL)],
    ];
    const streams = [];
    try {
        for (const [method, path, body] of routes) {
            const s = await openPromptly(agent.http, method, path, body);
            strict_1.default.equal(s.res.statusCode, 200, `${method} ${path}`);
            strict_1.default.equal(s.res.headers['patina-query-id'], id, `${method} ${path} names the subscription`);
            streams.push(s);
        }
        // The subscription of an existing query without from: its rows, at once too.
        const again = await openPromptly(agent.http, 'POST', '/v1/subscriptions', JSON.stringify(SQL));
        strict_1.default.equal(again.res.headers['patina-query-id'], id);
        await again.until((e) => e.some((x) => 'eoq' in x));
        again.close();
        // The table's update stream, quiet too.
        const updates = await openPromptly(agent.http, 'POST', '/v1/updates/users');
        strict_1.default.equal(updates.res.statusCode, 200);
        streams.push(updates);
        await (0, wait_1.sleep)(300);
        for (const s of streams)
            strict_1.default.deepEqual(s.events, [], 'nothing was missed, so nothing is sent');
        await writeKept(agent.http, nextRow, 1);
        for (const s of streams.slice(0, 2)) {
            await (0, subscriptions_1.untilChange)(s, last + 1);
            strict_1.default.deepEqual((0, subscriptions_1.changes)(s.events).map((c) => c[3]), [last + 1], 'the next change and only it');
        }
        await updates.until((e) => e.length >= 1);
        strict_1.default.deepEqual(updates.events[0], { notify: ['update', [nextRow]] });
    }
    finally {
        for (const s of streams)
            s.close();
    }
}
describe('resuming a quiet subscription answers at once', function () {
    this.timeout(120_000);
    it('answers every streaming route at once on a quiet table, before and after a SIGTERM and a SIGKILL restart', async () => {
        let agent = await (0, agent_1.startAgent)({ schema: subscriptions_1.LIVE_SCHEMA });
        const dir = agent.dir;
        try {
            await writeKept(agent.http, 1, 5);
            const { stream, id } = await (0, subscriptions_1.subscribe)(agent.http, SQL);
            await writeKept(agent.http, 6, 4);
            await (0, subscriptions_1.untilChange)(stream, 4);
            stream.close();
            let last = 4;
            let next = 10;
            await quietResume(agent, id, last, next++);
            last++;
            for (const how of ['SIGTERM', 'SIGKILL']) {
                if (how === 'SIGTERM')
                    await agent.stop();
                else
                    await agent.kill();
                agent = await new agent_1.AgentProcess({ schema: subscriptions_1.LIVE_SCHEMA, dir }).start();
                await quietResume(agent, id, last, next++);
                last++;
            }
        }
        finally {
            await agent.dispose();
        }
    });
    it('the client library resumes an idle subscription across a SIGKILL and restart, then gets the next write', async () => {
        let agent = await (0, agent_1.startAgent)({ schema: subscriptions_1.LIVE_SCHEMA });
        const dir = agent.dir;
        // The restarted agent listens on another port: the client talks to a proxy that follows it.
        const proxy = await tcp_proxy_1.TcpProxy.listen();
        proxy.setTarget(agent.http.replace('http://', ''));
        const client = new client_1.PatinaClient({ url: `http://${proxy.addr}` });
        const sub = client.subscribe(SQL, [], { retry: { initialDelayMs: 50, maxDelayMs: 300 } });
        const events = [];
        const reading = (async () => {
            for await (const ev of sub)
                events.push(ev);
        })().catch(() => { });
        try {
            await sub.ready;
            const before = sub.changeId;
            await writeKept(agent.http, 1, 3);
            await (0, wait_1.eventually)('the first changes arrive', 10_000, async () => sub.changeId >= before + 3 || `at ${sub.changeId}`);
            const last = sub.changeId;
            await agent.kill();
            agent = await new agent_1.AgentProcess({ schema: subscriptions_1.LIVE_SCHEMA, dir }).start();
            proxy.setTarget(agent.http.replace('http://', ''));
            // Resumed before any write: the agent answered the quiet resume at once.
            await (0, wait_1.eventually)('the client resumes the quiet subscription', 10_000, async () => events.some((e) => e.type === 'resumed') ? true : JSON.stringify(events.map((e) => e.type)));
            strict_1.default.equal(sub.changeId, last, 'nothing was missed');
            await writeKept(agent.http, 100, 1);
            await (0, wait_1.eventually)('the next write arrives', 10_000, async () => sub.changeId === last + 1 || `at ${sub.changeId}`);
            const change = events.find((e) => e.type === 'change' && e.changeId === last + 1);
            strict_1.default.ok(change, 'the change event of the write after the restart');
            strict_1.default.equal(events.filter((e) => e.type === 'reset').length, 0, 'nothing was read again');
        }
        finally {
            sub.close();
            await reading;
            await proxy.close();
            await agent.dispose();
        }
    });
});
//# sourceMappingURL=resume-quiet.test.js.map