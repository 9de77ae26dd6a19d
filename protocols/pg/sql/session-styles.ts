// The session's output styles (IntervalStyle, bytea_output) while a statement is translated (the
// Analyzer sets them, as it sets the zone in session-zone.ts): a value made text in the query (a
// cast to text, `||`, concat, format) prints in them, as PostgreSQL's output functions do, so
// __pg_text is told the style in its kind ('interval@sql_standard', 'bytea@escape'). The
// analyses of a session are kept per styles (Analyzer.cached).
import { DEFAULT_STYLES, type OutputStyles } from '../types/output-styles';

let styles: OutputStyles = DEFAULT_STYLES;

/** Runs `fn` (synchronous) with `s` as the session's styles the translation reads. */
export function withOutputStyles<T>(s: OutputStyles, fn: () => T): T {
  const before = styles;
  styles = s;
  try {
    return fn();
  } finally {
    styles = before;
  }
}

/**
 * __pg_text's kind for a value of `kind` made text in the session's styles; null where SQLite's text
 * of the stored value is already it (an interval is stored in the postgres style).
 */
export function styledTextKind(kind: string): string | null {
  if (kind === 'interval') return styles.interval === 'postgres' ? null : `interval@${styles.interval}`;
  if (kind === 'bytea' && styles.bytea === 'escape') return 'bytea@escape';
  if (kind === 'byteaarray') return styles.bytea === 'escape' ? 'byteaarray@escape' : null;
  return kind;
}
