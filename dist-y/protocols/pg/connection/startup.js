"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.readStartup = readStartup;
exports.readSasl = readSasl;
exports.startupParameters = startupParameters;
// Startup and authentication, before any query: the startup packet read into what the connection
// does next (refuse a second encryption request, pass a CancelRequest on, refuse the client, or
// log it in by trust or SCRAM-SHA-256), the SASL messages of the SCRAM exchange, and the
// ParameterStatus values a client receives once it is in. Each step is a value the connection acts
// on, so the wording of every refusal is here, in PostgreSQL's words.
const scram_1 = require("./scram");
const frontend_1 = require("../wire/frontend");
/** Reads the startup packet (the body after its length). */
function readStartup(r, opts, handshake) {
    const code = r.i32();
    if (code === frontend_1.SSL_REQUEST || code === frontend_1.GSSENC_REQUEST)
        return { kind: 'no-encryption' };
    if (code === frontend_1.CANCEL_REQUEST) {
        const pid = r.i32();
        const key = r.i32();
        return { kind: 'cancel', pid, key };
    }
    if (code >> 16 !== 3)
        return fatal('0A000', `unsupported frontend protocol ${code >> 16}.${code & 0xffff}: server supports 3.0`);
    if (opts.tooMany) {
        if (opts.counts)
            opts.counts.tooMany++;
        return fatal('53300', 'sorry, too many clients already');
    }
    void frontend_1.PROTOCOL_3;
    const params = (0, frontend_1.parseStartupParams)(r);
    const user = params.user;
    if (!user)
        return fatal('28000', 'no PostgreSQL user name specified in startup packet');
    if (opts.requireTls && !handshake.tls) {
        // PostgreSQL's answer when pg_hba.conf has only hostssl lines
        const db = params.database || user;
        return fatal('28000', `no pg_hba.conf entry for host "${handshake.remoteAddress.replace(/^::ffff:/, '')}", user "${user}", database "${db}", no encryption`);
    }
    if (opts.users.mode === 'scram') {
        const principal = opts.users.lookup(user);
        // an unknown user goes through the same exchange and fails as a wrong password would
        const scram = new scram_1.ScramExchange(principal?.secret ?? opts.users.decoy, principal !== null);
        return { kind: 'login', params, scram, readonly: opts.readonly || principal?.role === 'read' };
    }
    return { kind: 'login', params, scram: null, readonly: opts.readonly };
}
/** Reads SASLInitialResponse (`initial`) or SASLResponse of the SCRAM exchange for `user`. */
function readSasl(r, scram, initial, user) {
    const denied = () => fatal('28P01', `password authentication failed for user "${user}"`);
    if (initial) {
        const mechanism = r.cstr();
        if (mechanism !== 'SCRAM-SHA-256')
            return fatal('28000', `SASL authentication mechanism ${mechanism} is not supported; use SCRAM-SHA-256`);
        const len = r.i32();
        const first = scram.first(r.bytes(len).toString('utf8'));
        if (first === null)
            return denied();
        return { kind: 'continue', data: first };
    }
    const final = scram.final(r.rest().toString('utf8'));
    if (final === null)
        return denied();
    return { kind: 'final', data: final };
}
/** The ParameterStatus values sent after AuthenticationOk, as PostgreSQL 15 sends them. */
function startupParameters(params, readonly) {
    return [
        ['server_version', '15.0'],
        ['server_encoding', 'UTF8'],
        ['client_encoding', 'UTF8'],
        ['DateStyle', 'ISO, MDY'],
        ['integer_datetimes', 'on'],
        ['standard_conforming_strings', 'on'],
        ['TimeZone', 'UTC'],
        ['IntervalStyle', 'postgres'],
        ['application_name', params.application_name ?? ''],
        ['is_superuser', 'on'],
        ['session_authorization', params.user],
        ['default_transaction_read_only', readonly ? 'on' : 'off'],
        ['in_hot_standby', 'off'],
    ];
}
function fatal(code, message) {
    return { kind: 'fatal', code, message };
}
//# sourceMappingURL=startup.js.map