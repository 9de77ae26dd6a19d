// The session's TimeZone against PostgreSQL 15: timestamptz text printed in it (SET TIME ZONE, SET
// timezone, a login's TimeZone from options or psql's PGTZ), with its DST changes, half-hour and
// historical offsets, and text without an offset read in it; binary stays UTC microseconds.
import assert from 'node:assert/strict';
import { oracleSuite, psqlOk } from '../helpers/catalog-pair';
import { type PgClient, pgClient } from '../helpers/pg';
import { WireClient, bindMessage } from '../helpers/pg-wire';
import { serialize } from 'pg-protocol';

const SCHEMA = `CREATE TABLE ev (id BIGINT NOT NULL PRIMARY KEY, ts TIMESTAMPTZ, tss TIMESTAMPTZ[]);
CREATE TABLE wall (id BIGINT NOT NULL PRIMARY KEY, ts TIMESTAMP, tz TIMESTAMPTZ, d DATE, t TIME, ts0 TIMESTAMP(0));
CREATE TABLE made (id BIGINT NOT NULL PRIMARY KEY, note TEXT, ts TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
  tz TIMESTAMPTZ DEFAULT CURRENT_TIMESTAMP, d DATE DEFAULT CURRENT_DATE, tzd TIMESTAMPTZ DEFAULT CURRENT_DATE,
  ts0 TIMESTAMP(0) DEFAULT CURRENT_TIMESTAMP);`;
const ROWS = [
  `INSERT INTO ev (id, ts) VALUES (1, '2024-01-02 03:04:05+00'), (2, '2024-03-31 00:59:59.5+00'),
    (3, '2024-03-31 01:00:00+00'), (4, '2024-10-27 00:30:00+00'), (5, '2024-10-27 01:30:00.000001+00'),
    (6, 'infinity'), (7, '1900-01-01 00:00:00+00'), (8, NULL)`,
  `INSERT INTO ev (id, tss) VALUES (9, ARRAY['2024-07-01 12:00:00+00', NULL]::timestamptz[])`,
];
/** Text as the server sent it (no Date parsing by node-postgres). */
const RAW = { getTypeParser: () => (v: string) => v };
const ZONES = ['Europe/Paris', 'Asia/Kolkata', 'America/St_Johns', 'America/New_York', 'UTC'];

