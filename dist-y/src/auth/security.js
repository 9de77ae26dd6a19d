"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.Security = void 0;
const node_tls_1 = __importDefault(require("node:tls"));
const errors_1 = require("../errors");
const pg_users_1 = require("./pg-users");
const tls_material_1 = require("./tls-material");
const tokens_1 = require("./tokens");
function pgSecurity(l, at) {
    return {
        users: pg_users_1.PgUserStore.load(l, at),
        tls: l.tls ? node_tls_1.default.createSecureContext((0, tls_material_1.loadTls)(l.tls, `${at}.tls`)) : null,
        requireTls: l.requireTls ?? false,
    };
}
function load(cfg) {
    const auth = cfg.api.auth ?? null;
    const pgAt = (i) => (cfg.api.pg.length === 1 ? 'api.pg' : `api.pg[${i}]`);
    return {
        tokens: auth ? tokens_1.TokenStore.load(auth.tokens) : null,
        openRoutes: new Set(auth?.openRoutes ?? []),
        apiTls: cfg.api.tls ? (0, tls_material_1.loadTls)(cfg.api.tls, 'api.tls') : null,
        pg: cfg.api.pg.map((l, i) => pgSecurity(l, pgAt(i))),
        gossipTls: cfg.gossip?.tls ? (0, tls_material_1.loadTls)(cfg.gossip.tls, 'gossip.tls') : null,
    };
}
/**
 * The one home of the agent's secrets: API tokens, PostgreSQL users, TLS material. Front ends ask
 * it who a client is; none of them reads a secret or a certificate itself. `reload` re-reads
 * everything (files, environment variables) and swaps it in whole, or changes nothing.
 */
class Security {
    #m;
    #listeners = [];
    constructor(m) {
        this.#m = m;
    }
    static load(cfg) {
        return new Security(load(cfg));
    }
    /** Re-reads tokens, passwords and certificates from a (re-read) config. */
    reload(cfg) {
        const next = load(cfg);
        const old = this.#m;
        if (!!next.apiTls !== !!old.apiTls)
            throw new errors_1.PatinaError('user', 'reload: [api.tls] cannot be added or removed while the agent runs; restart it');
        if (!!next.gossipTls !== !!old.gossipTls)
            throw new errors_1.PatinaError('user', 'reload: [gossip.tls] cannot be added or removed while the agent runs; restart it');
        if (next.pg.length !== old.pg.length)
            throw new errors_1.PatinaError('user', 'reload: PostgreSQL listeners cannot be added or removed while the agent runs; restart it');
        this.#m = next;
        for (const fn of this.#listeners)
            fn(this);
    }
    /** Called after each successful reload (servers swap their certificates). */
    onReload(fn) {
        this.#listeners.push(fn);
    }
    /** Whether the HTTP API asks for bearer tokens. */
    get apiAuthEnabled() {
        return this.#m.tokens !== null;
    }
    /** The role of an HTTP bearer token, or null. */
    tokenRole(token) {
        return this.#m.tokens?.roleOf(token) ?? null;
    }
    /** Whether a route needs no token even when auth is on (health, metrics by default). */
    isOpenRoute(path) {
        return this.#m.openRoutes.has(path);
    }
    get apiTls() {
        return this.#m.apiTls;
    }
    pgListener(i) {
        return this.#m.pg[i];
    }
    get gossipTls() {
        return this.#m.gossipTls;
    }
    /** What health shows: counts and switches, never a secret. */
    describe() {
        return {
            api_auth: this.apiAuthEnabled,
            api_tokens: this.#m.tokens?.size ?? 0,
            api_tls: !!this.#m.apiTls,
            gossip_tls: !!this.#m.gossipTls,
        };
    }
}
exports.Security = Security;
//# sourceMappingURL=security.js.map