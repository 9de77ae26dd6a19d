// PostgreSQL's date and time SQL, as BI tools write it (Metabase groups by CAST(x AS date) and
// date_trunc, Grafana by extract(epoch from x)), through node-postgres against a real agent.
import assert from 'node:assert/strict';
import { type AgentProcess, startAgent } from '../helpers/agent';
import { spawnSync } from 'node:child_process';
import { postJson } from '../helpers/http';
import { type PgClient, RawPg, pgClient, serialize } from '../helpers/pg';

const SCHEMA = 'CREATE TABLE events (id INTEGER NOT NULL PRIMARY KEY, created_at TIMESTAMP, amount REAL);\n';

/** Values as the server sent them (node-postgres would make Dates of timestamps). */
const RAW = { types: { getTypeParser: () => (v: string) => v } };

interface Result {
  rows: unknown[][];
  fields: { name: string; dataTypeID: number }[];
}

describe('PostgreSQL dates and times', function () {
  this.timeout(30000);
  let agent: AgentProcess;
  let c: PgClient;
  const q = async (sql: string, params: unknown[] = []) =>
    (await c.query({ text: sql, values: params, rowMode: 'array' })) as unknown as Result;
  const one = async (sql: string, params: unknown[] = []) => (await q(sql, params)).rows.map((r) => r.map(String));
  const failsWith = async (sql: string, code: string, message: RegExp) => {
    await assert.rejects(c.query(sql), (err: { code?: string; message: string }) => {
      assert.equal(err.code, code, err.message);
      assert.match(err.message, message);
      return true;
    });
  };

  before(async () => {
    agent = await startAgent({ schema: SCHEMA, args: ['--pg-addr', '127.0.0.1:0'] });
    c = pgClient(agent.pg!.port, RAW);
    await c.connect();
    await c.query(
      `INSERT INTO events VALUES (1, '2026-11-03 10:15:30', 5.5), (2, '2026-10-31 23:59:59', 2), (3, '2026-11-22 05:00:00.250', 1), (4, '2026-01-31 12:00:00', 4), (5, NULL, 7)`,
    );
  });
  after(async () => {
    await c?.end();
    await agent?.dispose();
  });

  it('groups by date_trunc (typed timestamp) for every unit, its sum float8 and avg numeric', async () => {
    const r = await q(
      `SELECT date_trunc('month', created_at), sum(amount) FROM events WHERE created_at IS NOT NULL GROUP BY 1 ORDER BY 1`,
    );
    assert.deepEqual(
      r.fields.map((f) => [f.name, f.dataTypeID]),
      [
        ['date_trunc', 1114],
        ['sum', 701],
      ],
      'a sum of REALs is float8 though its first value, 4, has no fraction',
    );
    const avg = await q(`SELECT avg(id) FROM events WHERE id IN (1, 3)`);
    assert.deepEqual(
      [avg.fields[0].name, avg.fields[0].dataTypeID, String(avg.rows[0][0])],
      ['avg', 1700, '2.0000000000000000'],
    );
    assert.deepEqual(
      r.rows.map((x) => x.map(String)),
      [
        ['2026-01-01 00:00:00', '4'],
        ['2026-10-01 00:00:00', '2'],
        ['2026-11-01 00:00:00', '6.5'],
      ],
    );
    const units = [
      'second',
      'minute',
      'hour',
      'day',
      'week',
      'month',
      'quarter',
      'year',
      'decade',
      'century',
      'millennium',
      'milliseconds',
    ];
    const row = await one(
      `SELECT ${units.map((u) => `date_trunc('${u}', created_at)`).join(', ')} FROM events WHERE id = 3`,
    );
    assert.deepEqual(row[0], [
      '2026-11-22 05:00:00',
      '2026-11-22 05:00:00',
      '2026-11-22 05:00:00',
      '2026-11-22 00:00:00',
      '2026-11-16 00:00:00',
      '2026-11-01 00:00:00',
      '2026-10-01 00:00:00',
      '2026-01-01 00:00:00',
      '2020-01-01 00:00:00',
      '2001-01-01 00:00:00',
      '2001-01-01 00:00:00',
      '2026-11-22 05:00:00.25',
    ]);
    assert.deepEqual(
      await one(`SELECT date_trunc('hour', created_at) FROM events WHERE id = 5`),
      [['null']],
      'NULL in, NULL out',
    );
  });

  it('extracts fields with EXTRACT(field FROM x) and date_part', async () => {
    const fields = [
      'year',
      'month',
      'day',
      'hour',
      'minute',
      'second',
      'dow',
      'isodow',
      'doy',
      'week',
      'quarter',
      'epoch',
      'milliseconds',
    ];
    const r = await q(
      `SELECT ${fields.map((f) => `extract(${f} from created_at)`).join(', ')}, date_part('dow', created_at) FROM events WHERE id = 3`,
    );
    assert.deepEqual(r.rows[0].map(String), [
      '2026',
      '11',
      '22',
      '5',
      '0',
      '0.250000', // PostgreSQL's scale: microseconds for seconds and epochs, 3 digits for milliseconds
      '0',
      '7',
      '326',
      '47',
      '4',
      '1795323600.250000',
      '250.000',
      '0',
    ]);
    assert.deepEqual(r.fields.map((f) => [f.name, f.dataTypeID]).slice(-2), [
      ['extract', 1700],
      ['date_part', 701],
    ]);
    // Grafana's time bucket: floor(extract(epoch from x)/60)*60
    assert.deepEqual(
      await one(`SELECT floor(extract(epoch FROM created_at) / 3600) * 3600 AS "time" FROM events WHERE id = 1`),
      [['1793700000']],
    );
  });

  it('casts to date, timestamp, timestamptz and time, with ::type and CAST(... AS type)', async () => {
    const r = await q(
      `SELECT created_at::date, CAST(created_at AS date), created_at::timestamptz, created_at::time, CAST('2026-11-22T05:13:36+02:00' AS timestamp) FROM events WHERE id = 1`,
    );
    assert.deepEqual(r.rows[0].map(String), [
      '2026-11-03',
      '2026-11-03',
      '2026-11-03 10:15:30+00',
      '10:15:30',
      '2026-11-22 05:13:36',
    ]);
    assert.deepEqual(
      r.fields.map((f) => [f.name, f.dataTypeID]),
      [
        ['created_at', 1082],
        ['created_at', 1082],
        ['created_at', 1184],
        ['created_at', 1083],
        ['timestamp', 1114],
      ],
    );
    assert.deepEqual(
      await one(`SELECT '2026-12-31 23:59:59.9999999'::timestamp, '2026-11-22 05:13:36.1234567'::timestamp`),
      [['2027-01-01 00:00:00', '2026-11-22 05:13:36.123457']],
      'rounded to microseconds',
    );
    // a SQLite spelling runs as SQLite's own cast (CAST('12abc' AS INTEGER) is PostgreSQL's 22P02: pg-semantics.test.ts)
    assert.deepEqual(
      await one(`SELECT octet_length(CAST(created_at AS BLOB)) > 0, CAST('12' AS INTEGER) FROM events WHERE id = 1`),
      [['t', '12']],
    );
    // Metabase's day grouping: SQLite's own CAST(x AS date) made every row the number 2026
    assert.deepEqual(
      await one(
        `SELECT CAST(created_at AS date) AS day, count(*) FROM events WHERE created_at IS NOT NULL GROUP BY 1 ORDER BY 1`,
      ),
      [
        ['2026-01-31', '1'],
        ['2026-10-31', '1'],
        ['2026-11-03', '1'],
        ['2026-11-22', '1'],
      ],
    );
  });

  it('compares with typed literals', async () => {
    const ids = async (where: string, params: unknown[] = []) =>
      (await one(`SELECT id FROM events WHERE ${where} ORDER BY id`, params)).map((r) => r[0]).join(',');
    assert.equal(await ids(`created_at >= TIMESTAMP '2026-11-01'`), '1,3');
    assert.equal(await ids(`created_at >= timestamp with time zone '2026-11-03 12:15:30+02'`), '1,3'); // 10:15:30 UTC, row 1's own instant
    assert.equal(await ids(`created_at >= TIMESTAMP WITH TIME ZONE '2026-10-31 23:59:59.000Z'`), '1,2,3'); // Metabase's form
    assert.equal(await ids(`created_at::date = DATE '2026-10-31'`), '2');
    assert.equal(await ids(`created_at < $1::timestamp`, ['2026-11-01T00:00:00Z']), '2,4');
    const lit = await q(`SELECT DATE '2026-01-01', TIMESTAMP '2026-01-01 10:00', INTERVAL '90 minutes'`);
    assert.deepEqual(lit.rows[0].map(String), ['2026-01-01', '2026-01-01 10:00:00', '01:30:00']);
    assert.deepEqual(
      lit.fields.map((f) => [f.name, f.dataTypeID]),
      [
        ['date', 1082],
        ['timestamp', 1114],
        ['interval', 1186],
      ],
    );
  });

  it('adds and subtracts intervals by the calendar', async () => {
    const r = await one(
      `SELECT created_at + interval '1 month', created_at - '2 hours 30 minutes'::interval, created_at + INTERVAL '3' DAY, created_at + interval '1 year 2 mons', created_at - interval '1 day ago' FROM events WHERE id = 4`,
    );
    assert.deepEqual(r[0], [
      '2026-02-28 12:00:00',
      '2026-01-31 09:30:00',
      '2026-02-03 12:00:00',
      '2027-03-31 12:00:00',
      '2026-02-01 12:00:00',
    ]);
    // relative to now, as dashboards filter: rows from the last 30 days
    const day = 86_400_000;
    const ts = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 19);
    await c.query(`INSERT INTO events VALUES (10, $1, 1), (11, $2, 1)`, [
      ts(Date.now() - day),
      ts(Date.now() - 40 * day),
    ]);
    assert.deepEqual(await one(`SELECT id FROM events WHERE id >= 10 AND created_at > now() - interval '30 days'`), [
      ['10'],
    ]);
    assert.deepEqual(
      await one(
        `SELECT id FROM events WHERE id >= 10 AND created_at BETWEEN now() - INTERVAL '41 day' AND now() + INTERVAL '-39 day'`,
      ),
      [['11']],
    );
  });

  it("answers Metabase's relative-date filter and week grouping verbatim", async () => {
    const filter = `SELECT "public"."events"."id" AS "id" FROM "public"."events" WHERE ("public"."events"."created_at" >= CAST((CAST(now() AS timestamp) + INTERVAL '-30 day') AS date)) AND ("public"."events"."created_at" < CAST(CAST(now() AS timestamp) AS date)) AND "public"."events"."id" >= 10 ORDER BY "public"."events"."id" ASC LIMIT 1048575`;
    assert.deepEqual(await one(filter), [['10']], 'yesterday is in the last 30 days, 40 days ago is not');
    const weeks = `SELECT (date_trunc('week', ("public"."events"."created_at" + INTERVAL '1 day')) + INTERVAL '-1 day') AS "created_at", count(*) AS "count" FROM "public"."events" WHERE "public"."events"."id" < 10 AND "public"."events"."created_at" IS NOT NULL GROUP BY 1 ORDER BY 1 ASC`;
    assert.deepEqual(
      await one(weeks),
      [
        ['2026-01-25 00:00:00', '1'],
        ['2026-10-25 00:00:00', '1'],
        ['2026-11-01 00:00:00', '1'],
        ['2026-11-22 00:00:00', '1'],
      ],
      'Sunday-based weeks',
    );
    const [[today, local, later]] = await one(
      `SELECT current_date, localtimestamp, (now() + interval '1 day')::date > current_date`,
    );
    assert.equal(today, new Date().toISOString().slice(0, 10));
    // PostgreSQL prints the fraction without its trailing zeros, and none for a whole second
    assert.match(local, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d{0,5}[1-9])?$/);
    assert.equal(later, 't');
    assert.deepEqual(
      await one(
        `SELECT created_at AT TIME ZONE 'UTC', date_trunc('day', created_at AT TIME ZONE 'utc') FROM events WHERE id = 1`,
      ),
      // a timestamp read in UTC is a timestamp with time zone, as in PostgreSQL
      [['2026-11-03 10:15:30+00', '2026-11-03 00:00:00+00']],
    );
    assert.deepEqual(
      await one(`SELECT - interval '1 year 2 mons', created_at + - interval '1 day' FROM events WHERE id = 1`),
      [['-1 years -2 mons', '2026-11-02 10:15:30']],
      'a unary minus negates the interval',
    );
  });

  it('turns epoch seconds into timestamps with to_timestamp', async () => {
    const r = await q(`SELECT to_timestamp(0), to_timestamp(1795323600.25), to_timestamp(1795323600)::date`);
    assert.deepEqual(r.rows[0].map(String), ['1970-01-01 00:00:00+00', '2026-11-22 05:00:00.25+00', '2026-11-22']);
    assert.equal(r.fields[0].dataTypeID, 1184);
  });

  it('writes with date functions and casts', async () => {
    const r = await one(
      `INSERT INTO events VALUES (20, date_trunc('hour', '2026-11-22 07:45:10'::timestamp) + interval '15 minutes', 1) RETURNING created_at`,
    );
    assert.deepEqual(r, [['2026-11-22 07:15:00']]);
    assert.deepEqual(
      await one(`UPDATE events SET created_at = created_at::date WHERE id = 20 RETURNING created_at`),
      [['2026-11-22 00:00:00']],
      'a date in a timestamp column reads as midnight',
    );
  });

  it('answers bad dates, units and intervals with PostgreSQL SQLSTATEs and goes on', async () => {
    await failsWith(`SELECT 'banana'::date`, '22007', /invalid input syntax for type date: "banana"/);
    await failsWith(
      `SELECT created_at FROM events WHERE created_at > 'soon'::timestamp`,
      '22007',
      /invalid input syntax for type timestamp: "soon"/,
    );
    await failsWith(`SELECT DATE '2026-02-30'`, '22008', /date\/time field value out of range: "2026-02-30"/);
    await failsWith(
      `SELECT date_trunc('fortnight', created_at) FROM events`,
      '22023',
      /unit "fortnight" not recognized for type/,
    );
    await failsWith(`SELECT extract(eon FROM created_at) FROM events`, '22023', /unit "eon" not recognized for type/);
    await failsWith(
      `SELECT date_part('year', amount) FROM events`,
      '22007',
      /expected a timestamp .*got the number 5\.5.*to_timestamp/,
    );
    await failsWith(
      `SELECT created_at + interval 'a while' FROM events`,
      '22007',
      /invalid input syntax for type interval: "a while"/,
    );
    await failsWith(`SELECT to_timestamp('noon')`, '22P02', /to_timestamp: expected epoch seconds/);
    // a statement without FROM that SQLite cannot run is an error, not an empty answer
    await failsWith(`SELECT 1 +`, '42601', /^syntax error at end of input$/); // PostgreSQL's words
    await failsWith(
      `SELECT no_such_function_here(1)`,
      '42883',
      /^function no_such_function_here\(integer\) does not exist$/, // PostgreSQL's words
    );
    await failsWith(
      `INSERT INTO events VALUES (30, 'garbage'::timestamp, 1)`,
      '22007',
      /invalid input syntax for type timestamp: "garbage"/,
    );
    assert.deepEqual(
      await one('SELECT count(*) FROM events WHERE id = 30'),
      [['0']],
      'the failed insert wrote nothing',
    );
    assert.deepEqual(
      await one(`SELECT date_trunc('day', created_at) FROM events WHERE id = 1`),
      [['2026-11-03 00:00:00']],
      'the connection goes on',
    );
  });

  it('prints stored dates as PostgreSQL would, and stores date parameters as UTC text', async () => {
    // a JavaScript ISO string written over HTTP: psycopg2 read its '30.000Z' as 4200 microseconds
    const w = await postJson(agent.http, '/v1/transactions', [
      `INSERT INTO events VALUES (40, '2026-11-03T10:15:30.000Z', 1), (41, 'not a date', 1)`,
    ]);
    assert.equal(w.status, 200, w.text);
    assert.deepEqual(
      await one('SELECT created_at FROM events WHERE id IN (40, 41) ORDER BY id'),
      [['2026-11-03 10:15:30'], ['not a date']],
      'text that is no date goes as it is',
    );
    const py = spawnSync(
      '/usr/bin/python3',
      [
        '-c',
        `
import psycopg2
c = psycopg2.connect(host='127.0.0.1', port=${agent.pg!.port}, user='py', dbname='db')
cur = c.cursor()
cur.execute('SELECT created_at FROM events WHERE id = 40')
print(repr(cur.fetchone()[0]))
`,
      ],
      { encoding: 'utf8' },
    );
    assert.equal(py.status, 0, py.stderr);
    assert.equal(py.stdout.trim(), 'datetime.datetime(2026, 11, 3, 10, 15, 30)');
    // node-postgres sends a Date as local time with an offset; it is stored, and compared, as UTC text
    const when = new Date(Date.UTC(2026, 10, 3, 10, 15, 30));
    await c.query('INSERT INTO events (id, created_at, amount) VALUES ($1, $2, 1)', [42, when]);
    // row 40 keeps its ISO spelling in the file, and comparisons are of text: only 42 is equal
    assert.deepEqual(await one('SELECT id FROM events WHERE created_at = $1 AND id >= 40 ORDER BY id', [when]), [
      ['42'],
    ]);
    const stored = await postJson(agent.http, '/v1/queries', 'SELECT created_at FROM events WHERE id = 42');
    assert.deepEqual((stored.lines[1] as { row: [number, unknown[]] }).row[1], ['2026-11-03 10:15:30']);
  });

  it('sends and takes dates and timestamps in binary (pgjdbc asks for binary after five executions)', async () => {
    // microseconds since 2000-01-01 whose bytes all survive pg-protocol's UTF-8 decoding of cells
    const micros = 0x0001020304050607n;
    const ts = Buffer.alloc(8);
    ts.writeBigInt64BE(micros);
    const day = Buffer.alloc(4);
    day.writeInt32BE(1); // 2000-01-02
    const ms = Date.UTC(2000, 0, 1) + Number(micros / 1000n);
    const text = `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')}.${String(ms % 1000).padStart(3, '0')}${String(micros % 1000n).padStart(3, '0')}`;
    const raw = await RawPg.open(agent.pg!.port);
    raw.send(
      Buffer.concat([
        serialize.parse({
          text: 'SELECT $1::timestamp, $2::date, $3::timestamp, $3::timestamp::text',
          types: [1114, 1082, 25],
        }),
        serialize.bind({ values: [ts, day, Buffer.from(text)], binary: true, valueMapper: (v) => v }),
        serialize.describe({ type: 'P' }),
        serialize.execute({}),
        serialize.sync(),
      ]),
    );
    const msgs = await raw.until('readyForQuery');
    raw.end();
    assert.deepEqual(
      (msgs.find((m) => m.name === 'rowDescription')!.fields as { format: string; dataTypeID: number }[]).map((f) => [
        f.format,
        f.dataTypeID,
      ]),
      [
        ['binary', 1114],
        ['binary', 1082],
        ['binary', 1114],
        ['binary', 25],
      ],
    );
    const back = (msgs.find((m) => m.name === 'dataRow')!.fields as string[]).map((x) => Buffer.from(x, 'binary'));
    assert.equal(back[0].readBigInt64BE(0), micros, 'a binary timestamp parameter comes back to the microsecond');
    assert.equal(back[1].readInt32BE(0), 1);
    assert.equal(back[2].readBigInt64BE(0), micros, 'a text timestamp goes out in binary as PostgreSQL encodes it');
    assert.equal(back[3].toString('utf8'), text);
  });

  it('gives HTTP queries date_trunc and date_part too (SQLite SQL, no dialect)', async () => {
    const r = await postJson(
      agent.http,
      '/v1/queries',
      `SELECT date_trunc('day', created_at), date_part('doy', created_at) FROM events WHERE id = 2`,
    );
    assert.equal(r.status, 200, r.text);
    assert.deepEqual((r.lines[1] as { row: [number, unknown[]] }).row[1], ['2026-10-31 00:00:00', 304]);
    const bad = await postJson(agent.http, '/v1/queries', `SELECT date_trunc('fortnight', created_at) FROM events`);
    assert.equal(bad.status, 400, bad.text);
    assert.match((bad.json as { error: string }).error, /unit "fortnight" not recognized for type/);
  });
});
