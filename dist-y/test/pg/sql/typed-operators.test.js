"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// The pure parts of typed operators: which signature a date or time operator has given its operand
// types (sql/typed-operators.ts), and how the translation finds the operands of a marked operator
// by precedence (translate/typed-arithmetic.ts). Bad input: unknown kinds, operators at the end of
// the text, operands of unknown type.
const strict_1 = __importDefault(require("node:assert/strict"));
const dates_1 = require("../../../src/engine/dates");
const lexer_1 = require("../../../protocols/pg/sql/lexer");
const tokens_1 = require("../../../protocols/pg/sql/tokens");
const typed_arithmetic_1 = require("../../../protocols/pg/sql/translate/typed-arithmetic");
const typed_operators_1 = require("../../../protocols/pg/sql/typed-operators");
const typed_operators_hint_1 = require("../../../protocols/pg/sql/typed-operators-hint");
const oids_1 = require("../../../protocols/pg/types/oids");
/** Tokens with the n-th operator (counting from 0) marked as the analysis would mark it. */
function marked(sql, marks) {
    let n = 0;
    return (0, lexer_1.lexPg)(sql)
        .filter((t) => t.type !== 'space')
        .map((t) => (t.type === 'op' && marks[n++] !== undefined ? { ...t, arith: marks[n - 1] } : t));
}
describe('typed operators', () => {
    it('signatures: date and integer, dates, timestamps, intervals, either way round', () => {
        const k = (l, op, r, u = null) => (0, typed_operators_1.dateOperator)(l, op, r, u);
        strict_1.default.deepEqual(k(oids_1.OID.date, '+', oids_1.OID.int4), { kind: 'date+int', oid: oids_1.OID.date });
        strict_1.default.deepEqual(k(oids_1.OID.int8, '+', oids_1.OID.date), { kind: 'int+date', oid: oids_1.OID.date });
        strict_1.default.deepEqual(k(oids_1.OID.date, '-', oids_1.OID.date), { kind: 'date-date', oid: oids_1.OID.int4 });
        strict_1.default.deepEqual(k(oids_1.OID.timestamp, '-', oids_1.OID.timestamp), { kind: 'ts-ts', oid: oids_1.OID.interval });
        strict_1.default.deepEqual(k(oids_1.OID.interval, '+', oids_1.OID.timestamptz), { kind: 'iv+ts', oid: oids_1.OID.timestamptz });
        strict_1.default.deepEqual(k(oids_1.OID.date, '+', oids_1.OID.interval), { kind: 'date+iv', oid: oids_1.OID.timestamp });
        strict_1.default.deepEqual(k(oids_1.OID.numeric, '*', oids_1.OID.interval), { kind: 'num*iv', oid: oids_1.OID.interval });
        strict_1.default.deepEqual(k(oids_1.OID.timestamp, '+', oids_1.OID.text, 'r'), { kind: 'ts+iv', oid: oids_1.OID.timestamp });
        strict_1.default.deepEqual(k(oids_1.OID.timestamp, '-', oids_1.OID.text, 'r'), { kind: 'ts-ts', oid: oids_1.OID.interval });
        // no date or time operand, or one of unknown type: not ours
        strict_1.default.equal(k(oids_1.OID.int4, '+', oids_1.OID.int4), null);
        strict_1.default.equal(k(oids_1.OID.date, '+', 0), null);
        // no such operator in PostgreSQL
        strict_1.default.throws(() => k(oids_1.OID.timestamp, '+', oids_1.OID.int4), /42883|operator does not exist: timestamp without time zone \+ integer/);
        strict_1.default.throws(() => k(oids_1.OID.date, '*', oids_1.OID.int4), /operator does not exist: date \* integer/);
        strict_1.default.throws(() => k(oids_1.OID.date, '+', oids_1.OID.text, 'r'), /operator is not unique: date \+ unknown/);
    });
    it('parses only statements that may hold such an operator (not a literal INSERT with signs)', () => {
        const col = (c) => (c === 'placed_at' ? 'TIMESTAMP' : c === 'n' ? 'INTEGER' : null);
        const may = (sql) => (0, typed_operators_hint_1.mayHaveTypedOperators)((0, lexer_1.lexPg)(sql).filter((t) => t.type !== 'space'), col);
        strict_1.default.equal(may("INSERT INTO t (n, placed_at) VALUES (-5, '2024-01-01'), (+3, now())"), false);
        strict_1.default.equal(may('SELECT n + 1 FROM t'), false);
        strict_1.default.equal(may('SELECT placed_at - n FROM t'), true);
        strict_1.default.equal(may("SELECT now() - interval '1 day'"), true);
        strict_1.default.equal(may('SELECT n / 2, 2 ^ 3 FROM t'), true);
        strict_1.default.equal(may('SELECT -n FROM t WHERE placed_at IS NULL'), false);
        // a string compared with a computed value is parsed; with a bare column (SQLite's affinity) it is not
        strict_1.default.equal(may("SELECT n FROM t GROUP BY n HAVING count(*) > '5'"), true);
        strict_1.default.equal(may("SELECT n FROM t WHERE '3' = n + 1"), true);
        strict_1.default.equal(may("SELECT n FROM t WHERE name = 'x' AND n = '5'"), false);
    });
    it('operands found by precedence: ^ before * and /, those before + and -, signs bind tightest', () => {
        const t = (sql, marks) => (0, tokens_1.joinTokens)((0, typed_arithmetic_1.rewriteDateArithmetic)(marked(sql, marks)));
        strict_1.default.equal(t('SELECT d + 1', { 0: 'date+int' }), "SELECT __pg_date_arith('date+int', d, 1)");
        strict_1.default.equal(t('SELECT a * b + d - 2', { 1: 'int+date', 2: 'date-int' }), "SELECT __pg_date_arith('date-int', __pg_date_arith('int+date', a * b, d), 2)");
        strict_1.default.equal(t('SELECT d + i * 2', { 0: 'ts+iv', 1: 'iv*num' }), "SELECT __pg_date_arith('ts+iv', d, __pg_date_arith('iv*num', i, 2))");
        strict_1.default.equal(t('SELECT d + i * 2', { 0: 'ts+iv' }), "SELECT __pg_date_arith('ts+iv', d, i * 2)");
        strict_1.default.equal(t('SELECT -2 ^ 2, 2 ^ 3 ^ 2', { 1: 'pow', 2: 'pow', 3: 'pow' }), 'SELECT power(- 2, 2), power(power(2, 3), 2)');
        strict_1.default.equal(t('SELECT f(x).y - t.d', { 0: 'ts-ts' }), "SELECT __pg_date_arith('ts-ts', f(x).y, t.d)");
        // a window call with its OVER, an aggregate with its FILTER, is one operand on either side
        strict_1.default.equal(t('SELECT d - lag(d) OVER (ORDER BY d), lag(d) OVER w - d', { 0: 'ts-ts', 1: 'ts-ts' }), "SELECT __pg_date_arith('ts-ts', d, lag(d) OVER(ORDER BY d)), __pg_date_arith('ts-ts', lag(d) OVER w, d)");
        // a numeric division takes the operators of its level before it as its left operand, its divisor
        // as a double; of an expression through the function that keeps NaN, of columns behind a NaN test
        strict_1.default.equal(t('SELECT a * b / sum(c) FILTER (WHERE e) + 1', { 1: 'num/' }), 'SELECT __pg_num_div(a * b, sum(c) FILTER(WHERE e)) + 1');
        strict_1.default.equal(t('SELECT a / 2', { 0: 'num/:' }), 'SELECT (a / __pg_real_divisor(2))');
        strict_1.default.equal(t('SELECT a / 2', { 0: 'num/:l' }), "SELECT (CASE WHEN (a IS 'NaN') AND (a) IS NOT NULL AND (2) IS NOT NULL THEN 'NaN' ELSE a / __pg_real_divisor(2) END)");
        // (left to right: `2 - 1 + n` is (2 - 1) + n)
        strict_1.default.equal(t('SELECT 2 - 1 + n', { 1: 'num+' }), 'SELECT __pg_num_add(2 - 1, n)');
        // an operator at the end, or with nothing before it, is left for SQLite to refuse
        strict_1.default.equal(t('SELECT d +', { 0: 'date+int' }), 'SELECT d +');
        strict_1.default.equal(t('+ 1', { 0: 'date+int' }), '+ 1');
        // nothing marked: the tokens as they were
        strict_1.default.equal(t('SELECT d + 1', {}), 'SELECT d + 1');
    });
    it('computes as PostgreSQL: calendar days, months spilled into days, NULL in NULL out, bad kinds refused', () => {
        strict_1.default.equal((0, dates_1.dateArithmetic)('date+int', '2024-02-28', 2), '2024-03-01');
        strict_1.default.equal((0, dates_1.dateArithmetic)('date-date', '2024-03-01', '2024-01-01'), 60);
        strict_1.default.equal((0, dates_1.dateArithmetic)('ts-ts', '2024-01-01 00:00:00', '2024-01-02 01:00:00'), '-1 days -01:00:00');
        strict_1.default.equal((0, dates_1.dateArithmetic)('iv*num', '1 mon', 1.5), '1 mon 15 days');
        strict_1.default.equal((0, dates_1.dateArithmetic)('iv/num', '1 day', 3), '08:00:00');
        strict_1.default.equal((0, dates_1.dateArithmetic)('date+time', '2024-01-01', '10:30'), '2024-01-01 10:30:00');
        strict_1.default.equal((0, dates_1.dateArithmetic)('date+int', null, 1), null);
        strict_1.default.throws(() => (0, dates_1.dateArithmetic)('iv/num', '1 day', 0), /division by zero/);
        strict_1.default.throws(() => (0, dates_1.dateArithmetic)('date+int', '2024-01-01', 1.5), /invalid input syntax for type integer/);
        strict_1.default.throws(() => (0, dates_1.dateArithmetic)('date+int', 'soon', 1), /invalid input syntax for type date/);
        strict_1.default.throws(() => (0, dates_1.dateArithmetic)('nonsense', 'a', 'b'), /not known/);
    });
});
//# sourceMappingURL=typed-operators.test.js.map