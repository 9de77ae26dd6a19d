// jsonb's operators @>, <@, ?, ?|, ?&, #>, #>> and #- (SQLite lacks them; its `?` is a parameter),
// ->> as the text PostgreSQL gives (SQLite's gives SQL values: 1 for true)
// as calls of the functions src/engine/pg-functions.ts defines, with PostgreSQL's precedence; and
// arrays' @>, <@ and && as src/engine/pg-arrays.ts's.
// test/pg/jsonb-oracle.test.ts compares them with PostgreSQL 15.
import { quoteString } from '../lexer';
import { sessionTextSearchConfig } from '../session-styles';
import { pgError } from '../../sqlstate';
import { type Tok, isOp, isPunct, isWord } from '../tokens';
import { bracketAfter, primaryEnd, primaryStart } from './primaries';
import { lookup } from '../../../../src/lookup';
import { jsonPathKey, safeKey } from '../../../../src/engine/jsonb';

/** jsonb's operators, as the functions src/engine/pg-functions.ts defines. */
const JSONB_FUNCTIONS: Record<string, string> = lookup({
  '@>': '__pg_jsonb_contains',
  '<@': '__pg_jsonb_contained',
  '?': '__pg_jsonb_exists',
  '?|': '__pg_jsonb_exists_any',
  '?&': '__pg_jsonb_exists_all',
  '#>': '__pg_jsonb_path',
  '#>>': '__pg_jsonb_path_text',
  '#-': '__pg_jsonb_delete_path',
  // SQL/JSON path: jsonb_path_exists and jsonb_path_match with silent true (src/engine/pg-jsonpath-functions.ts)
  '@?': '__pg_jsonb_path_exists_op',
  '@@': '__pg_jsonb_path_match_op',
});

/** json's ->, ->>, #> and #>> that keep the value's text as written (src/engine/pg-json-get.ts). */
const JSON_GETS: Record<string, string> = lookup({
  '->': '__pg_json_get',
  '->>': '__pg_json_get_text',
  '#>': '__pg_json_get_path',
  '#>>': '__pg_json_get_path_text',
});

/** jsonb's -> and ->> of an integer index (src/engine/pg-functions.ts). */
const JSONB_ELEMENTS: Record<string, string> = lookup({ '->': '__pg_jsonb_elem', '->>': '__pg_jsonb_elem_text' });

/** @>, <@ and && of arrays (typed-operators.ts marks them 'arr' by their operands' types; && is only an array's here). */
const ARRAY_FUNCTIONS: Record<string, string> = lookup({
  '@>': '__pg_array_contains',
  '<@': '__pg_array_contained',
  '&&': '__pg_array_overlap',
});

/** Operators that bind at least as tightly as jsonb's, so that a left operand goes on through them. */
const LEFT_CHAIN = new Set(['||', '->', '->>', '+', '-', '*', '/', '%', '^']);
const ARITHMETIC = new Set(['+', '-', '*', '/', '%', '^']);

/** The left operand of a jsonb operator: primaries joined by operators that bind as tightly or more. */
function leftOperandStart(ts: readonly Tok[], end: number): number {
  let s = primaryStart(ts, end);
  if (s < 0) return -1;
  while (ts[s - 1]?.type === 'op' && LEFT_CHAIN.has(ts[s - 1].text)) {
    const before = primaryStart(ts, s - 1);
    if (before >= 0) s = before;
    else if (ts[s - 1].text === '-' || ts[s - 1].text === '+')
      return s - 1; // unary
    else break;
  }
  return s;
}

/** The right operand: primaries joined by arithmetic, which binds more tightly than jsonb's operators. */
function rightOperandEnd(ts: readonly Tok[], i: number): number {
  let j = primaryEnd(ts, i);
  while (j > i && ts[j]?.type === 'op' && ARITHMETIC.has(ts[j].text)) {
    const k = primaryEnd(ts, j + 1);
    if (k === j + 1) break;
    j = k;
  }
  return j;
}

/**
 * The key of jsonb's `x -> k` or `x ->> k` at toks[i], pushed to `out`; the index of its last token.
 * SQLite's `->` reads a text that starts with `$` as a path and refuses '' (PostgreSQL's key '$a'
 * was 42000 `bad JSON path`; one with `"` in it found nothing): such a literal becomes the path of
 * that one key (`$."k"`), any other key that is no number goes through __pg_json_key, which does
 * the same at run time.
 */
function keyOperand(toks: readonly Tok[], i: number, out: Tok[]): number {
  const t = toks[i];
  if (t === undefined) return i - 1;
  if (t.type === 'number') {
    out.push(t);
    return i;
  }
  const cast = isOp(toks[i + 1], '::');
  const end = t.type === 'string' && !cast ? i + 1 : rightOperandEnd(toks, i);
  if (t.type === 'string' && !cast) {
    const key = t.text.slice(1, -1).replace(/''/g, "'");
    out.push(safeKey(key) ? t : { type: 'string', text: `'${jsonPathKey(key).replace(/'/g, "''")}'` });
    return i;
  }
  if (end <= i) return i - 1;
  out.push({ type: 'word', text: '__pg_json_key' }, { type: 'punct', text: '(' }, ...toks.slice(i, end), {
    type: 'punct',
    text: ')',
  });
  return end - 1;
}

