// The session's TimeZone while a statement is analysed and translated (the Analyzer sets it; null
// for UTC, which needs nothing): a timestamptz literal without an offset is read in it, and the
// functions that read or print a timestamptz per row are given it (::timestamptz of text, a
// timestamptz made text, to_char). The analysis of a session is kept per zone (Analyzer.cached).
import { castTimestamptz, castTimestamptzIn } from '../../../src/engine/dates';
import { quoteString } from './lexer';

let zone: string | null = null;

/** Runs `fn` (synchronous) with `z` as the session's zone the translation reads. */
export function withSessionZone<T>(z: string | null, fn: () => T): T {
  const before = zone;
  zone = z;
  try {
    return fn();
  } finally {
    zone = before;
  }
}

/** The session's zone when it is not UTC, while a statement is translated; else null. */
export const sessionZone = (): string | null => zone;

/** The session's zone as an SQL string literal (the argument of the per-row functions). */
export const sessionZoneLiteral = (): string => quoteString(zone ?? 'UTC');

/** ::timestamptz of text in the session's zone (castTimestamptz when it is UTC). */
export const castTimestamptzHere = (v: unknown): string | null =>
  zone === null ? castTimestamptz(v) : castTimestamptzIn(v, zone);

/** __pg_text's kind for a value of `kind` made text: a timestamptz's carries the session's zone ('timestamptz@Europe/Paris'). */
export const zonedTextKind = (kind: string): string =>
  zone !== null && (kind === 'timestamptz' || kind === 'datearray:timestamptz') ? `${kind}@${zone}` : kind;
