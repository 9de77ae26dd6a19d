// SET, SHOW, current_setting, set_config and pg_settings against PostgreSQL 15: a name PostgreSQL has
// no setting of is 42704 (a typo such as `statment_timeout` was taken and kept silently), a setting a
// session cannot change 55P02, a bad boolean or enum value 22023; SHOW answers every setting
// PostgreSQL 15 has (SHOW work_mem was 42704) and pg_settings lists them with their types and units.
import assert from 'node:assert/strict';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { startCatalogPair, type CatalogPair } from '../helpers/catalog-pair';
import { pgClient, psql } from '../helpers/pg';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const copyStreams = require('pg-copy-streams') as { from(sql: string): Writable };

const SCHEMA = `CREATE TABLE s (id BIGINT NOT NULL PRIMARY KEY);
CREATE TABLE styled (id BIGINT NOT NULL PRIMARY KEY, i INTERVAL, b BYTEA);
CREATE TABLE dated (k BIGINT NOT NULL PRIMARY KEY, d DATE, ts TIMESTAMP, tz TIMESTAMPTZ);`;

describe('settings (SET, SHOW, current_setting, pg_settings), against PostgreSQL 15', function () {
  this.timeout(60_000);
  let pair: CatalogPair;
  before(async () => {
    pair = await startCatalogPair({ schemas: { patina: SCHEMA, postgres: SCHEMA } });
  });
  after(() => pair?.dispose());

  /** psql's output and errors for the statements (one session, going on after errors) on both servers, compared. */
  function same(statements: string[]): string {
    const run = (port: number) => {
      const r = psql(port, statements, ['-A', '-t', '-v', 'ON_ERROR_STOP=0']);
      return `${r.stdout}${r.stderr}`.replace(/^psql:[^\n]*?ERROR/gm, 'ERROR');
    };
    const p = run(pair.patinaPort);
    assert.equal(p, run(pair.postgresPort), statements.join('; '));
    return p;
  }

  it('an unknown name is 42704 for SET, SET LOCAL, RESET, SHOW, set_config and current_setting (SET took it)', () => {
    const out = same([
      'SET statment_timeout = 1000',
      'SHOW statment_timeout',
      'RESET foo',
      'BEGIN',
      'SET LOCAL foo = 1',
      'ROLLBACK',
      "SELECT set_config('foo', '1', false)",
      "SELECT current_setting('foo')",
      "SELECT current_setting('foo', true) IS NULL",
      // a dotted name is a custom setting: any may be set
      "SET myapp.tenant = 'acme'",
      'SHOW myapp.tenant',
    ]);
    assert.match(out, /unrecognized configuration parameter "statment_timeout"/);
  });

  it('a setting a session cannot change is 55P02 in its context words; bad booleans and enums are 22023', () => {
    const out = same([
      'SET max_connections = 5',
      'SET server_version = 1',
      'SET ssl = on',
      'SET log_connections = on',
      'RESET wal_level',
      'SET enable_seqscan = maybe',
      "SET enable_seqscan = 'of'",
      'SHOW enable_seqscan',
      'SET enable_seqscan = t',
      "SET client_min_messages = 'loud'",
      "SET transaction_isolation = 'nope'",
      'SET is_superuser = off',
    ]);
    assert.match(out, /cannot be changed without restarting the server/);
  });

  it("numbers are read as PostgreSQL reads them: units, ranges and 22023 in its words (SET work_mem = 'abc' was taken)", () => {
    const out = same([
      "SET work_mem = 'abc'",
      "SET work_mem = '8XB'",
      'SET work_mem = 10',
      'SET work_mem = -1',
      "SET work_mem = '99999999999'",
      "SET work_mem = '1.5MB'",
      'SHOW work_mem',
      'SET work_mem = 10000',
      'SHOW work_mem',
      "SET work_mem = '65536B'",
      'SHOW work_mem',
      "SET lock_timeout = '5 weeks'",
      "SET lock_timeout = '1.5s'",
      'SHOW lock_timeout',
      "SET lock_timeout = '5 min'",
      'SHOW lock_timeout',
      "SET idle_in_transaction_session_timeout = '0x10'",
      'SHOW idle_in_transaction_session_timeout',
      "SET statement_timeout = '-1'",
      "SET random_page_cost = 'x'",
      'SET random_page_cost = -1',
      "SET random_page_cost = '1e3'",
      'SHOW random_page_cost',
      'SET geqo_threshold = 1.5',
      'SHOW geqo_threshold',
      'SET extra_float_digits = 9',
    ]);
    assert.match(out, /10 kB is outside the valid range for parameter "work_mem" \(64 \.\. 2147483647\)/);
  });

  it("what migrations and dumps send is taken: SET ROLE, SESSION AUTHORIZATION, NAMES, SCHEMA, XML OPTION, pg_dump's preamble", () => {
    same([
      'SET ROLE tester',
      'SHOW role',
      'SET SESSION AUTHORIZATION tester',
      'SHOW session_authorization',
      "SET NAMES 'UTF8'",
      'SHOW client_encoding',
      "SET SCHEMA 'public'",
      'SHOW search_path',
      'SET XML OPTION DOCUMENT',
      'SHOW xmloption',
      'SET seed = 0.5',
      // pg_dump's preamble
      'SET statement_timeout = 0',
      'SET lock_timeout = 0',
      'SET idle_in_transaction_session_timeout = 0',
      "SET client_encoding = 'UTF8'",
      'SET standard_conforming_strings = on',
      "SELECT pg_catalog.set_config('search_path', '', false)",
      'SET check_function_bodies = false',
      'SET xmloption = content',
      'SET client_min_messages = warning',
      'SET row_security = off',
      "SET default_tablespace = ''",
      'SET default_table_access_method = heap',
      'SET default_with_oids = false',
    ]);
  });

  it('a login naming no setting, or one no session may change, ends with FATAL as in PostgreSQL (it was ignored)', () => {
    // libpq's PGOPTIONS; each line the FATAL message, without the server's address (libpq prints it
    // again when it retries without TLS)
    const login = (port: number, options: string) => {
      const r = psql(port, ['SHOW work_mem'], ['-A', '-t'], { PGOPTIONS: options });
      const errors = [
        ...new Set(
          r.stderr
            .split('\n')
            .filter(Boolean)
            .map((l) => l.replace(/^.*failed: /, '')),
        ),
      ];
      return [r.status === 0, r.stdout, ...errors];
    };
    for (const options of [
      '-c statment_timeout=5',
      '-c foo=1',
      '-c shared_buffers=1MB',
      '-c server_version=1',
      '-c work_mem=abc',
      '-c myapp.tenant=acme',
      '-c Work_Mem=8MB',
      '-c log_connections=on',
    ])
      assert.deepEqual(login(pair.patinaPort, options), login(pair.postgresPort, options), options);
    assert.deepEqual(login(pair.patinaPort, '-c foo=1'), [
      false,
      '',
      'FATAL:  unrecognized configuration parameter "foo"',
    ]);
  });

  it("DateStyle: SET and SHOW as PostgreSQL normalises them, 22023 for bad values; Rails' IntervalStyle is taken", () => {
    same([
      "SET datestyle = 'foo'",
      "SET datestyle = 'ISO, SQL'",
      "SET datestyle = 'iso dmy'",
      "SET datestyle = 'sql,'",
      "SET datestyle = 'iso'",
      'SHOW datestyle',
      // what a value leaves out is kept from the session's; German alone is DMY; Euro..., NonEuro... and US are orders
      "SET datestyle = 'dmy'",
      'SHOW datestyle',
      "SET datestyle = 'German'",
      'SHOW datestyle',
      "SET datestyle = 'sql'",
      'SHOW datestyle',
      "SET datestyle = 'postgresql, european'",
      'SHOW datestyle',
      `SET DateStyle = 'US, "ISO"'`,
      'SHOW datestyle',
      "SET datestyle = 'ymd, German'",
      'SHOW datestyle',
      "SET datestyle = 'noneuropean'",
      'SHOW datestyle',
      "SET datestyle = ''",
      'SHOW datestyle',
      "SET datestyle = 'default, sql'",
      'SHOW datestyle',
      "SELECT set_config('datestyle', 'Postgres, dmy', false), current_setting('datestyle')",
      'BEGIN',
      "SET LOCAL datestyle = 'German'",
      'SHOW datestyle',
      'ROLLBACK',
      'SHOW datestyle',
      'RESET datestyle',
      'SHOW datestyle',
      "SET intervalstyle = 'foo'",
      `SET "IntervalStyle" = 'postgres'`,
      'SHOW intervalstyle',
      "SET bytea_output = 'hex'",
      // what Rails sets at connect (it was refused for a moment: Rails could not connect)
      'SET intervalstyle = iso_8601',
      "SELECT '01/02/2024'::date",
    ]);
    // IntervalStyle iso_8601 (Rails): result cells and COPY print ISO 8601 durations (they printed the postgres style)
    same([
      'SET intervalstyle = iso_8601',
      `SELECT i FROM (VALUES (interval '1 year 2 mons 3 days 04:05:06.5'), (interval '0'), (interval '-1 day 2 hours'),
        (interval '1 day -02:00:00.25'), (interval '-3 mons'), (interval '-00:00:01.5'), (interval '25 hours')) v(i)`,
      "COPY (SELECT interval '2 days 03:00:00' AS i) TO STDOUT",
    ]);
  });

  it('DateStyle is followed: numeric dates read in its order, dates and timestamps printed in its style (other than ISO, MDY was 0A000)', () => {
    // '03/04/05' is a date in every order (2005-03-04 MDY, 2005-04-03 DMY, 2003-04-05 YMD)
    const styles = [
      'ISO, DMY',
      'SQL, MDY',
      'SQL, DMY',
      'Postgres, MDY',
      'Postgres, DMY',
      'German',
      'ISO, YMD',
      'SQL, YMD',
    ];
    for (const [k, style] of styles.entries()) {
      const zone = k % 2 === 0 ? 'America/Los_Angeles' : 'UTC';
      const out = same([
        `SET datestyle = '${style}'`,
        `SET timezone = '${zone}'`,
        "SELECT '03/04/05'::date, DATE '03.04.05', '03-04-05 10:00:00'::timestamp, TIMESTAMPTZ '03/04/05 10:00:00.5', '2024-01-02'::date",
        `INSERT INTO dated VALUES (${k}, '03/04/05', '03/04/05 05:06:07.25', '03/04/05 05:06:07+02')`,
        `INSERT INTO dated SELECT ${k + 100}, '07/08/09', '07/08/09 01:02:03', '07/08/09 01:02:03'`,
        `SELECT k, d, ts, tz, d::text, 'ts=' || ts, format('%s', tz), concat(d, '|'), ARRAY[d], ARRAY[tz], to_json(d), to_json(tz), dated
           FROM dated WHERE k IN (${k}, ${k + 100}) ORDER BY k`,
        "SELECT s::date, s::timestamp, s::timestamptz FROM (VALUES ('11/12/13'), ('2024-01-02 03:04:05')) v(s)",
        // arrays cast to text[]: each element as its cast to text prints it (they kept ISO)
        `SELECT ARRAY[d]::text[], ARRAY[ts]::varchar[], ARRAY[tz]::text[], (ARRAY[d]::text[])[1] FROM dated WHERE k = ${k}`,
        `COPY (SELECT d, ts, tz, ARRAY[d] FROM dated WHERE k = ${k}) TO STDOUT`,
        `COPY (SELECT d, ts, tz FROM dated WHERE k = ${k}) TO STDOUT (FORMAT csv)`,
        // text of an array cast per row; what each style prints reads back (not in YMD: SQL, YMD prints MDY)
        "SELECT s::date[], s::timestamp[] FROM (VALUES ('{03/04/05}')) v(s)",
        ...(style.endsWith('YMD')
          ? []
          : [
              `SELECT d::text::date = d, ts::text::timestamp = ts, tz::text::timestamptz = tz FROM dated WHERE k = ${k}`,
            ]),
        // time, timetz and intervals print the same in every style; infinities and years BC
        "SELECT time '10:00:00.5', interval '1 day 02:00:00', 'infinity'::date, '-infinity'::timestamptz, '0044-03-15 BC'::date, '0044-03-15 10:00:00 BC'::timestamp",
      ]);
      if (style === 'SQL, DMY')
        assert.match(out, /^2\|03\/04\/2005\|03\/04\/2005 05:06:07.25\|02\/04\/2005 19:06:07 PST\|/m);
    }
  });

  it('DateStyle other than ISO: a zone that is UTC under another name prints its own abbreviation (GMT printed UTC)', () => {
    const tz = "timestamptz '2024-01-02 10:00:00+00'";
    for (const zone of ['GMT', 'Etc/UTC', 'Greenwich', 'abc+0', '0', 'UTC']) {
      const out = same([
        "SET datestyle = 'SQL, DMY'",
        `SET TIME ZONE '${zone}'`,
        `SELECT t, t::text, ARRAY[t], ARRAY[t]::text, format('%s', t) FROM (VALUES (${tz})) v(t)`,
        `COPY (SELECT ${tz}) TO STDOUT`,
        // (the clock's digits left out: now() has SQLite's milliseconds)
        "SELECT regexp_replace(now()::timestamptz::text, '[0-9.]+', 'n', 'g')",
        'SET datestyle = Postgres',
        `SELECT ${tz}`,
        'SET datestyle = ISO',
        `SELECT ${tz}`,
      ]);
      if (zone === 'GMT') assert.match(out, /^02\/01\/2024 10:00:00 GMT\|/m);
    }
  });

  it('DateStyle at login (PGDATESTYLE), its ParameterStatus, Bind parameters and COPY FROM read in its order', async () => {
    // libpq's PGDATESTYLE is a startup parameter: followed, as SET's (the login ended with 0A000)
    const login = (port: number, style: string) => {
      const r = psql(
        port,
        ['SHOW datestyle', "SELECT '01/02/2024'::date, timestamptz '2024-01-02 10:00:00+00'"],
        ['-A', '-t'],
        {
          PGDATESTYLE: style,
        },
      );
      return [
        r.status === 0,
        r.stdout,
        ...r.stderr
          .split('\n')
          .filter((l) => /FATAL|DETAIL/.test(l))
          .map((l) => l.replace(/^.*failed: /, '')),
      ];
    };
    for (const style of ['ISO, DMY', 'German', 'sql,ymd', 'foo'])
      assert.deepEqual(login(pair.patinaPort, style), login(pair.postgresPort, style), style);
    assert.deepEqual(login(pair.patinaPort, 'ISO, DMY'), [true, 'ISO, DMY\n2024-02-01|2024-01-02 10:00:00+00\n']);
    // node-postgres (extended protocol): text parameters, an INSERT's and COPY's dates in the session's order
    const run = async (port: number) => {
      const c = pgClient(port);
      const reported: string[] = [];
      (
        c as unknown as {
          connection: { on(e: string, f: (m: { parameterName: string; parameterValue: string }) => void): void };
        }
      ).connection.on('parameterStatus', (m) => {
        if (m.parameterName === 'DateStyle') reported.push(m.parameterValue);
      });
      await c.connect();
      const asText = { getTypeParser: () => (v: string) => v };
      const q = {
        name: 'dated',
        // (prepared in ISO, MDY: its literal keeps the date read then, as PostgreSQL reads it at Parse)
        text: "SELECT $1::date AS d, $2::timestamptz AS tz, $2::timestamp::text AS t, '01/02/2024'::date AS l",
        values: ['01/02/2024', '01/02/24 10:00:00'],
        rowMode: 'array' as const,
        types: asText,
      };
      try {
        const out: unknown[] = [(await c.query(q)).rows];
        await c.query("SET datestyle = 'German'");
        out.push((await c.query(q)).rows);
        await c.query('INSERT INTO dated (k, d, ts) VALUES ($1, $2, $3)', [50, '05.06.2024', '05/06/2024 07:08:09']);
        const stream = (c as unknown as { query(s: Writable): Writable }).query(
          copyStreams.from('COPY dated (k, d, ts, tz) FROM STDIN'),
        );
        await pipeline(
          Readable.from([Buffer.from('51\t05/06/2024\t05.06.2024 07:08:09\t05-06-2024 07:08:09+02\n')]),
          stream,
        );
        await c.query("SET datestyle = 'ISO, YMD'");
        out.push(
          (
            await c.query({
              text: 'SELECT k, d, ts, tz FROM dated WHERE k IN (50, 51) ORDER BY k',
              rowMode: 'array',
              types: asText,
            })
          ).rows,
        );
        out.push(reported);
        return out;
      } finally {
        await c.end();
      }
    };
    const patina = await run(pair.patinaPort);
    assert.deepEqual(patina, await run(pair.postgresPort));
    assert.deepEqual(patina.at(-1), ['ISO, MDY', 'German, DMY', 'ISO, YMD']);
  });

  it('IntervalStyle and bytea_output are followed: result cells, COPY and values made text print in them (they printed postgres and hex)', async () => {
    // the intervals and bytes each style prints differently: mixed signs, zero, fractions, years and months
    const intervals = [
      '1 year 2 mons 3 days 04:05:06.7',
      '-1 year -2 mons +3 days -04:05:06',
      '0',
      '-1 day',
      '1 day -00:00:01',
      '3 mons',
      '00:00:00.000001',
      '-00:00:01.5',
      // (a later field with its sign: under sql_standard PostgreSQL reads '-3 days 04:00' as all negative)
      '-3 days +04:00',
      '-1 year +2 mons',
      '-1 mon +1 day',
      '1 year -1 day',
      '-1 hour +1.5 secs',
      '25 hours',
    ];
    const ivs = `(VALUES ${intervals.map((v, k) => `(${k}, interval '${v}')`).join(', ')}) v(k, i)`;
    const bytes = "(VALUES (1, '\\x00415c7f80ff'::bytea), (2, ''::bytea), (3, NULL::bytea)) v(k, b)";
    const rows = [
      "INSERT INTO styled VALUES (1, '1 day 02:00', '\\x41ff5c'), (2, '-1 year -2 mons +3 days -04:05:06', '')",
    ];
    for (const port of [pair.patinaPort, pair.postgresPort]) psql(port, rows);
    for (const style of ['sql_standard', 'postgres_verbose', 'iso_8601', 'postgres'])
      same([
        `SET intervalstyle = ${style}`,
        `SELECT k, i, i::text, 'i=' || i, format('%s', i), concat(i, '|'), ARRAY[i] FROM ${ivs} ORDER BY k`,
        `COPY (SELECT i FROM ${ivs} ORDER BY k) TO STDOUT`,
        `COPY (SELECT i, ARRAY[i] FROM ${ivs} ORDER BY k) TO STDOUT (FORMAT csv)`,
        'SELECT to_json(i), styled FROM styled ORDER BY id',
        'SELECT array_agg(i ORDER BY id) FROM styled',
      ]);
    same([
      "SET bytea_output = 'escape'",
      `SELECT k, b, b::text, 'b=' || b::text, format('%s', b), concat(b, '|') FROM ${bytes} ORDER BY k`,
      `COPY (SELECT b FROM ${bytes} ORDER BY k) TO STDOUT`,
      `COPY (SELECT b FROM ${bytes} ORDER BY k) TO STDOUT (FORMAT csv)`,
      'SELECT to_json(b), styled FROM styled ORDER BY id',
      "SET bytea_output = 'hex'",
      `SELECT b, b::text FROM ${bytes} ORDER BY k`,
    ]);
    // at login too (PGOPTIONS), where IntervalStyle was left at postgres
    const login = (port: number) =>
      psql(port, ["SELECT interval '-1 day', '\\x41ff'::bytea"], ['-A', '-t'], {
        PGOPTIONS: '-c IntervalStyle=sql_standard -c bytea_output=escape',
      }).stdout;
    assert.equal(login(pair.patinaPort), '-1 0:00:00|A\\377\n');
    assert.equal(login(pair.patinaPort), login(pair.postgresPort));
    // node-postgres (extended protocol): a statement prepared before the SET prints in the style of now
    const run = async (port: number) => {
      const c = pgClient(port);
      await c.connect();
      const asText = { getTypeParser: () => (v: string) => v };
      const q = {
        name: 'styled',
        text: "SELECT $1::interval AS i, $1::interval::text AS t, $2::bytea AS b, 'b=' || $2::bytea::text AS bt",
        values: ['-1 year -2 mons +3 days -04:05:06.5', '\\x005cff41'],
        rowMode: 'array' as const,
        types: asText,
      };
      try {
        const out = [(await c.query(q)).rows];
        for (const set of [
          "SET intervalstyle = 'sql_standard'",
          "SET bytea_output = 'escape'",
          'SET intervalstyle = postgres_verbose',
        ])
          out.push((await c.query(set).then(() => c.query(q))).rows);
        return out;
      } finally {
        await c.end();
      }
    };
    const patina = await run(pair.patinaPort);
    assert.deepEqual(patina, await run(pair.postgresPort));
    assert.deepEqual(patina[3], [
      [
        '@ 1 year 2 mons -3 days 4 hours 5 mins 6.5 secs ago',
        '@ 1 year 2 mons -3 days 4 hours 5 mins 6.5 secs ago',
        '\\000\\\\\\377A',
        'b=\\000\\\\\\377A',
      ],
    ]);
  });

  it("IntervalStyle sql_standard's input: a leading minus is every unsigned field's, so its text reads back ('-1 2:00:00' was -1 day +2 hours)", async () => {
    const texts = [
      '-1 2:00:00',
      '-1 day 2 hours',
      '-1-2 3 4:05:06',
      '-1 +2:00:00',
      '-1 -2:00:00',
      '- 1 day 3 hours',
      '-1 day 2 hours ago',
      '@ -1 day 1 hour',
      '-1.5 days 3 hours',
      '-1:30',
      '+1 2:00:00',
      '1 -2:00:00',
      'P-1DT2H',
    ];
    const values = `(VALUES ${texts.map((t, k) => `(${k}, '${t}')`).join(', ')}) v(k, s)`;
    const printed = `(VALUES (1, interval '-1 day -2 hours'), (2, interval '-1 year -2 mons -3 days -04:05:06.5'),
      (3, interval '-00:00:01'), (4, interval '-3 days'), (5, interval '-1 day +02:00'), (6, interval '1 year -1 day')) v(k, i)`;
    const out = same([
      'SET intervalstyle = sql_standard',
      // literals, typed literals and their arrays; text cast per row, and arrays of it
      ...texts.map((t) => `SELECT '${t}'::interval, interval '${t}', '{"${t}"}'::interval[]`),
      `SELECT k, s::interval, ('{"' || s || '"}')::interval[] FROM ${values} ORDER BY k`,
      // an INSERT's strings, INSERT ... SELECT of one
      "INSERT INTO styled (id, i) VALUES (10, '-1 2:00:00'), (11, '-1 day 3 hours')",
      "INSERT INTO styled (id, i) SELECT 12, '-2 3:00:00'",
      // what the style prints reads back the same
      `SELECT k, i, i::text::interval = i, i::text::interval FROM ${printed} ORDER BY k`,
      'SET intervalstyle = postgres',
      'SELECT id, i FROM styled WHERE id >= 10 ORDER BY id',
      "SELECT '-1 2:00:00'::interval",
    ]);
    assert.match(out, /^10\|-1 days -02:00:00$/m);
    // node-postgres (extended protocol): text parameters and COPY FROM read so; a statement prepared
    // before the SET keeps its literal as read at Parse
    const run = async (port: number) => {
      const c = pgClient(port);
      await c.connect();
      const asText = { getTypeParser: () => (v: string) => v };
      const q = {
        name: 'signed',
        text: "SELECT $1::interval::text AS p, '-1 2:00:00'::interval::text AS l",
        values: ['-2 3:00:00'],
        rowMode: 'array' as const,
        types: asText,
      };
      try {
        const out: unknown[] = [(await c.query(q)).rows];
        await c.query("SET intervalstyle = 'sql_standard'");
        out.push((await c.query(q)).rows);
        await c.query('INSERT INTO styled (id, i) VALUES ($1, $2)', [20, '-1 2:00:00']);
        const stream = (c as unknown as { query(s: Writable): Writable }).query(
          copyStreams.from('COPY styled (id, i) FROM STDIN'),
        );
        await pipeline(Readable.from([Buffer.from('21\t-3 4:05:06\n')]), stream);
        await c.query('SET intervalstyle = postgres');
        const stored = 'SELECT id, i FROM styled WHERE id >= 20 ORDER BY id';
        out.push((await c.query({ text: stored, rowMode: 'array', types: asText })).rows);
        return out;
      } finally {
        await c.end();
      }
    };
    const patina = await run(pair.patinaPort);
    assert.deepEqual(patina, await run(pair.postgresPort));
    assert.deepEqual(patina.at(-1), [
      ['20', '-1 days -02:00:00'],
      ['21', '-3 days -04:05:06'],
    ]);
  });

  it('SHOW and current_setting answer every setting PostgreSQL 15 has; pg_settings lists them typed (SHOW work_mem was 42704)', () => {
    same([
      'SHOW work_mem',
      'SHOW DateStyle',
      'SHOW timezone',
      "SET work_mem = '8MB'",
      'SHOW work_mem',
      "SELECT current_setting('maintenance_work_mem'), current_setting('jit')",
      `SELECT setting FROM pg_settings WHERE name = 'work_mem'`,
      "SET statement_timeout = '2min'",
      `SELECT setting, unit FROM pg_settings WHERE name = 'statement_timeout'`,
      'RESET work_mem',
      'SHOW work_mem',
      `SELECT name, setting, unit, category, context, vartype, enumvals, min_val, max_val FROM pg_settings
        WHERE name IN ('work_mem', 'client_min_messages', 'enable_seqscan', 'search_path', 'random_page_cost') ORDER BY name`,
      "SELECT count(*) > 300 FROM pg_settings WHERE name NOT LIKE '%.%'",
    ]);
    // a login's options set them too (libpq's PGOPTIONS)
    const login = (port: number) =>
      psql(port, ['SHOW work_mem', 'SHOW enable_seqscan'], ['-A', '-t'], {
        PGOPTIONS: '-c work_mem=16MB -c enable_seqscan=off',
      });
    assert.equal(login(pair.patinaPort).stdout, login(pair.postgresPort).stdout);
    assert.equal(login(pair.patinaPort).stdout, '16MB\noff\n');
    // SHOW ALL: every setting; the values Patina's server has of its own (block size, isolation,
    // version, paths of the test server) are left out of the comparison
    const own =
      /^(block_size|config_file|data_directory|hba_file|ident_file|listen_addresses|port|unix_socket_directories|fsync|max_connections|server_version(_num)?|(default_)?transaction_isolation)\|/;
    const names = (port: number) =>
      psql(port, ['SHOW ALL'], ['-A', '-t'])
        .stdout.split('\n')
        .filter((l) => l && !own.test(l));
    assert.deepEqual(names(pair.patinaPort), names(pair.postgresPort));
  });
});
