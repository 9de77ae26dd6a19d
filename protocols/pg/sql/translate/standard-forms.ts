// SQL-standard spellings PostgreSQL reads and SQLite's grammar lacks, as ORMs and query builders
// write them: `position(a IN b)`, `substring(x FROM a FOR b)`, `trim(BOTH c FROM x)`,
// `OFFSET n ROWS FETCH FIRST m ROWS ONLY` (SQLAlchemy's fetch(), Hibernate, jOOQ) and an OFFSET
// without a LIMIT (SQLite needs one). Each becomes the SQLite call or clause of the same meaning.
import { pgError } from '../../sqlstate';
import { roundedCount } from '../limit-signs';
import { type Tok, closer, isOp, isPunct, isWord, joinTokens, topLevelItems } from '../tokens';
import { ZIPPED_FUNCTIONS, ZIP_CALLS } from '../../../../src/engine/pg-arrays';
import { zipCall } from './srf-zip';
import { ONE_COLUMN_SET_RETURNING, RECORD_SET_RETURNING } from '../type-signatures';

const word = (text: string): Tok => ({ type: 'word', text });
const punct = (text: string): Tok => ({ type: 'punct', text });

/** Indexes of the top-level (depth 0) words `w` inside toks[from, to). */
function topLevel(toks: readonly Tok[], from: number, to: number, w: string): number[] {
  const at: number[] = [];
  let depth = 0;
  for (let i = from; i < to; i++) {
    if (isPunct(toks[i], '(')) depth++;
    else if (isPunct(toks[i], ')')) depth--;
    else if (depth === 0 && isWord(toks[i], w)) at.push(i);
  }
  return at;
}

const call = (name: string, args: Tok[][]): Tok[] => [
  word(name),
  punct('('),
  ...args.flatMap((a, k) => (k === 0 ? a : [punct(','), ...a])),
  punct(')'),
];

/** Whether an argument is a string literal or a parameter (PostgreSQL's unknown, read as text beside a text pattern). */
const textual = (arg: Tok[]) => arg.length === 1 && (arg[0].type === 'string' || arg[0].type === 'param');

