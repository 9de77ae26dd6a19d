// The zone database reader (src/engine/tz-file.ts): TZif files as the system has them, and files that
// are none.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { readZoneFile, zoneFileAbbreviation } from '../../src/engine/tz-file';

const at = (iso: string) => Date.parse(iso);
const H = 3600_000;

describe('zone database abbreviations (TZif)', () => {
  it("names an instant's abbreviation by the local time type then in force", () => {
    assert.equal(zoneFileAbbreviation('Europe/Moscow', at('1990-06-01T12:00:00Z'), 4 * H), 'MSD');
    assert.equal(zoneFileAbbreviation('Europe/Moscow', at('2012-01-15T12:00:00Z'), 4 * H), 'MSK');
    assert.equal(zoneFileAbbreviation('Europe/Moscow', at('2024-01-15T12:00:00Z'), 3 * H), 'MSK');
    // past the file's last transition: its last rules (New York's summer and winter)
    assert.equal(zoneFileAbbreviation('America/New_York', at('2060-07-01T12:00:00Z'), -4 * H), 'EDT');
    assert.equal(zoneFileAbbreviation('America/New_York', at('2060-01-01T12:00:00Z'), -5 * H), 'EST');
    assert.equal(zoneFileAbbreviation('Asia/Dubai', at('2024-01-01T00:00:00Z'), 4 * H), '+04');
    // a name in another case is Intl's spelling of it
    assert.equal(zoneFileAbbreviation('asia/shanghai', at('2024-01-01T00:00:00Z'), 8 * H), 'CST');
  });

  it('answers nothing for names that are no file, paths out of the database, and files that are no TZif', () => {
    assert.equal(zoneFileAbbreviation('No/Such_Zone', Date.now(), 0), undefined);
    assert.equal(zoneFileAbbreviation('../../etc/passwd', Date.now(), 0), undefined);
    assert.equal(readZoneFile(Buffer.from('not a zone file at all, long enough to have a header......')), null);
    const moscow = fs.readFileSync('/usr/share/zoneinfo/Europe/Moscow');
    assert.equal(readZoneFile(moscow.subarray(0, 60)), null); // cut short
    assert.ok(readZoneFile(moscow));
  });
});
