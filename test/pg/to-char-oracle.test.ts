// to_char on timestamps, dates and numbers: the same statements on Patina and on PostgreSQL 15
// (through node-postgres, simple and extended protocol), compared by value and column type. What
// Patina refuses (RN/EEEE/V/L patterns, an interval's ISO week patterns) is asserted with its SQLSTATE.
import assert from 'node:assert/strict';
import { type OracleClients, sameOnBoth, startOracle } from '../helpers/catalog-pair';

const SCHEMAS = {
  patina: `CREATE TABLE sales (id INTEGER NOT NULL PRIMARY KEY, at TIMESTAMP, at_tz TIMESTAMPTZ, day DATE,
  amount NUMERIC, qty INTEGER, ratio DOUBLE PRECISION);`,
  postgres: `CREATE TABLE sales (id bigint NOT NULL PRIMARY KEY, at timestamp, at_tz timestamptz, day date,
  amount numeric, qty bigint, ratio double precision);`,
};
const ROWS = [
  `INSERT INTO sales (id, at, at_tz, day, amount, qty, ratio) VALUES
    (1, '2024-03-05 09:07:03.123456', '2024-03-05 09:07:03+02', '2024-03-05', 1485.5, 12, 0.25),
    (2, '2024-01-01 00:00:00', '2024-01-01 00:00:00+00', '2024-01-01', -0.1, -485, -1.5),
    (3, '2023-12-31 23:59:59', '2023-12-31 23:59:59.5+00', '2023-12-31', 0, 0, 0),
    (4, '2021-01-03 15:00:00', '2021-01-03 15:00:00+00', '2021-01-03', 99.995, 9223372036854775807, 1234.5678),
    (5, NULL, NULL, NULL, NULL, NULL, NULL)`,
];

const DATE_FORMATS = [
  'YYYY-MM-DD HH24:MI:SS',
  'YYYY-MM',
  'Month DD, YYYY',
  'FMMonth FMDD, YYYY',
  'Day Dy DY day dy',
  'MON Mon mon',
  'HH12:MI AM',
  'hh:mi pm',
  'HH:MI A.M. a.m.',
  'DDD IDDD D ID',
  'WW IW W Q',
  'IYYY IYY IY I',
  'YYY YY Y Y,YYY',
  'CC J',
  'SSSS SSSSS',
  'MS US FF1 FF3 FF6',
  'RM rm FMRM',
  'DDth DDTH FMDDth',
  '"Week "IW',
  'YYYY"-Q"Q',
  'TZ tz OF',
  'AD BC a.d.',
  'yyyy-mm-dd hh24:mi',
  'FXYYYY',
  '\\"YYYY\\"',
];
const NUMBER_FORMATS = [
  '999',
  '999999999999999999999',
  '999.99',
  'FM999.99',
  'FM999.990',
  '9990999.9',
  'FM9990999.9',
  '9,999',
  '9G999D99',
  'S9999',
  '9999S',
  '9999MI',
  'FM999MI',
  'MI9999',
  'PL9999',
  'SG9999',
  '9SG999',
  '9999PR',
  'FM9999PR',
  '0000',
  'FM0000',
  '9999th',
  '"Total: "9999',
  '9.9',
  'FM9.9',
  '00.00',
  'FM90.99',
  'FM9,999,999.00',
  '999,999.99',
];

