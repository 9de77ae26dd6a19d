// The session's output styles (IntervalStyle, bytea_output, DateStyle) while a statement is
// translated (the Analyzer sets them, as it sets the zone in session-zone.ts): a value made text in
// the query (a cast to text, `||`, concat, format) prints in them, as PostgreSQL's output functions
// do, so __pg_text is told the style in its kind ('interval@sql_standard', 'bytea@escape',
// 'date#sql,dmy'); its literals are read in its input style (DateStyle's order, IntervalStyle
// sql_standard's signs), and a cast per row is told it. The analyses of a session are kept per
// styles (Analyzer.cached).
import { type InputStyle, withInputStyle } from '../../../src/engine/dates';
import { DEFAULT_STYLES, inputStyleIn, type OutputStyles } from '../types/output-styles';

let styles: OutputStyles = DEFAULT_STYLES;

/**
 * Runs `fn` (synchronous) with `s` as the session's styles the translation reads, and literals read
 * in input style `literalStyle` (a statement prepared before `SET DateStyle` or `SET IntervalStyle`
 * keeps the dates and intervals its literals were read as then, as PostgreSQL reads a literal at Parse).
 */
export function withOutputStyles<T>(s: OutputStyles, fn: () => T, literalStyle: InputStyle = inputStyleIn(s)): T {
  const before = styles;
  styles = s;
  try {
    return withInputStyle(literalStyle, fn);
  } finally {
    styles = before;
  }
}

/** The abbreviation of the session's zone when it is UTC under another name ('GMT'), while a statement is translated; else null. */
export const sessionUtcName = (): string | null => styles.utcName ?? null;

/** default_text_search_config while a statement is translated, when it is not english (PostgreSQL's default); else null. */
export const sessionTextSearchConfig = (): string | null => styles.textSearch ?? null;

/** The session's input style while a statement is translated, which a cast of text per row reads in. */
export const sessionInputStyle = (): InputStyle => inputStyleIn(styles);

/** The SQL arguments a cast of text to a date, timestamp or interval per row takes after its operand: the input style when not MDY. */
export const inputStyleArgument = (): string => {
  const style = inputStyleIn(styles);
  return style === 'mdy' ? '' : `, '${style}'`;
};

/**
 * __pg_text's kind for a value of `kind` made text in the session's styles; null where SQLite's text
 * of the stored value is already it (an interval is stored in the postgres style).
 */
export function styledTextKind(kind: string): string | null {
  if (styles.date.output !== 'iso' && DATED_KINDS.has(kind))
    return `${kind}#${styles.date.output},${styles.date.order}${styles.date.utc ? `,${styles.date.utc}` : ''}`;
  if (kind === 'interval') return styles.interval === 'postgres' ? null : `interval@${styles.interval}`;
  if (kind === 'bytea' && styles.bytea === 'escape') return 'bytea@escape';
  if (kind === 'byteaarray') return styles.bytea === 'escape' ? 'byteaarray@escape' : null;
  return kind;
}

/** The kinds DateStyle prints: dates, timestamps and arrays of them. */
const DATED_KINDS = new Set([
  'date',
  'timestamp',
  'timestamptz',
  'datearray:date',
  'datearray:timestamp',
  'datearray:timestamptz',
]);
