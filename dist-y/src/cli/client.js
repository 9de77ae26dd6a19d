"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.apiClient = apiClient;
const client_1 = require("../client");
/**
 * The client the CLI's commands use: the library, on the agent the flags name. `--api-addr` is
 * HOST:PORT (plain HTTP) or a URL (`https://host:port`; a private CA is trusted through
 * NODE_EXTRA_CA_CERTS); the bearer token comes from --api-token or PATINA_API_TOKEN.
 */
function apiClient(values) {
    const addr = values['api-addr'] ?? '127.0.0.1:8080';
    const url = /^https?:\/\//.test(addr) ? addr : `http://${addr}`;
    return new client_1.PatinaClient({ url, token: values['api-token'] ?? (process.env.PATINA_API_TOKEN || undefined) });
}
//# sourceMappingURL=client.js.map