"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.isLoopback = isLoopback;
exports.checkExposure = checkExposure;
const config_1 = require("../config/config");
const errors_1 = require("../errors");
/** Whether only this machine can reach an address. */
function isLoopback(host) {
    const h = host.toLowerCase();
    return h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h) || h === '::ffff:127.0.0.1';
}
/**
 * Refuses a configuration that would open a port to the network without authentication: the
 * HTTP API without [api.auth], a PostgreSQL listener without users or password, plaintext gossip.
 * Each has its explicit opt-out, named in the error.
 */
function checkExposure(cfg) {
    const open = (a) => !isLoopback(a.host);
    if (open(cfg.api.addr) && !cfg.api.auth && !cfg.api.allowUnauthenticated) {
        throw new errors_1.PatinaError('user', `config: the HTTP API would listen on ${(0, config_1.formatAddr)(cfg.api.addr)}, which is not loopback, without authentication; configure [api.auth] tokens, or set api.allow_unauthenticated = true to allow it`);
    }
    for (const l of cfg.api.pg) {
        if (open(l.addr) && l.password === null && (l.users ?? []).length === 0 && !cfg.api.allowUnauthenticated) {
            throw new errors_1.PatinaError('user', `config: a PostgreSQL listener would accept anyone on ${(0, config_1.formatAddr)(l.addr)}, which is not loopback; configure [[api.pg.users]] or password, or set api.allow_unauthenticated = true to allow it`);
        }
    }
    const g = cfg.gossip;
    if (g && open(g.addr) && !g.tls && !g.plaintext) {
        throw new errors_1.PatinaError('user', `config: gossip would listen on ${(0, config_1.formatAddr)(g.addr)}, which is not loopback, in plaintext; configure [gossip.tls] cert_file, key_file and ca_file, or set gossip.plaintext = true to allow it`);
    }
}
//# sourceMappingURL=exposure.js.map