// A char(n) column where PostgreSQL reads its padding (concat, format, to_json, array_agg,
// octet_length, LIKE: sql/char-padding.ts marks it 'chpad:n') becomes its value padded to n, as
// PostgreSQL stores it: `(ch || substr('    ', length(ch) + 1))` (NULL stays NULL; Patina keeps
// char(n) values without their trailing spaces). A varchar column compared with a char(n) (marked
// 'chtrim') loses its trailing spaces, as its cast to bpchar does: `rtrim(vc, ' ')`. One that is
// grouped or deduplicated beside other values (marked 'chpadc:n': DISTINCT coalesce(ch, 'ab'), a
// UNION with a literal) is compared as bpchar compares, its trailing spaces ignored: SQLite's RTRIM
// collation, `((ch || ...) COLLATE RTRIM)`. An expression that hands on a char(n) value (marked
// 'chpadx:n' at its first token, sql/carried-padding.ts: `concat(max(ch))`) is wrapped in
// __pg_text('bpchar:n', ...), which pads it to n.
import { type Tok, isPunct, operandEnd } from '../tokens';

const tok = (type: 'word' | 'punct' | 'op' | 'string' | 'number', text: string): Tok => ({ type, text }) as Tok;

/** The end (exclusive) of the (qualified) name that starts at toks[i]. */
function nameEnd(toks: Tok[], i: number): number {
  let j = i + 1;
  while (isPunct(toks[j], '.') && (toks[j + 1]?.type === 'word' || toks[j + 1]?.type === 'quoted')) j += 2;
  return j;
}

const markOf = (t: Tok) => ('arith' in t ? t.arith : undefined);

/**
 * A parameter marked 'chtrim' (a bpchar parameter where bpchar ignores its trailing spaces:
 * sql/bpchar-casts.ts, or one compared with a char(n) column) as `rtrim($n, ' ')`, before any pass
 * groups it into an operator's operand (`$1 || '|'`), where its mark would be lost.
 */
export function trimMarkedParams<T extends Tok>(toks: T[]): T[] {
  if (!toks.some((t) => t.type === 'param' && markOf(t) === 'chtrim')) return toks;
  return toks.flatMap((t) =>
    t.type === 'param' && markOf(t) === 'chtrim'
      ? ([
          tok('word', 'rtrim'),
          tok('punct', '('),
          { ...t, arith: undefined },
          tok('punct', ','),
          tok('string', "' '"),
          tok('punct', ')'),
        ] as T[])
      : [t],
  );
}

/** The marked char(n) and varchar columns padded and trimmed (see the top of this file). */
export function rewriteCharPadding(toks: Tok[]): Tok[] {
  if (!toks.some((t) => markOf(t)?.startsWith('chpad') || markOf(t) === 'chtrim')) return toks;
  const out: Tok[] = [];
  for (let i = 0; i < toks.length; i++) {
    const mark = markOf(toks[i]);
    const carried = mark?.startsWith('chpadx:') ? operandEnd(toks, i) : -1;
    if (carried >= 0) {
      const expr = [{ ...toks[i], arith: undefined } as Tok, ...rewriteCharPadding(toks.slice(i + 1, carried + 1))];
      out.push(tok('word', '__pg_text'), tok('punct', '('), tok('string', `'bpchar:${mark!.slice(7)}'`));
      out.push(tok('punct', ','), ...expr, tok('punct', ')'));
      i = carried;
      continue;
    }
    if (!mark?.startsWith('chpad') && mark !== 'chtrim') {
      out.push(toks[i]);
      continue;
    }
    const end = nameEnd(toks, i);
    const name = toks.slice(i, end).map((t) => ({ ...t, arith: undefined }) as Tok);
    if (mark === 'chtrim')
      out.push(
        tok('word', 'rtrim'),
        tok('punct', '('),
        ...name,
        tok('punct', ','),
        tok('string', "' '"),
        tok('punct', ')'),
      );
    else {
      const collated = mark.startsWith('chpadc:');
      const spaces = `'${' '.repeat(Number(mark.slice(mark.indexOf(':') + 1)))}'`;
      if (collated) out.push(tok('punct', '('));
      out.push(tok('punct', '('), ...name, tok('op', '||'), tok('word', 'substr'), tok('punct', '('));
      out.push(tok('string', spaces), tok('punct', ','), tok('word', 'length'), tok('punct', '('), ...name);
      out.push(tok('punct', ')'), tok('op', '+'), tok('number', '1'), tok('punct', ')'), tok('punct', ')'));
      if (collated) out.push(tok('word', 'COLLATE'), tok('word', 'RTRIM'), tok('punct', ')'));
    }
    i = end - 1;
  }
  return out;
}
