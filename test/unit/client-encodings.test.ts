// The client encodings' names and single-byte tables (protocols/pg/wire/client-encodings.ts); the
// oracle test (test/pg/encoding-oracle.test.ts) compares them on the wire with PostgreSQL 15.
import assert from 'node:assert/strict';
import { charsetOf, clientEncodingName } from '../../protocols/pg/wire/client-encodings';

describe('client encodings', () => {
  it('names each encoding as PostgreSQL does, and refuses what it has none of or Patina does not convert', () => {
    assert.equal(clientEncodingName('ISO-8859-1'), 'LATIN1');
    assert.equal(clientEncodingName('windows-1252'), 'WIN1252');
    assert.equal(clientEncodingName('Latin 9'), 'LATIN9');
    assert.equal(clientEncodingName('unicode'), 'UTF8');
    assert.throws(() => clientEncodingName('cp1252'), { sqlstate: '22023' });
    assert.throws(() => clientEncodingName('euc_jp'), {
      sqlstate: '0A000',
      message: /client_encoding "EUC_JP" is not supported/,
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
});
