import { PatinaError } from './errors.js';
import { Transport, statementBody } from './http.js';
import { toJson } from './json.js';
import { ndjsonLines } from './ndjson.js';
import { QueryResult } from './query.js';
import { Subscription } from './subscription.js';
import { tableUpdates } from './updates.js';
/** A client of one Patina agent's HTTP API. Uses only fetch and web streams. */
export class PatinaClient {
    #t;
    constructor(opts) {
        if (!opts || typeof opts.url !== 'string')
            throw new PatinaError('request', 'PatinaClient needs { url }, e.g. { url: "http://127.0.0.1:8080" }');
        const ints = opts.integers ?? 'auto';
        if (ints !== 'auto' && ints !== 'bigint')
            throw new PatinaError('request', `integers must be 'auto' or 'bigint', got ${JSON.stringify(ints)}`);
        this.#t = new Transport(opts.url, opts.token, opts.fetch, ints);
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
        return new QueryResult(this.#t, path, statementBody(sql, params, toJson), opts.signal);
    }
    /** Statements in one all-or-nothing transaction; a refusal is a PatinaError naming the statement (`statement`, from 1). */
    async transaction(statements, opts = {}) {
        if (!Array.isArray(statements) || statements.length === 0)
            throw new PatinaError('request', 'a transaction needs a non-empty array of statements');
        const body = '[' + statements.map((s, i) => statementJson(s, i + 1)).join(',') + ']';
        return (await this.#t.json('POST', '/v1/transactions', body, opts.signal));
    }
    /** A live query kept up to date by the client, resuming by itself (see Subscription). */
    subscribe(sql, params, opts = {}) {
        return new Subscription(this.#t, sql, statementBody(sql, params, toJson), opts);
    }
    /** Which primary keys of a table change, from now on, reconnecting after drops. */
    updates(table, opts = {}) {
        return tableUpdates(this.#t, table, opts);
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
        for await (const line of ndjsonLines(res.body)) {
            const ev = JSON.parse(line);
            if (typeof ev.error === 'string')
                throw new PatinaError('server', ev.error, res.status);
            yield ev;
        }
    }
    /** POST /v1/admin/reload: the agent re-reads its schema files. */
    async reloadSchema(opts = {}) {
        return (await this.#t.json('POST', '/v1/admin/reload', undefined, opts.signal));
    }
}
function statementJson(s, n) {
    if (typeof s === 'string')
        return JSON.stringify(s);
    if (Array.isArray(s))
        return statementBody(s[0], s[1], (v, w) => toJson(v, `statement ${n} ${w}`));
    if (s && typeof s === 'object' && typeof s.sql === 'string')
        return statementBody(s.sql, s.params, (v, w) => toJson(v, `statement ${n} ${w}`));
    throw new PatinaError('request', `statement ${n}: expected a SQL string, [sql, params] or { sql, params }`);
}
