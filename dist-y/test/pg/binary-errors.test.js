"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// Bad binary input is refused, never stored: a parameter that does not decode is 22P03 naming it,
// an unknown format code is refused, and the session goes on. Results come in exactly the format
// asked for, column by column.
const strict_1 = __importDefault(require("node:assert/strict"));
const pg_protocol_1 = require("pg-protocol");
const agent_1 = require("../helpers/agent");
const pg_wire_1 = require("../helpers/pg-wire");
const SCHEMA = 'CREATE TABLE m (id INTEGER NOT NULL PRIMARY KEY, n NUMERIC, k INT4, due DATE, label TEXT);\n';
const int8 = (n) => {
    const b = Buffer.alloc(8);
    b.writeBigInt64BE(n);
    return b;
};
/** A binary numeric from its header fields and base-10000 digits. */
const numeric = (weight, sign, dscale, digits, extra = 0) => {
    const b = Buffer.alloc(8 + 2 * digits.length + extra);
    b.writeInt16BE(digits.length, 0);
    b.writeInt16BE(weight, 2);
    b.writeUInt16BE(sign, 4);
    b.writeUInt16BE(dscale, 6);
    digits.forEach((d, i) => b.writeInt16BE(d, 8 + 2 * i));
    return b;
};
describe('binary input that does not decode, and result format codes', function () {
    this.timeout(30000);
    let agent;
    let c;
    before(async () => {
        agent = await (0, agent_1.startAgent)({ schema: SCHEMA, args: ['--pg-addr', '127.0.0.1:0'] });
        c = await pg_wire_1.WireClient.open(agent.pg.port, { user: 'tester', database: 'db' });
    });
    after(async () => {
        c?.end();
        await agent?.dispose();
    });
    const insert = (values, types, formats = [1]) => c.extended('INSERT INTO m (id, n, k) VALUES ($1, $2, $3)', { types, values, formats, resultFormats: [] });
    const count = async () => {
        const r = await c.extended('SELECT count(*) FROM m', { resultFormats: [0] });
        return r.rows[0][0].toString();
    };
    it('refuses a numeric of the wrong length, a bad digit, a bad sign and an int4 of 3 bytes with 22P03 naming the parameter; nothing is stored', async () => {
        const k = Buffer.from([0, 0, 0, 7]);
        const cases = [
            [
                numeric(0, 0, 0, [12]).subarray(0, 9),
                k,
                /bind parameter \$2 \(numeric\): numeric with 1 digits takes 10 bytes, got 9/,
            ],
            [
                numeric(0, 0, 0, [10000]),
                k,
                /bind parameter \$2 \(numeric\): invalid digit in external "numeric" value \(10000\)/,
            ],
            [numeric(0, 0x1234, 0, [1]), k, /bind parameter \$2 \(numeric\): invalid sign/],
            [numeric(0, 0, 0, [1], 2), k, /bind parameter \$2 \(numeric\)/],
            [numeric(0, 0, 0, [1]), Buffer.from([0, 0, 7]), /bind parameter \$3 \(int4\): int4 takes 4 bytes, got 3/],
        ];
        for (const [n, kk, message] of cases) {
            const r = await insert([int8(1n), n, kk], [20, 1700, 23]);
            strict_1.default.equal(r.errors.length, 1, message.source);
            strict_1.default.equal(r.errors[0].code, '22P03');
            strict_1.default.match(r.errors[0].message, message);
        }
        strict_1.default.equal(await count(), '0', 'nothing stored');
        // the session goes on: a good binary numeric is stored
        const ok = await insert([int8(1n), numeric(-1, 0x4000, 4, [1]), Buffer.from([0, 0, 0, 7])], [20, 1700, 23]);
        strict_1.default.deepEqual(ok.errors, []);
        const back = await c.extended('SELECT n FROM m WHERE id = 1', { resultFormats: [0] });
        strict_1.default.equal(back.rows[0][0].toString(), '-0.0001');
    });
    it('refuses an unknown parameter format code (22P03) and an unknown result format code (22023)', async () => {
        const r = await insert([Buffer.from('2'), Buffer.from('1.5'), Buffer.from('7')], [20, 1700, 23], [0, 2, 0]);
        strict_1.default.equal(r.errors[0]?.code, '22P03');
        strict_1.default.match(r.errors[0].message, /bind parameter \$2: unsupported format code 2/);
        const bad = await c.exchange(pg_protocol_1.serialize.parse({ text: 'SELECT id FROM m', types: [] }), (0, pg_wire_1.bindMessage)([], [], [2]), pg_protocol_1.serialize.execute({}), pg_protocol_1.serialize.sync());
        strict_1.default.equal(bad.errors[0]?.code, '22023');
        strict_1.default.match(bad.errors[0].message, /unsupported format code: 2/);
        const counts = await c.exchange(pg_protocol_1.serialize.parse({ text: 'SELECT id, n FROM m', types: [] }), (0, pg_wire_1.bindMessage)([], [], [1, 1, 1]), pg_protocol_1.serialize.execute({}), pg_protocol_1.serialize.sync());
        strict_1.default.equal(counts.errors[0]?.code, '08P01');
        strict_1.default.match(counts.errors[0].message, /3 result formats but query has 2 columns/);
        strict_1.default.equal(await count(), '1', 'the session goes on');
    });
    it('sends each column in the format its code asks: one per column, one for all, none for text', async () => {
        await c.extended("INSERT INTO m (id, n, k, due, label) VALUES (2, 2.5, 9, '2026-11-25', 'x')", {
            resultFormats: [],
        });
        const sql = 'SELECT id, n, due, label FROM m WHERE id = 2';
        const mixed = await c.extended(sql, { resultFormats: [0, 1, 0, 1] });
        strict_1.default.deepEqual(mixed.fields.map((f) => [f.typeOid, f.format]), [
            [20, 0],
            [1700, 1],
            [1082, 0],
            [25, 1],
        ]);
        const [id, n, due, label] = mixed.rows[0];
        strict_1.default.equal(id.toString(), '2');
        strict_1.default.equal(n.toString('hex'), '0002000000000001' + '0002' + '1388'); // 2.5: 2 digits (2, 5000), weight 0, scale 1
        strict_1.default.equal(due.toString(), '2026-11-25');
        strict_1.default.equal(label.toString(), 'x');
        const all = await c.extended(sql, { resultFormats: [1] });
        strict_1.default.deepEqual(all.fields.map((f) => f.format), [1, 1, 1, 1]);
        strict_1.default.equal(all.rows[0][0].readBigInt64BE(0), 2n);
        strict_1.default.equal(all.rows[0][2].readInt32BE(0), 9825, 'days from 2000-01-01');
        const none = await c.extended(sql, { resultFormats: [] });
        strict_1.default.deepEqual(none.fields.map((f) => f.format), [0, 0, 0, 0]);
        strict_1.default.deepEqual(none.rows[0].map((x) => x.toString()), ['2', '2.5', '2026-11-25', 'x']);
    });
    it('refuses a stored value that is no value of its column type in binary (22P03 naming the column), sends it as text', async () => {
        await c.extended("INSERT INTO m (id, due) VALUES (3, 'soon')", { resultFormats: [] });
        const bin = await c.extended('SELECT id, due FROM m WHERE id >= 2 ORDER BY id', { resultFormats: [1] });
        strict_1.default.equal(bin.rows.length, 1, 'the row before it is sent whole');
        strict_1.default.equal(bin.errors[0]?.code, '22P03');
        strict_1.default.match(bin.errors[0].message, /column "due": "soon" is not a value of type date/);
        const text = await c.extended('SELECT due FROM m WHERE id = 3', { resultFormats: [0] });
        strict_1.default.equal(text.rows[0][0].toString(), 'soon');
    });
    it('announces a type without a binary form as text, and sends text bytes under it', async () => {
        // a parameter of type point (600), echoed: Patina has no binary point, so the column is text
        const r = await c.extended('SELECT $1', { types: [600], values: [Buffer.from('(1,2)')], formats: [0] });
        strict_1.default.deepEqual(r.errors, []);
        strict_1.default.deepEqual(r.fields.map((f) => [f.typeOid, f.format]), [[25, 1]]);
        strict_1.default.equal(r.rows[0][0].toString(), '(1,2)');
        const p = await c.extended('SELECT $1', { types: [600], values: [Buffer.from([1, 2])], formats: [1] });
        strict_1.default.equal(p.errors[0]?.code, '22P03');
        strict_1.default.match(p.errors[0].message, /bind parameter \$1: type OID 600 has no binary format/);
    });
});
//# sourceMappingURL=binary-errors.test.js.map