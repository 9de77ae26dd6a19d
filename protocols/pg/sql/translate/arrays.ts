// PostgreSQL arrays, which Patina keeps as PostgreSQL's text form ('{a,b}'): ARRAY[...] and
// ARRAY(SELECT ...) build that text, `= ANY(...)` and `<> ALL(...)` become IN and NOT IN over the
// elements, `x < ANY (array)` and `x >= ALL (array)` the largest or smallest truth over them, and `x[n]` takes the n-th element (1-based), through the agent's __pg_* functions.
import { pgError } from '../../sqlstate';
import {
  type Tok,
  NOT_FUNCTIONS,
  closerIndex,
  isOp,
  isPunct,
  isWord,
  openerBefore,
  operandStart,
  topLevelItems,
} from '../tokens';
import { quantifiedTruth, valuesOf } from './quantified';
import { NUMERIC_ELEMENTS, elementAtScale } from '../numeric-elements';

const ORDER_OPS = new Set(['<', '>', '<=', '>=']);

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
    // (= ALL and <> ANY are not IN and NOT IN: they are compared element by element below)
    if (
      ((isOp(t, '=') && (isWord(toks[i + 1], 'ANY') || isWord(toks[i + 1], 'SOME'))) ||
        ((isOp(t, '<>') || isOp(t, '!=')) && isWord(toks[i + 1], 'ALL'))) &&
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
      } else if ('arith' in t && t.arith === 'arr-in:jsonb') {
        // (a subquery's words, which typed-arithmetic.ts's IN keys as a subquery's column)
        repl = [
          { type: 'punct', text: '(' },
          { type: 'word', text: 'SELECT' },
          { type: 'group', text: `value FROM ${elems(t)}(` },
          ...inner,
          { type: 'group', text: kindArg(t) },
          { type: 'punct', text: ')' },
        ];
      } else {
        repl = [
          { type: 'group', text: `(SELECT value FROM ${elems(t)}(` },
          ...inner,
          { type: 'group', text: `${kindArg(t)})` },
        ];
      }
      const op: Tok[] = negate
        ? [
            { type: 'word', text: 'NOT' },
            { type: 'word', text: 'IN' },
          ]
        : [{ type: 'word', text: 'IN' }];
      // (the operator's mark, jsonb's 'arr-in:jsonb', to the IN or NOT: typed-arithmetic.ts keys both sides)
      if ('arith' in t && t.arith?.startsWith('arr-in:')) op[0] = { ...op[0], arith: t.arith } as Tok;
      toks.splice(i, close - i + 1, ...op, ...repl);
      continue;
    }
    // x < ANY (array), x >= ALL (array), x = ALL (array), x <> ANY (SELECT ...): whether the
    // comparison holds for some or every element (or row of the subquery, read as a WITH query)
    if (
      t.type === 'op' &&
      (ORDER_OPS.has(t.text) || t.text === '=' || t.text === '<>' || t.text === '!=') &&
      (isWord(toks[i + 1], 'ANY') || isWord(toks[i + 1], 'SOME') || isWord(toks[i + 1], 'ALL')) &&
      isPunct(toks[i + 2], '(')
    ) {
      const all = isWord(toks[i + 1], 'ALL');
      const close = closed(toks, i + 2, '(', ')');
      const query = isWord(toks[i + 3], 'SELECT') || isWord(toks[i + 3], 'WITH') || isWord(toks[i + 3], 'VALUES');
      const value = query ? '__pg_e' : 'value';
      const start = operandStart(toks.slice(0, i));
      if (start < 0 || start >= i) throw pgError('42601', `syntax error at or near "${t.text}"`);
      const left = toks.slice(start, i);
      // true when some (every) element compares true; else NULL when one compared NULL; else false.
      // Over no elements ANY is false and ALL true, as in PostgreSQL.
      // (jsonb, 'jb-quant': each side by its key in jsonb's order, typed-operators.ts' jsonbAnyMark)
      const keyed = 'arith' in t && t.arith === 'jb-quant';
      const key = (x: Tok[]): Tok[] =>
        keyed
          ? [
              { type: 'word', text: '__pg_jsonb_sortkey' },
              { type: 'punct', text: '(' },
              ...x,
              { type: 'punct', text: ')' },
            ]
          : x;
      const c = (): Tok[] => [
        { type: 'punct', text: '(' },
        ...key(left),
        { type: 'op', text: t.text }, // (without the analysis's mark, which this pass has read)
        ...key([{ type: 'word', text: value }]),
        { type: 'punct', text: ')' },
      ];
      const w = (text: string): Tok => ({ type: 'word', text });
      const pu = (text: string): Tok => ({ type: 'punct', text });
      const source: Tok[] = query
        ? [w('__pg_q')]
        : [
            { type: 'group', text: elems(t) },
            pu('('),
            ...toks.slice(i + 3, close),
            { type: 'group', text: kindArg(t) },
          ];
      const repl: Tok[] = [
        pu('('),
        ...(query ? valuesOf(value, toks.slice(i + 3, close)) : []),
        ...quantifiedTruth(all, c, source),
        pu(')'),
      ];
      toks.splice(start, close - start + 1, ...repl);
      i = start;
      continue;
    }
    if (isWord(t, 'ARRAY') && isPunct(toks[i + 1], '[')) {
      const close = closed(toks, i + 1, '[', ']');
      // ARRAY[[1,2],[3,4]] and ARRAY[ARRAY[1,2], ...]: a multi-dimensional array of the sub-arrays
      const items = topLevelItems(toks, i + 2, close);
      // (or ARRAY[a, b] of arrays the analysis typed, sql/array-nesting.ts)
      const nested =
        items.length > 0 &&
        (('arith' in t && t.arith === 'array-nest') ||
          items.every(([a]) => isPunct(toks[a], '[') || (isWord(toks[a], 'ARRAY') && isPunct(toks[a + 1], '['))));
      // (numerics of a known scale, marked so: each printed at it, sql/numeric-elements.ts)
      const scales =
        !nested && 'arith' in t && t.arith?.startsWith(NUMERIC_ELEMENTS)
          ? t.arith.slice(NUMERIC_ELEMENTS.length).split(',')
          : null;
      const inner =
        scales?.length === items.length
          ? items.flatMap(([a, b], k): Tok[] => [
              ...(k > 0 ? [{ type: 'punct', text: ',' } as Tok] : []),
              { type: 'group', text: elementAtScale(scales[k], '\u0000').split('\u0000')[0] },
              ...toks.slice(a, b),
              { type: 'group', text: elementAtScale(scales[k], '\u0000').split('\u0000')[1] ?? '' },
            ])
          : nested
            ? items.flatMap(([a, b], k): Tok[] => [
                ...(k > 0 ? [{ type: 'punct', text: ',' } as Tok] : []),
                ...(isPunct(toks[a], '[') ? [{ type: 'word', text: 'ARRAY' } as Tok] : []),
                ...toks.slice(a, b),
              ])
            : booleanElements(toks.slice(i + 2, close));
      toks.splice(
        i,
        close - i + 1,
        { type: 'word', text: nested ? '__pg_array_nest' : '__pg_array' },
        { type: 'punct', text: '(' },
        ...inner,
        { type: 'punct', text: ')' },
      );
      continue;
    }
    // (expr)[n] and name[n]: an element of a PostgreSQL array (text '{a,b}'), 1-based; [a:b] a slice
    if (
      isPunct(t, '[') &&
      !isPunct(toks[i + 1], ']') &&
      i > 0 &&
      (isPunct(toks[i - 1], ')') ||
        // ($1[1] of a parameter declared an array: a syntax error to SQLite before)
        toks[i - 1].type === 'param' ||
        ((toks[i - 1].type === 'word' || toks[i - 1].type === 'quoted') && !isWord(toks[i - 1], 'ARRAY')))
    ) {
      let close = closed(toks, i, '[', ']');
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
      // x[a:b], x[:b], x[a:]: a slice, the elements between the bounds given
      const colonIn = (from: number, to: number) => {
        let depth = 0;
        for (let k = from; k < to; k++) {
          if (isPunct(toks[k], '(') || isPunct(toks[k], '[')) depth++;
          else if (isPunct(toks[k], ')') || isPunct(toks[k], ']')) depth--;
          else if (depth === 0 && isPunct(toks[k], ':')) return k;
        }
        return -1;
      };
      const colon = colonIn(i + 1, close);
      const bound = (a: number, b: number): Tok[] => (a < b ? toks.slice(a, b) : [{ type: 'word', text: 'NULL' }]);
      // m[i][j], m[1:2][2]: the subscripts of a multi-dimensional array, together
      const subscripts: [number, number][] = [[i, close]];
      while (isPunct(toks[subscripts[subscripts.length - 1][1] + 1], '[')) {
        const open = subscripts[subscripts.length - 1][1] + 1;
        subscripts.push([open, closed(toks, open, '[', ']')]);
      }
      const comma: Tok = { type: 'punct', text: ',' };
      const elem: Tok[] =
        subscripts.length > 1
          ? [
              { type: 'word', text: '__pg_subscripts' },
              { type: 'punct', text: '(' },
              ...toks.slice(start, i),
              comma,
              {
                type: 'string',
                text: `'${subscripts
                  .map(([a, b]) => {
                    const c = colonIn(a + 1, b);
                    return c < 0 ? 'e' : `${c > a + 1 ? 'l' : ''}${b > c + 1 ? 'u' : ''}:`;
                  })
                  .join(',')}'`,
              },
              ...subscripts.flatMap(([a, b]): Tok[] => {
                const c = colonIn(a + 1, b);
                return c < 0
                  ? [comma, ...toks.slice(a + 1, b)]
                  : [comma, ...bound(a + 1, c), comma, ...bound(c + 1, b)];
              }),
              { type: 'punct', text: ')' },
            ]
          : colon < 0
            ? [
                { type: 'word', text: '__pg_elem' },
                { type: 'punct', text: '(' },
                ...toks.slice(start, i),
                { type: 'punct', text: ',' },
                ...toks.slice(i + 1, close),
                { type: 'punct', text: ')' },
              ]
            : [
                { type: 'word', text: '__pg_slice' },
                { type: 'punct', text: '(' },
                ...toks.slice(start, i),
                { type: 'punct', text: ',' },
                ...bound(i + 1, colon),
                { type: 'punct', text: ',' },
                ...bound(colon + 1, close),
                { type: 'punct', text: ',' },
                { type: 'string', text: `'${colon > i + 1 ? 'l' : ''}${close > colon + 1 ? 'u' : ''}'` },
                { type: 'punct', text: ')' },
              ];
      close = subscripts[subscripts.length - 1][1];
      toks.splice(start, close - start + 1, ...elem);
      i = start;
      continue;
    }
    if (isWord(t, 'ARRAY') && isPunct(toks[i + 1], '(')) {
      const close = closed(toks, i + 1, '(', ')');
      // balanced parentheses as tokens, so that a later pass takes the whole as one operand
      toks.splice(
        i,
        close - i + 1,
        { type: 'punct', text: '(' },
        { type: 'word', text: 'WITH' },
        { type: 'group', text: '__a(v)' },
        { type: 'word', text: 'AS' },
        { type: 'punct', text: '(' },
        ...toks.slice(i + 2, close),
        { type: 'punct', text: ')' },
        // (of arrays, the analysis's 'sub-arrays': one more dimension, src/engine/pg-arrays.ts)
        {
          type: 'group',
          text: `SELECT ${'arith' in t && t.arith === 'sub-arrays' ? '__pg_array_sub_arrays' : '__pg_array_agg'}(v) FROM __a`,
        },
        { type: 'punct', text: ')' },
      );
    }
  }
  return toks;
}

