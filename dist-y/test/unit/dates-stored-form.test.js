"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// The stored form of dates and timestamps: SQLite compares it as text, so its text order must be
// time order, years BC included; and the PG port prints it as PostgreSQL does.
const strict_1 = __importDefault(require("node:assert/strict"));
const dates_1 = require("../../src/engine/dates");
describe('stored dates and timestamps', () => {
    it('sort as text in time order: -infinity, years BC from the earliest, AD, infinity', () => {
        const dates = [
            '-infinity',
            '4714-11-24 BC',
            '1000-01-01 BC',
            '0101-12-31 BC',
            '0100-01-01 BC',
            '0044-03-15 BC',
            '0044-03-16 BC',
            '0001-12-31 BC',
            '0001-01-01',
            '0099-06-30',
            '2024-02-29',
            'infinity',
        ];
        const stored = dates.map((d) => (0, dates_1.castDate)(d));
        strict_1.default.deepEqual([...stored].sort(), stored);
        strict_1.default.deepEqual(stored.map((s) => (0, dates_1.pgDateText)(s, 'date')), dates);
        const stamps = [
            '0044-03-15 23:59:59.999999 BC',
            '0043-01-01 00:00:00 BC',
            '0001-12-31 23:00:00 BC',
            '0001-01-01 00:00:00',
        ];
        const storedStamps = stamps.map((t) => (0, dates_1.castTimestamp)(t));
        strict_1.default.deepEqual([...storedStamps].sort(), storedStamps);
        strict_1.default.deepEqual(storedStamps.map((s) => (0, dates_1.pgDateText)(s, 'timestamp')), stamps);
    });
    it('a stored year BC is / and 10000 minus the year; one beyond 4714 BC is no date', () => {
        strict_1.default.equal((0, dates_1.castDate)('0044-03-15 BC'), '/9956-03-15');
        strict_1.default.equal((0, dates_1.castDate)('0001-01-01 BC'), '/9999-01-01');
        strict_1.default.equal((0, dates_1.pgDateText)('/0044-03-15', 'date'), null);
    });
});
//# sourceMappingURL=dates-stored-form.test.js.map