/**
 * jsonb's operators `@>`, `<@`, `?`, `?|`, `?&`, `#>`, `#>>`, `#-` as calls of their functions, with
 * PostgreSQL's precedence (they bind less tightly than arithmetic, more than comparison, and from
 * the left). `ARRAY[...]` as the keys of `?|`/`?&` or a path becomes a JSON array.
 */
export function rewriteJsonbOps(toks: Tok[]): Tok[] {
  if (
    !toks.some(
      (t) =>
        t.type === 'op' &&
        (JSONB_FUNCTIONS[t.text] || t.text === '&&' || t.text === '->>' || t.text === '->' || t.text === '<->'),
    )
  )
    return toks;
  const out: Tok[] = [];
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    const mark = t.type === 'op' && 'arith' in t ? t.arith : undefined;
    const ofArrays = t.type === 'op' && (t.text === '&&' || mark === 'arr' || mark?.startsWith('arr:') === true);
    // numeric or boolean elements (typed-operators.ts): matched by their values
    const keyed = mark?.startsWith('arr:') ? `, '${mark.slice(4)}'` : '';
    // (json's, not jsonb's, read as its text as written: typed-operators.ts's markJsonGets)
    // (jsonb's -> and ->> of an integer, whose scalar answers index 0 and -1: typed-operators.ts)
    const kept =
      t.type === 'op' && mark === 'json-get'
        ? JSON_GETS[t.text]
        : t.type === 'op' && mark === 'jsonb-elem'
          ? JSONB_ELEMENTS[t.text]
          : undefined;
    const text = t.type === 'op' && t.text === '->>' && !kept;
    // text search's @@ and tsquery's &&, @> and <@ (sql/text-search-operators.ts, typed-operators.ts mark them)
    const search = mark?.startsWith('ts@@')
      ? `__pg_ts_match_${mark.slice(4)}`
      : mark === 'tsq&&'
        ? '__pg_tsquery_and'
        : mark === 'tsq<->'
          ? '__pg_tsquery_phrase'
          : mark === 'tsq@>'
            ? '__pg_tsquery_contains'
            : mark === 'tsq<@'
              ? '__pg_tsquery_contained'
              : undefined;
    const fn =
      t.type !== 'op'
        ? undefined
        : (search ?? kept ?? (text ? '->>' : ofArrays ? ARRAY_FUNCTIONS[t.text] : JSONB_FUNCTIONS[t.text]));
    if (!fn) {
      out.push(t);
      // jsonb's `x -> k`, SQLite's own: k made a key SQLite cannot read as a path
      if (t.type === 'op' && t.text === '->') i = keyOperand(toks, i + 1, out);
      continue;
    }
    const start = leftOperandStart(out, out.length);
    const end = rightOperandEnd(toks, i + 1);
    if (start < 0 || end === i + 1)
      throw pgError(
        '0A000',
        `operator ${t.text} here is not supported: put each of its operands in parentheses, as in (a) ${t.text} (b)`,
      );
    let right = rewriteJsonbOps(toks.slice(i + 1, end));
    if (text) {
      const key: Tok[] = [];
      const last = keyOperand(right, 0, key);
      right = [...key, ...right.slice(last + 1)];
    }
    if (!ofArrays && isWord(right[0], 'ARRAY') && isPunct(right[1], '[') && bracketAfter(right, 1) === right.length - 1)
      right = [
        { type: 'word', text: 'json_array' },
        { type: 'punct', text: '(' },
        ...right.slice(2, -1),
        { type: 'punct', text: ')' },
      ];
    const left = out.splice(start);
    if (text)
      // x ->> k: PostgreSQL's text of the value (a string unquoted, `true`, a number's digits, NULL for
      // JSON null); SQLite's ->> gives SQL values (1 for true, the number 1 that '1' does not equal)
      out.push(
        { type: 'word', text: '__pg_json_text' },
        { type: 'punct', text: '(' },
        ...left,
        { type: 'op', text: '->' },
        ...right,
      );
    else
      out.push(
        { type: 'word', text: fn },
        { type: 'punct', text: '(' },
        ...left,
        { type: 'punct', text: ',' },
        ...right,
        ...(keyed ? [{ type: 'group', text: keyed } as Tok] : []),
        // (text's @@ reads the text through the session's default_text_search_config)
        ...(search?.startsWith('__pg_ts_match_t') && sessionTextSearchConfig()
          ? [{ type: 'group', text: `, ${quoteString(sessionTextSearchConfig() ?? '')}` } as Tok]
          : []),
      );
    out.push({ type: 'punct', text: ')' });
    i = end - 1;
  }
  return out;
}