/** The SQLite call for a `position`, `substring`, `overlay` or `trim` whose arguments use keywords, or null. */
function standardCall(name: string, args: Tok[]): Tok[] | null {
  const end = args.length;
  if (name === 'POSITION') {
    const at = topLevel(args, 0, end, 'IN');
    if (at.length !== 1) return null;
    return call('instr', [args.slice(at[0] + 1), args.slice(0, at[0])]);
  }
  if (name === 'SUBSTRING') {
    // substring(x SIMILAR p ESCAPE e): the SQL regular expression's marked part (pg-similar-substring.ts)
    const similar = topLevel(args, 0, end, 'SIMILAR');
    const escapeAt = topLevel(args, 0, end, 'ESCAPE');
    if (similar.length === 1 && escapeAt.length === 1 && similar[0] < escapeAt[0])
      return call('__pg_similar_substring', [
        args.slice(0, similar[0]),
        args.slice(similar[0] + 1, escapeAt[0]),
        args.slice(escapeAt[0] + 1),
      ]);
    const from = topLevel(args, 0, end, 'FROM');
    const forAt = topLevel(args, 0, end, 'FOR');
    // substring(x, 'pattern', 'escape') and substring(x, 'regex'), called with commas: text arguments
    // are the SIMILAR and the regular-expression forms, as PostgreSQL resolves them (not positions)
    const commas = similar.length + from.length + forAt.length === 0 ? topLevelCommas(args) : [];
    const parts = [0, ...commas.map((c) => c + 1)].map((a, k) => args.slice(a, commas[k] ?? end));
    const literal = parts.slice(1).some((p) => p.length === 1 && p[0].type === 'string');
    if (parts.length === 3 && literal && textual(parts[1]) && textual(parts[2]))
      return call('__pg_similar_substring', parts);
    if (parts.length === 2 && parts[1].length === 1 && parts[1][0].type === 'string')
      return call('__pg_substring_regex', parts);
    if (from.length > 1 || forAt.length > 1 || (from.length === 0 && forAt.length === 0)) return null;
    const x = args.slice(0, from[0] ?? forAt[0]);
    const start = from.length ? args.slice(from[0] + 1, forAt[0] ?? end) : [{ type: 'number', text: '1' } as Tok];
    // substring(x FROM 'pattern' FOR 'escape'), text where PostgreSQL's would be integers: the SIMILAR form
    const esc = forAt.length ? args.slice(forAt[0] + 1) : [];
    if (textual(start) && textual(esc) && [start[0], esc[0]].some((t) => t.type === 'string'))
      return call('__pg_similar_substring', [x, start, esc]);
    // substring(x FROM 'pattern') is a regular expression match in PostgreSQL: the first
    // parenthesised group's text, or the whole match
    if (start.length === 1 && start[0].type === 'string' && !forAt.length)
      return call('__pg_substring_regex', [x, start]);
    return call('__pg_substr', forAt.length ? [x, start, args.slice(forAt[0] + 1)] : [x, start]);
  }
  if (name === 'OVERLAY') {
    // overlay(x PLACING y FROM a [FOR b])
    const placing = topLevel(args, 0, end, 'PLACING');
    const from = topLevel(args, 0, end, 'FROM');
    const forAt = topLevel(args, 0, end, 'FOR');
    if (placing.length !== 1 || from.length !== 1 || forAt.length > 1) return null;
    const x = args.slice(0, placing[0]);
    const y = args.slice(placing[0] + 1, from[0]);
    const a = args.slice(from[0] + 1, forAt[0] ?? end);
    return call('__pg_overlay', forAt.length ? [x, y, a, args.slice(forAt[0] + 1)] : [x, y, a]);
  }
  if (name === 'TRIM') {
    let i = 0;
    // (btrim, ltrim and rtrim, which words.ts makes PostgreSQL's: a bytea's bytes trimmed as bytes)
    let fn = 'btrim';
    if (isWord(args[0], 'BOTH') || isWord(args[0], 'LEADING') || isWord(args[0], 'TRAILING')) {
      fn = isWord(args[0], 'LEADING') ? 'ltrim' : isWord(args[0], 'TRAILING') ? 'rtrim' : 'btrim';
      i = 1;
    }
    const from = topLevel(args, i, end, 'FROM');
    if (from.length !== 1) return i === 0 ? null : call(fn, [args.slice(i)]);
    const chars = args.slice(i, from[0]);
    const x = args.slice(from[0] + 1);
    return call(fn, chars.length ? [x, chars] : [x]);
  }
  return null;
}

/** Indexes of the top-level commas inside toks. */
function topLevelCommas(toks: readonly Tok[]): number[] {
  const at: number[] = [];
  let depth = 0;
  toks.forEach((t, i) => {
    if (isPunct(t, '(')) depth++;
    else if (isPunct(t, ')')) depth--;
    else if (depth === 0 && isPunct(t, ',')) at.push(i);
  });
  return at;
}

const sameTokens = (a: readonly Tok[], b: readonly Tok[]) =>
  a.length === b.length && a.every((t, k) => t.type === b[k].type && t.text.toLowerCase() === b[k].text.toLowerCase());

/**
 * string_agg(DISTINCT x, sep [ORDER BY x [ASC|DESC]]) → __pg_string_agg_distinct[_desc](x, sep): SQLite
 * takes DISTINCT with one argument only. PostgreSQL drops repeats by sorting, so the values come out
 * sorted; an ORDER BY of anything but x is PostgreSQL's 42P10.
 */
function distinctStringAgg(args: Tok[]): Tok[] {
  const commas = topLevelCommas(args);
  if (commas.length !== 1)
    throw pgError('42883', 'string_agg(DISTINCT ...) takes two arguments: the value and the delimiter');
  const x = args.slice(0, commas[0]);
  let sep = args.slice(commas[0] + 1);
  let desc = false;
  const order = topLevel(sep, 0, sep.length, 'ORDER');
  if (order.length > 0) {
    const by = sep.slice(order[0] + 2);
    sep = sep.slice(0, order[0]);
    let key = by;
    const last = by[by.length - 1];
    if (last && (isWord(last, 'ASC') || isWord(last, 'DESC'))) {
      desc = isWord(last, 'DESC');
      key = by.slice(0, -1);
    }
    if (!sameTokens(key, x))
      throw pgError('42P10', 'in an aggregate with DISTINCT, ORDER BY expressions must appear in argument list');
  }
  return call(desc ? '__pg_string_agg_distinct_desc' : '__pg_string_agg_distinct', [x, sep]);
}

