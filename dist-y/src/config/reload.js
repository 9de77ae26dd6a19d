"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.reloadable = reloadable;
exports.reloadedConfig = reloadedConfig;
const exposure_1 = require("../auth/exposure");
const config_1 = require("./config");
/**
 * What a reload takes from a freshly read config file: the tokens, PostgreSQL users and passwords,
 * and the certificates of a TLS that is already on (HTTPS, each PG listener, gossip). Everything else
 * keeps its running value and needs a restart (docs/configuration.md, "What a reload changes").
 */
function reloadable(current, fresh) {
    const api = {
        ...current.api,
        auth: fresh.api.auth,
        tls: current.api.tls && fresh.api.tls ? fresh.api.tls : current.api.tls,
    };
    api.pg = current.api.pg.map((l, i) => {
        const f = fresh.api.pg[i];
        return f ? { ...l, users: f.users, password: f.password, tls: l.tls && f.tls ? f.tls : l.tls } : l;
    });
    const gossip = current.gossip && {
        ...current.gossip,
        tls: current.gossip.tls && fresh.gossip?.tls ? fresh.gossip.tls : current.gossip.tls,
    };
    return { api, gossip };
}
/**
 * The config `patina reload` goes on with: the running one with the reloadable parts of its config
 * file, when there is one; else the running one (its files and variables are read again by the
 * security). Refused when the result would expose a port without auth; the running config is not
 * touched (the caller takes the result once the security accepted it).
 */
function reloadedConfig(config) {
    if (!config.source)
        return config;
    const next = { ...config, ...reloadable(config, (0, config_1.loadConfigFile)(config.source)) };
    (0, exposure_1.checkExposure)(next); // a reload must not take the auth off an exposed port either
    return next;
}
//# sourceMappingURL=reload.js.map