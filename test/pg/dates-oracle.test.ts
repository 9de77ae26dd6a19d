// Dates, times and intervals written on the PG port are kept in the form their column reads, so
// what reads them agrees with PostgreSQL 15: a timestamptz literal with an offset, a short time, an
// interval in words. Before, INSERT's literals and COPY's fields were stored as sent: `at::time` of
// '2024-03-10 23:30:00-05' was 23:30:00, `t = '10:30:00'` missed '10:30', and sum(interval) was {}.
import assert from 'node:assert/strict';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { oracleSuite } from '../helpers/catalog-pair';

const SCHEMA = `CREATE TABLE ev (id BIGINT NOT NULL PRIMARY KEY, at TIMESTAMPTZ, d DATE, t TIME, dur INTERVAL, name VARCHAR(20));
CREATE TABLE hist (id BIGINT NOT NULL PRIMARY KEY, at TIMESTAMPTZ, ts TIMESTAMP, d DATE, t TIME);`;
const ROWS = [
  `INSERT INTO ev VALUES (1, '2024-03-10 01:30:00+00', '2024-03-10', '10:30', '1 day 2 hours', 'alpha'),
    (2, '2024-03-10 23:30:00-05', '2024-2-29', '23:59:59.5', '90 minutes', 'Beta'), (3, NULL, NULL, NULL, NULL, NULL),
    (4, '2023-12-31 23:59:59.999+00', '2023-12-31', '00:00', '-1 day', 'gamma')`,
];

// eslint-disable-next-line @typescript-eslint/no-require-imports
const copyStreams = require('pg-copy-streams') as { from(sql: string): Writable };

