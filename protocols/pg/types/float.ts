// float4 and float8 as PostgreSQL 15 prints them: the shortest digits that read back to the same
// value, in plain notation for decimal exponents from -4 up to 14 (float8) or 5 (float4), else
// '1e+15' notation; and their IEEE 754 binary forms.
import { type Codec, bytes, expectLength, notA } from './codec';

/** The shortest digits of `v` (as a float4 when `single`) and the decimal exponent of the first one. */
function shortest(v: number, single: boolean): { digits: string; exp: number } {
  let e = v.toExponential();
  if (single) {
    for (let p = 0; p < 9; p++) {
      const t = v.toExponential(p);
      if (Math.fround(Number(t)) === v) {
        e = t;
        break;
      }
    }
  }
  const at = e.indexOf('e');
  return { digits: e.slice(0, at).replace('.', '').replace('-', ''), exp: Number(e.slice(at + 1)) };
}

/** PostgreSQL's text of a float. */
export function floatText(v: number, single = false): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return 'Infinity';
  if (v === -Infinity) return '-Infinity';
  if (v === 0) return Object.is(v, -0) ? '-0' : '0';
  const sign = v < 0 ? '-' : '';
  const { digits, exp } = shortest(Math.abs(v), single);
  if (exp < -4 || exp >= (single ? 6 : 15)) {
    const mant = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const ex = Math.abs(exp);
    return `${sign}${mant}e${exp < 0 ? '-' : '+'}${ex < 10 ? '0' : ''}${ex}`;
  }
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  if (digits.length <= exp + 1) return sign + digits + '0'.repeat(exp + 1 - digits.length);
  return `${sign}${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`;
}

/** A stored value as a float: a number, a bigint, or float text ('NaN', 'Infinity', '1.5'). */
export function floatOf(v: unknown, type: string): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'string') {
    const t = v.trim().toLowerCase();
    if (t === 'nan') return Number.NaN;
    if (t === 'infinity' || t === 'inf' || t === '+infinity') return Infinity;
    if (t === '-infinity' || t === '-inf') return -Infinity;
    const n = Number(t);
    if (t !== '' && !Number.isNaN(n)) return n;
  }
  return notA(type, v);
}

/** A float that binds to SQLite as itself; NaN as the text 'NaN' (SQLite would make a NULL of it). */
export const storedFloat = (n: number): number | string => (Number.isNaN(n) ? 'NaN' : n);

export const float4Codec: Codec = {
  oid: 700,
  name: 'float4',
  text: (v) => floatText(Math.fround(floatOf(v, 'float4')), true),
  binary: (v) => {
    const b = bytes(4);
    b.writeFloatBE(floatOf(v, 'float4'));
    return b;
  },
  textOfBinary: (raw) => {
    expectLength(raw, 4, 'float4');
    return floatText(raw.readFloatBE(0), true);
  },
  fromBinary: (raw) => {
    expectLength(raw, 4, 'float4');
    return storedFloat(raw.readFloatBE(0));
  },
};

export const float8Codec: Codec = {
  oid: 701,
  name: 'float8',
  text: (v) => floatText(floatOf(v, 'float8')),
  binary: (v) => {
    const b = bytes(8);
    b.writeDoubleBE(floatOf(v, 'float8'));
    return b;
  },
  textOfBinary: (raw) => {
    expectLength(raw, 8, 'float8');
    return floatText(raw.readDoubleBE(0));
  },
  fromBinary: (raw) => {
    expectLength(raw, 8, 'float8');
    return storedFloat(raw.readDoubleBE(0));
  },
};
