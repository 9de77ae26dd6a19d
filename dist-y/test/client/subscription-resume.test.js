"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
const strict_1 = __importDefault(require("node:assert/strict"));
const node_fs_1 = __importDefault(require("node:fs"));
const node_net_1 = __importDefault(require("node:net"));
const agent_1 = require("../helpers/agent");
const http_1 = require("../helpers/http");
const subscriptions_1 = require("../helpers/subscriptions");
const tcp_proxy_1 = require("../helpers/tcp-proxy");
const client_1 = require("../../src/client");
const SQL = 'SELECT id, name, score FROM users WHERE score > ?';
const PARAMS = [10];
/** Reads a subscription's events in the background, checking that no change id is applied twice. */
class Consumer {
    events = [];
    applied = [];
    error;
    done;
    constructor(sub, perEventMs = 0) {
        this.done = (async () => {
            try {
                for await (const ev of sub) {
                    this.events.push(ev);
                    if (ev.type === 'change') {
                        const last = this.applied[this.applied.length - 1];
                        if (last !== undefined)
                            strict_1.default.equal(ev.changeId, last + 1, `change ${ev.changeId} after ${last}: ids are contiguous, none twice`);
                        this.applied.push(ev.changeId);
                    }
                    else if (ev.type === 'reset' || ev.type === 'ready') {
                        this.applied.push(ev.changeId);
                    }
                    if (perEventMs)
                        await (0, subscriptions_1.sleep)(perEventMs);
                }
            }
            catch (err) {
                this.error = err;
            }
        })();
    }
    count(type) {
        return this.events.filter((e) => e.type === type).length;
    }
}
function multiset(sub) {
    return [...sub.rows.values()].map((c) => (0, subscriptions_1.stringify)(c)).sort();
}
/** Waits until the client's map equals a fresh query of the same SQL. */
async function converges(sub, base, timeoutMs = 20000) {
    const deadline = Date.now() + timeoutMs;
    let fresh = [];
    while (Date.now() < deadline) {
        fresh = await (0, subscriptions_1.queryMultiset)(base(), [SQL, PARAMS]);
        if ((0, subscriptions_1.stringify)(multiset(sub)) === (0, subscriptions_1.stringify)(fresh))
            return;
        await (0, subscriptions_1.sleep)(100);
    }
    strict_1.default.deepEqual(multiset(sub), fresh, 'the client map equals a fresh query');
}
/** A random write of the users table. */
function randomWrite(i) {
    const id = 1 + ((i * 7919) % 40);
    const r = (i * 104729) % 3;
    if (r === 0)
        return [
            [
                'INSERT INTO users (id, name, score) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET score = excluded.score, name = excluded.name',
                [id, `u${i}`, (i * 31) % 30],
            ],
        ];
    if (r === 1)
        return [['UPDATE users SET score = score + 5 WHERE id = ?', [id]]];
    return [['DELETE FROM users WHERE id = ?', [id]]];
}
/** A TCP proxy whose reads from the agent can be paused, so the agent's buffers for this client fill. */
async function pausingProxy(target) {
    const ups = [];
    const socks = [];
    const [host, port] = [target.slice(0, target.lastIndexOf(':')), Number(target.slice(target.lastIndexOf(':') + 1))];
    const server = node_net_1.default.createServer((c) => {
        const u = node_net_1.default.connect(port, host);
        ups.push(u);
        socks.push(c, u);
        c.pipe(u);
        u.pipe(c);
        c.on('error', () => u.destroy());
        u.on('error', () => c.destroy());
    });
    await new Promise((r) => server.listen(0, '127.0.0.1', () => r()));
    const a = server.address();
    return {
        addr: `127.0.0.1:${a.port}`,
        pause: () => ups.forEach((u) => u.pause()),
        resume: () => ups.forEach((u) => u.resume()),
        close: () => {
            socks.forEach((s) => s.destroy());
            return new Promise((r) => server.close(() => r()));
        },
    };
}
describe('client library: subscriptions that resume by themselves', function () {
    this.timeout(120000);
    it('survives a clean restart and a SIGKILL of the agent in the middle of a subscription: the map equals a fresh query, no change applied twice', async () => {
        let agent = await (0, agent_1.startAgent)({ schema: subscriptions_1.LIVE_SCHEMA });
        const dir = agent.dir;
        const proxy = await tcp_proxy_1.TcpProxy.listen();
        proxy.setTarget(agent.http.replace('http://', ''));
        const client = new client_1.PatinaClient({ url: `http://${proxy.addr}` });
        let sub;
        try {
            for (let i = 0; i < 20; i++)
                await (0, subscriptions_1.write)(agent.http, randomWrite(i));
            sub = client.subscribe(SQL, PARAMS, { retry: { initialDelayMs: 50, maxDelayMs: 500 } });
            const consumer = new Consumer(sub);
            await sub.ready;
            const queryId = sub.queryId;
            let i = 20;
            for (const how of ['SIGTERM', 'SIGKILL']) {
                for (const end = i + 30; i < end; i++)
                    await (0, subscriptions_1.write)(agent.http, randomWrite(i));
                if (how === 'SIGTERM')
                    await agent.stop();
                else
                    await agent.kill();
                await (0, subscriptions_1.sleep)(300); // the client retries against a dead agent meanwhile
                agent = await new agent_1.AgentProcess({ schema: subscriptions_1.LIVE_SCHEMA, dir }).start();
                proxy.setTarget(agent.http.replace('http://', ''));
                for (const end = i + 30; i < end; i++)
                    await (0, subscriptions_1.write)(agent.http, randomWrite(i));
                await converges(sub, () => agent.http);
            }
            strict_1.default.equal(sub.queryId, queryId, 'the same subscription was resumed');
            strict_1.default.ok(consumer.count('disconnected') >= 2, 'it saw the connection drop');
            strict_1.default.ok(consumer.count('resumed') >= 2, 'it resumed with from');
            strict_1.default.equal(consumer.count('reset'), 0, 'the agent kept the changes, so nothing was re-read');
            strict_1.default.equal(consumer.error, undefined);
            strict_1.default.ok(sub.changeId > 0);
        }
        finally {
            sub?.close();
            await proxy.close();
            await agent.dispose();
            node_fs_1.default.rmSync(dir, { recursive: true, force: true });
        }
    });
    it('resumes after a dropped connection from the last change id', async () => {
        const agent = await (0, agent_1.startAgent)({ schema: subscriptions_1.LIVE_SCHEMA });
        const proxy = await tcp_proxy_1.TcpProxy.listen();
        proxy.setTarget(agent.http.replace('http://', ''));
        try {
            const sub = new client_1.PatinaClient({ url: `http://${proxy.addr}` }).subscribe(SQL, PARAMS, {
                retry: { initialDelayMs: 20 },
            });
            const consumer = new Consumer(sub);
            await sub.ready;
            for (let i = 0; i < 20; i++)
                await (0, subscriptions_1.write)(agent.http, randomWrite(i));
            await converges(sub, () => agent.http);
            proxy.cut(); // the changes written now are lost on this connection
            for (let i = 20; i < 40; i++)
                await (0, subscriptions_1.write)(agent.http, randomWrite(i));
            await (0, subscriptions_1.sleep)(200);
            proxy.heal(); // the connection closes; the client asks for everything after its last change
            await converges(sub, () => agent.http);
            strict_1.default.equal(consumer.count('resumed'), 1);
            strict_1.default.equal(consumer.count('reset'), 0);
            sub.close();
            await consumer.done;
            strict_1.default.equal(consumer.error, undefined, 'close() ends the iteration quietly');
        }
        finally {
            await proxy.close();
            await agent.dispose();
        }
    });
    it('keeps up for a lagging consumer: events wait in the client, the agent never cuts it off', async () => {
        const agent = await (0, agent_1.startAgent)({ schema: subscriptions_1.LIVE_SCHEMA, config: '[subscriptions]\nclient_buffer = 5\n' });
        try {
            const sub = new client_1.PatinaClient({ url: agent.http }).subscribe(SQL, PARAMS);
            const consumer = new Consumer(sub, 10); // 10 ms per event: far slower than the writes come
            await sub.ready;
            for (let i = 0; i < 150; i++)
                await (0, subscriptions_1.write)(agent.http, [['INSERT INTO users (id, name, score) VALUES (?, ?, ?)', [i, 'n', 11 + i]]]);
            await converges(sub, () => agent.http);
            while (consumer.applied[consumer.applied.length - 1] !== sub.changeId)
                await (0, subscriptions_1.sleep)(50);
            strict_1.default.equal(consumer.count('change'), 150, 'every change reached the consumer, in order');
            strict_1.default.equal(consumer.count('disconnected'), 0, 'the agent did not cut the client off');
            sub.close();
        }
        finally {
            await agent.dispose();
        }
    });
    it('resumes after the agent cut off a client that fell behind, and reports a reset when the consumer lags past its buffer', async () => {
        const agent = await (0, agent_1.startAgent)({ schema: subscriptions_1.LIVE_SCHEMA, config: '[subscriptions]\nclient_buffer = 5\n' });
        const proxy = await pausingProxy(agent.http.replace('http://', ''));
        try {
            const sub = new client_1.PatinaClient({ url: `http://${proxy.addr}` }).subscribe('SELECT id, name FROM users', undefined, {
                retry: { initialDelayMs: 20 },
            });
            const consumer = new Consumer(sub);
            await sub.ready;
            await (0, subscriptions_1.write)(agent.http, [["INSERT INTO users (id, name) VALUES (1, 'x')"]]);
            await converges2(sub, agent.http, 1);
            // Nothing is read from the agent while paused: 100 KB changes fill the socket buffers, then its queue.
            proxy.pause();
            const big = 'x'.repeat(100_000);
            // 20 MB: more than the socket buffers on both sides of the proxy hold, so the agent's queue of 5 overflows.
            const last = 200;
            for (let i = 0; i < last; i++)
                await (0, subscriptions_1.write)(agent.http, [['UPDATE users SET name = ? WHERE id = 1', [big + i]]]);
            proxy.resume();
            await converges2(sub, agent.http, 1, (rows) => rows.get(1)?.[1] === big + (last - 1));
            strict_1.default.ok(consumer.count('disconnected') >= 1, 'the agent cut the stream ("fell behind")');
            const d = consumer.events.find((e) => e.type === 'disconnected');
            strict_1.default.match(d.error.message, /fell behind/);
            strict_1.default.equal(consumer.count('reset'), 0, 'it resumed from its last change id');
            sub.close();
            // The client's own buffer: a consumer that reads nothing for a while gets one reset with the current rows.
            const lazy = new client_1.PatinaClient({ url: agent.http }).subscribe('SELECT id, name FROM users', undefined, {
                maxBufferedEvents: 10,
            });
            await lazy.ready;
            for (let i = 0; i < 30; i++)
                await (0, subscriptions_1.write)(agent.http, [['UPDATE users SET name = ? WHERE id = 1', [`n${i}`]]]);
            await converges2(lazy, agent.http, 1, (rows) => rows.get(1)?.[1] === 'n29');
            const seen = [];
            for await (const ev of lazy) {
                seen.push(ev);
                if (ev.type === 'change' && ev.changeId === lazy.changeId)
                    break;
                if (ev.type === 'reset' && ev.changeId === lazy.changeId)
                    break;
            }
            const reset = seen.find((e) => e.type === 'reset');
            strict_1.default.ok(reset, `a reset was reported: ${seen.map((e) => e.type).join(',')}`);
            strict_1.default.match(reset.reason, /consumer fell behind/);
            strict_1.default.ok(seen.length <= 11, 'no more than the buffer was kept');
        }
        finally {
            await proxy.close();
            await agent.dispose();
        }
    });
    it('re-reads the whole result and reports a reset when the agent no longer keeps the missed changes', async () => {
        const agent = await (0, agent_1.startAgent)({
            schema: subscriptions_1.LIVE_SCHEMA,
            config: '[subscriptions]\nretain_changes = 3\nretain_seconds = 0\n',
        });
        const proxy = await tcp_proxy_1.TcpProxy.listen();
        proxy.setTarget(agent.http.replace('http://', ''));
        try {
            const sub = new client_1.PatinaClient({ url: `http://${proxy.addr}` }).subscribe(SQL, PARAMS, {
                retry: { initialDelayMs: 20 },
            });
            const consumer = new Consumer(sub);
            await sub.ready;
            proxy.cut();
            for (let i = 0; i < 40; i++)
                await (0, subscriptions_1.write)(agent.http, randomWrite(i));
            await (0, subscriptions_1.sleep)(1500); // the sweep prunes the log down to the last 3 changes
            proxy.heal();
            await converges(sub, () => agent.http);
            const reset = consumer.events.find((e) => e.type === 'reset');
            strict_1.default.ok(reset, 'a reset was reported');
            strict_1.default.match(reset.reason, /no longer kept/);
            // Changes after the reset apply on top of the re-read rows.
            for (let i = 40; i < 50; i++)
                await (0, subscriptions_1.write)(agent.http, randomWrite(i));
            await converges(sub, () => agent.http);
            sub.close();
        }
        finally {
            await proxy.close();
            await agent.dispose();
        }
    });
    it('subscribes again when the agent forgot the subscription, and resumes from a change id with rows the caller kept', async () => {
        const agent = await (0, agent_1.startAgent)({ schema: subscriptions_1.LIVE_SCHEMA });
        try {
            const client = new client_1.PatinaClient({ url: agent.http });
            for (let i = 0; i < 10; i++)
                await (0, subscriptions_1.write)(agent.http, randomWrite(i));
            const gone = client.subscribe(SQL, PARAMS, { id: '00000000-0000-4000-8000-000000000000' });
            await gone.ready;
            strict_1.default.notEqual(gone.queryId, '00000000-0000-4000-8000-000000000000');
            await converges(gone, () => agent.http);
            gone.close();
            // A program that saved id, change id and rows goes on where it was.
            const saved = { id: gone.queryId, from: gone.changeId, rows: [...gone.rows], columns: gone.columns };
            for (let i = 10; i < 30; i++)
                await (0, subscriptions_1.write)(agent.http, randomWrite(i));
            const again = client.subscribe(SQL, PARAMS, saved);
            const consumer = new Consumer(again);
            await again.ready;
            await converges(again, () => agent.http);
            strict_1.default.equal(consumer.events[0].type, 'ready');
            strict_1.default.equal(consumer.count('reset'), 0);
            strict_1.default.equal(consumer.events.filter((e) => e.type === 'change').length, again.changeId - saved.from, 'only the changes after from');
            again.close();
            // A from the agent never sent (ahead of its log): the whole result is read again.
            const ahead = client.subscribe(SQL, PARAMS, { id: saved.id, from: again.changeId + 100 });
            const aheadEvents = new Consumer(ahead);
            await converges(ahead, () => agent.http);
            const reset = aheadEvents.events.find((e) => e.type === 'reset');
            strict_1.default.ok(reset, aheadEvents.events.map((e) => e.type).join(','));
            strict_1.default.match(reset.reason, /ahead/);
            strict_1.default.equal(ahead.changeId, again.changeId);
            ahead.close();
            // Bad SQL is not retried: it fails at once.
            const bad = client.subscribe('SELECT nope FROM users');
            await strict_1.default.rejects(bad.ready, (e) => e.kind === 'request' && e.status === 400 && /no such column: nope/.test(e.message));
            strict_1.default.throws(() => client.subscribe(SQL, PARAMS, { from: 3 }), /from needs the id/);
        }
        finally {
            await agent.dispose();
        }
    });
    it('gives up on an agent that never comes back, with an error a program can act on', async () => {
        const agent = await (0, agent_1.startAgent)({ schema: subscriptions_1.LIVE_SCHEMA });
        try {
            await (0, subscriptions_1.write)(agent.http, [["INSERT INTO users (id, name, score) VALUES (1, 'a', 50)"]]);
            const sub = new client_1.PatinaClient({ url: agent.http }).subscribe(SQL, PARAMS, {
                retry: { initialDelayMs: 20, maxDelayMs: 200, giveUpAfterMs: 1500 },
            });
            const consumer = new Consumer(sub);
            await sub.ready;
            await (0, subscriptions_1.write)(agent.http, [['UPDATE users SET score = 60 WHERE id = 1']]);
            await converges(sub, () => agent.http);
            await agent.kill();
            await consumer.done;
            const err = consumer.error;
            strict_1.default.ok(err instanceof client_1.PatinaError, String(err));
            strict_1.default.equal(err.kind, 'gave-up');
            strict_1.default.match(err.message, new RegExp(`gave up on subscription ${sub.queryId} after \\d+ s`));
            strict_1.default.match(err.message, /cannot reach the agent at http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED/);
            strict_1.default.match(err.message, new RegExp(`\\{ id: '${sub.queryId}', from: 1 \\}`));
            strict_1.default.equal(sub.error, err);
            const attempts = consumer.events.filter((e) => e.type === 'disconnected');
            strict_1.default.ok(attempts.length >= 3, `several attempts: ${attempts.length}`);
            strict_1.default.deepEqual(attempts.map((a) => a.attempt), attempts.map((_, i) => i + 1));
            strict_1.default.ok(attempts.every((a) => a.retryInMs <= 200), 'waits stay under maxDelayMs');
            strict_1.default.deepEqual([...sub.rows.values()], [[1, 'a', 60]], 'the rows stay as last known');
        }
        finally {
            await agent.dispose();
        }
    });
});
/** Waits until the map has n rows and `pred` holds; compares with a fresh query of all users. */
async function converges2(sub, base, n, pred = () => true) {
    const deadline = Date.now() + 30000;
    while (Date.now() < deadline && !(sub.rows.size === n && pred(sub.rows)))
        await (0, subscriptions_1.sleep)(50);
    strict_1.default.ok(sub.rows.size === n && pred(sub.rows), `map did not converge: ${(0, subscriptions_1.stringify)([...sub.rows.values()]).slice(0, 200)}`);
    const fresh = await (0, http_1.postJson)(base, '/v1/queries', 'SELECT id, name FROM users');
    const rows = fresh.lines.filter((l) => l.row).map((l) => (0, subscriptions_1.stringify)(l.row[1]));
    strict_1.default.deepEqual(multisetOf(sub), rows.sort());
}
function multisetOf(sub) {
    return [...sub.rows.values()].map((c) => (0, subscriptions_1.stringify)(c)).sort();
}
//# sourceMappingURL=subscription-resume.test.js.map