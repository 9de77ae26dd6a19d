"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.NdjsonStream = void 0;
exports.request = request;
exports.postJson = postJson;
exports.openStream = openStream;
exports.write = write;
exports.health = health;
const node_http_1 = __importDefault(require("node:http"));
const node_https_1 = __importDefault(require("node:https"));
const json_1 = require("../../src/engine/json");
/** One request over a real socket (https for an https base, with `tls`); the whole response body is read. */
function request(base, method, path, body, headers = {}, tls = {}) {
    const url = new URL(path, base);
    return new Promise((resolve, reject) => {
        const h = body !== undefined && !('content-type' in headers) ? { 'content-type': 'application/json', ...headers } : headers;
        const onResponse = (res) => {
            const chunks = [];
            res.on('data', (c) => chunks.push(c));
            res.on('end', () => {
                const text = Buffer.concat(chunks).toString('utf8');
                let json;
                try {
                    json = (0, json_1.parseJsonExact)(text);
                }
                catch {
                    json = undefined;
                }
                const lines = text
                    .split('\n')
                    .filter((l) => l.trim() !== '')
                    .map((l) => {
                    try {
                        return (0, json_1.parseJsonExact)(l);
                    }
                    catch {
                        return l;
                    }
                });
                resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json, lines });
            });
            res.on('error', reject);
        };
        const req = url.protocol === 'https:'
            ? node_https_1.default.request(url, { method, headers: h, agent: false, ...tls }, onResponse)
            : node_http_1.default.request(url, { method, headers: h, agent: false }, onResponse);
        req.on('error', reject);
        if (body !== undefined)
            req.write(body);
        req.end();
    });
}
/** POST a JSON value (or raw text) with content-type application/json. */
function postJson(base, path, body, headers = {}) {
    return request(base, 'POST', path, typeof body === 'string' && headers.raw === '1' ? body : JSON.stringify(body), headers);
}
/**
 * Opens a streaming request and hands back its NDJSON events as they arrive. `close()` ends it.
 */
function openStream(base, method, path, body, headers = {}) {
    const url = new URL(path, base);
    return new Promise((resolve, reject) => {
        const req = node_http_1.default.request(url, {
            method,
            headers: body !== undefined ? { 'content-type': 'application/json', ...headers } : headers,
            agent: false,
        }, (res) => {
            resolve(new NdjsonStream(req, res));
        });
        req.on('error', reject);
        if (body !== undefined)
            req.write(body);
        req.end();
    });
}
class NdjsonStream {
    req;
    res;
    events = [];
    ended = false;
    #buf = '';
    #waiters = [];
    constructor(req, res) {
        this.req = req;
        this.res = res;
        res.setEncoding('utf8');
        res.on('data', (d) => {
            this.#buf += d;
            let nl;
            while ((nl = this.#buf.indexOf('\n')) >= 0) {
                const l = this.#buf.slice(0, nl);
                this.#buf = this.#buf.slice(nl + 1);
                if (l.trim() !== '')
                    this.events.push((0, json_1.parseJsonExact)(l));
            }
            this.#wake();
        });
        const end = () => {
            this.ended = true;
            this.#wake();
        };
        res.on('end', end);
        res.on('close', end);
        res.on('error', end);
    }
    get status() {
        return this.res.statusCode ?? 0;
    }
    #wake() {
        for (const w of this.#waiters.splice(0))
            w();
    }
    /** Waits until `pred(events)` holds, or fails after timeoutMs with what arrived. */
    async until(pred, timeoutMs = 10000) {
        const deadline = Date.now() + timeoutMs;
        while (!pred(this.events)) {
            if (this.ended)
                throw new Error(`stream ended before the condition held; events: ${JSON.stringify(this.events, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))}`);
            const left = deadline - Date.now();
            if (left <= 0)
                throw new Error(`timed out; events so far: ${JSON.stringify(this.events, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))}`);
            await new Promise((r) => {
                const t = setTimeout(r, left);
                this.#waiters.push(() => {
                    clearTimeout(t);
                    r();
                });
            });
        }
        return this.events;
    }
    /** Waits for at least n events. */
    count(n, timeoutMs) {
        return this.until((e) => e.length >= n, timeoutMs);
    }
    close() {
        this.req.destroy();
        this.res.destroy();
    }
}
exports.NdjsonStream = NdjsonStream;
/** Writes statements in one transaction over HTTP; fails the test unless every statement succeeded. */
async function write(base, statements) {
    const r = await postJson(base, '/v1/transactions', statements);
    if (r.status !== 200)
        throw new Error(`write answered ${r.status}: ${r.text}`);
    const body = r.json;
    for (const x of body.results)
        if (x.error !== undefined)
            throw new Error(`write failed: ${r.text}`);
    return body;
}
/** The agent's health document (GET /v1/health), typed by the caller. */
async function health(base) {
    const r = await request(base, 'GET', '/v1/health');
    if (r.status !== 200)
        throw new Error(`health answered ${r.status}: ${r.text}`);
    return r.json;
}
//# sourceMappingURL=http.js.map