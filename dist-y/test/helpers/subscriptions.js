"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.sleep = exports.ResultMap = exports.write = exports.LIVE_SCHEMA = void 0;
exports.subscribe = subscribe;
exports.changes = changes;
exports.untilChange = untilChange;
exports.queryMultiset = queryMultiset;
exports.stringify = stringify;
exports.settle = settle;
exports.converge = converge;
const strict_1 = __importDefault(require("node:assert/strict"));
const http_1 = require("./http");
/** A schema of a few tables for the subscription tests. */
exports.LIVE_SCHEMA = `
CREATE TABLE users (id INTEGER NOT NULL PRIMARY KEY, name TEXT, team INTEGER, score INTEGER);
CREATE TABLE teams (id INTEGER NOT NULL PRIMARY KEY, title TEXT);
CREATE TABLE tags (user_id INTEGER NOT NULL, tag TEXT NOT NULL, weight INTEGER, PRIMARY KEY (user_id, tag));
`;
var http_2 = require("./http");
Object.defineProperty(exports, "write", { enumerable: true, get: function () { return http_2.write; } });
/** Opens POST /v1/subscriptions and waits for its eoq. */
async function subscribe(base, body, query = '') {
    const stream = await (0, http_1.openStream)(base, 'POST', `/v1/subscriptions${query}`, JSON.stringify(body));
    strict_1.default.equal(stream.status, 200);
    await stream.until((e) => e.some((x) => 'eoq' in x));
    return { stream, id: String(stream.res.headers['patina-query-id']) };
}
/** The change events of a stream. */
function changes(events) {
    return events
        .filter((e) => 'change' in e)
        .map((e) => e.change);
}
/** Waits until the stream has seen the change with this id. */
function untilChange(stream, changeId, timeoutMs) {
    return stream.until((e) => changes(e).some((c) => c[3] >= changeId), timeoutMs);
}
/** A client-side view of a subscription: rowid -> cells, fed by row and change events. */
class ResultMap {
    rows = new Map();
    lastChange = 0;
    #seen = new WeakMap();
    /** Applies the events of a stream not applied yet; checks that change ids are contiguous. */
    apply(events) {
        for (let i = this.#seen.get(events) ?? 0; i < events.length; this.#seen.set(events, ++i)) {
            const e = events[i];
            if ('row' in e) {
                const [id, cells] = e.row;
                strict_1.default.ok(!this.rows.has(id), `row id ${id} sent twice`);
                this.rows.set(id, cells);
            }
            else if ('eoq' in e) {
                this.lastChange = Number(e.eoq.change_id);
            }
            else if ('change' in e) {
                const [kind, id, cells, changeId] = e.change;
                strict_1.default.equal(changeId, this.lastChange + 1, `change ids are contiguous: ${changeId} after ${this.lastChange}`);
                this.lastChange = changeId;
                if (kind === 'insert') {
                    strict_1.default.ok(!this.rows.has(id), `insert of row id ${id}, which exists`);
                    this.rows.set(id, cells);
                }
                else if (kind === 'update') {
                    strict_1.default.ok(this.rows.has(id), `update of row id ${id}, which does not exist`);
                    this.rows.set(id, cells);
                }
                else if (kind === 'delete') {
                    strict_1.default.ok(this.rows.has(id), `delete of row id ${id}, which does not exist`);
                    strict_1.default.deepEqual(cells, this.rows.get(id), "a delete carries the row's last values");
                    this.rows.delete(id);
                }
                else {
                    strict_1.default.fail(`unknown change kind ${kind}`);
                }
            }
            else if ('error' in e) {
                strict_1.default.fail(`error event: ${JSON.stringify(e.error)}`);
            }
        }
    }
    /** The rows as a sorted multiset of JSON texts. */
    multiset() {
        return [...this.rows.values()].map((c) => stringify(c)).sort();
    }
}
exports.ResultMap = ResultMap;
/** The rows of a fresh POST /v1/queries, as a sorted multiset of JSON texts. */
async function queryMultiset(base, body) {
    const sql = Array.isArray(body)
        ? Array.isArray(body[1])
            ? { query: body[0], params: body[1] }
            : { query: body[0], named_params: body[1] }
        : body;
    const r = await (0, http_1.postJson)(base, '/v1/queries', sql);
    strict_1.default.equal(r.status, 200, r.text);
    const out = [];
    for (const l of r.lines) {
        if ('error' in l)
            strict_1.default.fail(`query failed: ${String(l.error)}`);
        if ('row' in l)
            out.push(stringify(l.row[1]));
    }
    return out.sort();
}
function stringify(v) {
    return JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? x.toString() : x));
}
const wait_1 = require("./wait");
Object.defineProperty(exports, "sleep", { enumerable: true, get: function () { return wait_1.sleep; } });
/** Waits until a stream has had at least one event and then none for `quietMs`. */
async function settle(stream, quietMs = 300) {
    await stream.count(1);
    let n;
    do {
        n = stream.events.length;
        await (0, wait_1.sleep)(quietMs);
    } while (stream.events.length !== n);
}
/** Waits until the client-side map of a subscription equals a fresh run of its query (5 s at most). */
async function converge(base, body, stream, view) {
    const expected = await queryMultiset(base, body);
    const deadline = Date.now() + 5000;
    for (;;) {
        view.apply(stream.events);
        if (JSON.stringify(view.multiset()) === JSON.stringify(expected))
            return;
        if (Date.now() > deadline || stream.ended) {
            strict_1.default.deepEqual(view.multiset(), expected, `subscription ${JSON.stringify(body)} differs from a fresh query`);
        }
        await (0, wait_1.sleep)(10);
    }
}
//# sourceMappingURL=subscriptions.js.map