// Set-returning functions in FROM as SQLite runs them, on the tokens of the translated statement
// (the last passes in translate.ts; groups earlier passes wrote are read back into tokens first):
//  - `FROM generate_series(1, 3) AS i`, `unnest(x) u`, `regexp_split_to_table(s, ',') r`, the JSON
//    ones: in PostgreSQL the alias of a function in FROM names its value, so the call becomes a
//    subquery with one column of that name, `(SELECT value AS i FROM generate_series(1, 3)) i`;
//    string_to_array, one array value, `(SELECT string_to_array(s, ',') AS a) a`. After JOIN or a
//    comma, a call whose arguments read a column (`, jsonb_array_elements(t.tags) e`, an earlier
//    FROM item's) stays the table-valued function SQLite runs per row (a subquery could not see t),
//    and a bare `e` elsewhere becomes `e.value` (`e.e` too, of the functions whose value the alias names).
//  - with no alias, unnest of one array, generate_series, generate_subscripts and
//    regexp_split_to_table take the function's name as PostgreSQL does (`FROM t, unnest(t.a)` reads
//    `unnest`, `unnest.unnest`), then as above.
//  - on the catalog connection (`local`), unnest and generate_series with a one-name column list
//    that function-columns.ts did not take (`pg_catalog.generate_series(1, 32) pos(n)`, pgjdbc's
//    getImportedKeys) or with no alias at all, whose column is then named after the function.
// A call is a FROM item when it follows FROM, JOIN, or a comma of a FROM list (tracked per
// parenthesis depth, as in scalar-from.ts).
import {
  FROM_ENDS,
  NOT_FROM_ALIAS,
  type Tok,
  closer,
  fromItemStarts,
  isPunct,
  isWord,
  topLevelItems,
  ungroup,
} from '../tokens';

/** The functions whose alias names their value (the JSON ones as words.ts renames them). */
const ALIASED = new Set([
  'generate_series', 'generate_subscripts', 'string_to_array', 'unnest', 'regexp_split_to_table', '__pg_json_array_elements',
  '__pg_jsonb_array_elements', '__pg_json_array_elements_text', '__pg_jsonb_array_elements_text',
  '__pg_json_object_keys', '__pg_jsonb_object_keys', '__pg_regexp_matches', 'pg_listening_channels',
  '__pg_jsonb_path_query',
]); // biome-ignore format: a word list
/** The functions whose one column PostgreSQL names after the alias (the JSON ones' is `value`, an OUT parameter). */
const NAMED_BY_ALIAS = new Set(['generate_series', 'generate_subscripts', 'unnest', 'regexp_split_to_table']);
/** What may follow a catalog statement's bare `unnest(...)`/`generate_series(...)` for it to take the function's name. */
const BARE_ENDS = new Set(['WHERE', 'ORDER', 'GROUP', 'LIMIT', 'UNION']);

const word = (text: string): Tok => ({ type: 'word', text });
const punct = (text: string): Tok => ({ type: 'punct', text });
/** A name that can be a FROM item's alias. */
const isAlias = (t: Tok | undefined) =>
  t !== undefined && ((t.type === 'word' && !NOT_FROM_ALIAS.has(t.text.toUpperCase())) || t.type === 'quoted');
/** A name compared as the old text rewrite compared it: quotes off, case folded. */
const folded = (t: Tok) => (t.type === 'quoted' ? t.text.slice(1, -1) : t.text).toLowerCase();
const callsOne = (toks: Tok[]) => (t: Tok, i: number) =>
  t.type === 'word' && isPunct(toks[i + 1], '(') && ALIASED.has(t.text.toLowerCase());

export function rewriteSetReturning(input: Tok[], local: boolean): Tok[] {
  if (!input.some((t, i) => t.type === 'group' || callsOne(input)(t, i))) return input;
  const toks = ungroup(input);
  if (!toks.some(callsOne(toks))) return input;
  const out = fromItems(toks, local);
  return out === toks ? input : out;
}

/** `(SELECT value AS column FROM call) alias`. */
const valueColumn = (call: Tok[], column: Tok, alias: Tok): Tok[] => [
  punct('('),
  word('SELECT'),
  word('value'),
  word('AS'),
  column,
  word('FROM'),
  ...call,
  punct(')'),
  alias,
];

/** Whether a call's arguments toks[from, to) name a column (a name that is no function, outside strings). */
function correlated(toks: Tok[], from: number, to: number): boolean {
  for (let k = from; k < to; k++) {
    const t = toks[k];
    if ((t.type === 'word' || t.type === 'quoted') && !isPunct(toks[k - 1], '.') && !isPunct(toks[k + 1], '('))
      return true;
  }
  return false;
}

/**
 * Whether a FROM item's call with no alias (toks[close + 1] is none) takes the function's name as
 * its alias here: one of NAMED_BY_ALIAS (unnest of one array), followed by what ends the item.
 */
function namedAfter(toks: Tok[], fn: string, from: number, close: number): boolean {
  if (!NAMED_BY_ALIAS.has(fn) || (fn === 'unnest' && topLevelItems(toks, from, close).length !== 1)) return false;
  const next = toks[close + 1];
  return (
    next === undefined ||
    isPunct(next, ';') ||
    isPunct(next, ')') ||
    isPunct(next, ',') ||
    (next.type === 'word' && (FROM_ENDS.has(next.text.toUpperCase()) || ITEM_ENDS.has(next.text.toUpperCase())))
  );
}