/**
 * position(a IN b), substring(x FROM a FOR b), substring(x FROM 'regex'), overlay(x PLACING y FROM a
 * [FOR b]), trim([BOTH|LEADING|TRAILING] [c] FROM x), innermost
 * first; string_agg(DISTINCT x, sep).
 */
export function rewriteStandardCalls(toks: Tok[]): Tok[] {
  for (let i = toks.length - 3; i >= 0; i--)
    if (isWord(toks[i], 'STRING_AGG') && isPunct(toks[i + 1], '(') && isWord(toks[i + 2], 'DISTINCT')) {
      const close = closer(toks, i + 1);
      if (close > 0) toks.splice(i, close - i + 1, ...distinctStringAgg(toks.slice(i + 3, close)));
    }
  const standard = (t: Tok) =>
    isWord(t, 'POSITION') || isWord(t, 'SUBSTRING') || isWord(t, 'TRIM') || isWord(t, 'OVERLAY');
  if (!toks.some(standard)) return toks;
  for (let i = toks.length - 2; i >= 0; i--) {
    const t = toks[i];
    if (!standard(t) || !isPunct(toks[i + 1], '(')) continue;
    if (isPunct(toks[i - 1], '.')) continue;
    const close = closer(toks, i + 1);
    if (close < 0) continue;
    const repl = standardCall(t.text.toUpperCase(), toks.slice(i + 2, close));
    if (repl) toks.splice(i, close - i + 1, ...repl);
  }
  return toks;
}

/**
 * `OFFSET n ROW[S]` and `FETCH {FIRST|NEXT} [n] ROW[S] ONLY` → SQLite's `LIMIT n OFFSET m`; an
 * OFFSET with no LIMIT gets `LIMIT -1` (no limit), which SQLite's grammar requires before it, as
 * does `LIMIT ALL`.
 */
