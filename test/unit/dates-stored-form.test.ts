// The stored form of dates and timestamps: SQLite compares it as text, so its text order must be
// time order, years BC included; and the PG port prints it as PostgreSQL does.
import assert from 'node:assert/strict';
import { castDate, castTimestamp, pgDateText } from '../../src/engine/dates';

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
    const stored = dates.map((d) => castDate(d)!);
    assert.deepEqual([...stored].sort(), stored);
    assert.deepEqual(
      stored.map((s) => pgDateText(s, 'date')),
      dates,
    );
    const stamps = [
      '0044-03-15 23:59:59.999999 BC',
      '0043-01-01 00:00:00 BC',
      '0001-12-31 23:00:00 BC',
      '0001-01-01 00:00:00',
    ];
    const storedStamps = stamps.map((t) => castTimestamp(t)!);
    assert.deepEqual([...storedStamps].sort(), storedStamps);
    assert.deepEqual(
      storedStamps.map((s) => pgDateText(s, 'timestamp')),
      stamps,
    );
  });

  it('a stored year BC is / and 10000 minus the year; one beyond 4714 BC is no date', () => {
    assert.equal(castDate('0044-03-15 BC'), '/9956-03-15');
    assert.equal(castDate('0001-01-01 BC'), '/9999-01-01');
    assert.equal(pgDateText('/0044-03-15', 'date'), null);
  });
});
