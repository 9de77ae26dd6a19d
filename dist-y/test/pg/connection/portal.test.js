"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// A portal's numeric parameters as sent (protocols/pg/connection/portal.ts): the scale of their text
// or binary form, and the result columns printed at it (`$1::numeric` with '1.500' is 1.500).
const strict_1 = __importDefault(require("node:assert/strict"));
const portal_1 = require("../../../protocols/pg/connection/portal");
const numeric_1 = require("../../../protocols/pg/types/numeric");
describe('PG portal: numeric parameters as sent', () => {
    it('reads the scale of a text parameter, less its exponent, and the display scale of a binary one', () => {
        const text = (s) => (0, portal_1.sentScale)(Buffer.from(s), 0);
        strict_1.default.deepEqual(['1.500', '1.5', ' -0.10 ', '15', '15e-1', '1.50e1', '1.5e3', 'NaN', '.250', 'x1.5'].map(text), [3, 1, 2, 0, 0, 1, 0, 0, 3, 0]);
        strict_1.default.equal((0, portal_1.sentScale)(null, 0), 0);
        strict_1.default.equal((0, portal_1.sentScale)((0, numeric_1.decimalBinary)((0, numeric_1.parseDecimal)('1.500')), 1), 3);
        strict_1.default.equal((0, portal_1.sentScale)((0, numeric_1.decimalBinary)((0, numeric_1.parseDecimal)('NaN')), 1), 0);
    });
    it("prints a column whose scale is at least its parameters' at the larger of the two, other columns as they are", () => {
        const columns = [
            { name: 'a', declType: null, scale: 2, scaleIsMinimum: true, scaleParams: [1] },
            { name: 'b', declType: null, scale: 0, scaleIsMinimum: true, scaleParams: [2] },
            { name: 'c', declType: 'NUMERIC(10,2)' },
        ];
        const p = (0, portal_1.newPortal)({ columns }, [], []);
        strict_1.default.equal((0, portal_1.portalColumns)(p, columns), columns);
        p.paramScales = [3, 1];
        strict_1.default.deepEqual((0, portal_1.portalColumns)(p, columns).map((c) => c.scale), [3, 1, undefined]);
        p.paramScales = [1, 0];
        strict_1.default.equal((0, portal_1.portalColumns)(p, columns), columns);
    });
});
//# sourceMappingURL=portal.test.js.map