export function rewriteFetchFirst(toks: Tok[]): Tok[] {
  // LIMIT ALL and LIMIT NULL (no limit) are SQLite's LIMIT -1, OFFSET NULL is 0, and a parameter
  // there may be NULL too (SQLite's datatype mismatch otherwise) or negative: __pg_limit_count makes
  // NULL the no-limit value and refuses a negative count as PostgreSQL does (2201W, 2201X; SQLite
  // read LIMIT -1 as no limit and gave every row)
  const counted = (i: number) => isWord(toks[i - 1], 'LIMIT') || isWord(toks[i - 1], 'OFFSET');
  // (`LIMIT -0.4` is 0, as it rounds: limit-signs.ts let it through; most statements have no count)
  if (toks.some((t) => isWord(t, 'LIMIT') || isWord(t, 'OFFSET')))
    toks = toks.filter(
      (t, i) =>
        !(
          isOp(t, '-') &&
          counted(i) &&
          toks[i + 1]?.type === 'number' &&
          countEnds(toks[i + 2]) &&
          roundedCount(toks[i + 1].text) === 0n
        ),
    );
  if (toks.some((t, i) => counted(i)))
    toks = toks.map((t, i) => {
      const limit = isWord(toks[i - 1], 'LIMIT');
      if (!limit && !isWord(toks[i - 1], 'OFFSET')) return t;
      const none = limit ? '-1' : '0';
      if ((limit && isWord(t, 'ALL')) || isWord(t, 'NULL')) return { type: 'number', text: none };
      if (t.type === 'number' && countEnds(toks[i + 1])) return wholeCount(t);
      if (t.type === 'param' && (toks[i + 1] === undefined || toks[i + 1].type !== 'op')) return limitCount(t, limit);
      return t;
    });
  toks = wrapComputedCounts(toks);
  if (!toks.some((t) => isWord(t, 'OFFSET') || isWord(t, 'FETCH'))) return toks;
  const depthAt: number[] = [];
  let depth = 0;
  for (const t of toks) {
    if (isPunct(t, ')')) depth--;
    depthAt.push(depth);
    if (isPunct(t, '(')) depth++;
  }
  /** The index where the clauses of the query level of toks[i] begin (after its '(' or at 0). */
  const levelStart = (i: number) => {
    let k = i;
    while (k > 0 && !(depthAt[k - 1] < depthAt[i])) k--;
    return k;
  };
  /**
   * The end of an expression at toks[i] in this level: up to ROW(S), a clause word, ';' or the level's
   * ')' (whose depth is the level's outside; a ')' of the level's depth closes a group in the count,
   * `__pg_limit_count(1 + 1, 1)`, which an OFFSET before the LIMIT used to cut off)
   */
  const valueEnd = (i: number) => {
    let k = i;
    while (
      k < toks.length &&
      depthAt[k] >= depthAt[i] &&
      !(
        depthAt[k] === depthAt[i] &&
        (isPunct(toks[k], ';') ||
          ['ROW', 'ROWS', 'FETCH', 'OFFSET', 'LIMIT', 'FOR', 'UNION', 'EXCEPT', 'INTERSECT'].some((w) =>
            isWord(toks[k], w),
          ))
      )
    )
      k++;
    return k;
  };
  const out: Tok[] = [];
  // Positions in `out` of the OFFSET of each level (by the index where the level starts)
  const offsetAt = new Map<number, number>();
  const limited = new Set<number>();
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (!isWord(t, 'LIMIT') && !isWord(t, 'OFFSET') && !isWord(t, 'FETCH')) {
      out.push(t);
      continue;
    }
    const level = levelStart(i);
    if (isWord(t, 'LIMIT')) {
      limited.add(level);
      const off = offsetAt.get(level);
      const end = valueEnd(i + 1);
      const all = end === i + 2 && isWord(toks[i + 1], 'ALL');
      const limit = all ? [t, { type: 'number', text: '-1' } as Tok] : toks.slice(i, end);
      // OFFSET n LIMIT m, which PostgreSQL reads too: the LIMIT goes first
      if (off !== undefined && isWord(out[off], 'LIMIT')) out.splice(off, 2, ...limit);
      else out.push(...limit);
      i = end - 1;
      continue;
    }
    if (isWord(t, 'OFFSET')) {
      const end = valueEnd(i + 1);
      offsetAt.set(level, out.length);
      out.push(...(limited.has(level) ? [] : [word('LIMIT'), { type: 'number', text: '-1' } as Tok]), t);
      out.push(...toks.slice(i + 1, end));
      i = end - 1;
      if (isWord(toks[end], 'ROW') || isWord(toks[end], 'ROWS')) i = end;
      continue;
    }
    if (isWord(t, 'FETCH') && (isWord(toks[i + 1], 'FIRST') || isWord(toks[i + 1], 'NEXT'))) {
      let k = i + 2;
      const end = isWord(toks[k], 'ROW') || isWord(toks[k], 'ROWS') ? k : valueEnd(k);
      let count = end > k ? toks.slice(k, end) : [{ type: 'number', text: '1' } as Tok];
      // a NULL count is no limit, as LIMIT NULL (SQLite's datatype mismatch); a parameter's NULL too,
      // by limitCount below, which also refuses its negative value
      if (count.length === 1 && isWord(count[0], 'NULL')) count = [{ type: 'number', text: '-1' } as Tok];
      if (count.length === 1 && count[0].type === 'number') count = [wholeCount(count[0])];
      k = end;
      if (isWord(toks[k], 'ROW') || isWord(toks[k], 'ROWS')) k++;
      if (!isWord(toks[k], 'ONLY')) {
        out.push(t);
        continue; // WITH TIES: left for SQLite to refuse
      }
      // (a parameter as the count: checked as LIMIT's is)
      const one = count.length === 1 && count[0].type === 'param' ? [limitCount(count[0], true)] : count;
      const limit = [word('LIMIT'), ...(count.length > 1 ? [punct('('), ...count, punct(')')] : one)];
      const off = offsetAt.get(level);
      // the OFFSET came first: the LIMIT goes before it (in place of the LIMIT -1 it was given)
      if (off !== undefined && isWord(out[off], 'LIMIT')) out.splice(off, 2, ...limit);
      else if (off !== undefined) out.splice(off, 0, ...limit);
      else out.push(...limit);
      limited.add(level);
      i = k;
      continue;
    }
    out.push(t);
  }
  return out;
}

