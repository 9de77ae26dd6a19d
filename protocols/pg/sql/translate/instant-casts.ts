// A date or timestamp beside a later type where PostgreSQL resolves the values to one type (COALESCE,
// GREATEST, LEAST, CASE, IN, a set operation's column: sql/instant-choices.ts marks the first token of
// each value to convert): the value as that type, a date at its midnight, a timestamp read as a wall
// time in the session's zone, as PostgreSQL casts them. It runs first, over the statement's own
// tokens, so that the value's extent is PostgreSQL's and the passes after it see the value within.
import { type PgToken, quoteString } from '../lexer';
import { sessionZone } from '../session-zone';
import { type Tok, closerAfter, isOp, isPunct, isWord, operandEnd, readType } from '../tokens';

const marked = (t: Tok | undefined) => t !== undefined && 'asInstant' in t && !!t.asInstant;

/** The tokens with each marked value wrapped in its conversion (__pg_timestamp, __pg_timestamptz[_in]). */
export function rewriteInstantCasts(toks: PgToken[]): PgToken[] {
  if (!toks.some(marked)) return toks;
  const out: PgToken[] = [];
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (!marked(t)) {
      out.push(t);
      continue;
    }
    const [code, name] = splitMark(t.asInstant ?? '');
    const end = valueEnd(toks, i);
    // (the value's own marked parts inside it: coalesce(coalesce(d, ts), tz))
    const value = rewriteInstantCasts([{ ...t, asInstant: undefined }, ...toks.slice(i + 1, end + 1)]);
    out.push(...conversion(code, value));
    if (name !== undefined) out.push({ type: 'word', text: 'AS' }, { type: 'quoted', text: quoteName(name) });
    i = end;
  }
  return out;
}

/** A mark's conversion ('s', 'z') and the name an unaliased select item keeps, if any. */
function splitMark(mark: string): [string, string | undefined] {
  const colon = mark.indexOf(':');
  return colon < 0 ? [mark, undefined] : [mark.slice(0, colon), mark.slice(colon + 1)];
}

const quoteName = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The value as a timestamp ('s') or a timestamptz ('z': a wall time in the session's zone). */
function conversion(code: string, value: PgToken[]): PgToken[] {
  const open: PgToken = { type: 'punct', text: '(' };
  const close: PgToken = { type: 'punct', text: ')' };
  if (code === 's') return [{ type: 'word', text: '__pg_timestamp' }, open, ...value, close];
  const zone = sessionZone();
  if (zone === null) return [{ type: 'word', text: '__pg_timestamptz' }, open, ...value, close];
  return [
    { type: 'word', text: '__pg_timestamptz_in' },
    open,
    ...value,
    { type: 'punct', text: ',' },
    { type: 'string', text: quoteString(zone) },
    close,
  ];
}

/**
 * The index of the last token of the value that starts at toks[j]: operands joined by operators,
 * each with its casts (`::date`), subscripts and a type's literal (`date '2024-01-02'`). It stops
 * at what ends a value in a list: a comma, a closing bracket, a keyword (THEN, END, AS, FROM), an alias.
 */
function valueEnd(toks: Tok[], j: number): number {
  let end = operand(toks, j);
  for (;;) {
    const next = toks[end + 1];
    if (isPunct(next, '[')) end = closerAfter(toks, end + 1, '[', ']');
    else if (isOp(next, '::')) end = readType(toks, end + 2).end - 1;
    else if (next?.type === 'op' && !isOp(next, '::') && toks[end + 2] !== undefined) end = operand(toks, end + 2);
    else if (isWord(next, 'AT') && isWord(toks[end + 2], 'TIME') && isWord(toks[end + 3], 'ZONE'))
      end = operand(toks, end + 4);
    else return end;
  }
}

/** One operand (operandEnd's), a type's literal (`timestamp '...'`) as one. */
function operand(toks: Tok[], j: number): number {
  const end = operandEnd(toks, j);
  if (end < 0) return toks.length - 1;
  return isWord(toks[end]) && toks[end + 1]?.type === 'string' ? end + 1 : end;
}
