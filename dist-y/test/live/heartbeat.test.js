"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// Heartbeats on quiet streams (`?heartbeat=S`): an empty line after S seconds without one, so a
// client can tell a quiet stream from a connection whose peer vanished; and the client library's
// watchdog, which resumes a subscription whose connection went silent (a proxy that stops forwarding).
const strict_1 = __importDefault(require("node:assert/strict"));
const node_http_1 = __importDefault(require("node:http"));
const client_1 = require("../../src/client");
const agent_1 = require("../helpers/agent");
const http_1 = require("../helpers/http");
const subscriptions_1 = require("../helpers/subscriptions");
const tcp_proxy_1 = require("../helpers/tcp-proxy");
const wait_1 = require("../helpers/wait");
const SQL = 'SELECT id, name, score FROM users WHERE score > 50';
function openRaw(base, method, path, body) {
    return new Promise((resolve, reject) => {
        const req = node_http_1.default.request(new URL(path, base), {
            method,
            agent: false,
            headers: body !== undefined ? { 'content-type': 'application/json' } : {},
        });
        req.on('response', (res) => {
            const s = {
                headers: res.headers,
                status: res.statusCode ?? 0,
                lines: [],
                close: () => req.destroy(),
            };
            let buf = '';
            res.setEncoding('utf8');
            res.on('data', (d) => {
                buf += d;
                let nl;
                while ((nl = buf.indexOf('\n')) >= 0) {
                    s.lines.push(buf.slice(0, nl));
                    buf = buf.slice(nl + 1);
                }
            });
            res.on('error', () => { });
            resolve(s);
        });
        req.on('error', reject);
        if (body !== undefined)
            req.write(body);
        req.end();
    });
}
const empties = (s) => s.lines.filter((l) => l === '').length;
describe('heartbeats on quiet streams', function () {
    this.timeout(60_000);
    let agent;
    before(async () => {
        agent = await (0, agent_1.startAgent)({ schema: subscriptions_1.LIVE_SCHEMA });
        await (0, subscriptions_1.write)(agent.http, [['INSERT INTO users (id, name, score) VALUES (1, ?, 60)', ['a']]]);
    });
    after(() => agent?.dispose());
    it('sends an empty line per quiet second on subscriptions and update streams that ask, none on those that do not', async () => {
        const sub = await openRaw(agent.http, 'POST', '/v1/subscriptions?heartbeat=1', JSON.stringify(SQL));
        const id = String(sub.headers['patina-query-id']);
        const resumed = await openRaw(agent.http, 'GET', `/v1/subscriptions/${id}?from=0&heartbeat=1`);
        const updates = await openRaw(agent.http, 'POST', '/v1/updates/users?heartbeat=1');
        const plain = await openRaw(agent.http, 'POST', '/v1/subscriptions', JSON.stringify(SQL));
        const streams = [sub, resumed, updates, plain];
        try {
            for (const s of [sub, resumed, updates]) {
                strict_1.default.equal(s.status, 200);
                strict_1.default.equal(s.headers['patina-heartbeat'], '1', 'the agent says it sends heartbeats, and how often');
            }
            strict_1.default.equal(plain.headers['patina-heartbeat'], undefined);
            await (0, wait_1.sleep)(3500);
            for (const s of [sub, resumed, updates]) {
                const n = empties(s);
                strict_1.default.ok(n >= 2 && n <= 4, `2 to 4 empty lines in 3.5 quiet seconds, got ${n}`);
            }
            strict_1.default.equal(empties(plain), 0, 'no heartbeat unless asked');
            // The events between them are unchanged: rows, eoq, then a change.
            await (0, subscriptions_1.write)(agent.http, [['INSERT INTO users (id, name, score) VALUES (2, ?, 70)', ['b']]]);
            await (0, wait_1.eventually)('the change arrives', 5000, async () => sub.lines.some((l) => l.startsWith('{"change"')));
            const events = sub.lines.filter((l) => l !== '').map((l) => Object.keys(JSON.parse(l))[0]);
            strict_1.default.deepEqual(events, ['columns', 'row', 'eoq', 'change']);
            await (0, wait_1.eventually)('the update arrives', 5000, async () => updates.lines.some((l) => l.startsWith('{"notify"')));
        }
        finally {
            for (const s of streams)
                s.close();
        }
    });
    it('refuses a heartbeat that is not 1 to 3600 seconds, naming it', async () => {
        for (const [method, path, body] of [
            ['POST', '/v1/subscriptions?heartbeat=0', JSON.stringify(SQL)],
            ['POST', '/v1/subscriptions?heartbeat=abc', JSON.stringify(SQL)],
            ['POST', '/v1/updates/users?heartbeat=3601', undefined],
            ['POST', '/v1/updates/users?heartbeat=-1', undefined],
        ]) {
            const r = await (0, http_1.request)(agent.http, method, path, body);
            strict_1.default.equal(r.status, 400, `${method} ${path}`);
            strict_1.default.match(r.text, /heartbeat must be a number of seconds from 1 to 3600/);
        }
    });
    it('the client library notices a connection that went silent within 2.5 heartbeats and resumes from its last change', async () => {
        const proxy = await tcp_proxy_1.TcpProxy.listen();
        proxy.setTarget(agent.http.replace('http://', ''));
        const client = new client_1.PatinaClient({ url: `http://${proxy.addr}` });
        const sub = client.subscribe(SQL, undefined, { heartbeat: 1, retry: { initialDelayMs: 20, maxDelayMs: 200 } });
        const stopUpdates = new AbortController();
        const updates = client.updates('users', {
            signal: stopUpdates.signal,
            heartbeat: 1,
            retry: { initialDelayMs: 20, maxDelayMs: 200 },
        });
        const events = [];
        const notes = [];
        const consumed = (async () => {
            for await (const e of sub)
                events.push(e);
        })();
        const updatesConsumed = (async () => {
            for await (const e of updates)
                notes.push(e);
        })();
        try {
            await sub.ready;
            const before = sub.rows.size;
            await (0, wait_1.sleep)(3000);
            strict_1.default.equal(events.filter((e) => e.type === 'disconnected').length, 0, 'a quiet stream with heartbeats stays up');
            proxy.freezeOpen(); // bytes dropped both ways, the connections left open: a peer gone without a FIN
            const cutAt = Date.now();
            await (0, subscriptions_1.write)(agent.http, [['INSERT INTO users (id, name, score) VALUES (103, ?, 80)', ['c']]]);
            await (0, wait_1.eventually)('the client notices', 10_000, async () => events.some((e) => e.type === 'disconnected'));
            const noticedMs = Date.now() - cutAt;
            const d = events.find((e) => e.type === 'disconnected');
            strict_1.default.match(d.error.message, /taken as dead/);
            // 2.5 heartbeats after the last byte that came, which was at most one heartbeat before the cut
            strict_1.default.ok(noticedMs >= 1000 && noticedMs < 6000, `noticed after ${noticedMs} ms`);
            await (0, wait_1.eventually)('the change written during the cut arrives on the resumed stream', 10_000, async () => sub.rows.size === before + 1);
            strict_1.default.ok(events.some((e) => e.type === 'resumed'), JSON.stringify(events.map((e) => [e.type, e.error?.message, e.reason])));
            strict_1.default.equal(events.filter((e) => e.type === 'reset').length, 0, 'resumed from its change id, nothing re-read');
            // The update stream has no resume point: it reports a gap once it is connected again; writes after that reach it.
            await (0, wait_1.eventually)('the update stream connected again', 10_000, async () => notes.some((n) => n.type === 'gap'));
            await (0, subscriptions_1.write)(agent.http, [['INSERT INTO users (id, name, score) VALUES (104, ?, 90)', ['d']]]);
            await (0, wait_1.eventually)('later changes too', 10_000, async () => sub.rows.size === before + 2);
            await (0, wait_1.eventually)('the update stream goes on', 10_000, async () => notes.some((n) => n.type === 'notify' && n.key[0] === 104));
            // The update stream, which has no resume point, reports the gap with the watchdog's reason.
            const gap = notes.find((n) => n.type === 'gap');
            strict_1.default.equal(gap?.reason, 'reconnected');
            strict_1.default.match(String(gap?.error?.message), /taken as dead/);
        }
        finally {
            sub.close();
            stopUpdates.abort();
            await consumed;
            await updatesConsumed.catch(() => { }); // ends with the abort
            await proxy.close();
        }
    });
});
//# sourceMappingURL=heartbeat.test.js.map