import { isSafeNumber, parse } from 'lossless-json';
import { PatinaError } from '../errors';

/**
 * Parses JSON keeping 64-bit integers exact: integers that a double cannot hold become bigint,
 * every other number a plain number. JSON.parse would round 9223372036854775807.
 * With `integers: 'bigint'` every number written without a fraction or exponent is a bigint, so
 * that SQL parameters bind it as INTEGER and the rest (a JS number) as REAL: request bodies.
 */
export function parseJsonExact(text: string, opts: { integers?: 'bigint' } = {}): unknown {
  const all = opts.integers === 'bigint';
  try {
    return parse(text, null, (digits: string) => {
      if (/^-?\d+$/.test(digits) && (all || !isSafeNumber(digits))) return BigInt(digits);
      return Number(digits);
    });
  } catch (err) {
    throw new PatinaError('user', `malformed JSON: ${(err as Error).message}`);
  }
}
