"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.PatinaClient = void 0;
const errors_js_1 = require("./errors.js");
const http_js_1 = require("./http.js");
const json_js_1 = require("./json.js");
const ndjson_js_1 = require("./ndjson.js");
const query_js_1 = require("./query.js");
const subscription_js_1 = require("./subscription.js");
const updates_js_1 = require("./updates.js");
/** A client of one Patina agent's HTTP API. Uses only fetch and web streams. */
class PatinaClient {
    #t;
    constructor(opts) {
        if (!opts || typeof opts.url !== 'string')
            throw new errors_js_1.PatinaError('request', 'PatinaClient needs { url }, e.g. { url: "http://127.0.0.1:8080" }');
        const ints = opts.integers ?? 'auto';
        if (ints !== 'auto' && ints !== 'bigint')
            throw new errors_js_1.PatinaError('request', `integers must be 'auto' or 'bigint', got ${JSON.stringify(ints)}`);
        this.#t = new http_js_1.Transport(opts.url, opts.token, opts.fetch, ints);
    }
    /** The base URL requests go to. */
    get url() {
        return this.#t.base;
    }
    /** One read statement; iterate the result for its rows (see QueryResult). */
    query(sql, params, opts = {}) {
        let path = '/v1/queries';
        if (opts.timeout !== undefined)
            path += `?timeout=${encodeURIComponent(String(opts.timeout))}`;
        return new query_js_1.QueryResult(this.#t, path, (0, http_js_1.statementBody)(sql, params, json_js_1.toJson), opts.signal);
    }
    /** Statements in one all-or-nothing transaction; a refusal is a PatinaError naming the statement (`statement`, from 1). */
    async transaction(statements, opts = {}) {
        if (!Array.isArray(statements) || statements.length === 0)
            throw new errors_js_1.PatinaError('request', 'a transaction needs a non-empty array of statements');
        const body = '[' + statements.map((s, i) => statementJson(s, i + 1)).join(',') + ']';
        return (await this.#t.json('POST', '/v1/transactions', body, opts.signal));
    }
    /** A live query kept up to date by the client, resuming by itself (see Subscription). */
    subscribe(sql, params, opts = {}) {
        return new subscription_js_1.Subscription(this.#t, sql, (0, http_js_1.statementBody)(sql, params, json_js_1.toJson), opts);
    }
    /** Which primary keys of a table change, from now on, reconnecting after drops. */
    updates(table, opts = {}) {
        return (0, updates_js_1.tableUpdates)(this.#t, table, opts);
    }
    /** GET /v1/health. */
    async health(opts = {}) {
        return (await this.#t.json('GET', '/v1/health', undefined, opts.signal));
    }
    /** GET /v1/cluster/members: the peers, their state and round-trip time. */
    async members(opts = {}) {
        return (await this.#t.json('GET', '/v1/cluster/members', undefined, opts.signal));
    }
    /** POST /v1/admin/cluster/forget: drops a member that will not return (admin role). */
    async forgetMember(addr, opts = {}) {
        return (await this.#t.json('POST', '/v1/admin/cluster/forget', JSON.stringify({ addr }), opts.signal));
    }
    /** GET /v1/sync/status: per origin agent, the highest version merged here and the gaps. */
    async syncStatus(opts = {}) {
        return (await this.#t.json('GET', '/v1/sync/status', undefined, opts.signal));
    }
    /**
     * POST /v1/admin/backup: the agent writes a consistent copy of its database to `path` (a path on
     * the agent's machine) while writes go on; yields its progress and done events (admin role).
     */
    async *backup(path, opts = {}) {
        const res = await this.#t.send('POST', '/v1/admin/backup', JSON.stringify({ path }), opts.signal);
        for await (const line of (0, ndjson_js_1.ndjsonLines)(res.body)) {
            const ev = JSON.parse(line);
            if (typeof ev.error === 'string')
                throw new errors_js_1.PatinaError('server', ev.error, res.status);
            yield ev;
        }
    }
    /** POST /v1/admin/reload: the agent re-reads its schema files. */
    async reloadSchema(opts = {}) {
        return (await this.#t.json('POST', '/v1/admin/reload', undefined, opts.signal));
    }
}
exports.PatinaClient = PatinaClient;
function statementJson(s, n) {
    if (typeof s === 'string')
        return JSON.stringify(s);
    if (Array.isArray(s))
        return (0, http_js_1.statementBody)(s[0], s[1], (v, w) => (0, json_js_1.toJson)(v, `statement ${n} ${w}`));
    if (s && typeof s === 'object' && typeof s.sql === 'string')
        return (0, http_js_1.statementBody)(s.sql, s.params, (v, w) => (0, json_js_1.toJson)(v, `statement ${n} ${w}`));
    throw new errors_js_1.PatinaError('request', `statement ${n}: expected a SQL string, [sql, params] or { sql, params }`);
}
//# sourceMappingURL=client.js.map