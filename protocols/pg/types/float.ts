// float4 and float8 as PostgreSQL 15 prints them: the shortest digits that read back to the same
// value, in plain notation for decimal exponents from -4 up to 14 (float8) or 5 (float4), else
// '1e+15' notation; and their IEEE 754 binary forms.
import { floatText } from '../../../src/engine/float-text';
import { type Codec, bytes, expectLength, notA } from './codec';

export { floatText };

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
