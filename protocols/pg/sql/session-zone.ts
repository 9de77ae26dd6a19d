// The session's TimeZone while a statement is analysed and translated (the Analyzer sets it; null
// for UTC, which needs nothing): a timestamptz literal without an offset is read in it, and the
// functions that read or print a timestamptz per row are given it (::timestamptz of text, a
// timestamptz made text, to_char). The analysis of a session is kept per zone (Analyzer.cached).
import { castTimestamptz, castTimestamptzIn, setDayZone } from '../../../src/engine/dates';
import { quoteString } from './lexer';

let zone: string | null = null;
/** The zone a literal is read in: the session's when the statement was prepared, as PostgreSQL reads it at Parse. */
let literalZone: string | null = null;

/**
 * Runs `fn` (synchronous) with `z` as the session's zone the translation reads, and `lz` as the
 * zone its literals are read in (a statement prepared before `SET TIME ZONE` keeps the instants its
 * literals were read as then, and computes and prints in the zone of now, as in PostgreSQL).
 */
export function withSessionZone<T>(z: string | null, fn: () => T, lz: string | null = z): T {
  const before = zone;
  const literalBefore = literalZone;
  zone = z;
  literalZone = lz;
  // ('today' in a literal is the date in the zone literals are read in)
  const dayBefore = setDayZone(lz);
  try {
    return fn();
  } finally {
    zone = before;
    literalZone = literalBefore;
    setDayZone(dayBefore);
  }
}

/** The session's zone when it is not UTC, while a statement is translated; else null. */
export const sessionZone = (): string | null => zone;

/** The zone a timestamptz literal without an offset is read in, when it is not UTC; else null. */
export const literalSessionZone = (): string | null => literalZone;

/** The session's zone as an SQL string literal (the argument of the per-row functions). */
export const sessionZoneLiteral = (): string => quoteString(zone ?? 'UTC');

/** ::timestamptz of text in the session's zone (castTimestamptz when it is UTC). */
export const castTimestamptzHere = (v: unknown): string | null =>
  literalZone === null ? castTimestamptz(v) : castTimestamptzIn(v, literalZone);

/** __pg_text's kind for a value of `kind` made text: a timestamptz's carries the session's zone ('timestamptz@Europe/Paris', 'timestamptz#sql,dmy@Europe/Paris'). */
export const zonedTextKind = (kind: string): string =>
  zone !== null && /^(?:datearray:)?timestamptz(?:#|$)/.test(kind) ? `${kind}@${zone}` : kind;
