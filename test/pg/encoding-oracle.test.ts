// Text from clients that is no UTF-8, against PostgreSQL 15: 22021 naming the bytes, in a query, a
// Parse, a text parameter and COPY data, and nothing stored (the bytes were decoded to U+FFFD and
// stored so: a LATIN1 client's `é` became the replacement character, replicated everywhere). A
// client that says its encoding (client_encoding LATIN1, WIN1252...) has its text converted both
// ways, as PostgreSQL converts it (it was taken and not followed: its `é` was 22021).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serialize } from 'pg-protocol';
import { type CatalogPair, startCatalogPair } from '../helpers/catalog-pair';
import { pgClient } from '../helpers/pg';
import { WireClient } from '../helpers/pg-wire';

const SCHEMA = 'CREATE TABLE w (id BIGINT NOT NULL PRIMARY KEY, name TEXT);';

/** A Parse message of raw statement bytes (pg-protocol's takes a string). */
function parseBytes(sql: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from([0]), sql, Buffer.from([0, 0, 0])]);
  const len = Buffer.alloc(4);
  len.writeInt32BE(body.length + 4);
  return Buffer.concat([Buffer.from('P'), len, body]);
}

/** A Query message of raw statement bytes (a client's encoding's, not pg-protocol's UTF-8). */
function queryBytes(sql: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeInt32BE(sql.length + 5);
  return Buffer.concat([Buffer.from('Q'), len, sql, Buffer.from([0])]);
}

