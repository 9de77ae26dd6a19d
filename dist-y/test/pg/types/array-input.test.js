"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// Array text read as PostgreSQL's array_in reads it and printed as array_out prints it (the forms
// were read off PostgreSQL 15; test/pg/array-values-oracle.test.ts compares them live).
const strict_1 = __importDefault(require("node:assert/strict"));
const pg_array_input_1 = require("../../../src/engine/pg-array-input");
/** The SQLSTATE arrayInput fails with, or null. */
function failure(s, kind, lenient = false) {
    try {
        (0, pg_array_input_1.arrayInput)(s, kind, lenient);
        return null;
    }
    catch (err) {
        return err.sqlstate;
    }
}
describe('array text in PostgreSQL form', () => {
    it('reads elements as array_in: white space, quotes, backslashes, NULL', () => {
        strict_1.default.deepEqual((0, pg_array_input_1.parseArrayText)(' { a , "b" } '), ['a', 'b']);
        strict_1.default.deepEqual((0, pg_array_input_1.parseArrayText)('{NULL, null, "NULL", ""}'), [null, null, 'NULL', '']);
        strict_1.default.deepEqual((0, pg_array_input_1.parseArrayText)('{"a b", c\\,d, "e\\"f", a b }'), ['a b', 'c,d', 'e"f', 'a b']);
        strict_1.default.deepEqual((0, pg_array_input_1.parseArrayText)('{}'), []);
        strict_1.default.deepEqual((0, pg_array_input_1.parseArrayText)('{\\ x\\ }'), [' x ']);
        // more dimensions and explicit bounds are no one-dimensional array
        strict_1.default.equal((0, pg_array_input_1.parseArrayText)('{{1,2},{3,4}}'), null);
        strict_1.default.equal((0, pg_array_input_1.parseArrayText)('[0:1]={1,2}'), null);
        for (const bad of ['{a,}', '{,a}', '{a', 'x', '{a"b"}', '{"a"b}', '{a} x', '{"a}'])
            strict_1.default.equal(failure(bad, 'text'), '22P02', bad);
    });
    it('prints each element as its type prints it', () => {
        strict_1.default.equal((0, pg_array_input_1.arrayInput)('{ a , "b" }', 'text'), '{a,b}');
        strict_1.default.equal((0, pg_array_input_1.arrayInput)('{"a b", "", "NULL", null}', 'text'), '{"a b","","NULL",NULL}');
        strict_1.default.equal((0, pg_array_input_1.arrayInput)('{ 1 , null ,+3, -0}', 'bigint'), '{1,NULL,3,0}');
        strict_1.default.equal((0, pg_array_input_1.arrayInput)('{1.50, 2, 1e3, -0.0, NaN}', 'numeric'), '{1.50,2,1000,0.0,NaN}');
        strict_1.default.equal((0, pg_array_input_1.arrayInput)('{ 1e2 , 1.50,-0.0, Infinity, -inf, NaN, 1e300}', 'double precision'), '{100,1.5,-0,Infinity,-Infinity,NaN,1e+300}');
        strict_1.default.equal((0, pg_array_input_1.arrayInput)('{0.1}', 'real'), '{0.1}');
        strict_1.default.equal((0, pg_array_input_1.arrayInput)('{t,false, yes ,0, on}', 'boolean'), '{t,f,t,f,t}');
        strict_1.default.equal((0, pg_array_input_1.arrayInput)('{A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11,a0eebc999c0b4ef8bb6d6bb9bd380a12}', 'uuid'), '{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11,a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a12}');
    });
    it('refuses elements as the type input does; an expression rounds decimals into integers', () => {
        strict_1.default.equal(failure('{1,x}', 'bigint'), '22P02');
        strict_1.default.equal(failure('{1.5}', 'bigint'), '22P02');
        strict_1.default.equal(failure('{9223372036854775808}', 'bigint'), '22003');
        strict_1.default.equal(failure('{40000}', 'smallint'), '22003');
        strict_1.default.equal(failure('{maybe}', 'boolean'), '22P02');
        strict_1.default.equal(failure('{1.2.3}', 'numeric'), '22P02');
        strict_1.default.equal(failure('{x}', 'double precision'), '22P02');
        strict_1.default.equal(failure('{a0eebc99}', 'uuid'), '22P02');
        strict_1.default.equal((0, pg_array_input_1.arrayInput)('{1.5,2.5,-2.5,3}', 'bigint', true), '{2,3,-3,3}');
        strict_1.default.equal(failure('{1,x}', 'bigint', true), '22P02');
    });
    it('reads dates, times and json elements as their types do, kept as their columns keep them', () => {
        strict_1.default.equal((0, pg_array_input_1.arrayInput)('{2024-1-5, NULL, infinity, 0044-03-15 BC}', 'date'), '{2024-01-05,NULL,infinity,/9956-03-15}');
        strict_1.default.equal((0, pg_array_input_1.arrayInput)('{2024-01-05 01:02:03.50}', 'timestamp without time zone'), '{"2024-01-05 01:02:03.5"}');
        strict_1.default.equal((0, pg_array_input_1.arrayInput)('{2024-01-05 01:02:03+02}', 'timestamp with time zone'), '{"2024-01-04 23:02:03"}');
        strict_1.default.equal((0, pg_array_input_1.arrayInput)('{ 01:02 }', 'time without time zone'), '{01:02:00}');
        strict_1.default.equal((0, pg_array_input_1.arrayInput)('{"{\\"a\\" : 1}"}', 'json'), '{"{\\"a\\" : 1}"}');
        strict_1.default.equal((0, pg_array_input_1.arrayInput)('{"{\\"b\\":2, \\"a\\" : 1}"}', 'jsonb'), '{"{\\"a\\": 1, \\"b\\": 2}"}');
        strict_1.default.equal(failure('{2024-13-5}', 'date'), '22008');
        strict_1.default.equal(failure('{x}', 'date'), '22007');
        strict_1.default.equal(failure('{25:00}', 'time without time zone'), '22008');
        strict_1.default.equal(failure('{"{x"}', 'json'), '22P02');
    });
    it('reads more dimensions, checking their shape as array_in does', () => {
        strict_1.default.equal((0, pg_array_input_1.arrayInput)('{{ 1 , 2 },{3,4}}', 'integer'), '{{1,2},{3,4}}');
        strict_1.default.equal((0, pg_array_input_1.arrayInput)('{{{1},{2}},{{3},{ NULL }}}', 'integer'), '{{{1},{2}},{{3},{NULL}}}');
        strict_1.default.equal((0, pg_array_input_1.arrayInput)('{{"a b",c},{d,NULL}}', 'text'), '{{"a b",c},{d,NULL}}');
        for (const bad of ['{{1,2},{3}}', '{1,{2}}', '{{1},2}', '{{},{}}', '{{1},{}}', '{{1,2}', '{{1}}}'])
            strict_1.default.equal(failure(bad, 'integer'), '22P02', bad);
        strict_1.default.equal(failure('{{1,x}}', 'integer'), '22P02');
        // explicit bounds are kept as written
        strict_1.default.equal((0, pg_array_input_1.arrayInput)('[0:1]={1,2}', 'integer'), '[0:1]={1,2}');
    });
    it('keys numeric elements by value and boolean ones by truth, for equality', () => {
        strict_1.default.equal((0, pg_array_input_1.elementKey)('1.50', 'numeric'), '1.5');
        strict_1.default.equal((0, pg_array_input_1.elementKey)(1.5, 'numeric'), '1.5');
        strict_1.default.equal((0, pg_array_input_1.elementKey)('-0.00', 'numeric'), '0');
        strict_1.default.equal((0, pg_array_input_1.elementKey)('1e2', 'numeric'), '100');
        strict_1.default.equal((0, pg_array_input_1.elementKey)('NaN', 'numeric'), 'NaN');
        strict_1.default.equal((0, pg_array_input_1.elementKey)('yes', 'boolean'), 't');
        strict_1.default.equal((0, pg_array_input_1.elementKey)(0, 'boolean'), 'f');
        strict_1.default.equal((0, pg_array_input_1.arrayKey)('{1.50, 2.000, NULL}', 'numeric'), (0, pg_array_input_1.arrayKey)('{1.5,2,NULL}', 'numeric'));
        strict_1.default.equal((0, pg_array_input_1.arrayKey)('{true, 0}', 'boolean'), '{t,f}');
        strict_1.default.throws(() => (0, pg_array_input_1.elementKey)('x', 'numeric'), { sqlstate: '22P02' });
    });
    it('sort keys order arrays of numbers, booleans and text (C collation) as PostgreSQL does', () => {
        const order = (kind, xs) => [...xs].sort((a, b) => ((0, pg_array_input_1.arraySortKey)(a, kind) < (0, pg_array_input_1.arraySortKey)(b, kind) ? -1 : 1));
        const numbers = ['{}', '{-Infinity}', '{-10}', '{-1.51}', '{-1.5}', '{-1}', '{-0.01}', '{0}', '{0.01}', '{1}',
            '{1,2}', '{1.2}', '{9}', '{10}', '{1e20}', '{Infinity}', '{NaN}', '{NULL}']; // biome-ignore format: a list
        strict_1.default.deepEqual(order('numeric', [...numbers].reverse()), numbers);
        strict_1.default.deepEqual(order('boolean', ['{NULL}', '{t}', '{f,t}', '{f}', '{}']), [
            '{}',
            '{f}',
            '{f,t}',
            '{t}',
            '{NULL}',
        ]);
        const texts = ['{}', '{"",x}', '{B}', '{a}', '{a,b}', '{a,NULL}', '{"a b"}', '{b}', '{ä}', '{NULL}'];
        const bytes = (a) => Buffer.from((0, pg_array_input_1.arraySortKey)(a, 'text'));
        strict_1.default.deepEqual([...texts].reverse().sort((a, b) => Buffer.compare(bytes(a), bytes(b))), texts);
    });
});
//# sourceMappingURL=array-input.test.js.map