/** Words after which a LIMIT or OFFSET count has ended. */
const COUNT_ENDS = ['OFFSET', 'LIMIT', 'FETCH', 'FOR', 'ROW', 'ROWS', 'UNION', 'EXCEPT', 'INTERSECT'];
const countEnds = (t: Tok | undefined) =>
  t === undefined || isPunct(t, ')') || isPunct(t, ';') || COUNT_ENDS.some((w) => isWord(t, w));

/**
 * A count written with a fraction (`LIMIT 1.5`, `OFFSET 2.5`, `FETCH FIRST 1.5 ROWS ONLY`) is
 * PostgreSQL's numeric, which it turns into the bigint count rounding half away from zero (2 rows,
 * 3); SQLite refused a real count (42804 datatype mismatch). The count is never negative here
 * (limit-signs.ts refused that), so rounding its digits is enough; past bigint it is 22003 as there.
 */
export function wholeCount(t: Tok): Tok {
  if (!/[.eE]/.test(t.text)) return t;
  const n = roundedCount(t.text);
  if (n > 9223372036854775807n) throw pgError('22003', 'bigint out of range');
  return { type: 'number', text: String(n) };
}

/**
 * A LIMIT or OFFSET count that is an expression (`LIMIT 1 - 2`, `OFFSET (SELECT n FROM t)`) in
 * __pg_limit_count, as a parameter is: its negative value is PostgreSQL's 2201W or 2201X when the
 * statement runs (SQLite read a negative LIMIT as no limit, a negative OFFSET as none).
 */
function wrapComputedCounts(toks: Tok[]): Tok[] {
  if (!toks.some((t, i) => (isWord(t, 'LIMIT') || isWord(t, 'OFFSET')) && toks[i + 2] !== undefined)) return toks;
  const out: Tok[] = [];
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    out.push(t);
    if (!isWord(t, 'LIMIT') && !isWord(t, 'OFFSET')) continue;
    let end = i + 1;
    for (let depth = 0; end < toks.length; end++) {
      const x = toks[end];
      if (depth === 0 && countEnds(x)) break;
      if (isPunct(x, '(')) depth++;
      else if (isPunct(x, ')')) depth--;
    }
    // (one token is a number, a parameter, ALL or NULL: above and below)
    if (end - i <= 2) continue;
    const limit = isWord(t, 'LIMIT') ? '1' : '0';
    out.push(word('__pg_limit_count'), punct('('), ...toks.slice(i + 1, end), punct(','), {
      type: 'number',
      text: limit,
    });
    out.push(punct(')'));
    i = end - 1;
  }
  return out;
}

/** A parameter as the count of a LIMIT (or an OFFSET): NULL is none, a negative value 2201W (2201X). */
function limitCount(param: Tok, limit: boolean): Tok {
  return { type: 'group', text: `__pg_limit_count(${param.text}, ${limit ? 1 : 0})` };
}

/** The clause word (SELECT, FROM, JOIN, ...) that toks[i] belongs to, at its own depth. */
function clauseOf(toks: readonly Tok[], i: number): string {
  let depth = 0;
  for (let k = i - 1; k >= 0; k--) {
    if (isPunct(toks[k], ')')) depth++;
    else if (isPunct(toks[k], '(')) {
      if (depth === 0) return '(';
      depth--;
    } else if (depth === 0 && toks[k].type === 'word') {
      const w = toks[k].text.toUpperCase();
      if (['SELECT', 'FROM', 'JOIN', 'WHERE', 'ON', 'GROUP', 'HAVING', 'ORDER', 'RETURNING', 'SET'].includes(w))
        return w;
    }
  }
  return '';
}

/**
 * `SELECT generate_series(a, b[, step]) [AS x]` or `SELECT unnest(array) [AS x]` alone: one row per value, as PostgreSQL gives, by
 * selecting from the table function. Elsewhere in a select list (beside other items, or with a FROM)
 * a set-returning call has no translation: 0A000, rather than SQLite's one row or none.
 */