describe('text that is no UTF-8, against PostgreSQL 15', function () {
  this.timeout(60_000);
  let pair: CatalogPair;
  let dir: string;
  before(async () => {
    pair = await startCatalogPair({ schemas: { patina: SCHEMA, postgres: SCHEMA } });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'patina-encoding-'));
  });
  after(async () => {
    await pair?.dispose();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** psql (client_encoding `encoding`) running a file of raw bytes, its output and errors as the bytes it prints. */
  const scriptBytes = (port: number, bytes: Buffer, encoding: string) => {
    const file = path.join(dir, 'script.sql');
    fs.writeFileSync(file, bytes);
    const r = spawnSync(
      'psql',
      ['-X', '-A', '-t', '-h', '127.0.0.1', '-p', String(port), '-U', 'tester', '-d', 'db', '-f', file],
      { env: { ...process.env, PGCLIENTENCODING: encoding } },
    );
    return Buffer.concat([r.stdout, r.stderr]);
  };
  /** psql with UTF-8 running a file of raw bytes, its output and errors as the user sees them. */
  const script = (port: number, bytes: Buffer) => scriptBytes(port, bytes, 'UTF8').toString('utf8');

  it('a query or COPY data with bytes that are no UTF-8 is 22021 naming them; the transaction aborts; nothing is stored', () => {
    const latin1 = (s: string) => Buffer.from(s, 'latin1');
    const bytes = Buffer.concat([
      latin1("SELECT 'a"),
      Buffer.from([0x80]),
      latin1("b';\nSELECT 1;\nBEGIN;\nINSERT INTO w VALUES (1, 'caf"),
      Buffer.from([0xe9]),
      latin1("');\nSELECT 2;\nROLLBACK;\n\\copy w (id, name) from stdin\n2\tok\n3\tcaf"),
      Buffer.from([0xe9]),
      latin1('\n\\.\nSELECT count(*) FROM w;\n'),
    ]);
    const patina = script(pair.patinaPort, bytes);
    assert.equal(patina, script(pair.postgresPort, bytes));
    assert.match(patina, /ERROR: {2}invalid byte sequence for encoding "UTF8": 0x80\n/);
    assert.match(patina, /ERROR: {2}invalid byte sequence for encoding "UTF8": 0xe9 0x27 0x29\n/);
    assert.match(patina, /CONTEXT: {2}COPY w, line 2\n$/);
    assert.match(patina, /^1\nBEGIN\nROLLBACK\n0\n/); // the COPY stored nothing, its first line neither
  });

  it('a Parse or a text parameter with such bytes is 22021 too, and the session goes on', async () => {
    const run = async (port: number) => {
      const c = await WireClient.open(port, { user: 'tester', database: 'db' });
      try {
        const parse = await c.exchange(
          parseBytes(Buffer.concat([Buffer.from("SELECT 'caf", 'latin1'), Buffer.from([0xe9, 0x27])])),
          serialize.sync(),
        );
        const param = await c.extended('INSERT INTO w (id, name) VALUES (9, $1)', {
          types: [25],
          values: [Buffer.from([0x63, 0x61, 0x66, 0xe9])],
          formats: [0],
        });
        const after = await c.extended('SELECT count(*) FROM w', { resultFormats: [0] });
        return [parse.errors, param.errors, after.rows].map((x) => JSON.stringify(x));
      } finally {
        c.end();
      }
    };
    const patina = await run(pair.patinaPort);
    assert.deepEqual(patina, await run(pair.postgresPort));
    assert.match(patina[0], /22021/);
    assert.match(patina[1], /22021/);
  });

  it('psql with PGCLIENTENCODING LATIN1 or WIN1252: its é, ß and € stored and read back in its encoding, COPY both ways, 22P05 for a character it has none of', () => {
    const psqlIn = (port: number, encoding: string, text: string) =>
      scriptBytes(port, Buffer.from(text, 'latin1'), encoding);
    // (written by a UTF-8 client: a € LATIN1 has no byte for)
    const euro = 'INSERT INTO w VALUES (20, $$5 \u20ac$$);\n';
    for (const port of [pair.patinaPort, pair.postgresPort]) scriptBytes(port, Buffer.from(euro, 'utf8'), 'UTF8');
    // the script's bytes are LATIN1's and WIN1252's: é is 0xe9, ß 0xdf, and 0x80 is WIN1252's €
    const lines = [
      'SHOW client_encoding;',
      "INSERT INTO w VALUES (21, 'caf\xe9'), (22, 'stra\xdfe');",
      'SELECT name, length(name), octet_length(name) FROM w WHERE id IN (21, 22) ORDER BY id;',
      'SELECT \'\xe9\' AS "\xe9t\xe9";',
      '\\copy w (id, name) from stdin',
      '23\t\xe9t\xe9 \xdf',
      '\\.',
      '\\copy w (id, name) from stdin csv',
      '24,"na\xefve"',
      '\\.',
      '\\copy (SELECT id, name FROM w WHERE id BETWEEN 21 AND 24 ORDER BY id) to stdout csv',
      'SELECT name FROM w WHERE id = 20;',
      '\\copy (SELECT name FROM w WHERE id >= 20 ORDER BY id) to stdout',
      "SELECT '\x80', ascii('\x80');",
      "SELECT 'x\x81y';",
      'DELETE FROM w WHERE id BETWEEN 21 AND 24;',
    ];
    const text = `${lines.join('\n')}\n`;
    for (const encoding of ['LATIN1', 'WIN1252']) {
      const patina = psqlIn(pair.patinaPort, encoding, text);
      assert.deepEqual(patina, psqlIn(pair.postgresPort, encoding, text), encoding);
      const out = patina.toString('latin1');
      assert.match(out, new RegExp(`^${encoding}\\nINSERT 0 2\\ncaf\\xe9\\|4\\|5\\nstra\\xdfe\\|6\\|7\\n\\xe9\\n`));
      assert.match(out, /\n21,caf\xe9\n22,stra\xdfe\n23,\xe9t\xe9 \xdf\n24,na\xefve\n/);
      if (encoding === 'LATIN1') {
        assert.match(
          out,
          /ERROR: {2}character with byte sequence 0xe2 0x82 0xac in encoding "UTF8" has no equivalent in encoding "LATIN1"\n/,
        );
        assert.match(out, /\n\x80\|128\n/);
      } else {
        assert.match(out, /\n5 \x80\n/);
        assert.match(out, /\n\x80\|8364\n/);
        assert.match(
          out,
          /ERROR: {2}character with byte sequence 0x81 in encoding "WIN1252" has no equivalent in encoding "UTF8"\n/,
        );
      }
    }
  });

  it('client_encoding by its names and at login, its ParameterStatus, set_config, rows that fail midway, a text parameter in LATIN1', async () => {
    /** A message as the test compares it: an error's fields but PostgreSQL's source file, line and routine. */
    const shown = (m: { type: string; body: Buffer }) => {
      if (m.type !== 'E' && m.type !== 'N') return `${m.type}:${m.body.toString('latin1')}`;
      const fields = m.body
        .toString('latin1')
        .split('\0')
        .filter((f) => f !== '' && !'FLR'.includes(f[0]));
      return `${m.type}:${fields.join('|')}`;
    };
    const run = async (port: number) => {
      const out: string[] = [];
      const c = await WireClient.open(port, { user: 'tester', database: 'db' });
      const seen = (r: { messages: { type: string; body: Buffer }[] }) => out.push(r.messages.map(shown).join(' '));
      try {
        const q = async (sql: string) => seen(await c.exchange(serialize.query(sql)));
        for (const name of [
          'latin1',
          "'ISO-8859-1'",
          "'windows-1251'",
          'win1250',
          'koi8',
          "'iso_8859_5'",
          'sql_ascii',
          'unicode',
          "'Latin 1'",
        ])
          await q(`SET client_encoding = ${name}; SHOW client_encoding`);
        await q('SET client_encoding = latin1'); // (no ParameterStatus: unchanged)
        await q("SET client_encoding = 'foo'");
        await q("SET client_encoding = 'mule_internal'");
        const raw = async (sql: string) => seen(await c.exchange(queryBytes(Buffer.from(sql, 'latin1'))));
        await q("SET NAMES 'WIN1252'");
        // (WIN1252's € is 0x80; 0x81 is none of its characters)
        await raw("SELECT '\x80', ascii('\x80'), '\xe9', pg_client_encoding(), current_setting('client_encoding')");
        await raw("SELECT 'x\x81'");
        // (UTF-8's bytes of é read in WIN1252: two characters, sent back as they came)
        await q("SELECT '\u00e9'");
        await raw("BEGIN; SET LOCAL client_encoding = 'latin1'; SELECT '\xe9', ascii('\xe9')");
        await q('ROLLBACK');
        await q("SELECT set_config('client_encoding', 'latin9', false), '\u00e9'");
        await q('RESET client_encoding');
        await q("SET client_encoding = 'LATIN1'; SELECT '\u00e9'");
        await q("SELECT x FROM (VALUES ('a'), ('b'), (chr(8364)), ('c')) v(x)");
        await q('SELECT 1 AS "\u00e2\u0082\u00ac", 2 AS "\u00e9"');
        const param = [Buffer.from([0x63, 0xe9])];
        seen(
          await c.extended('SELECT $1::text AS v, length($1)', {
            types: [25],
            values: param,
            formats: [0],
            resultFormats: [0],
          }),
        );
        // a statement named by LATIN1's é (byte 0xe9): after SET client_encoding WIN1251 the same
        // byte names й, another statement (26000), and é again after LATIN1
        const z = Buffer.from([0]);
        const msg = (type: string, ...parts: Buffer[]) => {
          const len = Buffer.alloc(4);
          len.writeInt32BE(4 + parts.reduce((n, b) => n + b.length, 0));
          return Buffer.concat([Buffer.from(type), len, ...parts]);
        };
        const name = Buffer.from([0xe9]);
        const run = Buffer.concat([
          msg('B', z, name, z, Buffer.alloc(6)),
          msg('E', z, Buffer.alloc(4)),
          serialize.sync(),
        ]);
        seen(await c.exchange(Buffer.concat([msg('P', name, z, Buffer.from('SELECT 1'), z, Buffer.alloc(2)), run])));
        await q("SET client_encoding = 'WIN1251'");
        seen(await c.exchange(run));
        await q("SET client_encoding = 'LATIN1'");
        seen(await c.exchange(run));
        await q('DISCARD ALL');
        await q('SHOW client_encoding');
      } finally {
        c.end();
      }
      // at login: PGCLIENTENCODING, and PGOPTIONS' -c (the first wins, as it comes later in the startup packet)
      const login = (env: Record<string, string>) => {
        const r = spawnSync(
          'psql',
          [
            '-X',
            '-At',
            '-h',
            '127.0.0.1',
            '-p',
            String(port),
            '-U',
            'tester',
            '-d',
            'db',
            '-c',
            'SHOW client_encoding',
          ],
          {
            encoding: 'utf8',
            env: { ...process.env, PGCLIENTENCODING: 'UTF8', ...env },
          },
        );
        return `${r.stdout}${r.stderr.replace(/port \d+/, 'port N')}`;
      };
      out.push(login({ PGCLIENTENCODING: 'latin9' }), login({ PGCLIENTENCODING: 'foo' }));
      out.push(
        login({ PGOPTIONS: '-c client_encoding=foo' }),
        login({ PGOPTIONS: '-c client_encoding=win1251', PGCLIENTENCODING: 'koi8' }),
      );
      // node-postgres sends client_encoding UTF8 itself, after its options: its -c is overridden
      const client = pgClient(port, { options: '-c client_encoding=WIN1252' });
      await client.connect();
      try {
        out.push(JSON.stringify((await client.query("SELECT current_setting('client_encoding') AS e")).rows));
      } finally {
        await client.end();
      }
      return out;
    };
    const patina = await run(pair.patinaPort);
    assert.deepEqual(patina, await run(pair.postgresPort));
    const all = patina.join('\n');
    assert.match(all, /S:client_encoding\0WIN1252\0/);
    assert.match(all, /D:\0\x05\0\0\0\x01\x80\0\0\0\x048364\0\0\0\x01\xe9\0\0\0\x07WIN1252/);
    assert.match(all, /Mcharacter with byte sequence 0x81 in encoding "WIN1252" has no equivalent in encoding "UTF8"/);
    assert.match(all, /D:\0\x02\0\0\0\x01\xe9\0\0\0\x03233 C:SELECT 1\0 S:client_encoding\0LATIN1\0 Z:T/);
    assert.match(
      all,
      /D:\0\x01\0\0\0\x01b E:SERROR\|VERROR\|C22P05\|Mcharacter with byte sequence 0xe2 0x82 0xac in encoding "UTF8" has no equivalent in encoding "LATIN1"/,
    );
    assert.match(all, /FATAL: {2}invalid value for parameter "client_encoding": "foo"/);
    assert.match(all, /\nKOI8R\n/);
  });

  it("client_encoding beside DateStyle, IntervalStyle, TimeZone and application_name: one ParameterStatus for each that changed, in PostgreSQL's order, before ReadyForQuery; LATIN1 text with SQL-style dates", async () => {
    const shown = (m: { type: string; body: Buffer }) =>
      'SCDZ'.includes(m.type) ? `${m.type}:${m.body.toString('latin1')}` : m.type;
    const run = async (port: number) => {
      const out: string[] = [];
      const c = await WireClient.open(port, { user: 'tester', database: 'db' });
      const q = async (sql: string) =>
        out.push((await c.exchange(queryBytes(Buffer.from(sql, 'latin1')))).messages.map(shown).join(' '));
      try {
        await q('SET client_encoding = latin1');
        await q(
          "SET TimeZone = 'Europe/Paris'; SET application_name = 'caf\xe9'; SET DateStyle = 'sql, dmy'; SELECT '\xe9', '01/02/2024'::date, timestamptz '2024-02-01 10:00:00+00', current_setting('application_name')",
        );
        await q("SET DateStyle = German; SET DateStyle = 'SQL, DMY'"); // (back to the value reported: none)
        await q(
          "BEGIN; SET LOCAL DateStyle = Postgres; SET LOCAL client_encoding = win1252; SET LOCAL IntervalStyle = iso_8601; SELECT '02.03.2024'::date, interval '1 day'",
        );
        await q('ROLLBACK');
        await q("SELECT set_config('datestyle', 'ymd', false), set_config('client_encoding', 'latin9', false), '\xe9'");
        await q('RESET ALL');
        await q("SET DateStyle = 'German'; SET NAMES 'WIN1252'; SET TimeZone = 'Asia/Tokyo'");
        await q('DISCARD ALL');
      } finally {
        c.end();
      }
      return out;
    };
    const patina = await run(pair.patinaPort);
    assert.deepEqual(patina, await run(pair.postgresPort));
    assert.match(
      patina[1],
      /\xe9.*01\/02\/2024.*01\/02\/2024 11:00:00 CET.*caf\?\? C:SELECT 1\0 S:application_name\0caf\?\?\0 S:DateStyle\0SQL, DMY\0 S:TimeZone\0Europe\/Paris\0 Z:I$/s,
    );
    assert.match(patina[2], /^C:SET\0 C:SET\0 Z:I$/);
    assert.match(patina[5], /S:client_encoding\0LATIN9\0 S:DateStyle\0SQL, YMD\0 Z:I$/);
  });
});