describe('dates, times and intervals as written on the PG port, against PostgreSQL 15', function () {
  this.timeout(60_000);
  const { same, clients } = oracleSuite(SCHEMA, ROWS);
  type Client = ReturnType<typeof clients>['patina'];
  /** Rows as the text each server sends (node-postgres would make Dates of them), or the error's code and message. */
  /** node-postgres as it is: a query may name its own type parsers. */
  type RawClient = {
    query(q: object): Promise<{ rows: unknown[][]; fields: { dataTypeID: number }[] }>;
  };
  const answer = (c: Client, sql: string, params?: unknown[]) =>
    (c as unknown as RawClient)
      .query({ text: sql, values: params, rowMode: 'array', types: { getTypeParser: () => (v: string) => v } })
      .then(
        (r) => ({ rows: r.rows, types: r.fields.map((f) => f.dataTypeID) }),
        (err: { code: string; message: string }) => ({ error: `${err.code} ${err.message}` }),
      );
  /** The same text (or the same error) from both servers. */
  const sameText = async (sql: string, params?: unknown[]) => {
    const [p, g] = [await answer(clients().patina, sql, params), await answer(clients().postgres, sql, params)];
    assert.deepEqual(p, g, `${sql} ${JSON.stringify(params ?? [])}`);
    return p;
  };

  it('INSERT literals are kept as the column reads them: casts, comparisons and JSON agree', async () => {
    for (const sql of [
      'SELECT id, at, d, t, dur, name FROM ev ORDER BY id',
      "SELECT id, at::date, at::time, date_trunc('day', at), extract(hour FROM at) FROM ev ORDER BY id",
      "SELECT id FROM ev WHERE at >= '2024-03-11 00:00:00+00' ORDER BY id",
      "SELECT id FROM ev WHERE t = '10:30:00' OR d = '2024-02-29' ORDER BY id",
      "SELECT id FROM ev WHERE t > '10:00' ORDER BY id",
      "SELECT json_build_object('id', id, 'at', at, 'd', d) FROM ev ORDER BY id",
    ])
      await same(sql);
  });

  it("date_trunc of an interval or a time cuts the interval's fields (22007 before), and a time beside a timestamp, or taken from a date, is an interval (42883 before)", async () => {
    for (const sql of [
      "SELECT id, date_trunc('hour', t), date_trunc('minute', dur), date_trunc('day', t) FROM ev ORDER BY id",
      "SELECT date_trunc('hour', t) AS h, count(*) FROM ev GROUP BY 1 ORDER BY 1",
      "SELECT date_trunc('hour', time '10:30:00'), date_trunc('minute', '23:59:59.5'::time), date_trunc('hour', t)::text FROM ev ORDER BY id",
      "SELECT date_trunc('second', interval '-1 year -5 months -3 days -04:05:06.789'), date_trunc('millisecond', interval '-3 days -04:05:06.789')",
      "SELECT date_trunc('quarter', interval '7 years 11 months 40 days 100:00'), date_trunc('decade', interval '19 years'), date_trunc('century', interval '-250 years'), date_trunc('millennium', interval '2999 years')",
      'SELECT id, at + t, at - t, d - t, d + t, t + at FROM ev ORDER BY id',
      "SELECT timestamp '2024-01-01 10:00' + time '01:30', time '01:30' + timestamp '2024-01-01 10:00', timestamp '2024-01-01 10:00' - time '01:30', date '2024-01-01' - time '10:00'",
      "SELECT pg_typeof(date '2024-01-01' + time '10:00'), pg_typeof(timestamp '2024-01-01' + time '01:00'), pg_typeof(date_trunc('hour', time '10:00'))",
      "SELECT date_trunc('dow', interval '10 days')",
      "SELECT date_trunc('abc', t) FROM ev",
    ])
      await sameText(sql);
    // a week is no unit of an interval, with PostgreSQL's DETAIL (of a row's value too)
    for (const sql of ["SELECT date_trunc('week', interval '10 days')", "SELECT date_trunc('week', t) FROM ev"]) {
      const fail = (c: Client) =>
        c.query(sql).then(
          () => 'ran',
          (e: { code?: string; message: string; detail?: string }) => `${e.code} ${e.message} | ${e.detail}`,
        );
      const p = await fail(clients().patina);
      assert.equal(p, await fail(clients().postgres), sql);
      assert.equal(p, '0A000 unit "week" not supported for type interval | Months usually have fractional weeks.');
    }
  });

  it("text cast to timetz keeps its offset, or takes the session zone's (it was the time alone: '12:00+03'::timetz printed 12:00:00), a timetz column (OID 1266; it was text)", async () => {
    const values = sameText;
    for (const sql of [
      "SELECT '12:00+03'::timetz, '12:00'::timetz, '12:00:01.5-05:30'::timetz, timetz '23:59:59.999+14'",
      "SELECT '12:00 PST'::timetz, '12:00 pm EST'::timetz, '12:00 z'::timetz, '24:00+01'::timetz",
      "SELECT CAST('12:00+03' AS time with time zone), '12:00+03'::time with time zone, '12:00:00.123456+03'::timetz(2)",
      "SELECT '12:00+03'::timetz::text, '12:00+03'::timetz::time, ('12:' || '30+05:30')::timetz",
      'SELECT id, t::timetz FROM ev ORDER BY id',
      "SELECT '12:00+16'::timetz",
      "SELECT '12:00 Europe/Paris'::timetz",
      "SELECT '2024-01-01'::timetz",
      'SELECT current_time IS NOT NULL, pg_typeof(current_time) IS NOT NULL',
      "SELECT x FROM (SELECT '12:00+03'::timetz AS x UNION ALL SELECT '13:00-01:30'::timetz) s ORDER BY 1",
    ])
      await values(sql);
    // (Patina reads a timetz as its text: its arithmetic is a clear 0A000)
    await assert.rejects(clients().patina.query("SELECT '12:00+03'::timetz + interval '1 hour'"), { code: '0A000' });
    for (const c of [clients().patina, clients().postgres]) await c.query("SET TIME ZONE 'Asia/Kolkata'");
    try {
      await values("SELECT '12:00'::timetz, '12:00-02'::timetz, t::timetz FROM ev ORDER BY id");
    } finally {
      for (const c of [clients().patina, clients().postgres]) await c.query('SET TIME ZONE UTC');
    }
  });

  it("timetz compares and sorts by its instant in UTC, then its offset east first, and equals a literal read as timetz (it went by the text: '10:00+02' < '08:00+00' was false, tz = '8:00+00' too)", async () => {
    const v =
      "(VALUES (1, '10:00+02'::timetz), (2, '08:00+00'::timetz), (3, '09:00+00'::timetz), (4, '23:00-05'::timetz), (5, NULL::timetz)) v(i, x)";
    for (const sql of [
      "SELECT '10:00+02'::timetz < '08:00+00'::timetz, '10:00+02'::timetz > '08:00+00', '10:00+02'::timetz <= '08:30', '10:00+02'::timetz = '08:00+00'::timetz",
      `SELECT i, x FROM ${v} ORDER BY x, i`,
      `SELECT i, x AS y FROM ${v} ORDER BY y DESC NULLS LAST`,
      `SELECT x FROM ${v} ORDER BY 1 DESC`,
      `SELECT min(x), max(x) FROM ${v}`,
      `SELECT i, max(x) OVER (ORDER BY i), row_number() OVER (ORDER BY x DESC) FROM ${v} ORDER BY i`,
      `SELECT string_agg(x::text, ',' ORDER BY x) FROM ${v}`,
      `SELECT i FROM ${v} WHERE x < '09:00+00' ORDER BY i`,
      `SELECT i, x BETWEEN '07:00+00' AND '09:00+00', x NOT BETWEEN '07:00+00' AND '09:00+00' FROM ${v} ORDER BY i`,
      `SELECT DISTINCT x FROM ${v} ORDER BY 1`,
      `SELECT x AS a FROM ${v} UNION SELECT '09:30+01'::timetz ORDER BY a`,
      "SELECT i, t::timetz < '10:00+02'::timetz FROM (SELECT id AS i, t FROM ev) e ORDER BY i",
      "SELECT '10:00+02'::timetz < 'xyz'",
      // (equal as timetz_eq, the same time and offset: a literal read as timetz, not compared as text)
      `SELECT i, x = '8:00+00', x <> '10:00:00+02:00', x IN ('8:00+00', '23:00-05:00'), x NOT IN ('10:00+02') FROM ${v} ORDER BY i`,
      "SELECT '08:00+00'::timetz = '10:00+02'::timetz, '08:00+00'::timetz = 'bad'",
    ])
      await sameText(sql);
    for (const c of [clients().patina, clients().postgres]) await c.query("SET TIME ZONE 'Asia/Kolkata'");
    try {
      // (a literal with no offset takes the session zone's, as timetz input reads it)
      await sameText(`SELECT i FROM ${v} WHERE x BETWEEN '13:00' AND '14:00' OR x > '23:59' ORDER BY i`);
      await sameText(`SELECT i, x = '13:30', x IN ('14:30') FROM ${v} ORDER BY i`);
    } finally {
      for (const c of [clients().patina, clients().postgres]) await c.query('SET TIME ZONE UTC');
    }
  });

  it("a row comparison (or a row IN a list of rows) with a timetz field compares it by its instant, then its offset (it compared the text: (2, '10:00+02') < (2, '09:30+00') was false)", async () => {
    const v =
      "(VALUES (1, '10:00+02'::timetz), (2, '08:00+00'::timetz), (2, '09:30+02'::timetz), (2, NULL::timetz)) s(i, x)";
    for (const sql of [
      `SELECT i, x, (i, x) < (2, '10:00+02'::timetz), (x, i) > ('08:00+00'::timetz, 1), (i, x) = (1, '08:00+00'::timetz) FROM ${v} ORDER BY 1, 2`,
      `SELECT i, x, ROW(i, x) <= ROW(2, '07:30'), (i, x) <> (2, '08:00:00+00:00'), (i, x) >= (2, '10:00+02') FROM ${v} ORDER BY 1, 2`,
      `SELECT i, x FROM ${v} WHERE (x, i) < ('09:00+00', 2) ORDER BY 1, 2`,
      // a row in a list of rows: equal as timetz_eq, a literal read as timetz
      `SELECT i, x, (i, x) IN ((2, '8:00+00'), (1, '10:00:00+02:00')), (x, i) NOT IN (('08:00+00'::timetz, 2)) FROM ${v} ORDER BY 1, 2`,
    ])
      await sameText(sql);
  });

  it("greatest() and least() of intervals pick by length and of timetz by instant and offset (they picked by the text: greatest('1 day', '23 hours') was 23:00:00)", async () => {
    for (const sql of [
      "SELECT greatest('1 day'::interval, '23 hours'::interval), least('1 mon'::interval, '29 days'::interval)",
      "SELECT greatest('24 hours'::interval, '1 day'::interval), least('1 day'::interval, '24 hours'::interval)",
      "SELECT id, greatest(dur, '25 hours'), least(dur, NULL, '2 days'::interval), greatest(NULL::interval, NULL) FROM ev ORDER BY id",
      "SELECT greatest('10:00+02'::timetz, '08:00+00'::timetz), least('10:00+02'::timetz, '09:00+00'::timetz)",
      "SELECT id, greatest(t::timetz, '10:00+00'), least(t::timetz, '10:00+02'::timetz) FROM ev ORDER BY id",
    ])
      await sameText(sql);
  });

  it('other forms of date input PostgreSQL reads: ISO basic, month names, MDY, zone names (were 22007)', async () => {
    for (const v of ['20240229', 'Feb 29 2024', 'January 8, 1999', '29-Feb-2024', '8 Jan 1999', '02/29/2024'])
      await same(`SELECT '${v}'::date, '${v} 10:30'::timestamp`);
    await same(
      `SELECT '2024-01-15 10:30:00 Europe/Berlin'::timestamptz, '2024-07-15 10:30:00 America/New_York'::timestamptz,
         '2024-03-31 02:30:00 Europe/Berlin'::timestamptz, '2024-01-15 10:30 Europe/Berlin'::timestamp`,
    );
    // as written into columns, and bound (drivers that send such text)
    await same(
      `INSERT INTO ev (id, at, d) VALUES (30, 'Jan 15 2024 10:30:00 America/Chicago', '20240115') RETURNING at, d`,
    );
    await same('INSERT INTO ev (id, at, d) VALUES ($1, $2, $3) RETURNING at, d', [
      31,
      '2024-06-01 08:00 Asia/Tokyo',
      '06/01/2024',
    ]);
    await same('DELETE FROM ev WHERE id IN (30, 31)'); // the other tests read every row
    // a zone name no one knows: 22023 on both
    const state = async (c: ReturnType<typeof clients>['patina']) =>
      c.query("SELECT '2024-01-15 10:30:00 Mars/Base'::timestamptz").then(
        () => null,
        (err: { code: string }) => err.code,
      );
    assert.equal(await state(clients().patina), await state(clients().postgres));
    assert.equal(await state(clients().postgres), '22023');
  });

  it("ISO 8601's basic time after a date: '20240229 103000', '20240229T1030', '2024-02-29T103000.5Z' (were 22007 or 22023)", async () => {
    for (const v of [
      '20240229 103000',
      '20240229T103000',
      '20240229t103000',
      '20240229 T103000',
      '20240229T1030',
      '20240229 1030',
      '20240229 1030.5',
      '20240229 103000.123456789',
      '20240229T103000Z',
      '20240229T103000+0530',
      '20240229 103000+05',
      '20240229 103000 Europe/Paris',
      '20240229 1030 PM',
      '240229 103000',
      '2024-02-29 103000',
      '2024-02-29T103000',
      '2024-02-29T1030Z',
      '20240229 10300',
      '20240230 103000',
    ])
      await sameText(`SELECT '${v}'::timestamp, '${v}'::timestamptz, '${v}'::date`);
    // as written into a column, and bound
    await sameText("INSERT INTO hist (id, at, ts) VALUES (70, '20240229T103000Z', '20240229 103000') RETURNING at, ts");
    await sameText('INSERT INTO hist (id, at, ts) VALUES (71, $1, $2) RETURNING at, ts', [
      '20240229T1030',
      '20240229 103000.5',
    ]);
    await sameText('DELETE FROM hist WHERE id >= 70');
  });

  it("a basic time's fields carry over as PostgreSQL's ('20240229 236000' is the next midnight; were 22008), and a date's time is not read ('2024-02-29 24:00'::date is 2024-02-29)", async () => {
    for (const v of [
      '20240229 236000',
      '20240229 245960',
      '20240229 240000',
      '20240229T2360',
      '20240229 0060',
      '20240229 999999.5',
      '20241231 240000 BC',
      '2024-02-29 24:00',
      '2024-02-29 23:60',
      '2024-02-29 25:00',
    ])
      await sameText(`SELECT '${v}'::timestamp, '${v}'::timestamptz, '${v}'::date, ('${v}'::text)::date`);
    await sameText('SELECT $1::timestamp, $1::date', ['20240229 236000']);
  });

  it('to_char of a timestamptz prints its zone (UTC); sum and avg of intervals add their parts', async () => {
    await same("SELECT id, to_char(at, 'YYYY-MM-DD HH24:MI TZ') FROM ev ORDER BY id");
    await same('SELECT sum(dur), avg(dur), count(dur) FROM ev');
    await same(
      'SELECT id, sum(dur) OVER (ORDER BY id), avg(dur) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM ev ORDER BY id',
    );
    // min and max of a varchar are text, as PostgreSQL's text aggregates
    await same('SELECT min(name), max(name) FROM ev');
    // times and divided by a number: a month's fraction and a day's cascade down apart, as
    // interval_mul and interval_div do (the days summed first gave -17 days -09:36:00 for the first)
    await same(
      "SELECT (interval '1 day' - interval '1 mon') * 0.6, interval '1 mon' * -0.6, interval '-1 mon 5 days' * 0.7, interval '2 mons 3 days 04:05:06.789' * 0.37, interval '1 mon 1 day' / 7, interval '3 days' / -7",
    );
    await same(
      "SELECT avg(x) FROM (VALUES (interval '1 mon 3 days'), (interval '1 day 01:00'), (interval '7 mons')) v(x)",
    );
  });

  it('intervals compare, sort, take min and max and fall between bounds by their length, not their text', async () => {
    // ('10 days' < '9 days' and '1 day' <> '24 hours' as texts; these answered so before)
    for (const sql of [
      "SELECT interval '10 days' > interval '9 days', interval '1 day' = interval '24 hours', interval '1 month' >= interval '30 days'",
      "SELECT id FROM ev WHERE dur > interval '2 hours' ORDER BY id",
      "SELECT id FROM ev WHERE dur < '1 day' ORDER BY id",
      "SELECT id FROM ev WHERE dur = interval '26 hours' ORDER BY id",
      "SELECT id FROM ev WHERE dur + interval '1 day' >= interval '2 days' ORDER BY id",
      "SELECT id FROM ev WHERE dur BETWEEN interval '1 hour' AND interval '1 day' * 2 ORDER BY id",
      "SELECT id FROM ev WHERE dur NOT BETWEEN '-2 days' AND '1 hour' ORDER BY id",
      'SELECT id, dur FROM ev ORDER BY dur, id',
      'SELECT id, dur FROM ev ORDER BY dur DESC NULLS LAST, id',
      'SELECT id, dur AS length FROM ev ORDER BY 2 DESC, 1',
      "SELECT id FROM ev WHERE at IS NOT NULL ORDER BY (at - timestamptz '2024-01-01 00:00:00+00') DESC",
      "SELECT x FROM (VALUES (interval '1 day'), (interval '9 days'), (interval '10 days'), (interval '1 month')) v(x) ORDER BY x",
      "SELECT max(x), min(x) FROM (VALUES (interval '1 day'), (interval '9 days'), (interval '10 days')) v(x)",
      'SELECT max(dur), min(dur), sum(dur) FROM ev',
      "SELECT name FROM ev GROUP BY name HAVING max(dur) > interval '1 hour' ORDER BY name",
      // over windows too (the frame's values kept in order)
      "SELECT n, max(x) OVER (ORDER BY n), min(x) OVER (ORDER BY n ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM (VALUES (1, interval '9 days'), (2, interval '10 days'), (3, interval '1 day'), (4, NULL)) v(n, x) ORDER BY n",
      'SELECT id, max(dur) OVER (), min(dur) OVER (ORDER BY id) FROM ev ORDER BY id',
      // equal lengths are one value in IN lists, groups and count(DISTINCT) (they were apart as texts)
      "SELECT interval '1 day' IN (interval '24 hours', interval '1 hour'), interval '1 day' NOT IN (interval '24 hours')",
      "SELECT id FROM ev WHERE dur IN (interval '26 hours', '0', interval '-1 day') ORDER BY id",
      "SELECT id FROM ev WHERE dur NOT IN (interval '1 day 2 hours') ORDER BY id",
      "SELECT x, count(*) FROM (VALUES (interval '1 day'), (interval '24 hours'), (interval '2 days')) v(x) GROUP BY x ORDER BY x",
      "SELECT count(DISTINCT x), count(x) FROM (VALUES (interval '1 day'), (interval '24 hours')) v(x)",
      'SELECT count(DISTINCT dur), count(*) FROM ev',
    ])
      await same(sql);
  });

  it('SELECT DISTINCT, DISTINCT ON and UNION take intervals of equal length as one (SQLite compared their texts)', async () => {
    const v =
      "(VALUES (interval '1 day', 1), (interval '24 hours', 1), (interval '2 days', 1), (interval '24 hours', 2), (NULL, 1)) v(x, n)";
    for (const sql of [
      `SELECT count(*) FROM (SELECT DISTINCT x FROM ${v}) s`,
      `SELECT extract(epoch from d), n FROM (SELECT DISTINCT x AS d, n FROM ${v}) s ORDER BY 1, 2`,
      `SELECT DISTINCT x * 2 AS x FROM ${v} WHERE x > interval '1 day' ORDER BY x`,
      'SELECT DISTINCT dur AS d FROM ev ORDER BY d DESC LIMIT 2',
      `SELECT DISTINCT ON (x) x, n FROM ${v} ORDER BY x, n`,
      `SELECT DISTINCT ON (x) n FROM ${v} ORDER BY x DESC, n DESC`,
      `SELECT count(*) FROM (SELECT x FROM ${v} UNION SELECT interval '48 hours') s`,
      `SELECT extract(epoch from x) FROM (SELECT x FROM ${v} WHERE n = 1 UNION SELECT x FROM ${v} WHERE n = 2) s ORDER BY 1`,
      "SELECT x FROM (VALUES (interval '9 days'), (interval '2 days')) a(x) UNION SELECT interval '10 days' ORDER BY 1",
      "SELECT id, dur FROM ev UNION SELECT 5, interval '26 hours' UNION SELECT 1, interval '26 hours' ORDER BY dur DESC, id LIMIT 3",
      "SELECT count(*) FROM (SELECT dur FROM ev UNION ALL SELECT interval '26 hours' UNION SELECT NULL) s",
      // the ORDER BY of the other set operations, by length too (they sorted the text)
      "SELECT dur FROM ev UNION ALL SELECT interval '10 days' UNION ALL SELECT interval '9 days' ORDER BY 1 NULLS FIRST",
      "SELECT id, dur AS d FROM ev EXCEPT SELECT 4, interval '-1 day' ORDER BY d DESC LIMIT 2",
      "SELECT dur FROM ev INTERSECT SELECT interval '1 day 2 hours' UNION ALL SELECT interval '9 days' ORDER BY dur",
    ])
      await same(sql);
  });

  it('(start, end) OVERLAPS (start, end), an end given as an interval too (a syntax error in SQLite); julian', async () => {
    for (const sql of [
      "SELECT (date '2024-01-01', date '2024-02-01') OVERLAPS (date '2024-01-15', date '2024-03-01') AS o",
      "SELECT (date '2024-01-01', date '2024-02-01') OVERLAPS (date '2024-02-01', date '2024-03-01')",
      "SELECT (timestamp '2024-01-01 10:00', interval '2 hours') OVERLAPS (timestamp '2024-01-01 11:00', interval '1 hour')",
      "SELECT (date '2024-03-01', date '2024-01-01') OVERLAPS (date '2024-02-01', date '2024-02-01')",
      "SELECT (date '2024-01-01', NULL::date) OVERLAPS (date '2024-02-01', date '2024-03-01')",
      // (and the Julian day of a date; was 22023 'units not recognized')
      "SELECT extract(julian from date '2024-05-01'), extract(julian from date '1960-03-05'), date_part('julian', date '1970-01-01')",
      "SELECT id FROM ev WHERE (at, at + interval '1 day') OVERLAPS (timestamptz '2024-03-10 12:00+00', timestamptz '2024-03-12 00:00+00') ORDER BY id",
    ])
      await same(sql);
  });

  it('parameters and COPY are kept the same way', async () => {
    for (const c of [clients().patina, clients().postgres]) {
      await c.query('INSERT INTO ev (id, at, t, dur) VALUES ($1, $2, $3, $4)', [
        10,
        '2024-05-01 12:00:00+02',
        '7:05',
        '2 hours',
      ]);
      const stream = (c as unknown as { query(s: Writable): Writable }).query(
        copyStreams.from('COPY ev (id, at, d, t, dur) FROM STDIN'),
      );
      await pipeline(Readable.from([Buffer.from('11\t2024-05-01 12:00:00-03\t2024-5-1\t8:00\t3 days\n')]), stream);
    }
    await same("SELECT id, at, at::time, d, t, dur, t < '07:30:00' FROM ev WHERE id >= 10 ORDER BY id");
    assert.deepEqual(
      (
        await clients().patina.query({
          text: 'SELECT count(*) FROM ev WHERE at::time = $1',
          values: ['10:00:00'],
          rowMode: 'array',
        })
      ).rows,
      [['1']],
    );
  });

  it("time zone abbreviations of PostgreSQL's Default set, fixed and by zone, in every date and time input (were 22007)", async () => {
    for (const sql of [
      "SELECT '2024-01-15 10:30:00 EST'::timestamptz, '2024-01-15 10:30:00 PST'::timestamptz, '2024-07-15 10:30:00 PDT'::timestamptz",
      "SELECT '2024-01-15 10:30:00 CET'::timestamptz, '2024-07-15 10:30:00 CEST'::timestamptz, '2024-01-15 10:30 JST'::timestamptz, '2024-01-15 10:30 IST'::timestamptz",
      "SELECT '2024-01-15 10:30:00 GMT'::timestamptz, '2024-01-15 10:30 UTC'::timestamptz, '2024-01-15 10:30Z'::timestamptz, '2024-01-15 10:30 ut'::timestamptz, '2024-01-15 10:30 Zulu'::timestamptz",
      // by zone: the offset the zone used under the abbreviation then (MSK was +04 in 2011-2014), the
      // first one before it was used, the zone's own where the zone database no longer uses it
      "SELECT '2024-01-15 10:30 MSK'::timestamptz, '2012-01-15 10:30 MSK'::timestamptz, '1990-06-15 10:30 MSK'::timestamptz, '1900-01-15 10:30 MSK'::timestamptz",
      "SELECT '2024-01-15 10:30 SGT'::timestamptz, '2024-01-15 10:30 volt'::timestamptz, '2024-01-15 10:30 IRKST'::timestamptz",
      // a word that is no abbreviation is a zone name (PostgreSQL tries it so), with a date alone, after AM/PM
      "SELECT '2024-01-15 10:30 Japan'::timestamptz, '2024-01-15 10:30 EST5EDT'::timestamptz, '2024-01-15 EST'::timestamptz, '2024-01-15 10:30:00 PM EST'::timestamptz",
      // dropped by timestamp, date and time, as PostgreSQL drops it
      "SELECT '2024-01-15 10:30:00 est'::timestamp, '2024-01-15 EST'::date, '10:30:00 PST'::time, '10:30:00+05'::time, '10:30 MSK'::time",
      "SELECT id FROM ev WHERE at < '2024-03-10 03:00 CET' ORDER BY id",
      // unknown words: PostgreSQL's 22007 and message; a zone name needs a date for a time
      "SELECT '2024-01-15 10:30:00 FOO'::timestamptz",
      "SELECT '2024-01-15 10:30:00 FOO'::timestamp",
      "SELECT '10:30:00 FOO'::time",
      "SELECT '10:30:00 Europe/Berlin'::time",
      "SELECT '2024-01-15 10:30:00 Mars/Base'::timestamptz",
      // with the other forms of input
      "SELECT 'Jan 15 2024 10:30 PM EST'::timestamptz, '01/15/2024 10:30:00 CET'::timestamptz, '20240115 10:30 JST'::timestamptz, '2024-01-15 10:30 Etc/GMT-3'::timestamptz",
    ])
      await sameText(sql);
    await sameText(
      "INSERT INTO hist (id, at, ts, t) VALUES (1, '2024-01-15 10:30:00 EST', '2024-01-15 10:30 PST', '10:30 CET') RETURNING *",
    );
    await sameText('INSERT INTO hist (id, at, ts) VALUES ($1, $2, $3) RETURNING *', [
      2,
      '2024-07-15 10:30:00 PDT',
      '2024-07-15 10:30 MSK',
    ]);
    await sameText('SELECT id FROM hist WHERE at = $1', ['2024-01-15 16:30 CET']);
    // a time or an interval parameter that is none: PostgreSQL's error (it was stored as sent)
    // (the same SQLSTATE and message; the parameter in CONTEXT, as PostgreSQL names it)
    for (const [sql, params] of [
      ['INSERT INTO hist (id, t) VALUES ($1, $2)', [3, '10:30 FOO']],
      ['SELECT $1::interval', ['2 fortnights']],
    ] as const) {
      const code = async (c: Client) => {
        const a = await answer(c, sql, [...params]);
        return 'error' in a ? a.error.split(' ')[0] : 'no error';
      };
      assert.deepEqual([await code(clients().patina), await code(clients().postgres)], ['22007', '22007'], sql);
    }
    await sameText('DELETE FROM hist');
  });

  it('BC dates and timestamps: read, printed as PostgreSQL prints them, stored in time order, with arithmetic', async () => {
    await sameText(
      `INSERT INTO hist (id, at, ts, d) VALUES (1, '0044-03-15 10:00:00+00 BC', '0044-03-15 10:00 BC', '0044-03-15 BC'),
        (2, '2024-01-15 10:30:00+00', '0001-01-01 00:00', '0001-01-01'), (3, '0045-12-31 23:00 BC', '0001-12-31 23:59:59.999999 BC', '0001-12-31 BC'),
        (4, 'infinity', '-infinity', '-infinity'), (5, '-infinity', 'infinity', 'infinity'), (6, '4714-11-24 00:00+00 BC', '4714-11-24 00:00 BC', '4714-11-24 BC')`,
    );
    await sameText('INSERT INTO hist (id, ts, d) VALUES ($1, $2, $3)', [
      7,
      '0100-02-28 12:00:00.5 BC',
      '0005-02-29 BC',
    ]);
    for (const sql of [
      'SELECT * FROM hist ORDER BY id',
      'SELECT id, d::text, ts::text, at::text FROM hist ORDER BY id',
      // the stored text sorts as time does: '-infinity', BC (earliest first), AD, 'infinity'
      'SELECT id FROM hist ORDER BY d, id',
      'SELECT id FROM hist ORDER BY ts DESC, id',
      'SELECT id FROM hist ORDER BY at NULLS FIRST, id',
      "SELECT id FROM hist WHERE d < '0001-01-01' ORDER BY id",
      "SELECT id FROM hist WHERE d BETWEEN '0100-01-01 BC' AND '0044-03-15 BC' ORDER BY id",
      "SELECT id FROM hist WHERE ts > '0044-03-15 10:00 BC' ORDER BY id",
      "SELECT id FROM hist WHERE at <= '0045-12-31 23:00+00 BC' ORDER BY id",
      'SELECT min(d), max(d), min(ts), max(ts), min(at), max(at) FROM hist',
      "SELECT '0044-03-15 BC'::date < '0001-01-01'::date, '0044-03-15 BC'::date < '0001-03-15 BC'::date",
      // arithmetic and fields
      "SELECT id, d + 1, d - 1, d - '0001-01-01'::date, ts + interval '1 month', ts - interval '1 day' FROM hist WHERE id IN (1, 2, 3, 7) ORDER BY id",
      "SELECT '0001-01-01 BC'::date + interval '1 year', '0005-03-01 BC'::date - 1, age('0001-01-01'::timestamp, '0044-03-15 BC'::timestamp)",
      'SELECT id, extract(year FROM d), extract(century FROM d), extract(decade FROM d), extract(millennium FROM d), extract(isoyear FROM d) FROM hist WHERE id IN (1, 3, 7) ORDER BY id',
      'SELECT id, extract(epoch FROM at), extract(dow FROM d), extract(doy FROM d) FROM hist WHERE id IN (1, 3, 7) ORDER BY id',
      "SELECT id, date_trunc('month', ts), date_trunc('year', at), ts::date, ts::time, d::timestamp FROM hist WHERE id IN (1, 3, 7) ORDER BY id",
      "SELECT id, to_char(d, 'YYYY-MM-DD BC'), to_char(ts, 'YYYY AD HH24:MI') FROM hist WHERE id IN (1, 2, 3) ORDER BY id",
      "SELECT id, to_char(d, 'CC Y,YYY YYY YY Y IYYY IY') FROM hist WHERE id IN (1, 3, 7) ORDER BY id",
      "SELECT id, date_trunc('century', ts), date_trunc('decade', ts), date_trunc('millennium', d), date_trunc('week', d) FROM hist WHERE id IN (1, 3, 7) ORDER BY id",
      "SELECT id, ts AT TIME ZONE 'America/New_York', at AT TIME ZONE 'Europe/Berlin' FROM hist WHERE id IN (1, 3) ORDER BY id",
      'SELECT make_date(-44, 3, 15), make_date(-1, 12, 31)',
      // the edges: no year 0, nothing before 4714-11-24 BC
      "SELECT '0000-01-01'::date",
      "SELECT '4714-11-23 BC'::date",
      "SELECT '4714-11-23 23:00 BC'::timestamp",
    ])
      await sameText(sql);
    // JSON prints a timestamp BC as PostgreSQL does ('0044-03-15T10:00:00 BC'; the JSON compared parsed)
    await same("SELECT id, json_build_object('ts', ts, 'at', at) FROM hist WHERE id IN (1, 2, 3) ORDER BY id");
    // COPY reads them as INSERT does, and refuses what PostgreSQL refuses (it kept such text as sent)
    const copy = async (c: Client, text: string) => {
      const stream = (c as unknown as { query(s: Writable): Writable }).query(
        copyStreams.from('COPY hist (id, at, ts, d) FROM STDIN'),
      );
      return pipeline(Readable.from([Buffer.from(text)]), stream).then(
        () => null,
        (err: { code: string }) => err.code,
      );
    };
    for (const text of [
      '20\t0100-01-01 00:00 EST BC\t0001-06-01 12:00 BC\t0005-02-29 BC\n',
      '21\t2024-01-15 10:30 PST\t2024-01-15 10:30 MSK\tinfinity\n',
      '22\t\\N\t\\N\t0002-02-29 BC\n',
      '23\t2024-01-15 10:30 FOO\t\\N\t\\N\n',
    ])
      assert.equal(await copy(clients().patina, text), await copy(clients().postgres, text), text);
    await sameText('SELECT * FROM hist WHERE id >= 20 ORDER BY id');
    await sameText('DELETE FROM hist');
  });

  it("an infinite date plus or minus days, or with a time, is itself (was 22007); past either end a date is 22008 (was '/0NaN-NaN-NaN' or a wrong BC year); infinities do not subtract", async () => {
    await sameText(
      `INSERT INTO hist (id, ts, d, t) VALUES (1, 'infinity', 'infinity', '10:30'), (2, '-infinity', '-infinity', '00:00'),
        (3, '2024-02-29 10:00', '2024-02-29', '23:59'), (4, '4714-11-24 00:00 BC', '4714-11-24 BC', NULL)`,
    );
    for (const sql of [
      'SELECT id, d + 1, d - 7, 3 + d, d + t, t + d, d + 0 FROM hist ORDER BY id',
      "SELECT 'infinity'::date + 1, '-infinity'::date - 2147483647, 1 + 'infinity'::date, 'infinity'::date + '10:30'::time",
      'UPDATE hist SET d = d + 30 WHERE id IN (1, 2) RETURNING id, d',
      // the ends: 22008 as there
      "SELECT '2024-02-29'::date + 2147483647",
      'SELECT d + 2147483647 FROM hist WHERE id = 3',
      "SELECT '2024-02-29'::date - 2147483647",
      'SELECT d - 1 FROM hist WHERE id = 4',
      // infinities do not subtract: 22008 'cannot subtract infinite dates' (and timestamps)
      "SELECT d - '2024-01-01'::date FROM hist WHERE id = 1",
      "SELECT '2024-01-01'::date - d FROM hist WHERE id = 2",
      "SELECT ts - '2024-01-01'::timestamp FROM hist WHERE id = 1",
      // (text that is no date is read first: 22007 before the infinity's 22008)
      "SELECT d - '3' FROM hist WHERE id = 1",
      "SELECT ts - 'x' FROM hist WHERE id = 2",
      'SELECT id, d - d FROM hist WHERE id >= 3 ORDER BY id',
    ])
      await sameText(sql);
    await sameText('DELETE FROM hist');
  });

  it('a date or timestamp BC in JSON prints as PostgreSQL prints it (the stored form came out: "/9956-03-15")', async () => {
    await sameText(
      `INSERT INTO hist (id, at, ts, d) VALUES (1, '0044-03-15 10:00:00+00 BC', '0044-03-15 10:00:00.5 BC', '0044-03-15 BC'),
        (2, '2024-01-15 10:30:00+00', '2024-01-15 10:30', '2024-01-15'), (3, NULL, NULL, NULL), (4, 'infinity', '-infinity', 'infinity')`,
    );
    // (the JSON compared parsed: PostgreSQL's json keeps its builders' spaces)
    for (const sql of [
      'SELECT id, to_json(d), to_json(ts), to_json(at), to_jsonb(d) FROM hist ORDER BY id',
      "SELECT id, json_build_object('d', d, 'ts', ts), jsonb_build_object('d', d, 'at', at), json_build_array(d, ts) FROM hist ORDER BY id",
      'SELECT row_to_json(hist) FROM hist ORDER BY id',
      'SELECT row_to_json(x) FROM (SELECT id, d FROM hist) x ORDER BY id',
      'SELECT jsonb_agg(d ORDER BY id), json_agg(ts ORDER BY id), json_agg(h ORDER BY id), json_object_agg(id, d) FROM hist h',
      // casts and typed literals of a date or timestamp type
      "SELECT to_json('0044-03-15 BC'::date), to_json(date '0001-12-31 BC'), to_jsonb(CAST('0100-01-01 BC' AS date)), to_json(timestamp '0044-03-15 10:00 BC')",
      "SELECT id, to_json(d::timestamp), json_build_object('d', ts::date) FROM hist WHERE id < 3 ORDER BY id",
    ])
      await same(sql);
    await sameText('DELETE FROM hist');
  });

  it("Julian days, ISO 8601's alternative interval form and SQL's year-month and day-time intervals are read (were 22007)", async () => {
    for (const sql of [
      "SELECT 'J2451187'::date, 'J2451187'::timestamp, 'j2451187'::date, 'J0'::date, 'J1721425'::date, 'J1721426'::date",
      "SELECT 'J2451187 10:30'::timestamp, 'J2451187.5'::timestamp, 'J2451187.25 +02'::timestamptz, 'J 2451187'::date, 'julian 2451187'::date",
      "SELECT 'J2451187.5 10:30'::timestamp",
      // (a BC after a Julian day is ignored there)
      "SELECT 'J2451187 BC'::date",
      // ISO 8601's alternative form, extended and basic, alone or after designators
      "SELECT 'P0001-02-03T04:05:06'::interval, 'P0001-02-03'::interval, 'PT04:05:06'::interval, 'P0000-00-01T00:00:00.5'::interval",
      "SELECT 'P0001-02'::interval, 'P0001'::interval, 'P1-2-3T4:5:6'::interval, 'P0001-02-03T04'::interval, 'P-0001-02-03'::interval",
      "SELECT 'P00010203T040506'::interval, 'P00010203'::interval, 'PT040506.5'::interval, 'P1Y2M3DT04:05:06'::interval, 'P1DT04:05'::interval",
      "SELECT 'P1.5-02-03'::interval, 'P0001-02-03T-04:05:06'::interval, 'P1E1D'::interval",
      // 'PT' is a zero interval in PostgreSQL; 'P' and lower case are not intervals
      "SELECT 'PT'::interval, 'P1YT'::interval",
      "SELECT 'P'::interval",
      "SELECT 'pt1h'::interval",
      "SELECT 'P0001-02-03T04:05:06:07'::interval",
      // SQL's year-month and day-time forms, and the '+' PostgreSQL prints after a negative field
      "SELECT '1-2'::interval, '-1-2'::interval, '+1-2'::interval, '0-0'::interval, '1-2 years'::interval, '1 day 1-2'::interval",
      "SELECT '1-2 3 4:05:06'::interval, '1-2 3 4:05:06.789'::interval, '1-2 -3 4:05:06'::interval, '-1-2 3 4:05:06'::interval, '1-2 3 4:05:06 ago'::interval",
      "SELECT '3 4:05:06'::interval, '3 4:05'::interval, '-3 4:05:06'::interval, '1-2 3'::interval, '@ 1-2'::interval",
      "SELECT '-1 day 2 hours'::interval, '1 year -1 mon 2 days -3 hours'::interval, '1 year -2 mons'::interval, interval '-1 day' + interval '3 hours'",
      // what PostgreSQL refuses: a month past 11, a field given twice, two numbers without units
      "SELECT '1-13'::interval",
      "SELECT '3 4'::interval",
      "SELECT '1 day 2 days'::interval",
      "SELECT '1 hour 02:00'::interval",
      "SELECT '1-2 1-3'::interval",
    ])
      await sameText(sql);
    await sameText('SELECT $1::date, $2::interval, $3::interval', [
      'J2451187',
      'P0001-02-03T04:05:06',
      '1-2 3 4:05:06',
    ]);
  });

  it('extract(epoch ...) of a timestamp or an interval is exact to the microsecond however far from 1970', async () => {
    await sameText(
      `INSERT INTO hist (id, at, ts, d) VALUES (1, '0001-01-01 00:00:00.000001+00', '0044-03-15 10:00:00.123457 BC', '0044-03-15 BC'),
        (2, '2024-01-15 10:30:00.5+00', '9999-12-31 23:59:59.999999', '2024-01-15'), (3, NULL, NULL, NULL), (4, '-infinity', 'infinity', 'infinity')`,
    );
    for (const sql of [
      "SELECT extract(epoch from timestamp '0001-01-01 00:00:00.000001'), extract(epoch from timestamp '9999-12-31 23:59:59.999999'), extract(epoch from timestamptz '0044-03-15 10:00:00.123457+00 BC')",
      'SELECT id, extract(epoch from ts), extract(epoch from at), extract(epoch from d) FROM hist ORDER BY id',
      // ordered by it, by name and by position, as numbers
      'SELECT id, extract(epoch from ts) AS e FROM hist ORDER BY e',
      'SELECT id, extract(epoch from at) FROM hist ORDER BY 2 DESC',
      "SELECT extract(epoch from interval '1000000 years 1 mon 2 days 03:04:05.000001'), extract(epoch from interval '-1 year -1 mon 1 day -00:00:00.5')",
      "SELECT extract(epoch from ts - timestamp '2000-01-01') FROM hist WHERE id < 3 ORDER BY id",
      // and with +, -, * and / of numbers around it
      'SELECT id, extract(epoch from ts) + 1, extract(epoch from at) * 1000, extract(epoch from ts) - extract(epoch from at) AS d FROM hist WHERE id < 4 ORDER BY d',
      'SELECT extract(epoch from ts) / 60, round(extract(epoch from at) / 3600, 2), 2 * extract(epoch from ts - at) FROM hist WHERE id < 4 ORDER BY id',
      // of a function in extract's FROM (it was taken for a FROM list: 42601 near "AS")
      'SELECT extract(epoch from now()) > 0, extract(year from now()) >= 2024, extract(epoch from current_timestamp) > 0',
      // an infinite timestamp's epoch and year are infinite, its other fields NULL
      "SELECT date_part('epoch', ts), date_part('year', ts), date_part('month', ts), extract(year from d) FROM hist WHERE id = 4",
    ])
      await sameText(sql);
    await sameText('DELETE FROM hist');
  });

  it('other input drivers send: infinity, epoch, today, tomorrow, allballs, AM/PM, 7 fractional digits, offsets', async () => {
    for (const sql of [
      "SELECT 'infinity'::timestamptz, '-infinity'::timestamp, 'infinity'::date, 'infinity'::date > '2024-01-01'::date",
      "SELECT 'epoch'::timestamptz, 'epoch'::timestamp, 'epoch'::date, 'tomorrow'::date - 'yesterday'::date, 'today'::date = current_date",
      "SELECT 'allballs'::time, '10:30 PM'::time, '12:30 AM'::time, '12:30 pm'::time, '2024-01-15 10:30 PM'::timestamp",
      "SELECT '13:30 PM'::time",
      "SELECT '10:30:00.1234567'::time, '2024-01-15 10:30:00.1234567'::timestamp, '2024-01-15 23:59:59.9999999'::timestamp",
      "SELECT '24:00:00'::time, '2024-01-15 24:00:00'::timestamp",
      "SELECT '2024-01-15 10:30:00+05:30'::timestamptz, '2024-01-15 10:30:00+0530'::timestamptz, '2024-01-15 10:30:00+05'::timestamptz, '2024-01-15 10:30:00 -8:00'::timestamptz",
      "SELECT '2024-01-15T10:30:00.123456+05:30'::timestamptz, '2024-01-15T10:30:00.5Z'::timestamptz",
      // ISO 8601 intervals (were 22007)
      "SELECT 'P1DT2H'::interval, 'P1Y2M3DT4H5M6.5S'::interval, 'PT36H'::interval, 'P2W'::interval, 'P1.5D'::interval, 'P1.5M'::interval, 'P-1D'::interval",
    ])
      await sameText(sql);
    // as a driver binds them: psycopg2's isoformat, pgjdbc's BC and infinity, node-postgres's offsets
    for (const [i, v] of [
      '2024-01-15T10:30:00.123456+05:30',
      '2024-01-15 10:30:00+0530',
      '2024-01-15 10:30:00-08',
      'infinity',
      '-infinity',
      '0044-03-15 10:00:00 BC',
      'epoch',
    ].entries())
      await sameText('INSERT INTO hist (id, at, ts, d) VALUES ($1, $2, $3, $4) RETURNING *', [i + 10, v, v, v]);
    await sameText('SELECT id FROM hist ORDER BY at, id');
    await sameText('SELECT $1::interval, $2::interval', ['P1DT2H30M', '0 years 0 mons 1 days 0 hours 0 mins 0.5 secs']);
    await sameText('DELETE FROM hist');
  });

  it("PostgreSQL's date input table in each DateStyle order: month names with years of two digits, days of the year, and 22008's HINT (were 22007, or had no HINT)", async () => {
    const forms = [
      'January 8, 1999',
      '1999-01-08',
      '1/8/1999',
      '1/18/1999',
      '01/02/03',
      '1999-Jan-08',
      'Jan-08-1999',
      '08-Jan-1999',
      '99-Jan-08',
      '08-Jan-99',
      'Jan-08-99',
      '19990108',
      '990108',
      '1999.008',
      'J2451187',
      'January 8, 99 BC',
      '02-Jan-24',
      '1999 Jan 08',
      'Jan.08.1999',
      'Sept 8 1999',
      '2024.032',
      '1999/032',
      '1999.366',
      '01/02/99 BC',
      '20240229T103000',
      // refused: 22008 with the HINT for a field no month has, without it for a day past the month's end; 22007
      '13/13/2024',
      '2024-13-01',
      'Jan 32 2024',
      '2024-02-30',
      '2024-13-01 10:61',
      '1999.367',
      '2024.03',
      'Jan-08 1999',
      'Janu 8 1999',
    ];
    /** The rows, or the error's code, message and HINT. */
    const hinted = (c: Client, sql: string, params?: unknown[]) =>
      (c as unknown as RawClient)
        .query({ text: sql, values: params, rowMode: 'array', types: { getTypeParser: () => (v: string) => v } })
        .then(
          (r) => r.rows,
          (err: { code: string; message: string; hint?: string; where?: string }) =>
            [err.code, err.message, err.hint, err.where].filter((f) => f !== undefined).join(' '),
        );
    const both = async (sql: string, params?: unknown[]) => {
      const [p, g] = [await hinted(clients().patina, sql, params), await hinted(clients().postgres, sql, params)];
      assert.deepEqual(p, g, `${sql} ${JSON.stringify(params ?? [])}`);
      return p;
    };
    try {
      for (const order of ['MDY', 'DMY', 'YMD']) {
        await both(`SET DateStyle = 'ISO, ${order}'`);
        for (const [k, v] of forms.entries()) {
          // a literal, a text parameter, text cast per row; an INSERT's string (in one order)
          await both(`SELECT '${v}'::date, '${v}'::timestamp`);
          await both('SELECT $1::date, s::timestamptz FROM (VALUES ($2::text)) v(s)', [v, v]);
          if (order === 'DMY') await both(`INSERT INTO hist (id, d) VALUES (${900 + k}, '${v}') RETURNING d`);
        }
      }
      await both('DELETE FROM hist WHERE id >= 900');
      await both("SET DateStyle = 'ISO, MDY'");
      assert.deepEqual(await both("SELECT '08-Jan-99'::date, '2024.032'::date"), [['1999-01-08', '2024-02-01']]);
      assert.match(
        String(await both("SELECT '13/13/2024'::date")),
        /^22008 .* Perhaps you need a different "datestyle" setting\.$/,
      );
    } finally {
      await both("SET DateStyle = 'ISO, MDY'");
    }
  });
  it("now() and its kin: the transaction's start to the microsecond, one value within a transaction, kept as written (were milliseconds, current_timestamp whole seconds, each statement its own)", async () => {
    const text = (c: Client, sql: string, params?: unknown[]) =>
      (c as unknown as RawClient)
        .query({ text: sql, values: params, rowMode: 'array', types: { getTypeParser: () => (v: string) => v } })
        .then((r) => r.rows);
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    /** What one server shows of its clocks: facts about them, the same on both servers. */
    const facts = async (c: Client) => {
      // microseconds: of five readings of each clock, one at least has more than three digits
      const clocks =
        'SELECT now()::text, current_timestamp::text, transaction_timestamp()::text, statement_timestamp()::text, clock_timestamp()::text, localtimestamp::text, current_time::text';
      const readings: string[] = [];
      for (let i = 0; i < 5; i++) readings.push(...((await text(c, clocks))[0] as string[]));
      const digits = [0, 1, 2, 3, 4, 5, 6].map((k) =>
        readings.filter((_, j) => j % 7 === k).some((r) => /\.\d{4,6}(\+00)?$/.test(r)),
      );
      await text(c, 'BEGIN');
      const [[start]] = (await text(c, 'SELECT now()')) as string[][];
      await sleep(20);
      const inside = await text(
        c,
        `SELECT now() = $1, transaction_timestamp() = now(), current_timestamp = now(), localtimestamp = now()::timestamp,
           statement_timestamp() > now(), clock_timestamp() > statement_timestamp(), current_timestamp(0) = date_trunc('second', now() + interval '0.5 s')`,
        [start],
      );
      // as a prepared statement (Parse once, Bind and Execute again), and from a read of many rows
      const prepared = await (c as unknown as RawClient).query({
        name: 'clock',
        text: 'SELECT now()::text',
        rowMode: 'array',
      });
      const rows = await text(c, 'SELECT DISTINCT now()::text FROM ev, generate_series(1, 50)');
      const written = (
        await text(
          c,
          'INSERT INTO hist (id, at, ts) VALUES (60, now(), localtimestamp), (61, current_timestamp, now()) RETURNING at = now(), ts = localtimestamp, at::text',
        )
      ).map((r) => [r[0], r[1], r[2] === start]);
      await text(c, 'COMMIT');
      const kept = await text(
        c,
        'SELECT id, at = $1, ts = $1::timestamptz::timestamp FROM hist WHERE id >= 60 ORDER BY id',
        [start],
      );
      await sleep(20);
      const again = await (c as unknown as RawClient).query({
        name: 'clock',
        text: 'SELECT now()::text',
        rowMode: 'array',
      });
      const after = await text(c, 'SELECT now() > $1, now() = transaction_timestamp()', [start]);
      // an autocommit write: its own transaction's now()
      const auto = (await text(c, 'INSERT INTO hist (id, at) VALUES (62, now()) RETURNING at = now(), at::text')).map(
        (r) => [r[0], (r[1] as string) > start],
      );
      await text(c, 'DELETE FROM hist WHERE id >= 60');
      // a simple query of several statements: one implicit transaction, one message's statement time
      const several = (await (
        c as unknown as { query(q: string): Promise<{ rows: Record<string, unknown>[] }[]> }
      ).query(
        'SELECT now()::text; SELECT pg_sleep(0.02); SELECT now()::text, statement_timestamp() = now(), clock_timestamp() > now()',
      )) as { rows: Record<string, unknown>[] }[];
      return {
        several: [
          Object.values(several[0].rows[0])[0] === Object.values(several[2].rows[0])[0],
          Object.values(several[2].rows[0]).slice(1),
        ],
        digits,
        inside,
        prepared: prepared.rows[0][0] === start,
        rows: rows.length === 1 && rows[0][0] === start,
        written,
        kept,
        again: again.rows[0][0] !== start,
        after,
        auto,
      };
    };
    const [p, g] = [await facts(clients().patina), await facts(clients().postgres)];
    assert.deepEqual(p, g);
    assert.deepEqual(g.digits, [true, true, true, true, true, true, true]);
  });

  it('a date compared with a timestamp or timestamptz (=, <, BETWEEN) is that type at midnight (ts = current_date), as there; the texts were compared', async () => {
    await sameText(`INSERT INTO hist (id, at, ts, d) VALUES (801, '2024-01-02 00:00:00+00', '2024-01-02 00:00:00', '2024-01-02'),
      (802, '2024-01-01 23:00:00+00', '2024-01-02 00:00:00.5', '2024-01-02'), (803, 'infinity', '-infinity', 'infinity'),
      (804, '2024-01-02 00:00:00+00', '0044-03-15 00:00 BC', '0044-03-15 BC')`);
    for (const sql of [
      'SELECT id, ts = d, ts > d, ts >= d, ts < d, d <= ts, d <> ts, d = ts, at = d, at > d, d < at, d >= at FROM hist WHERE id > 800 ORDER BY id',
      'SELECT id FROM hist WHERE id > 800 AND ts = d ORDER BY id',
      "SELECT id FROM hist WHERE id > 800 AND ts <= date '2024-01-02' ORDER BY id",
      "SELECT id FROM hist WHERE id > 800 AND d = timestamp '2024-01-02' ORDER BY id",
      "SELECT timestamp '2024-01-02 00:00:00' = date '2024-01-02', date '2024-01-02' < timestamp '2024-01-02 00:00:01', 'today'::timestamp = current_date, now() >= current_date",
      // BETWEEN: each comparison's date at midnight
      'SELECT id, ts BETWEEN d AND d, d BETWEEN ts AND ts, ts BETWEEN current_date - 10000 AND d, at BETWEEN d AND current_date, d BETWEEN at AND ts, ts NOT BETWEEN d AND current_date FROM hist WHERE id > 800 ORDER BY id',
      "SELECT timestamp '2024-01-02 00:00' BETWEEN date '2024-01-01' AND date '2024-01-02', timestamp '2024-01-02 00:00' NOT BETWEEN date '2024-01-01' AND date '2024-01-02'",
    ])
      await sameText(sql);
    // a timestamptz beside a date: the date's midnight in the session's zone
    await sameText("SET TIME ZONE 'Asia/Tokyo'");
    await sameText(
      'SELECT id, at = d, at > d, d <= at, at BETWEEN d AND current_date FROM hist WHERE id > 800 ORDER BY id',
    );
    await sameText(
      "SELECT timestamptz '2024-01-01 15:00+00' = date '2024-01-02', date '2024-01-02' < timestamptz '2024-01-01 16:00+00'",
    );
    await sameText('RESET TIME ZONE');
    await sameText('DELETE FROM hist WHERE id > 800');
  });

  it('a date beside a timestamp in COALESCE, GREATEST, LEAST, CASE, a set operation or an IN list is a timestamp at midnight (a timestamptz in the zone), as there; it kept the date text', async () => {
    await sameText(`INSERT INTO hist (id, at, ts, d) VALUES (811, '2024-01-02 00:00:00+00', '2024-01-02 00:00:00', '2024-01-02'),
      (812, NULL, '2024-01-02 03:04:05', '2024-01-03'), (813, '2023-12-31 22:00:00+00', NULL, '2023-12-31'), (814, NULL, NULL, NULL)`);
    for (const sql of [
      'SELECT id, coalesce(d, ts), coalesce(ts, d), greatest(d, ts), least(d, ts), coalesce(d, at), greatest(at, d, ts) FROM hist WHERE id > 810 ORDER BY id',
      "SELECT id, CASE WHEN id = 811 THEN d + 1 WHEN id = 812 THEN date '2020-01-01' ELSE ts END, CASE id WHEN 813 THEN d END, coalesce(d::date, ts) FROM hist WHERE id > 810 ORDER BY id",
      "SELECT greatest(coalesce(d, ts), at), coalesce(date '2024-01-02', timestamp '2024-01-03 01:00') FROM hist WHERE id > 810 ORDER BY id",
      'SELECT d FROM hist WHERE id > 810 UNION SELECT ts FROM hist WHERE id > 810 ORDER BY 1',
      'SELECT d AS x FROM hist WHERE id > 810 INTERSECT SELECT ts FROM hist ORDER BY x',
      'SELECT s.d FROM (SELECT d FROM hist WHERE id > 810 UNION ALL SELECT at FROM hist WHERE id > 810) s WHERE s.d IS NOT NULL ORDER BY s.d',
      'SELECT id FROM hist WHERE id > 810 AND d IN (ts, at) ORDER BY id',
      'SELECT id FROM hist WHERE id > 810 AND ts IN (d, d + 1) ORDER BY id',
      'SELECT id FROM hist WHERE id > 810 AND d NOT IN (ts) ORDER BY id',
      "SELECT id FROM hist WHERE id > 810 AND d IN (timestamp '2024-01-02 00:00:00') ORDER BY id",
    ])
      await sameText(sql);
    await sameText("SET TIME ZONE 'Asia/Tokyo'");
    await sameText('SELECT id, coalesce(d, at), greatest(ts, at), at IN (d, ts) FROM hist WHERE id > 810 ORDER BY id');
    await sameText('RESET TIME ZONE');
    await sameText('DELETE FROM hist WHERE id > 810');
  });
});