const isSetReturning = (t: Tok) =>
  t.type === 'word' && (ONE_COLUMN_SET_RETURNING.has(t.text.toLowerCase()) || isRecordSetReturning(t));
/** json_each(x) and its kin: each row a record of the key and the value (`(a,1)`), made by the join below. */
const isRecordSetReturning = (t: Tok) => t.type === 'word' && RECORD_SET_RETURNING.has(t.text.toLowerCase());

export function rewriteSelectListSeries(toks: Tok[]): Tok[] {
  if (!toks.some(isSetReturning)) return toks;
  // `pg_catalog.unnest(...)` in a select list is unnest(...) (words.ts drops the schema after this
  // pass, which left it before the join's column: `pg_catalog.__pg_srf.value`, 42703)
  toks = toks.filter(
    (t, k) =>
      !(
        (isWord(t, 'PG_CATALOG') &&
          isPunct(toks[k + 1], '.') &&
          isSetReturning(toks[k + 2]) &&
          isPunct(toks[k + 3], '(')) ||
        (isPunct(t, '.') &&
          isWord(toks[k - 1], 'PG_CATALOG') &&
          isSetReturning(toks[k + 1]) &&
          isPunct(toks[k + 2], '('))
      ) || clauseOf(toks, isPunct(t, '.') ? k - 1 : k) !== 'SELECT',
  );
  for (let i = 1; i < toks.length; i++) {
    const t = toks[i];
    if (!isSetReturning(t) || !isPunct(toks[i + 1], '(')) continue;
    const close = closer(toks, i + 1);
    // (`(json_each(x)).key` is in the clause its parenthesis is in)
    const start = isRecordSetReturning(t) && isPunct(toks[i - 1], '(') && isPunct(toks[close + 1], ')') ? i - 1 : i;
    if (clauseOf(toks, start) !== 'SELECT') continue;
    let end = close + 1;
    let alias: Tok = { type: 'quoted', text: `"${t.text.toLowerCase()}"` };
    if (isWord(toks[end], 'AS')) end++;
    if (toks[end] && (toks[end].type === 'word' || toks[end].type === 'quoted') && !isWord(toks[end], 'FROM'))
      alias = toks[end++];
    // alone: the whole statement (`SELECT unnest(...)`) or a whole subquery (`IN (SELECT unnest($1))`)
    const whole = i === 1 && (end === toks.length || (isPunct(toks[end], ';') && end + 1 === toks.length));
    const sub = i >= 2 && isPunct(toks[i - 2], '(') && isPunct(toks[end], ')') && closer(toks, i - 2) === end;
    // (json_each alone is a join too: its rows are records of two columns)
    const alone = isWord(toks[i - 1], 'SELECT') && (whole || sub) && close >= 0 && !isRecordSetReturning(t);
    if (!alone) {
      const joined = close >= 0 ? setReturningAsJoin(toks, start) : null;
      if (joined) {
        toks = joined;
        continue;
      }
      const fn = t.text.toLowerCase();
      throw pgError(
        '0A000',
        `${fn}() in a select list is supported alone, or in a SELECT without aggregates, GROUP BY or DISTINCT; write FROM ${fn}(...) AS x`,
      );
    }
    // FROM generate_series(...) AS x names its value x (translate/set-returning.ts)
    toks = [
      ...toks.slice(0, i),
      alias,
      { type: 'word', text: 'FROM' },
      ...toks.slice(i, close + 1),
      { type: 'word', text: 'AS' },
      alias,
      ...toks.slice(whole ? toks.length : end),
    ];
    i += 4 + (close - i);
  }
  return toks;
}

const AGGREGATES = new Set([
  'COUNT',
  'SUM',
  'AVG',
  'MIN',
  'MAX',
  'ARRAY_AGG',
  'STRING_AGG',
  'JSON_AGG',
  'JSONB_AGG',
  'JSON_OBJECT_AGG',
  'JSONB_OBJECT_AGG',
  'BOOL_AND',
  'BOOL_OR',
  'EVERY',
  'STDDEV',
  'VARIANCE',
]);
const CLAUSE_ENDS = new Set(['WHERE', 'GROUP', 'HAVING', 'WINDOW', 'ORDER', 'LIMIT', 'OFFSET', 'FETCH', 'FOR']);

