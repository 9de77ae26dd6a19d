"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// The startup packet and SASL messages as the steps the connection acts on
// (protocols/pg/connection/startup.ts): encryption requests, CancelRequest, PostgreSQL's refusals
// (protocol 2, no user, too many clients, TLS required, a wrong SCRAM mechanism) and the login.
const strict_1 = __importDefault(require("node:assert/strict"));
const pg_users_1 = require("../../../src/auth/pg-users");
const scram_1 = require("../../../protocols/pg/connection/scram");
const startup_1 = require("../../../protocols/pg/connection/startup");
const frontend_1 = require("../../../protocols/pg/wire/frontend");
/** A startup packet's body (after its length): the code, then name/value pairs. */
function packet(code, params = {}, extra = []) {
    const head = Buffer.alloc(4 + 4 * extra.length);
    head.writeInt32BE(code, 0);
    extra.forEach((v, i) => head.writeInt32BE(v, 4 + 4 * i));
    const pairs = Object.entries(params)
        .map(([k, v]) => `${k}\0${v}\0`)
        .join('');
    const body = Buffer.concat([head, Buffer.from(`${pairs}\0`)]);
    return new frontend_1.Reader(body);
}
const users = (l) => pg_users_1.PgUserStore.load({ password: null, users: [], ...l }, 'test');
const opts = (o = {}) => ({
    readonly: false,
    users: users({}),
    requireTls: false,
    queryTimeoutMs: 1000,
    ...o,
});
const plain = { tls: false, rest: Buffer.alloc(0), remoteAddress: '::ffff:10.0.0.7' };
describe('PG startup steps', () => {
    it('an encryption request after negotiation is answered N; a CancelRequest names its pid and key', () => {
        strict_1.default.deepEqual((0, startup_1.readStartup)(packet(frontend_1.SSL_REQUEST), opts(), plain), { kind: 'no-encryption' });
        strict_1.default.deepEqual((0, startup_1.readStartup)(packet(frontend_1.CANCEL_REQUEST, {}, [1234, -5]), opts(), plain), {
            kind: 'cancel',
            pid: 1234,
            key: -5,
        });
    });
    it("refusals in PostgreSQL's words: protocol 2, no user, too many clients, TLS required", () => {
        strict_1.default.deepEqual((0, startup_1.readStartup)(packet(2 << 16, { user: 'a' }), opts(), plain), {
            kind: 'fatal',
            code: '0A000',
            message: 'unsupported frontend protocol 2.0: server supports 3.0',
        });
        strict_1.default.deepEqual((0, startup_1.readStartup)(packet(frontend_1.PROTOCOL_3, { database: 'd' }), opts(), plain), {
            kind: 'fatal',
            code: '28000',
            message: 'no PostgreSQL user name specified in startup packet',
        });
        const counts = { tooMany: 0 };
        const full = (0, startup_1.readStartup)(packet(frontend_1.PROTOCOL_3, { user: 'a' }), opts({ tooMany: true, counts }), plain);
        strict_1.default.equal(full.kind === 'fatal' && full.code, '53300');
        strict_1.default.equal(counts.tooMany, 1);
        strict_1.default.deepEqual((0, startup_1.readStartup)(packet(frontend_1.PROTOCOL_3, { user: 'bob' }), opts({ requireTls: true }), plain), {
            kind: 'fatal',
            code: '28000',
            message: 'no pg_hba.conf entry for host "10.0.0.7", user "bob", database "bob", no encryption',
        });
    });
    it('trust logs in at once; SCRAM starts the exchange, read-only for a user of the read role', () => {
        const trust = (0, startup_1.readStartup)(packet(frontend_1.PROTOCOL_3, { user: 'a', database: 'd' }), opts(), plain);
        strict_1.default.deepEqual(trust, { kind: 'login', params: { user: 'a', database: 'd' }, scram: null, readonly: false });
        const store = users({ users: [{ name: 'reader', password: { value: 'pw' }, role: 'read' }] });
        const scram = (0, startup_1.readStartup)(packet(frontend_1.PROTOCOL_3, { user: 'reader' }), opts({ users: store }), plain);
        strict_1.default.equal(scram.kind, 'login');
        if (scram.kind === 'login') {
            strict_1.default.ok(scram.scram instanceof scram_1.ScramExchange);
            strict_1.default.equal(scram.readonly, true);
        }
        strict_1.default.deepEqual((0, startup_1.startupParameters)({ user: 'a' }, true).slice(-3), [
            ['session_authorization', 'a'],
            ['default_transaction_read_only', 'on'],
            ['in_hot_standby', 'off'],
        ]);
    });
    it('SASL: another mechanism is refused, a bad client-first message fails as a wrong password', () => {
        const scram = new scram_1.ScramExchange(users({ password: 'pw' }).decoy, false);
        const initial = (mechanism, data) => {
            const d = Buffer.from(data);
            const len = Buffer.alloc(4);
            len.writeInt32BE(d.length, 0);
            return new frontend_1.Reader(Buffer.concat([Buffer.from(`${mechanism}\0`), len, d]));
        };
        strict_1.default.deepEqual((0, startup_1.readSasl)(initial('SCRAM-SHA-1', ''), scram, true, 'a'), {
            kind: 'fatal',
            code: '28000',
            message: 'SASL authentication mechanism SCRAM-SHA-1 is not supported; use SCRAM-SHA-256',
        });
        strict_1.default.deepEqual((0, startup_1.readSasl)(initial('SCRAM-SHA-256', 'garbage'), scram, true, 'a'), {
            kind: 'fatal',
            code: '28P01',
            message: 'password authentication failed for user "a"',
        });
    });
});
//# sourceMappingURL=startup.test.js.map