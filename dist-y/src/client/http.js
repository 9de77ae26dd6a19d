"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.Transport = void 0;
exports.statementBody = statementBody;
const errors_js_1 = require("./errors.js");
const json_js_1 = require("./json.js");
/** How the client reaches one agent: base URL, token, fetch, integer mode. Shared by every call. */
class Transport {
    base;
    ints;
    #token;
    #fetch;
    constructor(url, token, fetchFn, ints) {
        let u = null;
        try {
            u = new URL(url);
        }
        catch {
            // reported below
        }
        if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:'))
            throw new errors_js_1.PatinaError('request', `url must be an absolute http(s) URL like http://127.0.0.1:8080, got ${JSON.stringify(url)}`);
        this.base = u.href.replace(/\/+$/, '');
        this.#token = token;
        const f = fetchFn ?? globalThis.fetch;
        if (!f)
            throw new errors_js_1.PatinaError('request', 'no fetch function: pass one as the fetch option');
        // Called unbound, as a plain function: window.fetch refuses another `this`.
        this.#fetch = (input, init) => f(input, init);
        this.ints = ints;
    }
    url(path) {
        return this.base + path;
    }
    /**
     * One request. Resolves with a response whose status is 2xx; any other status becomes a
     * PatinaError with the agent's message. A fetch that throws becomes 'network' or 'aborted'.
     */
    async send(method, path, body, signal) {
        const headers = { accept: 'application/json, application/x-ndjson' };
        if (body !== undefined)
            headers['content-type'] = 'application/json';
        if (this.#token !== undefined)
            headers.authorization = `Bearer ${this.#token}`;
        const url = this.url(path);
        let res;
        try {
            res = await this.#fetch(url, { method, headers, body, signal });
        }
        catch (err) {
            throw (0, errors_js_1.fetchError)(err, this.base, signal);
        }
        if (res.ok)
            return res;
        throw await errorOf(res, method, path, signal, this.base);
    }
    /** A request whose answer is one JSON value. */
    async json(method, path, body, signal) {
        const res = await this.send(method, path, body, signal);
        let text;
        try {
            text = await res.text();
        }
        catch (err) {
            throw (0, errors_js_1.fetchError)(err, this.base, signal);
        }
        return (0, json_js_1.parseExact)(text, 'auto');
    }
}
exports.Transport = Transport;
/** The PatinaError of a refused request: the agent's {"error"} (or a transaction's failing statement) and the status. */
async function errorOf(res, method, path, signal, base) {
    let text = '';
    try {
        text = await res.text();
    }
    catch (err) {
        return (0, errors_js_1.fetchError)(err, base, signal);
    }
    let message = `${method} ${path} answered HTTP ${res.status}`;
    let statement;
    try {
        const body = JSON.parse(text);
        if (typeof body.error === 'string')
            message = body.error;
        else {
            const failed = body.results?.find((r) => typeof r.error === 'string');
            if (failed) {
                message = String(failed.error);
                const m = /^statement (\d+)/.exec(message);
                if (m)
                    statement = Number(m[1]);
            }
        }
    }
    catch {
        if (text.trim() !== '')
            message += `: ${text.trim().slice(0, 200)}`;
    }
    return new errors_js_1.PatinaError(res.status >= 500 ? 'server' : 'request', message, res.status, { statement });
}
/** The JSON body of a statement: `{"query", "params"|"named_params"}`, integers exact. */
function statementBody(sql, params, toJson) {
    if (typeof sql !== 'string')
        throw new errors_js_1.PatinaError('request', `SQL must be a string, got ${typeof sql}`);
    if (params === undefined || params === null)
        return `{"query":${JSON.stringify(sql)}}`;
    if (Array.isArray(params))
        return `{"query":${JSON.stringify(sql)},"params":${toJson(params, 'params')}}`;
    if (typeof params === 'object' && !(params instanceof Uint8Array))
        return `{"query":${JSON.stringify(sql)},"named_params":${toJson(params, 'params')}}`;
    throw new errors_js_1.PatinaError('request', 'params must be an array (positional) or an object of named values');
}
//# sourceMappingURL=http.js.map