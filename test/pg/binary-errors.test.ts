// Bad binary input is refused, never stored: a parameter that does not decode is 22P03 naming it,
// an unknown format code is refused, and the session goes on. Results come in exactly the format
// asked for, column by column.
import assert from 'node:assert/strict';
import { serialize } from 'pg-protocol';
import { type AgentProcess, startAgent } from '../helpers/agent';
import { WireClient, bindMessage } from '../helpers/pg-wire';

const SCHEMA = 'CREATE TABLE m (id INTEGER NOT NULL PRIMARY KEY, n NUMERIC, k INT4, due DATE, label TEXT);\n';

const int8 = (n: bigint) => {
  const b = Buffer.alloc(8);
  b.writeBigInt64BE(n);
  return b;
};
/** A binary numeric from its header fields and base-10000 digits. */
const numeric = (weight: number, sign: number, dscale: number, digits: number[], extra = 0) => {
  const b = Buffer.alloc(8 + 2 * digits.length + extra);
  b.writeInt16BE(digits.length, 0);
  b.writeInt16BE(weight, 2);
  b.writeUInt16BE(sign, 4);
  b.writeUInt16BE(dscale, 6);
  digits.forEach((d, i) => b.writeInt16BE(d, 8 + 2 * i));
  return b;
};

describe('binary input that does not decode, and result format codes', function () {
  this.timeout(30000);
  let agent: AgentProcess;
  let c: WireClient;

  before(async () => {
    agent = await startAgent({ schema: SCHEMA, args: ['--pg-addr', '127.0.0.1:0'] });
    c = await WireClient.open(agent.pg!.port, { user: 'tester', database: 'db' });
  });
  after(async () => {
    c?.end();
    await agent?.dispose();
  });

  const insert = (values: (Buffer | null)[], types: number[], formats: number[] = [1]) =>
    c.extended('INSERT INTO m (id, n, k) VALUES ($1, $2, $3)', { types, values, formats, resultFormats: [] });
  const count = async () => {
    const r = await c.extended('SELECT count(*) FROM m', { resultFormats: [0] });
    return r.rows[0][0]!.toString();
  };

  it('refuses a numeric of the wrong length, a bad digit, a bad sign and an int4 of 3 bytes with 22P03 naming the parameter; nothing is stored', async () => {
    const k = Buffer.from([0, 0, 0, 7]);
    const cases: [Buffer, Buffer, RegExp][] = [
      [
        numeric(0, 0, 0, [12]).subarray(0, 9),
        k,
        /bind parameter \$2 \(numeric\): numeric with 1 digits takes 10 bytes, got 9/,
      ],
      [
        numeric(0, 0, 0, [10000]),
        k,
        /bind parameter \$2 \(numeric\): invalid digit in external "numeric" value \(10000\)/,
      ],
      [numeric(0, 0x1234, 0, [1]), k, /bind parameter \$2 \(numeric\): invalid sign/],
      [numeric(0, 0, 0, [1], 2), k, /bind parameter \$2 \(numeric\)/],
      [numeric(0, 0, 0, [1]), Buffer.from([0, 0, 7]), /bind parameter \$3 \(int4\): int4 takes 4 bytes, got 3/],
    ];
    for (const [n, kk, message] of cases) {
      const r = await insert([int8(1n), n, kk], [20, 1700, 23]);
      assert.equal(r.errors.length, 1, message.source);
      assert.equal(r.errors[0].code, '22P03');
      assert.match(r.errors[0].message, message);
    }
    assert.equal(await count(), '0', 'nothing stored');
    // the session goes on: a good binary numeric is stored
    const ok = await insert([int8(1n), numeric(-1, 0x4000, 4, [1]), Buffer.from([0, 0, 0, 7])], [20, 1700, 23]);
    assert.deepEqual(ok.errors, []);
    const back = await c.extended('SELECT n FROM m WHERE id = 1', { resultFormats: [0] });
    assert.equal(back.rows[0][0]!.toString(), '-0.0001');
  });

  it('refuses an unknown parameter format code (22P03) and an unknown result format code (22023)', async () => {
    const r = await insert([Buffer.from('2'), Buffer.from('1.5'), Buffer.from('7')], [20, 1700, 23], [0, 2, 0]);
    assert.equal(r.errors[0]?.code, '22P03');
    assert.match(r.errors[0].message, /bind parameter \$2: unsupported format code 2/);
    const bad = await c.exchange(
      serialize.parse({ text: 'SELECT id FROM m', types: [] }),
      bindMessage([], [], [2]),
      serialize.execute({}),
      serialize.sync(),
    );
    assert.equal(bad.errors[0]?.code, '22023');
    assert.match(bad.errors[0].message, /unsupported format code: 2/);
    const counts = await c.exchange(
      serialize.parse({ text: 'SELECT id, n FROM m', types: [] }),
      bindMessage([], [], [1, 1, 1]),
      serialize.execute({}),
      serialize.sync(),
    );
    assert.equal(counts.errors[0]?.code, '08P01');
    assert.match(counts.errors[0].message, /3 result formats but query has 2 columns/);
    assert.equal(await count(), '1', 'the session goes on');
  });

  it('sends each column in the format its code asks: one per column, one for all, none for text', async () => {
    await c.extended("INSERT INTO m (id, n, k, due, label) VALUES (2, 2.5, 9, '2026-11-25', 'x')", {
      resultFormats: [],
    });
    const sql = 'SELECT id, n, due, label FROM m WHERE id = 2';
    const mixed = await c.extended(sql, { resultFormats: [0, 1, 0, 1] });
    assert.deepEqual(
      mixed.fields.map((f) => [f.typeOid, f.format]),
      [
        [20, 0],
        [1700, 1],
        [1082, 0],
        [25, 1],
      ],
    );
    const [id, n, due, label] = mixed.rows[0];
    assert.equal(id!.toString(), '2');
    assert.equal(n!.toString('hex'), '0002000000000001' + '0002' + '1388'); // 2.5: 2 digits (2, 5000), weight 0, scale 1
    assert.equal(due!.toString(), '2026-11-25');
    assert.equal(label!.toString(), 'x');
    const all = await c.extended(sql, { resultFormats: [1] });
    assert.deepEqual(
      all.fields.map((f) => f.format),
      [1, 1, 1, 1],
    );
    assert.equal(all.rows[0][0]!.readBigInt64BE(0), 2n);
    assert.equal(all.rows[0][2]!.readInt32BE(0), 9825, 'days from 2000-01-01');
    const none = await c.extended(sql, { resultFormats: [] });
    assert.deepEqual(
      none.fields.map((f) => f.format),
      [0, 0, 0, 0],
    );
    assert.deepEqual(
      none.rows[0].map((x) => x!.toString()),
      ['2', '2.5', '2026-11-25', 'x'],
    );
  });

  it('refuses a stored value that is no value of its column type in binary (22P03 naming the column), sends it as text', async () => {
    await c.extended("INSERT INTO m (id, due) VALUES (3, 'soon')", { resultFormats: [] });
    const bin = await c.extended('SELECT id, due FROM m WHERE id >= 2 ORDER BY id', { resultFormats: [1] });
    assert.equal(bin.rows.length, 1, 'the row before it is sent whole');
    assert.equal(bin.errors[0]?.code, '22P03');
    assert.match(bin.errors[0].message, /column "due": "soon" is not a value of type date/);
    const text = await c.extended('SELECT due FROM m WHERE id = 3', { resultFormats: [0] });
    assert.equal(text.rows[0][0]!.toString(), 'soon');
  });

  it('announces a type without a binary form as text, and sends text bytes under it', async () => {
    // a parameter of type point (600), echoed: Patina has no binary point, so the column is text
    const r = await c.extended('SELECT $1', { types: [600], values: [Buffer.from('(1,2)')], formats: [0] });
    assert.deepEqual(r.errors, []);
    assert.deepEqual(
      r.fields.map((f) => [f.typeOid, f.format]),
      [[25, 1]],
    );
    assert.equal(r.rows[0][0]!.toString(), '(1,2)');
    const p = await c.extended('SELECT $1', { types: [600], values: [Buffer.from([1, 2])], formats: [1] });
    assert.equal(p.errors[0]?.code, '22P03');
    assert.match(p.errors[0].message, /bind parameter \$1: type OID 600 has no binary format/);
  });
});
