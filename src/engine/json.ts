import { isSafeNumber, parse } from 'lossless-json';
import { PatinaError } from '../errors';

/**
 * Parses JSON keeping 64-bit integers exact: integers that a double cannot hold become bigint,
 * every other number a plain number. JSON.parse would round 9223372036854775807.
 */
export function parseJsonExact(text: string): unknown {
  try {
    return parse(text, null, (digits: string) => {
      if (/^-?\d+$/.test(digits) && !isSafeNumber(digits)) return BigInt(digits);
      return Number(digits);
    });
  } catch (err) {
    throw new PatinaError('user', `malformed JSON: ${(err as Error).message}`);
  }
}
