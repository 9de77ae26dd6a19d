// The types whose binary form is their text in UTF-8 (text, varchar, bpchar, name, "char", json,
// unknown), jsonb (a version byte 1, then the text), bytea (the bytes themselves) and uuid (16 bytes).
import { BadBinary, type Codec, bytes, expectLength, notA } from './codec';
import { floatText } from './float';
import { jsonbText } from './jsonb';

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Binary text as a string; bytes that are no UTF-8 are refused as PostgreSQL refuses them (22021). */
export function utf8Of(raw: Buffer, type: string): string {
  try {
    return UTF8.decode(raw);
  } catch {
    throw new BadBinary(`invalid byte sequence for encoding "UTF8" in a ${type} value`, '22021');
  }
}

/** Any stored value as text: strings as they are, numbers as PostgreSQL prints them, blobs in bytea's hex. */
export function plainText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : floatText(v);
  if (v instanceof Uint8Array) return '\\x' + Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex');
  return String(v);
}

function textLike(oid: number, name: string): Codec {
  return {
    oid,
    name,
    text: plainText,
    binary: (v) => Buffer.from(plainText(v), 'utf8'),
    textOfBinary: (raw) => utf8Of(raw, name),
  };
}

export const textCodec = textLike(25, 'text');
export const varcharCodec = textLike(1043, 'varchar');
export const bpcharCodec = textLike(1042, 'bpchar');
export const nameCodec = textLike(19, 'name');
export const charCodec = textLike(18, 'char');
export const unknownCodec = textLike(705, 'unknown');
export const xmlCodec = textLike(142, 'xml');

/** Text that parses as JSON, else a 22P02 refusal as PostgreSQL's json input gives. */
function checkedJson(s: string, type: string): string {
  try {
    JSON.parse(s);
  } catch {
    throw new BadBinary(`invalid input syntax for type ${type}`, '22P02');
  }
  return s;
}

export const jsonCodec: Codec = {
  oid: 114,
  name: 'json',
  text: plainText,
  binary: (v) => Buffer.from(plainText(v), 'utf8'),
  textOfBinary: (raw) => checkedJson(utf8Of(raw, 'json'), 'json'),
};

/** A stored jsonb value as PostgreSQL prints it; text that is no JSON as it is. */
const jsonbOut = (v: unknown) => {
  const s = plainText(v);
  return jsonbText(s) ?? s;
};

export const jsonbCodec: Codec = {
  oid: 3802,
  name: 'jsonb',
  text: jsonbOut,
  binary: (v) => {
    const s = jsonbOut(v);
    const b = bytes(1 + Buffer.byteLength(s));
    b[0] = 1;
    b.write(s, 1);
    return b;
  },
  textOfBinary: (raw) => {
    if (raw.length === 0 || raw[0] !== 1)
      throw new BadBinary(`unsupported jsonb version number ${raw.length ? raw[0] : 'missing'}`);
    return checkedJson(utf8Of(raw.subarray(1), 'jsonb'), 'jsonb');
  },
};

/** The bytes of a stored bytea value: a blob, or text in bytea's hex form ('\x0102'), else the text's UTF-8. */
function byteaOf(v: unknown): Buffer {
  if (v instanceof Uint8Array) return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
  const s = plainText(v);
  if (/^\\x([0-9a-fA-F]{2})*$/.test(s)) return Buffer.from(s.slice(2), 'hex');
  return Buffer.from(s, 'utf8');
}

export const byteaCodec: Codec = {
  oid: 17,
  name: 'bytea',
  text: (v) => '\\x' + byteaOf(v).toString('hex'),
  binary: byteaOf,
  textOfBinary: (raw) => '\\x' + raw.toString('hex'),
  fromBinary: (raw) => Buffer.from(raw),
};

const UUID_RE = /^\{?([0-9a-f]{4}-?){7}[0-9a-f]{4}\}?$/i;

/** The 32 hex digits of a uuid in any spelling PostgreSQL reads; null when it is none. */
function uuidHex(v: unknown): string | null {
  if (v instanceof Uint8Array && v.length === 16) return Buffer.from(v).toString('hex');
  if (typeof v !== 'string') return null;
  const s = v.trim();
  if (!UUID_RE.test(s) || s.startsWith('{') !== s.endsWith('}')) return null;
  return s.replace(/[{}-]/g, '').toLowerCase();
}

const hyphenated = (h: string) =>
  `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;

/** A uuid as PostgreSQL prints it (lowercase, hyphenated); null when `v` is no uuid. */
export function uuidText(v: unknown): string | null {
  const h = uuidHex(v);
  return h === null ? null : hyphenated(h);
}

export const uuidCodec: Codec = {
  oid: 2950,
  name: 'uuid',
  text: (v) => uuidText(v) ?? plainText(v),
  binary: (v) => {
    const h = uuidHex(v);
    return h === null ? notA('uuid', v) : Buffer.from(h, 'hex');
  },
  textOfBinary: (raw) => {
    expectLength(raw, 16, 'uuid');
    return hyphenated(raw.toString('hex'));
  },
};
