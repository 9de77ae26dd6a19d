"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// The PostgreSQL codecs as pure functions: the forms PostgreSQL 15 gives (the bytes were read off a
// real server; test/pg/binary-oracle.test.ts compares them live), and refusals of bad input.
const strict_1 = __importDefault(require("node:assert/strict"));
const codec_1 = require("../../../protocols/pg/types/codec");
const float_1 = require("../../../protocols/pg/types/float");
const numeric_1 = require("../../../protocols/pg/types/numeric");
const registry_1 = require("../../../protocols/pg/types/registry");
const hex = (b) => b.toString('hex');
const codec = (oid) => (0, registry_1.codecOf)(oid);
describe('PostgreSQL codecs', () => {
    it('numeric: 0, -0.0001, 1e30, NaN, scale and negative weight as PostgreSQL encodes them', () => {
        const bin = (s) => hex((0, numeric_1.decimalBinary)((0, numeric_1.parseDecimal)(s)));
        strict_1.default.equal(bin('0'), '0000000000000000');
        strict_1.default.equal(bin('0.000'), '0000000000000003');
        strict_1.default.equal(bin('-0.0001'), '0001ffff40000004' + '0001');
        strict_1.default.equal(bin('1e30'), '0001000700000000' + '0064');
        strict_1.default.equal(bin('NaN'), '00000000c0000000');
        strict_1.default.equal(bin('12345.678'), '0003000100000003' + '0001' + '0929' + '1a7c');
        strict_1.default.equal(bin('-0.00000001'), '0001fffe40000008' + '0001');
        for (const s of [
            '0',
            '0.000',
            '-0.0001',
            '1000000000000000000000000000000',
            'NaN',
            '12345.678',
            '-1.5',
            'Infinity',
        ])
            strict_1.default.equal((0, numeric_1.numericTextOfBinary)((0, numeric_1.decimalBinary)((0, numeric_1.parseDecimal)(s))), s);
        strict_1.default.equal(codec(1700).text(1e30), '1000000000000000000000000000000');
        strict_1.default.equal(codec(1700).text(1e-7), '0.0000001');
        strict_1.default.equal(codec(1700).text(-42n), '-42');
    });
    it('numeric: digits past the scale are cut as numeric_recv cuts them; bad input is BadBinary', () => {
        const raw = Buffer.from('0002000000000001' + '0001' + '1388', 'hex'); // 1.5000 shown with scale 1
        strict_1.default.equal((0, numeric_1.numericTextOfBinary)(raw), '1.5');
        strict_1.default.throws(() => (0, numeric_1.numericTextOfBinary)(Buffer.from('0001000000000000' + '2710', 'hex')), codec_1.BadBinary);
        strict_1.default.throws(() => (0, numeric_1.numericTextOfBinary)(Buffer.from('00010000', 'hex')), codec_1.BadBinary);
        strict_1.default.throws(() => (0, numeric_1.numericTextOfBinary)(Buffer.from('0001000000000000', 'hex')), /takes 10 bytes, got 8/);
    });
    it('float8 and float4 print the shortest digits, in plain or e notation as PostgreSQL chooses', () => {
        strict_1.default.equal((0, float_1.floatText)(1e15), '1e+15');
        strict_1.default.equal((0, float_1.floatText)(1e14), '100000000000000');
        strict_1.default.equal((0, float_1.floatText)(1.2345678901234568e17), '1.2345678901234568e+17');
        strict_1.default.equal((0, float_1.floatText)(0.0001), '0.0001');
        strict_1.default.equal((0, float_1.floatText)(0.00001), '1e-05');
        strict_1.default.equal((0, float_1.floatText)(-0), '-0');
        strict_1.default.equal((0, float_1.floatText)(Math.fround(0.1), true), '0.1');
        strict_1.default.equal((0, float_1.floatText)(1e6, true), '1e+06');
        strict_1.default.equal((0, float_1.floatText)(123456, true), '123456');
        strict_1.default.equal(codec(701).text('NaN'), 'NaN');
    });
    it('int8 stays exact beyond 2^53, both ways', () => {
        const c = codec(20);
        strict_1.default.equal(hex(c.binary(9223372036854775807n)), '7fffffffffffffff');
        strict_1.default.equal(hex(c.binary(-1)), 'ffffffffffffffff');
        strict_1.default.equal(hex(c.binary(2 ** 40 + 3)), '0000010000000003');
        strict_1.default.equal(c.fromBinary(Buffer.from('0020000000000001', 'hex')), 9007199254740993n);
        strict_1.default.equal(c.fromBinary(Buffer.from('fffffffffffffffe', 'hex')), -2);
        strict_1.default.throws(() => c.binary(1.5), codec_1.NotEncodable);
        // an integer past int2 or int4 is arithmetic that overflowed: PostgreSQL's 22003, in both formats
        strict_1.default.throws(() => codec(21).binary(40000), { sqlstate: '22003', message: 'smallint out of range' });
        strict_1.default.throws(() => codec(23).text(2147483648), { sqlstate: '22003', message: 'integer out of range' });
        strict_1.default.equal(codec(23).text(-2147483648), '-2147483648');
    });
    it('dates and times count from 2000-01-01, before it too, to the microsecond', () => {
        strict_1.default.equal(hex(codec(1082).binary('1999-12-31')), 'ffffffff');
        strict_1.default.equal(hex(codec(1114).binary('1999-12-31 23:59:59.999999')), 'ffffffffffffffff');
        strict_1.default.equal(codec(1114).textOfBinary(Buffer.from('ffffffffffffffff', 'hex')), '1999-12-31 23:59:59.999999');
        strict_1.default.equal(codec(1184).textOfBinary(Buffer.alloc(8)), '2000-01-01 00:00:00+00');
        strict_1.default.equal(codec(1114).textOfBinary(Buffer.from('7fffffffffffffff', 'hex')), 'infinity');
        strict_1.default.equal(codec(1083).textOfBinary(Buffer.from('0000000000000001', 'hex')), '00:00:00.000001');
        strict_1.default.throws(() => codec(1082).textOfBinary(Buffer.alloc(8)), /date takes 4 bytes, got 8/);
        strict_1.default.throws(() => codec(1082).binary('soon'), codec_1.NotEncodable);
        const iv = codec(1186);
        strict_1.default.equal(hex(iv.binary('1 year 2 mons 3 days 04:05:06.5')), '000000036c9361a0' + '00000003' + '0000000e');
        strict_1.default.equal(iv.textOfBinary(iv.binary('-1 days')), '-1 days');
    });
    it('uuid, bytea, jsonb and text in their binary forms', () => {
        strict_1.default.equal(hex(codec(2950).binary('{A0EEBC99-9C0B4EF8-BB6D6BB9-BD380A11}')), 'a0eebc999c0b4ef8bb6d6bb9bd380a11');
        strict_1.default.equal(codec(2950).text('A0EEBC999C0B4EF8BB6D6BB9BD380A11'), 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11');
        strict_1.default.throws(() => codec(2950).textOfBinary(Buffer.alloc(15)), codec_1.BadBinary);
        strict_1.default.equal(codec(17).text(Buffer.from([0, 255])), '\\x00ff');
        strict_1.default.equal(hex(codec(17).binary('\\x00ff')), '00ff');
        strict_1.default.equal(hex(codec(3802).binary('[]')), '015b5d');
        strict_1.default.equal(codec(3802).text('{"bb":1,"a":[1.0,2e2],"a":3}'), '{"a": 3, "bb": 1}');
        strict_1.default.equal(codec(3802).text('not json'), 'not json');
        strict_1.default.throws(() => codec(3802).textOfBinary(Buffer.from('025b5d', 'hex')), /unsupported jsonb version number 2/);
        strict_1.default.throws(() => codec(114).textOfBinary(Buffer.from('{')), (e) => e.code === '22P02');
        strict_1.default.throws(() => codec(25).textOfBinary(Buffer.from([0xff])), (e) => e.code === '22021');
    });
    it('arrays: empty, NULL elements, quoting, and int2vector counted from 0', () => {
        const ints = codec(1007);
        strict_1.default.equal(hex(ints.binary('{}')), '000000000000000000000017');
        strict_1.default.equal(hex(ints.binary('{1,NULL}')), '00000001' + '00000001' + '00000017' + '00000002' + '00000001' + '00000004' + '00000001' + 'ffffffff');
        strict_1.default.equal(ints.textOfBinary(ints.binary('{1, NULL ,3}')), '{1,NULL,3}');
        const texts = codec(1009);
        const s = '{"a b","",NULL,"NULL",x,"q\\"uote"}';
        strict_1.default.equal(texts.text(s), s);
        strict_1.default.equal(texts.textOfBinary(texts.binary(s)), s);
        strict_1.default.equal(texts.text('["a", null]'), '{a,NULL}');
        const vec = codec(22);
        strict_1.default.equal(vec.text('1 2'), '1 2');
        strict_1.default.equal(hex(vec.binary('1 2')).slice(24, 40), '0000000200000000', 'two elements, lower bound 0');
        strict_1.default.throws(() => ints.textOfBinary(codec(1016).binary('{1}')), /element type 20 instead of expected 23/);
        strict_1.default.throws(() => ints.textOfBinary(Buffer.from('00000002000000000000001700000001000000010000000100000001', 'hex')), /one dimension/);
        strict_1.default.throws(() => ints.binary('{1,{2}}'), codec_1.NotEncodable);
    });
});
//# sourceMappingURL=codecs.test.js.map