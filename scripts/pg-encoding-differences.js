// Writes src/engine/encodings/multibyte-differences.ts: where PostgreSQL 15's conversion tables of the
// multi-byte client encodings differ from the ones src/engine/encodings/multibyte.ts makes from
// iconv-lite's. It asks the server to convert every two-byte code (first byte 0x81-0xFE, second
// 0x40-0xFE), EUC_JP's three-byte ones, GB18030's four-byte ones of the BMP (and a sample above),
// and every character up to U+FFFF (and a sample above), and compares; a byte sequence whose shape
// the two read otherwise (22021 in one only) is a bug of multibyte.ts's checks, reported, not written.
// Needs a build (dist/) and a PostgreSQL 15 server with a UTF8 database:
//   node scripts/pg-encoding-differences.js <port> [user] [database]
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { pg15 } = require('./pg15');

const { MultiByteCharset, MULTI_BYTE } = require(
  path.resolve(__dirname, '..', 'dist', 'src', 'engine', 'encodings', 'multibyte.js'),
);
const out = path.resolve(__dirname, '..', 'src', 'engine', 'encodings', 'multibyte-differences.ts');
const { version } = pg15('pg-encoding-differences.js');
const [port, user = 'postgres', db = 'postgres'] = process.argv.slice(2);
const names = Object.keys(MULTI_BYTE);
const list = `array[${names.map((n) => `'${n}'`).join(',')}]`;

/** COPY's escapes of its text format. */
const UNESCAPED = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };

/** Rows [encoding, hex, result] of a statement run after the two converting functions are made. */
function rows(select) {
  const sql = `
CREATE FUNCTION pg_temp.from_(b bytea, e text) RETURNS text AS $$
BEGIN RETURN convert_from(b, e); EXCEPTION WHEN others THEN RETURN '!' || SQLSTATE; END $$ LANGUAGE plpgsql;
CREATE FUNCTION pg_temp.to_(t text, e text) RETURNS text AS $$
BEGIN RETURN encode(convert_to(t, e), 'hex'); EXCEPTION WHEN others THEN RETURN '!' || SQLSTATE; END $$ LANGUAGE plpgsql;
COPY (${select}) TO STDOUT;`;
  const text = execFileSync('psql', ['-X', '-q', '-h', '127.0.0.1', '-p', port, '-U', user, '-d', db], {
    input: sql,
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => l.split('\t').map((f) => f.replace(/\\(.)/g, (_, c) => UNESCAPED[c] ?? c)));
}

const codes = (from, to, step = 1) => `generate_series(${from}, ${to}, ${step})`;
const decoded = [
  ...rows(
    `SELECT e, to_hex(c), pg_temp.from_(decode(lpad(to_hex(c), 2, '0'), 'hex'), e) FROM unnest(${list}) e, ${codes(0, 0xff)} c`,
  ),
  ...rows(
    `SELECT e, to_hex(c), pg_temp.from_(decode(to_hex(c), 'hex'), e) FROM unnest(${list}) e, ${codes(0x8140, 0xfefe)} c
     WHERE c % 256 BETWEEN 64 AND 254`,
  ),
  ...rows(
    `SELECT 'EUC_JP', to_hex(c), pg_temp.from_(decode(to_hex(c), 'hex'), 'EUC_JP') FROM ${codes(0x8fa1a1, 0x8ffefe)} c
     WHERE c % 256 BETWEEN 161 AND 254 AND c / 256 % 256 BETWEEN 161 AND 254`,
  ),
  ...rows(
    `SELECT 'GB18030', to_hex(c), pg_temp.from_(decode(to_hex(c), 'hex'), 'GB18030')
     FROM (SELECT (a << 24) + (b << 16) + (y << 8) + d c FROM ${codes(0x81, 0x84)} a, ${codes(0x30, 0x39)} b,
             ${codes(0x81, 0xfe)} y, ${codes(0x30, 0x39)} d
           UNION ALL
           SELECT (a << 24) + (b << 16) + (y << 8) + d FROM ${codes(0x90, 0xe3, 7)} a, ${codes(0x30, 0x39, 3)} b,
             ${codes(0x81, 0xfe, 5)} y, ${codes(0x30, 0x39)} d) s`,
  ),
];
const encoded = rows(
  `SELECT e, to_hex(c), pg_temp.to_(chr(c), e) FROM unnest(${list}) e,
     (SELECT c FROM ${codes(0x80, 0xffff)} c WHERE c NOT BETWEEN 55296 AND 57343
      UNION ALL SELECT c FROM ${codes(0x10000, 0x10ffff, 997)} c) s`,
);

const result = (f) => {
  try {
    return f();
  } catch (err) {
    return `!${err.sqlstate}`;
  }
};
/** Pairs [a, b] (b 0: none) as runs [a, b, n] where both go up by one. */
function runs(pairs) {
  const r = [];
  pairs.sort((x, y) => x[0] - y[0]);
  for (const [a, b] of pairs) {
    const last = r[r.length - 1];
    if (last && last[0] + last[2] === a && (b === 0 ? last[1] === 0 : last[1] !== 0 && last[1] + last[2] === b))
      last[2]++;
    else r.push([a, b, 1]);
  }
  return r;
}

const differences = {};
let bugs = 0;
for (const name of names) {
  const charset = new MultiByteCharset(name, false);
  const decode = [];
  for (const [e, h, pg] of decoded) {
    if (e !== name) continue;
    const hexed = h.length % 2 ? `0${h}` : h;
    const ours = result(() => charset.decode(Buffer.from(hexed, 'hex')));
    if (ours === pg) continue;
    if (ours === '!22021' || pg === '!22021') {
      console.error(`${name} ${hexed}: PostgreSQL ${pg}, multibyte.ts ${ours}`);
      bugs++;
    } else decode.push([Number.parseInt(hexed, 16), pg === '!22P05' ? 0 : pg.codePointAt(0)]);
  }
  const encode = [];
  for (const [e, h, pg] of encoded) {
    if (e !== name) continue;
    const c = Number.parseInt(h, 16);
    const ours = result(() => charset.encode(String.fromCodePoint(c)).toString('hex'));
    if (ours !== pg) encode.push([c, pg.startsWith('!') ? 0 : Number.parseInt(pg, 16)]);
  }
  differences[name] = { decode: runs(decode), encode: runs(encode) };
  console.log(`${name}: ${decode.length} codes read otherwise, ${encode.length} characters written otherwise`);
}
if (bugs > 0) throw new Error(`${bugs} byte sequences checked otherwise than PostgreSQL does`);
const lines = (r) => r.map((x) => `      [${x.map((v) => `0x${v.toString(16)}`).join(', ')}],`).join('\n');
fs.writeFileSync(
  out,
  `// Written by scripts/pg-encoding-differences.js from PostgreSQL ${version}: do not edit.
// Where PostgreSQL's conversion tables differ from the ones multibyte.ts makes from iconv-lite's, as
// runs [first code, first character (0: none, PostgreSQL's 22P05), length] read from the client
// and [first character, first code (0: none), length] written to it; codes and characters go up by one.
import { lookup } from '../../lookup';
type Runs = [number, number, number][];

// biome-ignore format: generated
export const DIFFERENCES: Record<string, { decode: Runs; encode: Runs }> = lookup({
${names.map((n) => `  ${n}: {\n    decode: [\n${lines(differences[n].decode)}\n    ],\n    encode: [\n${lines(differences[n].encode)}\n    ],\n  },`).join('\n')}
});
`,
);