/**
 * `SELECT id, jsonb_array_elements_text(tags) AS tag FROM t`: a set-returning call beside other items
 * gives one row per value of each row, which is a join with the table-valued function:
 * `SELECT id, "__pg_srf".value AS tag FROM t, jsonb_array_elements_text(tags) AS "__pg_srf"`. Several
 * calls in one select list run in step in PostgreSQL (as many rows as the longest gives, the others
 * NULL past their end: `unnest(k), generate_subscripts(k, 1)`, ActiveRecord's and SQLAlchemy's
 * primary-key queries), which is one join with __pg_srf_zip (src/engine/pg-arrays.ts) for unnest,
 * generate_series and generate_subscripts. The SELECT may be the statement's or a subquery's; it
 * has no aggregate, window, GROUP BY, HAVING, DISTINCT or set operation (PostgreSQL runs the calls
 * after those); null otherwise.
 */
function setReturningAsJoin(all: Tok[], i: number): Tok[] | null {
  // the parenthesis the call's SELECT is in (-1: the statement's), and that SELECT
  let open = -1;
  let depth = 0;
  for (let k = i - 1; k >= 0; k--) {
    if (isPunct(all[k], ')')) depth++;
    else if (isPunct(all[k], '(')) {
      if (depth === 0) {
        open = k;
        break;
      }
      depth--;
    }
  }
  const levelEnd = open >= 0 ? closer(all, open) : all.length;
  if (levelEnd < 0) return null;
  let s = -1;
  depth = 0;
  for (let k = open + 1; k < i; k++) {
    if (isPunct(all[k], '(')) depth++;
    else if (isPunct(all[k], ')')) depth--;
    else if (depth === 0 && isWord(all[k], 'SELECT')) s = k;
  }
  if (s < 0) return null;
  const joined = joinSetReturning(all.slice(s, levelEnd));
  return joined && [...all.slice(0, s), ...joined, ...all.slice(levelEnd)];
}

