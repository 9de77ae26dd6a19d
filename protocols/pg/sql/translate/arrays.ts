// PostgreSQL arrays, which Patina keeps as PostgreSQL's text form ('{a,b}'): ARRAY[...] and
// ARRAY(SELECT ...) build that text, `= ANY(...)` and `<> ALL(...)` become IN and NOT IN over the
// elements, and `x[n]` takes the n-th element (1-based), through the agent's __pg_* functions.
import { pgError } from '../../sqlstate';
import { type Tok, NOT_FUNCTIONS, closerIndex, isOp, isPunct, isWord, openerBefore } from '../tokens';

/** The bracket closing toks[i]; an unclosed one is PostgreSQL's syntax error (the statement ends inside it). */
function closed(toks: Tok[], i: number, open: string, close: string): number {
  const at = closerIndex(toks, i, open, close);
  if (at < 0) throw pgError('42601', 'syntax error at end of input');
  return at;
}

/** ARRAY[...], ARRAY(SELECT ...), = ANY(...), <> ALL(...). Arrays are PostgreSQL text ('{a,b}'). */
export function rewriteArrays(toks: Tok[]): Tok[] {
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (
      (isOp(t, '=') || isOp(t, '<>') || isOp(t, '!=')) &&
      (isWord(toks[i + 1], 'ANY') || isWord(toks[i + 1], 'SOME') || isWord(toks[i + 1], 'ALL')) &&
      isPunct(toks[i + 2], '(')
    ) {
      const negate = !isOp(t, '=');
      const close = closed(toks, i + 2, '(', ')');
      const inner = toks.slice(i + 3, close);
      let repl: Tok[];
      if (isWord(inner[0], 'SELECT') || isWord(inner[0], 'WITH') || isWord(inner[0], 'VALUES')) {
        // x = ANY (SELECT ...): the subquery form, which is IN (SELECT ...)
        repl = [{ type: 'punct', text: '(' }, ...inner, { type: 'punct', text: ')' }];
      } else if (isWord(inner[0], 'ARRAY') && isPunct(inner[1], '[')) {
        repl = [
          { type: 'punct', text: '(' },
          ...inner.slice(2, closed(inner, 1, '[', ']')),
          { type: 'punct', text: ')' },
        ];
      } else {
        repl = [{ type: 'group', text: '(SELECT value FROM __pg_elems(' }, ...inner, { type: 'group', text: '))' }];
      }
      const op: Tok[] = negate
        ? [
            { type: 'word', text: 'NOT' },
            { type: 'word', text: 'IN' },
          ]
        : [{ type: 'word', text: 'IN' }];
      toks.splice(i, close - i + 1, ...op, ...repl);
      continue;
    }
    if (isWord(t, 'ARRAY') && isPunct(toks[i + 1], '[')) {
      const close = closed(toks, i + 1, '[', ']');
      toks.splice(
        i,
        close - i + 1,
        { type: 'word', text: '__pg_array' },
        { type: 'punct', text: '(' },
        ...toks.slice(i + 2, close),
        { type: 'punct', text: ')' },
      );
      continue;
    }
    // (expr)[n] and name[n]: an element of a PostgreSQL array (text '{a,b}'), 1-based
    if (
      isPunct(t, '[') &&
      !isPunct(toks[i + 1], ']') &&
      i > 0 &&
      (isPunct(toks[i - 1], ')') ||
        ((toks[i - 1].type === 'word' || toks[i - 1].type === 'quoted') && !isWord(toks[i - 1], 'ARRAY')))
    ) {
      const close = closed(toks, i, '[', ']');
      let start = i - 1;
      if (isPunct(toks[start], ')')) {
        start = openerBefore(toks, start, '(', ')');
        if (start > 0 && toks[start - 1].type === 'word' && !NOT_FUNCTIONS.has(toks[start - 1].text.toUpperCase()))
          start--;
      }
      while (
        start > 1 &&
        isPunct(toks[start - 1], '.') &&
        (toks[start - 2].type === 'word' || toks[start - 2].type === 'quoted')
      )
        start -= 2;
      const elem: Tok[] = [
        { type: 'word', text: '__pg_elem' },
        { type: 'punct', text: '(' },
        ...toks.slice(start, i),
        { type: 'punct', text: ',' },
        ...toks.slice(i + 1, close),
        { type: 'punct', text: ')' },
      ];
      toks.splice(start, close - start + 1, ...elem);
      i = start;
      continue;
    }
    if (isWord(t, 'ARRAY') && isPunct(toks[i + 1], '(')) {
      const close = closed(toks, i + 1, '(', ')');
      toks.splice(i, close - i + 1, { type: 'group', text: '(WITH __a(v) AS (' }, ...toks.slice(i + 2, close), {
        type: 'group',
        text: ') SELECT __pg_array_agg(v) FROM __a)',
      });
    }
  }
  return toks;
}