/**
 * The elements of `op ANY (arr)` (src/engine/pg-arrays.ts's __pg_elems_as: one NULL for a NULL
 * array, given as x'00' since a table-valued function is not called with NULL, so that the
 * comparison is NULL as in PostgreSQL); of a numeric or boolean array
 * (typed-operators.ts's `elems:kind`) as SQLite holds such values.
 */
const elemsKind = (op: Tok) => ('arith' in op && op.arith?.startsWith('elems:') ? op.arith.slice(6) : '');
const elems = (_op: Tok) => '__pg_elems_as(ifnull';
const kindArg = (op: Tok) => `, x'00'), '${elemsKind(op)}')`;

/**
 * ARRAY[true, false, NULL]'s elements as a boolean array keeps them, 't' and 'f' (SQLite's 1 and 0
 * made '{1,0}', which neither equals a stored '{t,f}' nor prints as PostgreSQL's text).
 */
function booleanElements(elements: Tok[]): Tok[] {
  const words = elements.filter((e) => !isPunct(e, ','));
  const bool = (e: Tok) => isWord(e, 'TRUE') || isWord(e, 'FALSE');
  if (words.length !== Math.ceil(elements.length / 2) || !words.some(bool)) return elements;
  if (!words.every((e) => bool(e) || isWord(e, 'NULL'))) return elements;
  return elements.map((e) => (bool(e) ? { type: 'string', text: isWord(e, 'TRUE') ? "'t'" : "'f'" } : e));
}
