// The client encodings' names, single-byte tables (src/engine/encodings/client-encodings.ts) and
// multi-byte ones (multibyte.ts); the oracle test (test/pg/encoding-oracle.test.ts) compares them on
// the wire with PostgreSQL 15.
import assert from 'node:assert/strict';
import { ByteWriter } from '../../protocols/pg/wire/backend';
import { charsetOf, clientEncodingName } from '../../src/engine/encodings/client-encodings';

describe('client encodings', () => {
  it('names each encoding as PostgreSQL does, and refuses what it has none of or Patina does not convert', () => {
    assert.equal(clientEncodingName('ISO-8859-1'), 'LATIN1');
    assert.equal(clientEncodingName('windows-1252'), 'WIN1252');
    assert.equal(clientEncodingName('Latin 9'), 'LATIN9');
    assert.equal(clientEncodingName('unicode'), 'UTF8');
    assert.throws(() => clientEncodingName('cp1252'), { sqlstate: '22023' });
    assert.equal(clientEncodingName('ms_kanji'), 'SJIS');
    assert.equal(clientEncodingName('windows-950'), 'BIG5');
    assert.throws(() => clientEncodingName('euc_tw'), {
      sqlstate: '0A000',
      message: /client_encoding "EUC_TW" is not supported/,
    });
    assert.equal(charsetOf('UTF8'), null);
    assert.equal(charsetOf('SQL_ASCII'), null);
  });

  it('decodes and encodes the upper half as PostgreSQL tables it; 22P05 for what has no equivalent', () => {
    const win1252 = charsetOf('WIN1252')!;
    assert.equal(win1252.decode(Buffer.from([0x80, 0xe9, 0x9f])), '\u20acé\u0178');
    assert.deepEqual(win1252.encode('€é'), Buffer.from([0x80, 0xe9]));
    assert.throws(() => win1252.decode(Buffer.from([0x61, 0x81])), {
      sqlstate: '22P05',
      message: 'character with byte sequence 0x81 in encoding "WIN1252" has no equivalent in encoding "UTF8"',
      at: 1,
    });
    assert.throws(() => charsetOf('LATIN1')!.encode('5 €'), {
      message: 'character with byte sequence 0xe2 0x82 0xac in encoding "UTF8" has no equivalent in encoding "LATIN1"',
    });
    assert.throws(() => charsetOf('LATIN1')!.encode('😀'), { message: /0xf0 0x9f 0x98 0x80 in encoding "UTF8"/ });
    assert.equal(charsetOf('LATIN5')!.decode(Buffer.from([0xdd, 0xfd, 0x80])), '\u0130\u0131\u0080');
    assert.equal(charsetOf('KOI8R')!.decode(Buffer.from([0xf0, 0xd2, 0xc9])), 'При');
    for (const name of ['LATIN1', 'LATIN9', 'WIN1250', 'WIN1251', 'ISO_8859_5', 'WIN874']) {
      const c = charsetOf(name)!;
      for (let b = 0; b < 256; b++) {
        let s: string;
        try {
          s = c.decode(Buffer.from([b]));
        } catch {
          continue;
        }
        assert.deepEqual(c.encode(s), Buffer.from([b]), `${name} 0x${b.toString(16)}`);
      }
    }
  });

  it('multi-byte: a character cut at the end waits for its rest; 22021 for a bad shape, 22P05 for no character, as PostgreSQL words them', () => {
    const sjis = charsetOf('SJIS')!;
    assert.deepEqual(sjis.decodeStream(Buffer.from([0x41, 0x95, 0x5c, 0x95])), ['A表', 1]);
    assert.equal(sjis.decode(Buffer.from([0x5c, 0x7e, 0xb1])), '\\~ｱ');
    assert.throws(() => sjis.decode(Buffer.from([0x41, 0x95])), {
      sqlstate: '22021',
      message: 'invalid byte sequence for encoding "SJIS": 0x95',
      at: 1,
    });
    assert.throws(() => sjis.decode(Buffer.from([0x41, 0x00])), { sqlstate: '22021', message: /: 0x00$/ });
    assert.throws(() => sjis.decode(Buffer.from([0xf0, 0x40])), {
      sqlstate: '22P05',
      message: 'character with byte sequence 0xf0 0x40 in encoding "SJIS" has no equivalent in encoding "UTF8"',
    });
    assert.throws(() => sjis.encode('a€'), {
      sqlstate: '22P05',
      message: 'character with byte sequence 0xe2 0x82 0xac in encoding "UTF8" has no equivalent in encoding "SJIS"',
    });
    assert.deepEqual(sjis.encode('¥〜'), Buffer.from([0x5c, 0x81, 0x60]));
    const gb18030 = charsetOf('GB18030')!;
    assert.deepEqual(gb18030.encode('\u0080😀'), Buffer.from([0x81, 0x30, 0x81, 0x30, 0x94, 0x39, 0xfc, 0x36]));
    assert.equal(gb18030.decode(Buffer.from([0x94, 0x39, 0xfc, 0x36])), '😀');
  });

  it('a multi-byte encoding that takes more bytes than UTF-8 gets the room it needs', () => {
    const w = new ByteWriter(64);
    w.charset = charsetOf('GB18030');
    const s = '\u0080'.repeat(100);
    w.begin('D').i16(1).value(s).end();
    const out = w.take();
    assert.equal(out.readInt32BE(1), 4 + 2 + 4 + 400);
    assert.equal(out.readInt32BE(7), 400);
    assert.deepEqual(out.subarray(11, 15), Buffer.from([0x81, 0x30, 0x81, 0x30]));
  });
});
