// Text from clients that is no UTF-8, against PostgreSQL 15: 22021 naming the bytes, in a query, a
// Parse, a text parameter and COPY data, and nothing stored (the bytes were decoded to U+FFFD and
// stored so: a LATIN1 client's `é` became the replacement character, replicated everywhere). A
// client that says its encoding (client_encoding LATIN1, WIN1252...) has its text converted both
// ways, as PostgreSQL converts it (it was taken and not followed: its `é` was 22021); the
// multi-byte ones (SJIS, EUC_JP, BIG5, GBK...) and LATIN10 too (they were refused with 0A000).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import iconv from 'iconv-lite';
import { serialize } from 'pg-protocol';
import { type CatalogPair, startCatalogPair } from '../helpers/catalog-pair';
import { pgClient, psql } from '../helpers/pg';
import { bindMessage, WireClient } from '../helpers/pg-wire';

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

  /** Text in client encoding `encoding` (iconv-lite's bytes: the answers are PostgreSQL's to compare). */
  const inEncoding = (encoding: string, text: string) =>
    iconv.encode(
      text,
      { SJIS: 'shiftjis', EUC_JP: 'eucjp', UHC: 'cp949', GBK: 'cp936', BIG5: 'cp950' }[encoding] ?? encoding,
    );

  it('psql with PGCLIENTENCODING SJIS, EUC_JP, EUC_CN, EUC_KR, UHC, GBK, BIG5, GB18030, LATIN10: kana, kanji, hangul, hanzi and a backslash second byte stored and read back in its encoding, COPY both ways, 22P05 and 22021', () => {
    // (written by a UTF-8 client: a character that SJIS and the others but GB18030 have no bytes for)
    const tibetan = 'INSERT INTO w VALUES (40, $$om \u0f00$$);\n';
    for (const port of [pair.patinaPort, pair.postgresPort]) scriptBytes(port, Buffer.from(tibetan, 'utf8'), 'UTF8');
    // each encoding's characters; 表, ソ and 能 are 0x95 0x5c, 0x83 0x5c and 0x94 0x5c in SJIS, 許 and 功 0xb3 0x5c and 0xa5 0x5c in BIG5
    const b = (...bytes: number[]) => Buffer.from(bytes);
    // [encoding, text, bytes that are no character of it (22021), bytes of no character (22P05), and
    // where PostgreSQL's tables differ from iconv-lite's: characters written and bytes read otherwise]
    const samples: [string, string, Buffer, Buffer, string, Buffer][] = [
      ['SJIS', 'あア漢字表ソ能ｱ', b(0x82, 0x20), b(0xf0, 0x40), '¢¥\u2016\u301c', b(0x85, 0x40)],
      ['EUC_JP', 'あア漢字表ソ能ｱ', b(0xa4, 0x20), b(0xa9, 0xa1), '\u2116\u2170', b(0x8f, 0xa2, 0xc3)],
      ['EUC_CN', '中文汉字', b(0xd6, 0x41), b(0xaa, 0xa1), '\u30fb\u2015', b(0xa1, 0xa4)],
      ['EUC_KR', '한국어漢字', b(0xc7, 0x41), b(0xc9, 0xa1), '\u327e', b(0xa2, 0xe8)],
      ['UHC', '한국어똠', b(0x80, 0x41), b(0xc9, 0x41), '\ue000', b(0xc9, 0xa1)],
      ['GBK', '中文汉字丂', b(0xff), b(0xa2, 0xa0), '€', b(0x80, 0x41)],
      ['BIG5', '中文漢字許功', b(0xa4), b(0x80, 0x41), '¢¥\u0401', b(0xa1, 0x45)],
      ['GB18030', '中文é😀', b(0x81, 0x20), b(0x84, 0x32, 0x81, 0x30), '\u1e3f\ue5e5', b(0x81, 0x35, 0xf4, 0x37)],
      ['LATIN10', 'ȘșȚț€', b(), b(), 'Ș', b(0xaa)],
    ];
    const differ = samples.map(([, , , , chars], k) => `INSERT INTO w VALUES (${60 + k}, '${chars}');\n`).join('');
    for (const port of [pair.patinaPort, pair.postgresPort]) scriptBytes(port, Buffer.from(differ, 'utf8'), 'UTF8');
    for (const [k, [encoding, text, invalid, unmapped, , differs]] of samples.entries()) {
      const t = (s: string) => inEncoding(encoding, s);
      const bytes = Buffer.concat([
        t(
          [
            'SHOW client_encoding;',
            `INSERT INTO w VALUES (41, '${text}\\~');`,
            'SELECT name, length(name), octet_length(name) FROM w WHERE id = 41;',
            `SELECT '${text}' AS "${text}", E'${text}', 'a\\b~';`,
            '\\copy w (id, name) from stdin',
            `42\t${text}`,
            '\\.',
            '\\copy w (id, name) from stdin csv',
            `43,"${text}"`,
            '\\.',
            '\\copy (SELECT id, name FROM w WHERE id BETWEEN 41 AND 43 ORDER BY id) to stdout csv',
            'SELECT name FROM w WHERE id = 40;',
            `SELECT * FROM "${text}";`,
            "SELECT 'x",
          ].join('\n'),
        ),
        invalid,
        t("y';\nSELECT 'x"),
        unmapped,
        t(`y';\nSELECT name FROM w WHERE id = ${60 + k};\nSELECT 'x`),
        differs,
        t("y';\nDELETE FROM w WHERE id BETWEEN 41 AND 43;\n"),
      ]);
      const patina = scriptBytes(pair.patinaPort, bytes, encoding);
      assert.deepEqual(patina, scriptBytes(pair.postgresPort, bytes, encoding), encoding);
      const out = patina.toString('latin1');
      const latin1 = (s: string) =>
        t(s)
          .toString('latin1')
          .replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
      assert.match(
        out,
        new RegExp(`^${encoding}\\nINSERT 0 1\\n${latin1(text)}\\\\~\\|${[...text].length + 2}\\|`),
        encoding,
      );
      assert.match(
        out,
        new RegExp(`\\n41,${latin1(text)}\\\\~\\n42,${latin1(text)}\\n43,${latin1(text)}\\n`),
        encoding,
      );
      if (encoding === 'SJIS') {
        assert.ok(out.includes('\x95\\\x83\\\x94\\\xb1|'), out); // (表ソ能ｱ as they came)
        assert.match(
          out,
          /ERROR: {2}character with byte sequence 0xe0 0xbc 0x80 in encoding "UTF8" has no equivalent in encoding "SJIS"\n/,
        );
        assert.match(out, /ERROR: {2}invalid byte sequence for encoding "SJIS": 0x82 0x20\n/);
        assert.match(
          out,
          /ERROR: {2}character with byte sequence 0xf0 0x40 in encoding "SJIS" has no equivalent in encoding "UTF8"\n/,
        );
        assert.match(out, /\n\x81\x91\\\x81\x61\x81\x60\n/); // (¢¥‖〜: ¥ is SJIS's backslash, 〜 its 0x8160)
        assert.match(out, /ERROR: {2}relation "\x82\xa0/);
      }
    }
  });

  it('SJIS, BIG5 and GB18030 over the wire: raw Query, Parse and text parameters, column names and errors in the encoding, a character cut between two CopyData messages, 22021 for a cut-off character', async () => {
    /** A message as the test compares it: an error's fields but PostgreSQL's source file, line and routine. */
    const shown = (m: { type: string; body: Buffer }) => {
      if (m.type !== 'E' && m.type !== 'N') return `${m.type}:${m.body.toString('hex')}`;
      const fields = m.body
        .toString('latin1')
        .split('\0')
        .filter((f) => f !== '' && !'FLR'.includes(f[0]));
      return `${m.type}:${fields.join('|')}`;
    };
    const copyData = (b: Buffer) => {
      const len = Buffer.alloc(4);
      len.writeInt32BE(b.length + 4);
      return Buffer.concat([Buffer.from('d'), len, b]);
    };
    const copyDone = Buffer.from([0x63, 0, 0, 0, 4]);
    /** A row (id bigint, name text) of COPY's binary format, and its header. */
    const binaryRow = (id: number, name: Buffer) => {
      const row = Buffer.alloc(2 + 4 + 8 + 4);
      row.writeInt16BE(2, 0);
      row.writeInt32BE(8, 2);
      row.writeBigInt64BE(BigInt(id), 6);
      row.writeInt32BE(name.length, 14);
      return Buffer.concat([row, name]);
    };
    const binaryHeader = Buffer.concat([Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.alloc(8)]);
    const run = async (port: number) => {
      const out: string[] = [];
      const c = await WireClient.open(port, { user: 'tester', database: 'db' });
      const seen = (r: { messages: { type: string; body: Buffer }[] }) => out.push(r.messages.map(shown).join(' '));
      try {
        for (const [encoding, text] of [
          ['SJIS', '表ソ能'],
          ['BIG5', '許功蓋'],
          ['GB18030', '表é😀'],
        ]) {
          const t = (s: string) => inEncoding(encoding, s);
          const raw = async (...parts: (string | Buffer)[]) =>
            seen(await c.exchange(queryBytes(Buffer.concat(parts.map((p) => (typeof p === 'string' ? t(p) : p))))));
          await raw(`SET client_encoding = '${encoding}'`);
          await raw(`SELECT E'${text}', '${text}\\' AS "${text}", length(E'${text}')`);
          await raw(`SELECT * FROM "${text}"`);
          await raw("SELECT 'a", Buffer.from([0x82, 0x20]), "'");
          await raw('SELECT 1 --', Buffer.from([0x95]));
          const parse = await c.exchange(
            parseBytes(t(`SELECT '${text}' AS "${text}", $1::text, length($1)`)),
            serialize.sync(),
          );
          seen(parse);
          seen(
            await c.exchange(
              parseBytes(t(`SELECT '${text}', $1::text, length($1)`)),
              bindMessage([t(`x${text}`)], [0], [0]),
              serialize.describe({ type: 'P' }),
              serialize.execute({}),
              serialize.sync(),
            ),
          );
          seen(
            await c.exchange(
              parseBytes(t('SELECT $1::text')),
              bindMessage([Buffer.from([0x41, 0x82])], [0], [0]),
              serialize.execute({}),
              serialize.sync(),
            ),
          );
          // binary-format text (text, varchar, name, jsonb after its version byte) is in the client's encoding too
          const binary = [t(text), Buffer.concat([Buffer.from([1]), t(`{"k": "${text}"}`)])];
          seen(
            await c.exchange(
              serialize.parse({
                text: 'SELECT $1::text AS a, $1::varchar AS b, $2::jsonb AS c, $1::name AS d',
                types: [25, 3802],
              }),
              bindMessage(binary, [1], [1]),
              serialize.describe({ type: 'P' }),
              serialize.execute({}),
              serialize.sync(),
            ),
          );
          seen(
            await c.exchange(
              serialize.parse({ text: 'SELECT $1::text', types: [25] }),
              bindMessage([Buffer.from([0x41, 0x82])], [1], [1]),
              serialize.execute({}),
              serialize.sync(),
            ),
          );
          // the last character of the first piece is cut (its bytes go on in the second)
          const line = t(`51\t${text}\n`);
          const cut = line.length - 2;
          seen(
            await c.exchange(
              queryBytes(Buffer.from('COPY w (id, name) FROM STDIN')),
              copyData(line.subarray(0, cut)),
              copyData(line.subarray(cut)),
              copyDone,
            ),
          );
          await raw('SELECT name || $$$$ AS name, length(name) FROM w WHERE id = 51');
          // COPY's binary format: its text in the client's encoding too, both ways
          await raw('COPY (SELECT name FROM w WHERE id = 51) TO STDOUT (FORMAT binary)');
          for (const name of [t(text), Buffer.from([0x41, 0x82])])
            seen(
              await c.exchange(
                queryBytes(Buffer.from('COPY w (id, name) FROM STDIN (FORMAT binary)')),
                copyData(Buffer.concat([binaryHeader, binaryRow(54, name), Buffer.from([0xff, 0xff])])),
                copyDone,
              ),
            );
          await raw('SELECT name || $$$$ AS name, length(name) FROM w WHERE id = 54');
          await raw('DELETE FROM w WHERE id IN (51, 54)');
          seen(
            await c.exchange(
              queryBytes(Buffer.from('COPY w (id, name) FROM STDIN')),
              copyData(Buffer.concat([t(`52\t${text}\n53\tx`), Buffer.from([0x95])])),
              copyDone,
            ),
          );
          await raw('RESET client_encoding');
        }
        // (UTF-8: a text parameter that is none has the same CONTEXT, in text and binary format, and a binary COPY field)
        for (const format of [0, 1])
          seen(
            await c.exchange(
              serialize.parse({ text: 'SELECT $1::text', types: [25] }),
              bindMessage([Buffer.from([0x41, 0xe9])], [format], [0]),
              serialize.execute({}),
              serialize.sync(),
            ),
          );
        seen(
          await c.exchange(
            queryBytes(Buffer.from('COPY w (id, name) FROM STDIN (FORMAT binary)')),
            copyData(
              Buffer.concat([binaryHeader, binaryRow(55, Buffer.from([0x41, 0xe9])), Buffer.from([0xff, 0xff])]),
            ),
            copyDone,
          ),
        );
      } finally {
        c.end();
      }
      return out;
    };
    const patina = await run(pair.patinaPort);
    assert.deepEqual(patina, await run(pair.postgresPort));
    const all = patina.join('\n');
    const hexOf = (encoding: string, s: string) => inEncoding(encoding, s).toString('hex');
    assert.ok(all.includes(`T:0003${hexOf('SJIS', '?column?')}00`), all);
    assert.ok(all.includes(hexOf('SJIS', '表ソ能')));
    assert.match(all, /C22021\|Minvalid byte sequence for encoding "SJIS": 0x82 0x20/);
    assert.match(all, /C22021\|Minvalid byte sequence for encoding "SJIS": 0x95\b/);
    assert.match(all, /C22021\|Minvalid byte sequence for encoding "SJIS": 0x95\|WCOPY w, line 2/);
    assert.match(all, /C22021\|Minvalid byte sequence for encoding "UTF8": 0xe9\|Wunnamed portal parameter \$1/);
    assert.match(all, /C22021\|Minvalid byte sequence for encoding "UTF8": 0xe9\|WCOPY w, line 1, column name/);
    assert.match(all, /C22021\|Minvalid byte sequence for encoding "SJIS": 0x82\|Wunnamed portal parameter \$1/);
    const sjis = inEncoding('SJIS', '表ソ能');
    assert.ok(all.includes(`D:0004${sjis.length.toString(16).padStart(8, '0')}${sjis.toString('hex')}`), all);
    assert.ok(
      all.includes(
        `D:0002000000${inEncoding('GB18030', '表é😀').length.toString(16).padStart(2, '0')}${hexOf('GB18030', '表é😀')}`,
      ),
      all,
    );
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
        const r = psql(port, ['SHOW client_encoding'], ['-At'], { PGCLIENTENCODING: 'UTF8', ...env });
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
