import type Database from 'better-sqlite3';
import { sqlStateError } from '../errors';

// PostgreSQL's number functions and bit aggregates that SQLite lacks (gcd, lcm, factorial,
// width_bucket, to_hex, bit_and/bit_or/bit_xor) and isfinite: on every connection a PG statement
// can run on, as pg-strings.ts's (starts_with is there, make_timestamp in dates.ts).
// Integers arrive as BigInt (safeIntegers), so 64-bit values stay exact; NULL in, NULL out.

const INT8_MIN = -(2n ** 63n);
const INT8_MAX = 2n ** 63n - 1n;

/** A BigInt result as SQLite stores it: a number when it is safe, else the BigInt (both integers). */
function int(n: bigint): bigint | number {
  if (n < INT8_MIN || n > INT8_MAX) throw sqlStateError('22003', 'bigint out of range');
  return n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n;
}

/** An integer argument: 22P02 naming the function when it is not one (gcd(1.5, 2) is numeric in PostgreSQL, not here). */
function whole(x: unknown, fn: string): bigint {
  if (typeof x === 'bigint') return x;
  if (typeof x === 'number' && Number.isInteger(x)) return BigInt(x);
  if (typeof x === 'string' && /^\s*[-+]?\d+\s*$/.test(x)) return BigInt(x.trim());
  throw sqlStateError('22P02', `${fn}: expected integers, got ${JSON.stringify(String(x))}`);
}

const abs = (n: bigint) => (n < 0n ? -n : n);

function gcd(a: bigint, b: bigint): bigint {
  let [x, y] = [abs(a), abs(b)];
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

/** width_bucket(x, low, high, count): the bucket of x among `count` equal ones (0 below, count + 1 above). */
function widthBucket(x: number, lo: number, hi: number, count: number): number {
  if (!Number.isInteger(count) || count <= 0) throw sqlStateError('2201G', 'count must be greater than zero');
  if (lo === hi) throw sqlStateError('2201G', 'lower bound cannot equal upper bound');
  if (![x, lo, hi].every(Number.isFinite))
    throw sqlStateError('2201G', 'operand, lower bound, and upper bound cannot be NaN or infinity');
  if (lo < hi) {
    if (x < lo) return 0;
    if (x >= hi) return count + 1;
    return Math.floor(((x - lo) / (hi - lo)) * count) + 1;
  }
  if (x > lo) return 0;
  if (x <= hi) return count + 1;
  return Math.floor(((lo - x) / (lo - hi)) * count) + 1;
}

export function installPgMathFunctions(db: Database.Database): void {
  const fn = (name: string, f: (...args: unknown[]) => unknown) =>
    db.function(name, { deterministic: true, varargs: true, safeIntegers: true }, (...args: unknown[]) =>
      args.some((a) => a === null) ? null : (f(...args) as never),
    );
  fn('gcd', (a, b) => int(gcd(whole(a, 'gcd'), whole(b, 'gcd'))));
  fn('lcm', (a, b) => {
    const [x, y] = [whole(a, 'lcm'), whole(b, 'lcm')];
    return x === 0n || y === 0n ? 0 : int(abs((x / gcd(x, y)) * y));
  });
  fn('factorial', (a) => {
    const n = whole(a, 'factorial');
    if (n < 0n) throw sqlStateError('22003', 'factorial of a negative number is undefined');
    if (n > 1000n) throw sqlStateError('22003', 'value overflows numeric format');
    let out = 1n;
    for (let i = 2n; i <= n; i++) out *= i;
    // numeric: exact digits, as text when past 64 bits
    return out <= INT8_MAX ? int(out) : out.toString();
  });
  fn('width_bucket', (x, lo, hi, n) => widthBucket(Number(x), Number(lo), Number(hi), Number(n)));
  // to_hex of a negative number: its two's complement in 64 bits (Patina's integers are int8)
  fn('to_hex', (a) => {
    const n = whole(a, 'to_hex');
    return (n < 0n ? n + 2n ** 64n : n).toString(16);
  });
  // to_hex of an integer (int4; the analysis renames the call): 32-bit two's complement
  fn('__pg_to_hex32', (a) => {
    const n = whole(a, 'to_hex');
    return (n < 0n ? n + 2n ** 32n : n).toString(16);
  });
  // int4 or int2 arithmetic (the PG analysis marks it, protocols/pg/sql/int-overflow.ts): its value as
  // SQLite computed it, 22003 past the type's range as PostgreSQL's int4pl, int2mul, ... say; a value
  // that is no integer passes as it is (a whole double too, where it is in range: date - date's). Of
  // int8 (64, a division): the double SQLite makes of the least int8 divided by -1 is 22003
  db.function('__pg_int_range', { deterministic: true, safeIntegers: true }, (bits: unknown, x: unknown) => {
    const b = Number(bits);
    if (b === 64) {
      if (typeof x === 'number' && x >= 2 ** 63) throw sqlStateError('22003', 'bigint out of range');
      return x as never;
    }
    if (typeof x !== 'bigint' && !(typeof x === 'number' && Number.isInteger(x))) return x as never;
    const max = b === 16 ? 32767 : 2147483647;
    if (x > max || x < -max - 1) throw sqlStateError('22003', `${b === 16 ? 'smallint' : 'integer'} out of range`);
    return x;
  });
  // dates, timestamps and intervals are finite unless they are PostgreSQL's 'infinity' or '-infinity'
  fn('isfinite', (v) => (/^\s*[-+]?infinity\s*$/i.test(String(v)) ? 0 : 1));
  // bit_and / bit_or / bit_xor of integers: NULL over no rows (or only NULLs)
  const bits = (name: string, op: (a: bigint, b: bigint) => bigint) =>
    db.aggregate(name, {
      safeIntegers: true,
      start: () => null as bigint | null,
      step: (acc: bigint | null, v: unknown) =>
        v === null ? acc : acc === null ? whole(v, name) : op(acc, whole(v, name)),
      result: (acc: bigint | null) => (acc === null ? null : int(acc)),
    });
  bits('bit_and', (a, b) => a & b);
  bits('bit_or', (a, b) => a | b);
  bits('bit_xor', (a, b) => a ^ b);
}