/** Words after a FROM item that begin the next one or its join condition. */
const ITEM_ENDS = new Set(['JOIN', 'CROSS', 'INNER', 'LEFT', 'RIGHT', 'FULL', 'NATURAL', 'ON', 'USING']);

/** Whether the statement reads `alias.rowid`. */
function readsRowid(toks: Tok[], alias: Tok): boolean {
  const name = folded(alias);
  return toks.some(
    (t, k) =>
      isPunct(toks[k + 1], '.') &&
      isWord(toks[k + 2], 'ROWID') &&
      (t.type === 'word' || t.type === 'quoted') &&
      folded(t) === name,
  );
}

function fromItems(toks: Tok[], local: boolean): Tok[] {
  const out: Tok[] = [];
  const renames: Tok[] = [];
  /** The renamed aliases whose function's value is named by the alias, read qualified too (`u.u`). */
  const qualifiedToo = new Set<string>();
  let changed = false;
  const itemStarts = fromItemStarts();
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    const starts = itemStarts(toks, i);
    const fn = t.type === 'word' ? t.text.toLowerCase() : '';
    const close = starts && ALIASED.has(fn) && isPunct(toks[i + 1], '(') ? closer(toks, i + 1) : -1;
    if (close < 0) {
      out.push(t);
      continue;
    }
    const call = toks.slice(i, close + 1);
    let j = close + 1;
    if (isWord(toks[j], 'AS')) j++;
    let alias = isAlias(toks[j]) ? toks[j] : undefined;
    // no alias: PostgreSQL's is the function's name, which names its value too (`FROM t, unnest(t.a)`
    // reads `unnest` or `unnest.unnest`, its column of `*` is `unnest`)
    const named = !alias && j === close + 1 && namedAfter(toks, fn, i + 2, close);
    if (named) alias = word(fn);
    if (!named && local && (fn === 'unnest' || fn === 'generate_series' || fn === 'pg_listening_channels')) {
      // alias(column)
      if (alias && isPunct(toks[j + 1], '(') && isAlias(toks[j + 2]) && isPunct(toks[j + 3], ')')) {
        out.push(...valueColumn(call, toks[j + 2], alias));
        i = j + 3;
        changed = true;
        continue;
      }
      // no alias: PostgreSQL names the column after the function
      const next = toks[close + 1];
      if (
        next === undefined ||
        isPunct(next, ';') ||
        isPunct(next, ')') ||
        (next.type === 'word' && BARE_ENDS.has(next.text.toUpperCase()))
      ) {
        out.push(...valueColumn(call, word(fn), word(fn)));
        i = close;
        changed = true;
        continue;
      }
    }
    // a column list other passes left, or a select list's call made a join (standard-forms.ts reads __pg_srf.value)
    if (!alias || (!named && isPunct(toks[j + 1], '(')) || alias.text === '"__pg_srf"') {
      out.push(t);
      continue;
    }
    // (a call whose rowid is read, WITH ORDINALITY's number (ordinality.ts), stays the table too: a
    // subquery has no rowid)
    if (
      fn !== 'string_to_array' &&
      !isWord(toks[i - 1], 'FROM') &&
      (correlated(toks, i + 2, close) || readsRowid(toks, alias))
    ) {
      renames.push(alias);
      if (NAMED_BY_ALIAS.has(fn)) qualifiedToo.add(folded(alias));
      out.push(...(named ? [...call, word('AS'), alias] : [t]));
      if (named) i = close;
      continue;
    }
    out.push(
      ...(fn === 'string_to_array'
        ? [punct('('), word('SELECT'), ...call, word('AS'), alias, punct(')'), alias]
        : valueColumn(call, alias, alias)),
    );
    i = named ? close : j;
    changed = true;
  }
  if (renames.length === 0) return changed ? out : toks;
  // a bare alias read as a column: not a qualifier (`e.x`), a qualified name (`x.e`), a call, or a
  // name being defined (`... ) AS e`, `x AS e`)
  const byName = new Map(renames.map((a) => [folded(a), a]));
  /** Whether out[q] is the qualifier of `u.u`, `unnest(t.a) AS u`'s value (the table-valued function's column is value). */
  const selfQualified = (q: number) => {
    const [a, dot, b] = [out[q], out[q + 1], out[q + 2]];
    const name = (x: Tok | undefined) => (x?.type === 'word' || x?.type === 'quoted' ? folded(x) : null);
    return (
      isPunct(dot, '.') &&
      name(a) !== null &&
      name(a) === name(b) &&
      qualifiedToo.has(name(a)!) &&
      !isPunct(out[q - 1], '.') &&
      !isPunct(out[q + 3], '.') &&
      !isPunct(out[q + 3], '(')
    );
  };
  return out.flatMap((t, k) => {
    // (the alias as the FROM item writes it, which value-twins.ts matches)
    if (selfQualified(k)) return [byName.get(folded(t))!];
    if (selfQualified(k - 2)) return [word('value')];
    const a = t.type === 'word' || t.type === 'quoted' ? byName.get(folded(t)) : undefined;
    const bare =
      a !== undefined &&
      !isPunct(out[k - 1], '.') &&
      !isPunct(out[k + 1], '.') &&
      !isPunct(out[k + 1], '(') &&
      !isPunct(out[k - 1], ')') &&
      !isWord(out[k - 1], 'AS');
    return bare ? [a, punct('.'), word('value')] : [t];
  });
}