describe('to_char, to_date and to_timestamp(text, format) against PostgreSQL 15', function () {
  this.timeout(60_000);
  let o: OracleClients;

  before(async () => {
    o = await startOracle({ schemas: SCHEMAS, rows: ROWS });
  });
  after(() => o?.close());

  it('formats timestamps, timestamps with zone and dates as PostgreSQL does', async () => {
    for (const f of DATE_FORMATS) {
      const lit = `'${f.replace(/'/g, "''")}'`;
      await sameOnBoth(
        o,
        `SELECT id, to_char(at, ${lit}), to_char(at_tz, ${lit}), to_char(day, ${lit}) FROM sales ORDER BY id`,
      );
    }
    // the format as a parameter (extended protocol), and in GROUP BY as reports use it
    await sameOnBoth(o, 'SELECT to_char(at, $1) FROM sales ORDER BY id', ['YYYY-MM-DD"T"HH24:MI:SS.MS']);
    await sameOnBoth(
      o,
      `SELECT to_char(at, 'YYYY-MM') AS month, count(*) FROM sales WHERE at IS NOT NULL GROUP BY 1 ORDER BY 1`,
    );
    await sameOnBoth(o, `SELECT to_char(timestamp '0099-06-15 01:02:03', 'DDD IDDD J IYYY WW')`);
  });

  it('formats numerics, integers and doubles as PostgreSQL does, 64-bit integers exactly', async () => {
    for (const f of NUMBER_FORMATS) {
      const lit = `'${f.replace(/'/g, "''")}'`;
      await sameOnBoth(o, `SELECT id, to_char(amount, ${lit}), to_char(qty, ${lit}) FROM sales ORDER BY id`);
    }
    for (const f of ['999.99', 'FM9999.0000', '9999'])
      await sameOnBoth(o, `SELECT id, to_char(ratio, '${f}') FROM sales ORDER BY id`);
    await sameOnBoth(o, 'SELECT to_char(amount, $1) FROM sales ORDER BY id', ['FM999,990.00']);
  });

  it('reads dates and timestamps by a format with to_date and to_timestamp(text, format)', async () => {
    for (const sql of [
      "SELECT to_date('2024-01-05', 'YYYY-MM-DD'), to_date('05/01/2024', 'DD/MM/YYYY'), to_date('20240105', 'YYYYMMDD')",
      "SELECT to_date('Jan 5, 2024', 'Mon DD, YYYY'), to_date('5 March 2024', 'DD Month YYYY'), to_date('24-01-05', 'YY-MM-DD')",
      "SELECT to_timestamp('2024-01-05 13:45:10', 'YYYY-MM-DD HH24:MI:SS'), to_timestamp('05.01.2024 01:45 PM', 'DD.MM.YYYY HH:MI AM')",
      "SELECT to_timestamp('2024-01-05 13:45:10.123', 'YYYY-MM-DD HH24:MI:SS.MS'), to_date('2024', 'YYYY'), to_date('2024 060', 'YYYY DDD')",
      "SELECT to_date('Friday 2024-01-05', 'Day YYYY-MM-DD'), to_date('2024/1/5', 'YYYY/MM/DD'), to_date(NULL, 'YYYY')",
      "SELECT (to_date('2024-01-05', 'YYYY-MM-DD') + 1)::text, to_timestamp(1700000000)",
    ])
      await sameOnBoth(o, sql);
    for (const [sql, code] of [
      ["SELECT to_date('2024-13-05', 'YYYY-MM-DD')", '22008'],
      ["SELECT to_date('2024-02-30', 'YYYY-MM-DD')", '22008'],
      ["SELECT to_date('abcd-01-05', 'YYYY-MM-DD')", '22007'],
    ])
      for (const c of [o.patina, o.postgres])
        await assert.rejects(c.query(sql), (e: { code?: string }) => e.code === code, sql);
    await assert.rejects(
      o.patina.query("SELECT to_date('2024 5', 'YYYY Q')"),
      (e: { code?: string; message: string }) => e.code === '0A000' && /"Q" is not supported/.test(e.message),
    );
  });

  it('formats intervals by their fields as PostgreSQL does (they were 0A000), and refuses a calendar pattern with its 22007', async () => {
    const INTERVALS = `(VALUES (1, interval '1 day 02:03:04.5'), (2, interval '26 hours 5 minutes'), (3, interval '-1 mon -3 days -04:05:06.25'),
      (4, interval '1 year 2 months 3 days'), (5, interval '14 mons'), (6, interval '0'), (7, interval '-2 years -7 mons'),
      (8, interval '123 years 11 months 40 days 100:00:00.000123'), (9, NULL)) v(id, iv)`;
    for (const f of [
      'HH24:MI:SS',
      'HH:MI AM a.m.',
      'HH12 pm',
      'MS US FF1 FF3 FF6',
      'SSSS SSSSS',
      'YYYY-MM-DD',
      'DDD WW W Q CC',
      'RM rm FMRM',
      'Y,YYY YYY YY Y',
      'FMHH24 FMMI FMSS FMDD FMMM FMYYYY FMDDD',
      'DDth HH24TH MMth',
      '"took "HH24" h "MI" min"',
      'FX',
    ])
      await sameOnBoth(o, `SELECT id, to_char(iv, '${f}') FROM ${INTERVALS} ORDER BY id`);
    await sameOnBoth(
      o,
      "SELECT to_char(at - timestamp '2024-01-01', 'DD HH24:MI:SS'), to_char(at - at, 'HH24:MI:SS'), to_char(interval '90 minutes', $1), to_char(interval '1 day', '') FROM sales ORDER BY id",
      ['HH24:MI'],
    );
    const error = async (c: OracleClients['patina'], sql: string) =>
      c.query(sql).then(
        () => 'no error',
        (e: { code?: string; message?: string; hint?: string }) => `${e.code} ${e.message} | ${e.hint}`,
      );
    for (const f of ['Day', 'Mon', 'MONTH', 'TZ', 'OF', 'AD', 'D', 'ID', 'dy']) {
      const sql = `SELECT to_char(interval '2 days', '${f}')`;
      const [p, g] = [await error(o.patina, sql), await error(o.postgres, sql)];
      assert.match(g, /^22007 /, sql);
      assert.equal(p, g, sql);
    }
  });

  it('refuses what it cannot format the same way, with the SQLSTATE and what is wrong', async () => {
    const refused = async (sql: string, code: string, words: RegExp) =>
      assert.rejects(o.patina.query(sql), (e: { code?: string; message: string }) => {
        assert.equal(e.code, code, `${sql}: ${e.message}`);
        assert.match(e.message, words);
        return true;
      });
    await refused(`SELECT to_char(amount, '9.99EEEE') FROM sales`, '0A000', /EEEE is not supported/);
    await refused(`SELECT to_char(qty, 'RN') FROM sales`, '0A000', /RN is not supported/);
    await refused(`SELECT to_char(interval '2 days', 'IW')`, '0A000', /interval: the pattern IW is not supported/);
    await refused(`SELECT to_char(amount, '9.9.9') FROM sales`, '42601', /multiple decimal points/);
    await refused(`SELECT to_char('not a number'::text, '999')`, '22P02', /neither a number nor a timestamp/);
    // and the session is still usable
    await sameOnBoth(o, `SELECT to_char(qty, '999') FROM sales WHERE id = 1`);
  });
});
