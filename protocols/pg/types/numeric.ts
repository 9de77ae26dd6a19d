// NUMERIC in PostgreSQL's forms. Text: plain decimal digits, never an exponent ('1e30' prints as 31
// digits), the scale kept ('-0.0001'). Binary: int16 count of base-10000 digits, int16 weight of the
// first digit, uint16 sign (NaN and the infinities are signs), uint16 display scale, then the digits.
import { BadBinary, type Codec, bytes, notA } from './codec';
import { type Decimal, decimalAtScale, decimalText, parseDecimal } from '../../../src/engine/decimal';

export { type Decimal, decimalAtScale, decimalText, parseDecimal };

const POS = 0x0000;
const NEG = 0x4000;
const NAN = 0xc000;
const PINF = 0xd000;
const NINF = 0xf000;
const DSCALE_MAX = 0x3fff;

/** The decimal of a stored value: a number, a bigint or numeric text. */
export function decimalOf(v: unknown): Decimal {
  if (typeof v === 'bigint')
    return v < 0n ? { neg: true, int: (-v).toString(), frac: '' } : { neg: false, int: v.toString(), frac: '' };
  if (typeof v === 'number') {
    if (Number.isNaN(v)) return { neg: false, int: '', frac: '', special: 'NaN' };
    if (!Number.isFinite(v)) return { neg: v < 0, int: '', frac: '', special: v < 0 ? '-Infinity' : 'Infinity' };
    return parseDecimal(String(v))!;
  }
  if (typeof v === 'string') {
    const d = parseDecimal(v);
    if (d) return d;
  }
  return notA('numeric', v);
}

/**
 * The precision a computed numeric's value modifier carries when its scale is a minimum
 * (`amount + $1`): values print at least that many digits, and their own beyond it.
 */
export const MIN_SCALE_PRECISION = 1001;

/**
 * The decimal of a stored value as a numeric of type modifier `typmod` (≥ 4) prints: at its scale,
 * or, for a minimum scale, at it or the value's own digits (a double's 15 significant, as float8 to numeric).
 */
export function decimalAtTypmod(v: unknown, typmod: number): Decimal {
  const scale = (typmod - 4) & 0xffff;
  if (typmod >> 16 !== MIN_SCALE_PRECISION) return decimalAtScale(decimalOf(v), scale);
  const d =
    typeof v === 'number' && Number.isFinite(v) && !Number.isInteger(v)
      ? parseDecimal(String(Number(v.toPrecision(15))))!
      : decimalOf(v);
  return d.frac.length < scale ? decimalAtScale(d, scale) : d;
}

/** The binary form of a decimal. */
export function decimalBinary(d: Decimal): Buffer {
  if (d.special) {
    const b = bytes(8);
    b.writeInt16BE(0, 0);
    b.writeInt16BE(0, 2);
    b.writeUInt16BE(d.special === 'NaN' ? NAN : d.special === 'Infinity' ? PINF : NINF, 4);
    // (PostgreSQL's numeric_send reads the display scale out of the special's header bits: 32 for
    // the infinities, 0 for NaN; pgjdbc and friends read the sign alone)
    b.writeUInt16BE(d.special === 'NaN' ? 0 : 32, 6);
    return b;
  }
  const dscale = d.frac.length;
  const int = d.int.padStart(Math.ceil(d.int.length / 4) * 4, '0');
  const frac = d.frac.padEnd(Math.ceil(d.frac.length / 4) * 4, '0');
  const all = int + frac;
  const groups: number[] = [];
  for (let i = 0; i < all.length; i += 4) groups.push(Number(all.slice(i, i + 4)));
  let weight = int.length / 4 - 1;
  let first = 0;
  while (first < groups.length && groups[first] === 0) {
    first++;
    weight--;
  }
  let last = groups.length;
  while (last > first && groups[last - 1] === 0) last--;
  const digits = groups.slice(first, last);
  const zero = digits.length === 0;
  const b = bytes(8 + 2 * digits.length);
  b.writeInt16BE(digits.length, 0);
  b.writeInt16BE(zero ? 0 : weight, 2);
  b.writeUInt16BE(d.neg && !zero ? NEG : POS, 4);
  b.writeUInt16BE(dscale, 6);
  for (let i = 0; i < digits.length; i++) b.writeInt16BE(digits[i], 8 + 2 * i);
  return b;
}

/** A binary numeric as PostgreSQL's text, checked as numeric_recv checks it (digits past the scale are cut). */
export function numericTextOfBinary(raw: Buffer): string {
  if (raw.length < 8) throw new BadBinary(`numeric takes at least 8 bytes, got ${raw.length}`);
  const n = raw.readInt16BE(0);
  const weight = raw.readInt16BE(2);
  const sign = raw.readUInt16BE(4);
  const dscale = raw.readUInt16BE(6);
  if (n < 0 || raw.length !== 8 + 2 * n)
    throw new BadBinary(`numeric with ${n} digits takes ${8 + 2 * Math.max(n, 0)} bytes, got ${raw.length}`);
  if (sign === NAN) return 'NaN';
  if (sign === PINF) return 'Infinity';
  if (sign === NINF) return '-Infinity';
  if (sign !== POS && sign !== NEG)
    throw new BadBinary(`invalid sign in external "numeric" value (0x${sign.toString(16)})`);
  if (dscale > DSCALE_MAX) throw new BadBinary(`invalid scale in external "numeric" value (${dscale})`);
  const digit = (g: number) => {
    if (g < 0 || g >= n) return 0;
    return raw.readInt16BE(8 + 2 * g);
  };
  for (let g = 0; g < n; g++) {
    const x = digit(g);
    if (x < 0 || x > 9999) throw new BadBinary(`invalid digit in external "numeric" value (${x})`);
  }
  // digit g stands for 10000^(weight - g)
  let int = '';
  for (let p = weight; p >= 0; p--) int += String(digit(weight - p)).padStart(4, '0');
  let frac = '';
  for (let p = -1; frac.length < dscale; p--) frac += String(digit(weight - p)).padStart(4, '0');
  return decimalText({ neg: sign === NEG, int: int.replace(/^0+/, ''), frac: frac.slice(0, dscale) });
}

export const numericCodec: Codec = {
  oid: 1700,
  name: 'numeric',
  text: (v) => decimalText(decimalOf(v)),
  binary: (v) => decimalBinary(decimalOf(v)),
  textOfBinary: numericTextOfBinary,
};