/** setReturningAsJoin for one SELECT (toks[0]) up to the end of its level. */
function joinSetReturning(toks: Tok[]): Tok[] | null {
  if (!isWord(toks[0], 'SELECT') || isWord(toks[1], 'DISTINCT')) return null;
  let depth = 0;
  let listEnd = toks.length;
  let from = -1;
  let fromEnd = toks.length;
  /** Depths at which a parenthesis opened a subquery: calls inside are its own. */
  const subqueries: number[] = [];
  /** Each call's first and last token, and the field read out of a record one (`(json_each(x)).key`). */
  const calls: [number, number, string?][] = [];
  for (let k = 1; k < toks.length; k++) {
    const t = toks[k];
    if (isPunct(t, '(')) {
      depth++;
      if (isWord(toks[k + 1], 'SELECT') || isWord(toks[k + 1], 'WITH') || isWord(toks[k + 1], 'VALUES'))
        subqueries.push(depth);
    } else if (isPunct(t, ')')) {
      if (subqueries[subqueries.length - 1] === depth) subqueries.pop();
      depth--;
    }
    if (depth < 0) return null;
    const up = t.type === 'word' ? t.text.toUpperCase() : '';
    if (up === 'OVER' || (AGGREGATES.has(up) && isPunct(toks[k + 1], '('))) return null;
    if (isSetReturning(t) && isPunct(toks[k + 1], '(') && subqueries.length === 0) {
      if (from >= 0) return null; // in FROM or after: not a select list's call
      const close = closer(toks, k + 1);
      if (close < 0) return null;
      const after = toks[close + 3];
      const field =
        after?.type === 'word'
          ? after.text.toLowerCase()
          : after?.text === '*' && isPunct(toks[close + 2], '.')
            ? '*'
            : undefined;
      if (isRecordSetReturning(t) && isPunct(toks[k - 1], '(') && isPunct(toks[close + 1], ')') && field) {
        // `(json_each(x)).key`: that column of the join (the parenthesis opened before it closed here)
        if (field !== 'key' && field !== 'value' && field !== '*')
          throw pgError('42703', `could not identify column "${field}" in record data type`);
        calls.push([k - 1, close + 3, field]);
        depth--;
        k = close + 3;
        continue;
      }
      calls.push([k, close]);
      k = close; // its arguments are its own
      continue;
    }
    if (depth !== 0) continue;
    if (['UNION', 'INTERSECT', 'EXCEPT', 'GROUP', 'HAVING'].includes(up)) return null;
    if (up === 'SELECT') return null;
    if (up === 'FROM' && from < 0) {
      from = k;
      listEnd = k;
    } else if (from < 0 && CLAUSE_ENDS.has(up)) {
      listEnd = Math.min(listEnd, k);
    } else if (from >= 0 && fromEnd === toks.length && CLAUSE_ENDS.has(up)) fromEnd = k;
    if (isPunct(t, ';')) {
      listEnd = Math.min(listEnd, k);
      if (from >= 0 && fromEnd === toks.length) fromEnd = k;
    }
  }
  if (calls.length === 0 || calls.some(([, close]) => close >= listEnd)) return null;
  const alias: Tok = { type: 'quoted', text: '"__pg_srf"' };
  const dot: Tok = { type: 'punct', text: '.' };
  const comma: Tok = { type: 'punct', text: ',' };
  let item: Tok[];
  let refs: Tok[][];
  // `json_each(x), (json_each(x)).key, (json_each(x)).value`: one call read thrice, one join
  // (PostgreSQL runs them in step, the same rows)
  const callToks = ([i, close, field]: [number, number, string?]) =>
    field ? toks.slice(i + 1, close - 2) : toks.slice(i, close + 1);
  const record = calls.every(([i, , field]) => field || isRecordSetReturning(toks[i]));
  const oneCall = record && calls.every((c) => joinTokens(callToks(c)) === joinTokens(callToks(calls[0])));
  if (calls.length === 1 || oneCall) {
    item = [...callToks(calls[0]), { type: 'word', text: 'AS' }, alias];
    // json_each(x): the record `(key,value)`, as PostgreSQL's record_out prints it (the value json's
    // text as the function gives it, the text form's NULL an empty field)
    const recordOf: Tok[] = [
      { type: 'word', text: '__pg_record' },
      { type: 'punct', text: '(' },
      alias,
      dot,
      { type: 'word', text: 'key' },
      comma,
      alias,
      dot,
      { type: 'word', text: 'value' },
      { type: 'punct', text: ')' },
    ];
    // (`(json_each(x)).*`: both columns)
    const both: Tok[] = [alias, dot, { type: 'word', text: 'key' }, comma, alias, dot, { type: 'word', text: 'value' }];
    refs = calls.map(([i, , field]) =>
      field === '*'
        ? both
        : field || !isRecordSetReturning(toks[i])
          ? [alias, dot, { type: 'word', text: field ?? 'value' }]
          : recordOf,
    );
  } else {
    // in step: __pg_srf_zip('unnest', ifnull(x, x''), x'', x'', 'generate_subscripts', ifnull(x, x''), ifnull(1, x''), x'')
    if (calls.length > ZIP_CALLS || calls.some(([, , field]) => field)) return null;
    const zipped: { fn: string; args: Tok[][] }[] = [];
    for (const [i, close] of calls) {
      const fn = toks[i].text.toLowerCase();
      const items = close > i + 2 ? topLevelItems(toks, i + 2, close) : [];
      if (!ZIPPED_FUNCTIONS.has(fn) || items.length > 3) return null;
      zipped.push({ fn, args: items.map(([a, b]) => toks.slice(a, b)) });
    }
    item = zipCall(zipped);
    item.push({ type: 'word', text: 'AS' }, alias);
    refs = calls.map((_, n) => [alias, dot, { type: 'word', text: `v${n + 1}` }]);
  }
  const at = from >= 0 ? fromEnd : listEnd;
  const head: Tok[] = [];
  let last = 0;
  calls.forEach(([i, close], n) => {
    head.push(...toks.slice(last, i), ...refs[n]);
    last = close + 1;
  });
  head.push(...toks.slice(last, at));
  const tail = toks.slice(at);
  return from >= 0 ? [...head, comma, ...item, ...tail] : [...head, { type: 'word', text: 'FROM' }, ...item, ...tail];
}
