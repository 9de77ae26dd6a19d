// Text from clients that is no UTF-8, against PostgreSQL 15: 22021 naming the bytes, in a query, a
// Parse, a text parameter and COPY data, and nothing stored (the bytes were decoded to U+FFFD and
// stored so: a LATIN1 client's `é` became the replacement character, replicated everywhere).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serialize } from 'pg-protocol';
import { type CatalogPair, startCatalogPair } from '../helpers/catalog-pair';
import { WireClient } from '../helpers/pg-wire';

const SCHEMA = 'CREATE TABLE w (id BIGINT NOT NULL PRIMARY KEY, name TEXT);';

/** A Parse message of raw statement bytes (pg-protocol's takes a string). */
function parseBytes(sql: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from([0]), sql, Buffer.from([0, 0, 0])]);
  const len = Buffer.alloc(4);
  len.writeInt32BE(body.length + 4);
  return Buffer.concat([Buffer.from('P'), len, body]);
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

  /** psql running a file of raw bytes, its output and errors as the user sees them. */
  const script = (port: number, bytes: Buffer) => {
    const file = path.join(dir, 'script.sql');
    fs.writeFileSync(file, bytes);
    const r = spawnSync(
      'psql',
      ['-X', '-A', '-t', '-h', '127.0.0.1', '-p', String(port), '-U', 'tester', '-d', 'db', '-f', file],
      { encoding: 'utf8', env: { ...process.env, PGCLIENTENCODING: 'UTF8' } },
    );
    return `${r.stdout}${r.stderr}`;
  };

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
});
