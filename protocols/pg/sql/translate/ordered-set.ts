// The ordered-set aggregates BI tools use for medians and quantiles: `percentile_cont(f) WITHIN
// GROUP (ORDER BY x)`, `percentile_disc(f) WITHIN GROUP (...)` and `mode() WITHIN GROUP (...)`
// become the agent's aggregates __pg_percentile_cont(f, x), __pg_percentile_disc(f, x) and
// __pg_mode(x) (src/engine/pg-statistics.ts); ORDER BY x DESC reads the fraction from the other end.
// A fraction may be an array (`percentile_cont(ARRAY[0.25, 0.75])`): the array of the values.
// The hypothetical-set aggregates `rank(h)`, `dense_rank(h)`, `percent_rank(h)` and `cume_dist(h)
// WITHIN GROUP (ORDER BY x [DESC] [NULLS FIRST|LAST])` (where h would fall among the group's x)
// become counts of the rows before it or its peers in that order (hypothetical()).
// Other WITHIN GROUP forms are left to be refused as 0A000.
import { pgError } from '../../sqlstate';
import { type Tok, closer, isPunct, isWord } from '../tokens';

const ORDERED_SET = new Set(['PERCENTILE_CONT', 'PERCENTILE_DISC', 'MODE']);
const HYPOTHETICAL = new Set(['RANK', 'DENSE_RANK', 'PERCENT_RANK', 'CUME_DIST']);

export function rewriteOrderedSet(toks: Tok[]): Tok[] {
  if (!toks.some((t) => isWord(t, 'WITHIN'))) return toks;
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (t.type !== 'word' || !isPunct(toks[i + 1], '(')) continue;
    const upper = t.text.toUpperCase();
    if (!ORDERED_SET.has(upper) && !HYPOTHETICAL.has(upper)) continue;
    const argsEnd = closer(toks, i + 1);
    if (argsEnd < 0 || !isWord(toks[argsEnd + 1], 'WITHIN') || !isWord(toks[argsEnd + 2], 'GROUP')) continue;
    const open = argsEnd + 3;
    if (!isPunct(toks[open], '(') || !isWord(toks[open + 1], 'ORDER') || !isWord(toks[open + 2], 'BY')) continue;
    const close = closer(toks, open);
    if (close < 0) continue;
    if (HYPOTHETICAL.has(upper)) {
      const call = hypothetical(upper.toLowerCase(), toks.slice(i + 2, argsEnd), toks.slice(open + 3, close));
      toks = [...toks.slice(0, i), ...call, ...toks.slice(close + 1)];
      continue;
    }
    let key = toks.slice(open + 3, close);
    let desc = false;
    const last = key[key.length - 1];
    if (isWord(last, 'DESC') || isWord(last, 'ASC')) {
      desc = isWord(last, 'DESC');
      key = key.slice(0, -1);
    }
    if (key.some((k, j) => isPunct(k, ',') && !inParens(key, j)))
      throw pgError('0A000', `${t.text.toLowerCase()}() WITHIN GROUP with more than one ORDER BY key is not supported`);
    // (of an interval key the analysis marked it: sql/window-frames.ts markOrderedSetKeys)
    // (of a numeric key of known scale with an array of fractions, 'pct-disc-at:s': its values at s)
    const mark = 'sortKey' in t ? t.sortKey : undefined;
    const scale = mark?.startsWith('pct-disc-at:') ? mark.slice('pct-disc-at:'.length) : undefined;
    const name =
      mark === 'pct-interval'
        ? 'percentile_cont_interval'
        : scale !== undefined
          ? 'percentile_disc_at'
          : t.text.toLowerCase();
    const args = toks.slice(i + 2, argsEnd);
    const call: Tok[] = [
      { type: 'word', text: `__pg_${name}` },
      { type: 'punct', text: '(' },
    ];
    if (name !== 'mode') {
      if (args.length === 0) throw pgError('42883', `function ${name}() needs a fraction`);
      call.push({ type: 'punct', text: '(' }, ...args, { type: 'punct', text: ')' }, { type: 'punct', text: ',' });
      call.push({ type: 'number', text: desc ? '1' : '0' }, { type: 'punct', text: ',' });
    } else if (args.length > 0) throw pgError('42883', 'function mode() takes no argument before WITHIN GROUP');
    call.push(...key);
    if (scale !== undefined) call.push({ type: 'punct', text: ',' }, { type: 'number', text: scale });
    call.push({ type: 'punct', text: ')' });
    toks = [...toks.slice(0, i), ...call, ...toks.slice(close + 1)];
  }
  return toks;
}