describe('the session TimeZone, against PostgreSQL 15', function () {
  this.timeout(60_000);
  const { clients } = oracleSuite(SCHEMA, ROWS);

  /** Runs the statements on both servers (one session each), the last one's rows compared. */
  async function same(statements: (string | [string, unknown[]])[], c?: { patina: PgClient; postgres: PgClient }) {
    const { patina, postgres } = c ?? clients();
    const run = async (client: PgClient) => {
      let rows: unknown[][] = [];
      for (const s of statements) {
        const [text, values] = typeof s === 'string' ? [s, undefined] : s;
        rows = (await client.query({ text, values, rowMode: 'array', types: RAW })).rows;
      }
      return rows;
    };
    const p = await run(patina);
    assert.deepEqual(p, await run(postgres), JSON.stringify(statements));
    return p;
  }

  afterEach(async () => {
    const { patina, postgres } = clients();
    for (const c of [patina, postgres]) await c.query('RESET timezone');
    for (const c of [patina, postgres]) await c.query('DELETE FROM ev WHERE id >= 100');
    for (const c of [patina, postgres]) await c.query('DELETE FROM wall');
    for (const c of [patina, postgres]) await c.query('DELETE FROM made');
  });

  it("prints timestamptz in the session's zone: DST changes, half hours, historical offsets (was always +00)", async () => {
    const rows = await same([
      "SET TIME ZONE 'Europe/Paris'",
      'SELECT id, ts::timestamptz FROM ev WHERE id <= 8 ORDER BY id',
    ]);
    assert.deepEqual(rows[0], ['1', '2024-01-02 04:04:05+01']);
    assert.deepEqual(rows[6], ['7', '1900-01-01 00:09:21+00:09:21']);
    for (const zone of ZONES) {
      await same([`SET timezone = '${zone}'`, 'SHOW timezone']);
      await same([`SET TIME ZONE '${zone}'`, 'SELECT id, ts, tss FROM ev ORDER BY id']);
      await same([`SET TIME ZONE '${zone}'`, ['SELECT ts FROM ev WHERE id = $1', [5]]]);
    }
    // (Sequelize sets INTERVAL '+00:00' HOUR TO MINUTE at every connection)
    for (const hours of [
      '-7',
      '5.5',
      "'europe/paris'",
      'LOCAL',
      'DEFAULT',
      "INTERVAL '+00:00' HOUR TO MINUTE",
      "INTERVAL '-08:00' HOUR TO MINUTE",
    ])
      await same([`SET TIME ZONE ${hours}`, 'SHOW timezone']);
    await same(['SET TIME ZONE -7', 'SELECT id, ts FROM ev ORDER BY id']);
    await same(["SET TIME ZONE INTERVAL '+05:30' HOUR TO MINUTE", 'SELECT id, ts FROM ev ORDER BY id']);
    // POSIX names with an offset (west of Greenwich: UTC+3 is three hours behind), aliases, the server's own
    for (const zone of ['UTC+3', 'GMT-5:30', 'Japan', 'US/Eastern', 'Etc/GMT+3', 'localtime', 'EST5EDT'])
      await same([
        `SET TIME ZONE '${zone}'`,
        "SELECT current_setting('TimeZone'), ts, to_char(ts, 'TZ OF') FROM ev WHERE id = 1",
      ]);
  });

  it("to_char's TZ, tz and OF in a zone that is UTC under another name print its name: GMT for GMT, Greenwich, GMT0 (were UTC)", async () => {
    const sql =
      "SELECT id, to_char(ts, 'TZ tz OF'), to_char(ts, 'YYYY-MM-DD HH24:MI:SS TZ') FROM ev WHERE id <= 2 ORDER BY id";
    for (const zone of ['GMT', 'Greenwich', 'Etc/GMT0', 'GMT0', 'abc+0', 'Zulu', 'UCT', 'UTC']) {
      const rows = await same([`SET TIME ZONE '${zone}'`, sql]);
      assert.match(String(rows[0][1]), zone.includes('G') ? /^GMT gmt \+00$/ : /^[A-Z]{3} [a-z]{3} \+00$/);
      // the same statement prepared in UTC and run after the SET (the analysis kept per zone name)
      await same(['RESET timezone', [sql, []], `SET TIME ZONE '${zone}'`, [sql, []]]);
      await same([`SET TIME ZONE '${zone}'`, "SET DateStyle = 'SQL, DMY'", sql]);
      await same(["SET DateStyle = 'ISO, MDY'"]);
    }
  });

  it("POSIX zones with an offset west of Greenwich, the sign optional, any letters or <...> naming them: 'UTC0', 'EST5', '<ABC>-3', 'UTC+24' (were 22023)", async () => {
    const sql =
      "SELECT current_setting('TimeZone'), id, ts, to_char(ts, 'TZ tz OF'), '2024-07-02 03:04:05'::timestamptz::text FROM ev WHERE id IN (1, 4) ORDER BY id";
    for (const zone of [
      'UTC0',
      'EST5',
      'EST+5',
      'XYZ-2',
      'abc3',
      'a3',
      '<ABC>-3',
      '<abc>-3',
      '<+0530>-5:30',
      '<>3',
      'JST-9',
      'UTC16',
      'UTC+24',
      'UTC+167',
      'utc+3',
    ])
      await same([`SET TIME ZONE '${zone}'`, sql]);
    // what PostgreSQL refuses, refused alike (and the zone kept)
    const { patina, postgres } = clients();
    for (const zone of ['UTC+168', 'ABC+3:60', 'Z']) {
      const refused = async (c: PgClient) => {
        const err = await c.query(`SET TIME ZONE '${zone}'`).then(
          () => null,
          (e: { code: string; message: string }) => `${e.code} ${e.message}`,
        );
        return [err, (await c.query({ text: 'SHOW timezone', rowMode: 'array' })).rows];
      };
      assert.deepEqual(await refused(patina), await refused(postgres), zone);
    }
  });

  it("POSIX zones with summer time follow their rules, or the US ones: 'CET-1CEST,M3.5.0,M10.5.0/3', 'XYZ-2ABC' (were 22023)", async () => {
    const sql = `SELECT current_setting('TimeZone'), id, ts, to_char(ts, 'TZ'), ts::timestamp, date_trunc('day', ts),
        '2024-07-01 12:00'::timestamptz, '2024-03-31 02:30'::timestamptz, '2024-03-10 02:30'::timestamptz FROM ev WHERE id <= 7 ORDER BY id`;
    for (const zone of [
      'CET-1CEST,M3.5.0,M10.5.0/3',
      'cet-1cest',
      'XYZ-2ABC',
      'A3B',
      '<+10>-10<+11>,M10.1.0,M4.1.0/3',
      'AAA3BBB,J60/1,J300',
      'AAA-3BBB-4,59,300/-1',
      'ABC3DEF2:30,M3.2.0/-2,M11.1.0/26',
      'EST5EDT',
    ])
      await same([`SET TIME ZONE '${zone}'`, sql]);
    // a wall time written in one, read back in UTC
    const { patina, postgres } = clients();
    for (const c of [patina, postgres]) {
      await c.query("SET TIME ZONE 'CET-1CEST,M3.5.0,M10.5.0/3'");
      await c.query("INSERT INTO ev (id, ts) VALUES (100, '2024-07-01 12:00'), (101, '2024-12-01 12:00')");
      await c.query('RESET TIME ZONE');
    }
    await same(['SELECT id, ts FROM ev WHERE id >= 100 ORDER BY id']);
    // what PostgreSQL refuses, refused alike: bad rules, an offset with seconds (its leap seconds message)
    for (const zone of [
      'CET-1CEST,M3.5.0',
      'ABC3DEF,M13.1.0,M10.1.0',
      'ABC3DEF,J0,J100',
      'ABC3DEF,M3.5.0/168,M10.5.0',
      'ABC-3:30:15DEF',
      'ABC-3:30:15',
    ]) {
      const refused = async (c: PgClient) =>
        c.query(`SET TIME ZONE '${zone}'`).then(
          () => null,
          (e: { code: string; message: string; detail?: string }) => `${e.code} ${e.message} ${e.detail}`,
        );
      assert.deepEqual(await refused(patina), await refused(postgres), zone);
    }
  });

  it("array_to_string of dates and timestamps prints each as its type does, in the session's DateStyle and zone (was the stored text)", async () => {
    const sql = `SELECT array_to_string(tss, ',', '*'), array_to_string(ARRAY[date '2024-01-02', NULL, date '2024-03-04'], ';'),
        array_to_string(ARRAY[timestamp '2024-01-02 03:04:05.5'], ','), array_to_string(ARRAY[1, 2], '-') FROM ev WHERE id = 9`;
    for (const style of ['ISO, MDY', 'SQL, DMY', 'German, DMY'])
      for (const zone of ['UTC', 'Europe/Paris', 'GMT']) {
        const rows = await same([`SET DateStyle = '${style}'`, `SET TIME ZONE '${zone}'`, sql]);
        if (style === 'ISO, MDY' && zone === 'UTC')
          assert.deepEqual(rows[0].slice(0, 2), ['2024-07-01 12:00:00+00,*', '2024-01-02;2024-03-04']);
      }
    await same(["SET DateStyle = 'ISO, MDY'"]);
  });

  it("a timestamptz cast to time is its time of day in the session's zone (was UTC's)", async () => {
    for (const zone of ['Europe/Paris', 'Asia/Kolkata', 'America/St_Johns', 'UTC'])
      await same([
        `SET TIME ZONE '${zone}'`,
        'SELECT id, ts::time, CAST(ts AS time), ts::time(0), now()::time = localtime FROM ev WHERE id <= 8 AND id <> 6 ORDER BY id',
      ]);
  });

  it("a timestamptz cast to timetz is the zone's time with its offset (was UTC's, no offset); an infinite timestamp or timestamptz cast to time is NULL (was 22007)", async () => {
    for (const zone of ['Europe/Paris', 'Asia/Kolkata', 'America/St_Johns', 'UTC'])
      await same([
        `SET TIME ZONE '${zone}'`,
        `SELECT id, ts::timetz, CAST(ts AS timetz), ts::timetz(0), ts::time, (ts AT TIME ZONE 'UTC')::time,
          now()::timetz = current_time FROM ev WHERE id <= 8 ORDER BY id`,
      ]);
    await same(["SELECT 'infinity'::timestamptz::time, '-infinity'::timestamp::time, 'infinity'::timestamptz::timetz"]);
  });

  it('reads text without an offset in the session zone: parameters and literals written or compared', async () => {
    const { patina, postgres } = clients();
    for (const c of [patina, postgres]) {
      await c.query("SET TIME ZONE 'Asia/Kolkata'");
      await c.query("INSERT INTO ev (id, ts) VALUES (100, '2024-07-01 12:00:00')");
      await c.query('INSERT INTO ev (id, ts) VALUES ($1, $2)', [101, '2024-01-15 08:00:00']);
      await c.query('INSERT INTO ev (id, ts) VALUES ($1, $2)', [102, '2024-01-15 08:00:00+00']);
      await c.query("SET TIME ZONE 'Europe/Paris'");
      // 02:30 on 2024-03-31 never happens in Paris, 02:30 on 2024-10-27 happens twice
      await c.query('INSERT INTO ev (id, ts) VALUES ($1, $2), ($3, $4)', [
        103,
        '2024-03-31 02:30:00',
        104,
        '2024-10-27 02:30:00',
      ]);
      await c.query('RESET timezone');
    }
    await same(['SELECT id, ts FROM ev WHERE id >= 100 ORDER BY id']);
    await same([
      "SET TIME ZONE 'Europe/Paris'",
      ['SELECT $1::timestamptz, $2::timestamptz', ['2024-07-01 12:00:00', '2024-07-01 12:00:00-04']],
    ]);
    await same(["SET TIME ZONE 'Europe/Paris'", "SELECT id FROM ev WHERE ts = '2024-01-02 04:04:05'"]);
    await same(["SET TIME ZONE 'Europe/Paris'", ['SELECT count(*) FROM ev WHERE ts > $1', ['2024-03-31 03:00:00']]]);
    await same([
      "SET TIME ZONE 'Europe/Paris'",
      "SELECT ts AT TIME ZONE 'UTC', ts AT TIME ZONE 'Asia/Kolkata' FROM ev WHERE id = 1",
    ]);
  });

  it('RESET TIME ZONE, RESET ALL and custom dotted settings (myapp.tenant) as PostgreSQL', async () => {
    // (RESET TIME ZONE reset a setting named `time`; RESET ALL reset nothing; `SET myapp.tenant =
    // 'acme'` set `myapp` to `. tenant = acme` and SHOW myapp.tenant was 42704)
    await same(["SET TIME ZONE 'Europe/Paris'", 'RESET TIME ZONE', "SELECT '2024-01-01 12:00:00+00'::timestamptz"]);
    await same(["SET TIME ZONE 'Europe/Paris'", "SET myapp.tenant = 'acme'", 'SHOW myapp.tenant']);
    await same(["SET myapp.tenant TO 'b'", "SELECT current_setting('myapp.tenant')"]);
    await same([
      "SET TIME ZONE 'Asia/Kolkata'",
      "SET statement_timeout = '5s'",
      "SET myapp.tenant = 'c'",
      'RESET ALL',
      "SELECT current_setting('TimeZone'), current_setting('statement_timeout'), current_setting('myapp.tenant'), '2024-01-01 12:00:00+00'::timestamptz",
    ]);
    await same(['BEGIN', "SET LOCAL myapp.tenant = 'd'", 'COMMIT', 'SHOW myapp.tenant']);
  });

  it('text cast to timestamptz per row is read in the zone, and compares with literals and columns (it was read in UTC, and never equal)', async () => {
    const sql = `SELECT ('2024-01-01' || ' 12:00')::timestamptz, s::timestamptz, CAST(s AS timestamptz), s::timestamptz(0),
        (s || '+00')::timestamptz, s::timestamptz = '2024-01-01 12:00:00.7', extract(hour from s::timestamptz),
        s::timestamptz::text, to_json(s::timestamptz), s::timestamptz + interval '1 day'
      FROM (VALUES ('2024-01-01 12:00:00.7')) v(s)`;
    const where = `SELECT count(*) FROM (VALUES ('2024-01-02 04:04:05'), ('2024-01-02 03:04:05')) v(s)
      JOIN ev ON ev.ts = s::timestamptz WHERE s::timestamptz = '2024-01-02 04:04:05' OR s::timestamptz = ev.ts`;
    for (const zone of ['Europe/Paris', 'Pacific/Kiritimati', 'UTC'])
      await same([`SET TIME ZONE '${zone}'`, sql]).then(() => same([`SET TIME ZONE '${zone}'`, where]));
    await same(['RESET TIME ZONE', 'SELECT 1']);
  });

  it("current_date, localtimestamp, localtime and 'today' are the zone's (they were UTC's); 'now' is read at each statement", async () => {
    // a zone whose date is not UTC's now: Pago Pago (-11) before 11:00 UTC, Kiritimati (+14) after 10:00
    const zone = new Date().getUTCHours() < 10 ? 'Pacific/Pago_Pago' : 'Pacific/Kiritimati';
    const rows = await same([
      `SET TIME ZONE '${zone}'`,
      `SELECT current_date, 'today'::date, 'tomorrow'::date - current_date, localtimestamp::date, localtimestamp(0)::date,
        current_date = (now() AT TIME ZONE '${zone}')::date, 'today'::timestamptz = date_trunc('day', now()),
        'yesterday'::timestamp = date_trunc('day', localtimestamp) - interval '1 day',
        abs(extract(epoch from localtime - (now() AT TIME ZONE '${zone}')::time)) < 2, current_date <> (now() AT TIME ZONE 'UTC')::date
        FROM (SELECT 1) s`,
    ]);
    assert.deepEqual(rows[0].slice(5), ['t', 't', 't', 't', 't']); // (RAW: the text PostgreSQL sent)
    // ('now' was read once and kept with the statement's analysis: the same instant a second later)
    await same(['SELECT pg_sleep(0.2)', "SELECT 'now'::timestamptz > now() - interval '0.1 second'"]);
    await same(['RESET TIME ZONE', 'SELECT 1']);
  });

  it("to_char's TZ is the zone database's abbreviation, at each instant (Moscow's was +03, Shanghai's +08)", async () => {
    const instants = `SELECT to_char(t, 'YYYY-MM-DD HH24:MI TZ tz') FROM (VALUES (timestamptz '1990-06-01 12:00+00'),
      ('2012-01-15 12:00+00'), ('2024-01-15 12:00+00'), ('2024-07-15 12:00+00'), ('2040-07-15 12:00+00')) AS v(t)`;
    for (const zone of [
      'Europe/Moscow',
      'Asia/Shanghai',
      'Asia/Dubai',
      'America/Sao_Paulo',
      'Pacific/Auckland',
      'Europe/London',
      'America/New_York',
      'europe/moscow',
    ]) {
      await same([`SET TIME ZONE '${zone}'`, instants]);
      await same([`SET TIME ZONE '${zone}'`, "SELECT to_char(ts, 'TZ') FROM ev WHERE id <= 7 ORDER BY id"]);
    }
  });

  it("timeofday() is the clock as text in the session zone, in PostgreSQL's form (it was 42883)", async () => {
    const { patina, postgres } = clients();
    for (const zone of ['UTC', 'America/New_York', 'Asia/Kolkata']) {
      const read = async (c: PgClient) => {
        await c.query(`SET TIME ZONE '${zone}'`);
        const r = await c.query({
          text: 'SELECT timeofday() AS t, pg_typeof(timeofday())::text AS ty',
          rowMode: 'array',
        });
        return r.rows[0] as string[];
      };
      const [p, q] = [await read(patina), await read(postgres)];
      const form = /^(\w{3} \w{3} \d\d \d\d:\d\d:\d\d)\.\d{6} (\d{4}) (\S+)$/;
      const [pm, qm] = [form.exec(p[0]), form.exec(q[0])];
      assert.ok(pm && qm, `${p[0]} | ${q[0]}`);
      assert.deepEqual([pm[3], p[1]], [qm[3], q[1]], zone);
      const at = (m: RegExpExecArray) => Date.parse(`${m[1].slice(4)} ${m[2]}`);
      assert.ok(Math.abs(at(pm) - at(qm)) < 10_000, `${p[0]} | ${q[0]}`);
    }
    // its clock has microseconds: of a few readings, not every one ends in 000 (SQLite's clock has
    // milliseconds only: each did)
    const micros = async (c: PgClient) => {
      const r = await c.query({ text: 'SELECT timeofday() FROM generate_series(1, 5)', rowMode: 'array' });
      return (r.rows as string[][]).some(([t]) => !/\.\d{3}000 /.test(t));
    };
    assert.deepEqual([await micros(patina), await micros(postgres)], [true, true]);
  });
  it('time - time is an interval, as in PostgreSQL (it was 42883)', async () => {
    await same([
      "SELECT '10:00'::time - '12:30:00.5'::time, '23:59:59.999999'::time - '00:00'::time, t - '08:00'::time, (t - '08:00'::time)::text FROM (VALUES ('09:15:30'::time), (NULL)) v(t)",
    ]);
  });

  it('a statement prepared before SET TIME ZONE computes and prints in the new zone, its literals read as at Parse', async () => {
    // (it kept the zone of Parse: date_trunc, EXTRACT, to_char and a timestamptz made text in the old one)
    const { patina, postgres } = clients();
    const named = (name: string, text: string, values: unknown[] = []) => ({
      name,
      text,
      values,
      rowMode: 'array' as const,
      types: RAW,
    });
    const sql = `SELECT '2024-01-01 12:00'::timestamptz, $1::timestamptz, '2024-01-01 12:00'::timestamptz::text,
      to_char('2024-01-01 12:00'::timestamptz, 'HH24:MI TZH'), $1::timestamptz::text,
      date_trunc('day', '2024-01-01 00:30+00'::timestamptz), extract(hour from $1::timestamptz),
      (SELECT count(*) FROM ev WHERE ts = '2024-01-02 04:04:05')`;
    const where = 'SELECT id, ts::text, date_trunc($1, ts) FROM ev WHERE ts < $2 ORDER BY id';
    const run = async (c: PgClient) => {
      const out: unknown[] = [];
      await c.query("SET TIME ZONE 'Europe/Paris'");
      for (const zone of ['Europe/Paris', 'UTC', 'Asia/Kolkata', 'Europe/Paris']) {
        await c.query(`SET TIME ZONE '${zone}'`);
        out.push((await c.query(named('tz1', sql, ['2024-01-01 12:00']))).rows);
        out.push((await c.query(named('tz2', where, ['day', '2024-03-31 03:00:00']))).rows);
      }
      await c.query('RESET TIME ZONE');
      return out;
    };
    assert.deepEqual(await run(patina), await run(postgres));
  });

  it('a stored timestamptz copied by INSERT ... SELECT or UPDATE in a zone keeps its instant', async () => {
    // (a value that was no literal was read in the session's zone again: each copy moved it by the
    // zone's offset, INSERT ... SELECT ts an hour back in Paris and SET ts = ts another)
    const { patina, postgres } = clients();
    for (const c of [patina, postgres]) {
      await c.query("SET TIME ZONE 'Europe/Paris'");
      await c.query('INSERT INTO ev (id, ts) SELECT id + 100, ts FROM ev WHERE id IN (1, 2, 5)');
      await c.query('UPDATE ev SET ts = ts WHERE id >= 100');
      await c.query("UPDATE ev SET ts = ts + interval '1 hour' WHERE id = 101");
      await c.query('INSERT INTO ev (id, ts) VALUES ($1, $2)', [110, '2024-07-01 12:00:00']);
      await c.query('UPDATE ev SET ts = ts WHERE id = 110');
    }
    await same(['SELECT id, ts FROM ev WHERE id >= 100 ORDER BY id']);
  });

  it("a timestamptz written into a timestamp, date or time column is the zone's wall time, a timestamp into a timestamptz read there (were UTC's)", async () => {
    // (INSERT ... VALUES (now()) into a timestamp column in Europe/Paris stored UTC's wall time, and
    // localtimestamp into a timestamptz column was read as UTC: wrong data, replicated)
    const { patina, postgres } = clients();
    for (const c of [patina, postgres]) {
      await c.query("SET TIME ZONE 'Europe/Paris'");
      await c.query('INSERT INTO wall (id, ts, d, t, ts0) SELECT id, ts, ts, ts, ts FROM ev WHERE id <= 7');
      await c.query(
        "INSERT INTO wall (id, ts, tz, d) VALUES (10, '2024-07-01 12:00:00+00'::timestamptz, '2024-07-01 12:00'::timestamp, timestamptz '2024-07-01 23:30+00')",
      );
      await c.query("INSERT INTO wall (id, tz) VALUES (11, date '2024-03-31'), (12, timestamp 'infinity')");
      await c.query('INSERT INTO wall (id, ts) VALUES ($1, $2::timestamptz)', [13, '2024-01-15 08:00:00+00']);
      await c.query('UPDATE wall SET tz = ts, ts = tz, t = tz WHERE id IN (10, 11)');
      await c.query('UPDATE wall SET ts = e.ts, d = e.ts FROM ev e WHERE e.id = 3 AND wall.id = 13');
      await c.query(
        "INSERT INTO wall (id, ts) VALUES (1, '2000-01-01') ON CONFLICT (id) DO UPDATE SET ts = '2024-10-27 01:30:00+00'::timestamptz, tz = excluded.ts",
      );
      // (a set operation's columns, each query's of one type)
      await c.query(
        'INSERT INTO wall (id, ts, d) SELECT id + 50, ts, ts FROM ev WHERE id = 1 UNION ALL SELECT id + 50, ts, ts FROM ev WHERE id = 2',
      );
      await c.query(
        "INSERT INTO wall (id, tz) SELECT 60, timestamp '2024-01-01 12:00' UNION SELECT 61, timestamp '2024-07-01 12:00'",
      );
      await c.query("SET TIME ZONE 'Asia/Kolkata'");
      await c.query('INSERT INTO wall (id, tz) SELECT id + 20, ts FROM wall WHERE id IN (1, 2, 3, 10)');
      await c.query('RESET timezone');
    }
    await same(['SELECT * FROM wall ORDER BY id']);
    // the clock: now() and CURRENT_TIMESTAMP into a timestamp are localtimestamp; localtimestamp
    // into a timestamptz is now() (a zone whose date is not UTC's now: Pago Pago or Kiritimati)
    const zone = new Date().getUTCHours() < 10 ? 'Pacific/Pago_Pago' : 'Pacific/Kiritimati';
    const check = `SELECT id, ts = localtimestamp, tz = now(), d = current_date, t = localtime, ts0 = localtimestamp(0) FROM wall WHERE id BETWEEN 40 AND 49 ORDER BY id`;
    const rows = await same(
      [
        'BEGIN',
        `SET TIME ZONE '${zone}'`,
        'INSERT INTO wall (id, ts, tz, d, t, ts0) VALUES (40, now(), localtimestamp, now(), now(), now())',
        'INSERT INTO wall (id, ts, tz, d, t) VALUES ($1, CURRENT_TIMESTAMP, LOCALTIMESTAMP, CURRENT_TIMESTAMP, transaction_timestamp())',
        'INSERT INTO wall (id, ts, tz, d, t, ts0) SELECT 42, now(), localtimestamp, now(), now(), now()',
        'UPDATE wall SET ts = now(), tz = localtimestamp, d = now(), t = now(), ts0 = now() WHERE id = 40',
        check,
      ].map((s) => (s.includes('$1') ? ([s, [41]] as [string, unknown[]]) : s)),
    );
    assert.deepEqual(
      rows.map((r) => r.slice(1)),
      [
        ['t', 't', 't', 't', 't'],
        ['t', 't', 't', 't', null],
        ['t', 't', 't', 't', 't'],
      ],
    );
    await same(['COMMIT', 'SELECT 1']);
    await same([
      `SELECT id, ts - (tz AT TIME ZONE '${zone}'), d = (tz AT TIME ZONE '${zone}')::date FROM wall ORDER BY id`,
    ]);
  });

  it("a timestamp or date cast to timestamptz is read in the zone, AT TIME ZONE's instant compares with timestamptz, an infinity is itself (were UTC's, false, 22007)", async () => {
    const { patina, postgres } = clients();
    for (const c of [patina, postgres])
      await c.query(`INSERT INTO wall (id, ts, tz, d) VALUES (1, '2024-03-31 02:30:00', '2024-03-31 00:30:00+00', '2024-03-31'),
        (2, '2024-07-01 12:00:00.5', '2024-07-01 12:00:00.5+00', '2024-10-27'), (3, 'infinity', '-infinity', '-infinity')`);
    for (const zone of ['Europe/Paris', 'Asia/Kolkata', 'UTC'])
      await same([
        `SET TIME ZONE '${zone}'`,
        `SELECT id, ts::timestamptz, CAST(d AS timestamptz), d::timestamptz(0), (ts + interval '1 hour')::timestamptz,
          ts::timestamptz = (ts AT TIME ZONE '${zone}'), (ts AT TIME ZONE 'UTC') = tz, timezone('UTC', ts) = tz,
          tz AT TIME ZONE 'Asia/Tokyo', ts AT TIME ZONE 'Asia/Tokyo', d AT TIME ZONE 'UTC',
          current_date::timestamptz = date_trunc('day', now()), localtimestamp::timestamptz = now()
          FROM wall ORDER BY id`,
      ]);
    // (an operand with its own arithmetic: the texts were added as numbers, 22007)
    await same([
      "SET TIME ZONE 'Europe/Paris'",
      `SELECT id, (ts + interval '1 hour') AT TIME ZONE 'UTC', (tz - interval '1 day') AT TIME ZONE 'Asia/Tokyo',
        ((ts + interval '1 hour') AT TIME ZONE 'UTC') AT TIME ZONE 'America/New_York' FROM wall ORDER BY id`,
    ]);
  });

  it("a column left out or DEFAULT whose default is CURRENT_TIMESTAMP or CURRENT_DATE takes now() and the zone's date as PostgreSQL (was SQLite's UTC clock, to the second)", async () => {
    const zone = new Date().getUTCHours() < 10 ? 'Pacific/Pago_Pago' : 'Pacific/Kiritimati';
    const check =
      'SELECT id, ts = localtimestamp, tz = now(), d = current_date, tzd = current_date::timestamptz, ts0 = localtimestamp(0) FROM made ORDER BY id';
    for (const set of [`SET TIME ZONE '${zone}'`, 'RESET TIME ZONE']) {
      const rows = await same([
        'BEGIN',
        set,
        "INSERT INTO made (id) VALUES (1), (2); INSERT INTO made VALUES (3, 'x')",
        'INSERT INTO made (id, ts, tz, d, tzd, ts0) VALUES (4, DEFAULT, DEFAULT, DEFAULT, DEFAULT, DEFAULT)',
        ['INSERT INTO made (id, note) VALUES ($1, $2)', [5, 'p']],
        'INSERT INTO made (id) SELECT 6; INSERT INTO made SELECT 7, note FROM made WHERE id = 3',
        check,
      ]);
      assert.deepEqual(
        rows.map((r) => r.slice(1)),
        rows.map(() => ['t', 't', 't', 't', 't']),
      );
      await same(['COMMIT', 'DELETE FROM made']);
    }
  });

  it('SQL that reads or prints a timestamptz does so in the session zone: casts, ::text, ||, to_char, JSON, COPY', async () => {
    for (const zone of ['Europe/Paris', 'Asia/Kolkata', 'America/St_Johns', '-7']) {
      const set = `SET TIME ZONE ${/^-?\d/.test(zone) ? zone : `'${zone}'`}`;
      await same([
        set,
        "SELECT ts::text, ts || '', concat(ts, ''), format('%s', ts) FROM ev WHERE id <= 7 ORDER BY id",
      ]);
      await same([
        set,
        "SELECT to_char(ts, 'YYYY-MM-DD HH24:MI:SS.US TZ OF TZH:TZM') FROM ev WHERE id <= 5 ORDER BY id",
      ]);
      await same([
        set,
        "SELECT '2024-07-01 12:00:00'::timestamptz, TIMESTAMPTZ '2024-01-01 00:00', CAST('2024-03-10 02:30' AS timestamptz)",
      ]);
      await same([set, 'SELECT ts::timestamptz, (ts::text)::timestamptz FROM ev WHERE id <= 5 ORDER BY id']);
      await same([
        set,
        "SELECT to_json(ts), json_build_object('t', ts), tss::text FROM ev WHERE id IN (1, 9) ORDER BY id",
      ]);
      await same([set, "SELECT id FROM ev WHERE ts >= '2024-03-31 03:00:00'::timestamptz ORDER BY id"]);
      // the date, wall time and fields of a timestamptz are the zone's; date_trunc cuts on its clock
      await same([
        set,
        "SELECT ts::date, ts::timestamp, CAST(ts AS date), date_trunc('day', ts), date_trunc('hour', ts), date_trunc('month', ts) FROM ev WHERE id <= 5 ORDER BY id",
      ]);
      await same([
        set,
        "SELECT extract(hour FROM ts), extract(day FROM ts), date_part('minute', ts), extract(epoch FROM ts), EXTRACT(DOW FROM ts) FROM ev WHERE id <= 5 ORDER BY id",
      ]);
      await same([set, "SELECT date_trunc('day', ts), count(*) FROM ev WHERE id <= 5 GROUP BY 1 ORDER BY 1"]);
      // a day or a month added on the zone's clock (23 or 25 hours across a DST change), the time part on the instant
      await same([
        set,
        "SELECT ts + interval '1 day', ts - interval '1 month', interval '1 day 2 hours' + ts, ts + interval '3 hours' FROM ev WHERE id <= 5 ORDER BY id",
      ]);
      await same([set, "SELECT generate_series('2024-03-30'::timestamptz, '2024-04-01'::timestamptz, '1 day')"]);
      await same([
        set,
        "SELECT g::date, count(*) FROM generate_series(timestamptz '2024-10-26', timestamptz '2024-10-28', interval '12 hours') g GROUP BY 1 ORDER BY 1",
      ]);
      await same([
        set,
        "SELECT now()::text = now()::timestamptz::text, to_char(now(), 'TZ') = to_char(now()::timestamptz, 'TZ')",
      ]);
    }
    const { patina, postgres } = clients();
    for (const c of [patina, postgres]) {
      await c.query("SET TIME ZONE 'Europe/Paris'");
      // (statements whose literals are not lifted into parameters: read when translated)
      await c.query("INSERT INTO ev (id, ts) SELECT 110, '2024-07-01 12:00:00'");
      await c.query("INSERT INTO ev (id, ts) VALUES (111, '2024-07-01 12:00:00'::timestamptz), (112, now())");
      await c.query("UPDATE ev SET ts = '2024-12-24 18:00:00' WHERE id = 111");
      await c.query('RESET timezone');
    }
    await same(['SELECT id, ts FROM ev WHERE id IN (110, 111) ORDER BY id']);
    // a NOT NULL violation's DETAIL prints the row's timestamptz in the zone too (PostgreSQL's
    // bigint id here is NOT NULL: its failing row is the one written)
    const detail = async (c: PgClient) => {
      await c.query("SET TIME ZONE 'Asia/Kolkata'");
      const e = await c.query('UPDATE ev SET id = NULL WHERE id = 1').catch((x: { detail?: string }) => x);
      await c.query('RESET timezone');
      return (e as { detail?: string }).detail;
    };
    assert.equal(await detail(patina), 'Failing row contains (null, 2024-01-02 08:34:05+05:30, null).');
    assert.equal(await detail(patina), await detail(postgres));
    const { pair } = clients();
    const copy = 'COPY (SELECT id, ts, tss FROM ev WHERE id <> 112 ORDER BY id) TO STDOUT'; // (112: now(), to the microsecond there)
    const env = { PGTZ: 'Asia/Kolkata' };
    assert.equal(psqlOk(pair.patinaPort, [copy], [], env), psqlOk(pair.postgresPort, [copy], [], env));
  });

  it("binary results stay UTC microseconds in any zone; a startup packet's TimeZone (pgjdbc's) is the session's", async () => {
    const { pair } = clients();
    const open = (port: number) =>
      WireClient.open(port, { user: 'tester', database: 'db', TimeZone: 'America/St_Johns' });
    const [p, g] = [await open(pair.patinaPort), await open(pair.postgresPort)];
    try {
      // SET TIME ZONE, RESET (to the login's zone) and a rolled-back SET report the zone (ParameterStatus), as PostgreSQL does
      const statuses = async (c: WireClient) => {
        const out: string[] = [];
        for (const sql of [
          "SET TIME ZONE 'Asia/Kolkata'",
          'RESET timezone',
          'BEGIN',
          "SET timezone = 'Europe/Paris'",
          'ROLLBACK',
          "SET TIME ZONE 'America/St_Johns'",
        ]) {
          const r = await c.exchange(serialize.query(sql));
          for (const m of r.messages) if (m.type === 'S') out.push(`${sql}: ${m.body.toString('latin1')}`);
        }
        return out;
      };
      const sent = await statuses(p);
      assert.equal(sent.length, 4, sent.join('\n')); // (none for a SET to the zone it has)
      assert.deepEqual(sent, await statuses(g));
      for (const format of [1, 0]) {
        const [a, b] = [p, g].map((c) => c.extended('SELECT ts FROM ev WHERE id = 1', { resultFormats: [format] }));
        const [got, want] = [await a, await b];
        assert.deepEqual(got.errors, []);
        assert.equal(got.rows[0][0]?.length, format ? 8 : '2024-01-01 23:34:05-03:30'.length);
        assert.deepEqual(got.rows, want.rows, `format ${format}`);
      }
    } finally {
      p.end();
      g.end();
    }
  });

  it("the Executes of an extended-protocol pipeline before Sync share now(), as PostgreSQL's implicit transaction (each read its own)", async () => {
    const { pair } = clients();
    const open = (port: number) => WireClient.open(port, { user: 'tester', database: 'db' });
    const [p, g] = [await open(pair.patinaPort), await open(pair.postgresPort)];
    try {
      const clock = 'SELECT now()::text, statement_timestamp()::text';
      const run = async (c: WireClient) => {
        const steps = [clock, 'SELECT pg_sleep(0.05)', clock].flatMap((sql) => [
          serialize.parse({ text: sql, types: [] }),
          bindMessage([], [], [0]),
          serialize.execute({}),
        ]);
        const r = await c.exchange(...steps, serialize.sync());
        const after = await c.exchange(...steps.slice(0, 3), serialize.sync());
        const [first, , last] = r.rows.map((row) => row.map((x) => x?.toString()));
        const next = after.rows[0][0]?.toString();
        // now() the same, statement_timestamp() not; the next pipeline's now() another
        return [r.errors, first[0] === last[0], first[1] === last[1], next === first[0]];
      };
      const got = await run(p);
      assert.deepEqual(got, await run(g));
      assert.deepEqual(got, [[], true, false, false]);
    } finally {
      p.end();
      g.end();
    }
  });

  it("takes a login's TimeZone (options -c TimeZone=..., psql's PGTZ) and refuses an unknown zone as PostgreSQL", async () => {
    const { pair } = clients();
    const opened: PgClient[] = [];
    const open = async (port: number) => {
      const c = pgClient(port, { options: '-c TimeZone=Asia/Kolkata' });
      opened.push(c);
      await c.connect();
      return c;
    };
    try {
      const c = { patina: await open(pair.patinaPort), postgres: await open(pair.postgresPort) };
      const rows = await same(['SHOW timezone'], c);
      assert.deepEqual(rows, [['Asia/Kolkata']]);
      await same(['SELECT ts FROM ev WHERE id = 1'], c);
    } finally {
      for (const c of opened) await c.end();
    }
    const q = 'SELECT ts FROM ev WHERE id = 1';
    const env = { PGTZ: 'Europe/Paris' };
    assert.equal(psqlOk(pair.patinaPort, [q], ['-At'], env), psqlOk(pair.postgresPort, [q], ['-At'], env));
    assert.equal(psqlOk(pair.patinaPort, [q], ['-At'], env).trim(), '2024-01-02 04:04:05+01');
    const { patina, postgres } = clients();
    for (const c of [patina, postgres]) {
      const e = await c.query("SET TIME ZONE 'Nowhere/Atall'").then(
        () => 'ran',
        (x: { code?: string; message: string }) => `${x.code} ${x.message}`,
      );
      assert.equal(e, '22023 invalid value for parameter "TimeZone": "Nowhere/Atall"');
    }
    for (const port of [pair.patinaPort, pair.postgresPort]) {
      const bad = pgClient(port, { options: '-c TimeZone=Nowhere/Atall' });
      const err = await bad.connect().then(
        () => null,
        (x: { code?: string; message: string }) => `${x.code} ${x.message}`,
      );
      await bad.end().catch(() => undefined);
      assert.equal(err, '22023 invalid value for parameter "TimeZone": "Nowhere/Atall"');
    }
  });
});