/** Whether toks[j] is inside parentheses within `key`. */
function inParens(key: Tok[], j: number): boolean {
  let depth = 0;
  for (let k = 0; k < j; k++) {
    if (isPunct(key[k], '(')) depth++;
    else if (isPunct(key[k], ')')) depth--;
  }
  return depth > 0;
}

/**
 * `rank(h) WITHIN GROUP (ORDER BY x ...)` as counts: the rows before h in the order (x < h, or > for
 * DESC; NULLs first or last as the order puts them) and its peers (x = h, or both NULL). rank is 1 +
 * those before, dense_rank 1 + their distinct values, percent_rank those before over the rows (0 of
 * none), cume_dist those before or peers and h itself over the rows and h, as PostgreSQL's
 * hypothetical_rank_final and its kin compute them.
 */
function hypothetical(name: string, args: Tok[], order: Tok[]): Tok[] {
  if (
    args.some((k, j) => isPunct(k, ',') && !inParens(args, j)) ||
    order.some((k, j) => isPunct(k, ',') && !inParens(order, j))
  )
    throw pgError('0A000', `${name}() WITHIN GROUP with more than one argument and ORDER BY key is not supported`);
  if (args.length === 0) throw pgError('42883', `function ${name}() does not exist`);
  let key = order;
  let desc = false;
  let nullsFirst: boolean | undefined;
  const at = (k: number, w: string) => isWord(key[key.length - k], w);
  if (at(2, 'NULLS') && (at(1, 'FIRST') || at(1, 'LAST'))) {
    nullsFirst = at(1, 'FIRST');
    key = key.slice(0, -2);
  }
  if (at(1, 'DESC') || at(1, 'ASC')) {
    desc = at(1, 'DESC');
    key = key.slice(0, -1);
  }
  nullsFirst ??= desc;
  const g = (text: string): Tok => ({ type: 'group', text });
  const x = (): Tok[] => [g('('), ...key, g(')')];
  const h = (): Tok[] => [g('('), ...args, g(')')];
  // before: both set and x first in the order, or x NULL and h not where NULLs come first (else the other way)
  const before = (): Tok[] => [
    g('(('),
    ...x(),
    g('IS NOT NULL AND'),
    ...h(),
    g('IS NOT NULL AND'),
    ...x(),
    g(desc ? '>' : '<'),
    ...h(),
    g(') OR ('),
    ...x(),
    g(nullsFirst ? 'IS NULL AND' : 'IS NOT NULL AND'),
    ...h(),
    g(nullsFirst ? 'IS NOT NULL))' : 'IS NULL))'),
  ];
  const peer = (): Tok[] => [
    g('(('),
    ...x(),
    g('='),
    ...h(),
    g(') OR ('),
    ...x(),
    g('IS NULL AND'),
    ...h(),
    g('IS NULL))'),
  ];
  const countWhen = (cond: Tok[]): Tok[] => [g('count(CASE WHEN'), ...cond, g('THEN 1 END)')];
  switch (name) {
    case 'rank':
      return [g('(1 +'), ...countWhen(before()), g(')')];
    case 'dense_rank':
      // (the rows before h with a NULL x are one more value, which count(DISTINCT) leaves out)
      return [
        g('(1 + count(DISTINCT CASE WHEN'),
        ...before(),
        g('THEN'),
        ...x(),
        g('END) + coalesce(max(CASE WHEN'),
        ...x(),
        g('IS NULL AND'),
        ...before(),
        g('THEN 1 END), 0))'),
      ];
    case 'percent_rank':
      return [g('(CASE WHEN count(*) = 0 THEN 0.0 ELSE'), ...countWhen(before()), g('* 1.0 / count(*) END)')];
    default:
      return [
        g('(('),
        ...countWhen([g('('), ...before(), g('OR'), ...peer(), g(')')]),
        g('+ 1) * 1.0 / (count(*) + 1))'),
      ];
  }
}
