// PostgreSQL's text search (src/engine/text-search/) as SQLite functions the PG front end calls:
// tsvector and tsquery input (their values are kept as PostgreSQL's output text), to_tsvector,
// to_tsquery, plainto_tsquery, phraseto_tsquery and websearch_to_tsquery (with a configuration, or
// english, PostgreSQL's default default_text_search_config), @@ in its four forms, the tsquery
// operators &&, || and !!, and tsvector's ||. All are strict: a NULL argument gives NULL.
import type Database from 'better-sqlite3';
import {
  type Config,
  configOf,
  phraseToTsQuery,
  plainToTsQuery,
  toTsQuery,
  toTsVector,
  toTsVectorOfValues,
  websearchToTsQuery,
} from './text-search/configs';
import { type JsonValueKind, jsonFilterKinds, jsonValues } from './text-search/json-values';
import { parseArrayText } from './pg-array-input';
import { arrayText } from './pg-functions';
import {
  arrayToTsVector,
  deleteLexemes,
  filterWeights,
  queryContains,
  queryPhrase,
  queryTree,
  setWeight,
  weightCode,
} from './text-search/edit';
import { tsHeadline } from './text-search/headline';
import { tsRewrite } from './text-search/rewrite';
import { tsMatch } from './text-search/match';
import { DEFAULT_WEIGHTS, tsRank } from './text-search/rank';
import { tsRankCd } from './text-search/rank-cd';
import { sqlStateError } from '../errors';
import { type TsQuery, parseQuery, printTsQuery } from './text-search/tsquery';
import { MAX_POS, type TsVector, normaliseLexemes, parseTsVector, posOf, printTsVector } from './text-search/tsvector';

const text = (v: unknown) => (Buffer.isBuffer(v) ? v.toString('utf8') : String(v));

const vectors = new Map<string, TsVector>();
const queries = new Map<string, TsQuery>();
/** A value read once (the same text is usually read per row). */
function cached<T>(cache: Map<string, T>, key: string, read: (s: string) => T): T {
  let v = cache.get(key);
  if (v === undefined && !cache.has(key)) {
    v = read(key);
    if (cache.size > 500) cache.clear();
    cache.set(key, v);
  }
  return v as T;
}
export const readTsVector = (v: unknown): TsVector => cached(vectors, text(v), parseTsVector);
export const readTsQuery = (v: unknown): TsQuery => cached(queries, text(v), (s) => parseQuery(s));

/** tsvector's and tsquery's input, as their output prints them (42601 for a bad one). */
export const tsVectorText = (s: string): string => printTsVector(parseTsVector(s));
export const tsQueryText = (s: string): string => printTsQuery(parseQuery(s));

/** tsvector || tsvector: the right one's positions after the left's last (tsvector_concat). */
function concatVectors(a: TsVector, b: TsVector): TsVector {
  let max = 0;
  for (const l of a) for (const p of l.pos) max = Math.max(max, posOf(p));
  const shifted = b.map((l) => ({
    word: l.word,
    pos: l.pos.map((p) => (p & ~0x3fff) | Math.min(posOf(p) + max, MAX_POS)),
  }));
  return normaliseLexemes([...a, ...shifted]);
}

/** ts_rank's weights argument, a real[] ('{0.1, 0.2, 0.4, 1.0}'), as getWeights checks it. */
function weightsOf(v: unknown): number[] {
  const items = text(v)
    .replace(/^\{|\}$/g, '')
    .split(',')
    .map((x) => x.trim());
  if (/^\{.*[{}]/.test(text(v).slice(1, -1))) throw sqlStateError('2202E', 'array of weight must be one-dimensional');
  if (items.length < 4 || items[0] === '') throw sqlStateError('2202E', 'array of weight is too short');
  if (items.some((x) => /^null$/i.test(x))) throw sqlStateError('22004', 'array of weight must not contain nulls');
  return items.slice(0, 4).map((x, k) => {
    const n = Math.fround(Number(x));
    const w = n >= 0 ? n : DEFAULT_WEIGHTS[k];
    if (w > 1.0) throw sqlStateError('22023', 'weight out of range');
    return w;
  });
}

/** A text[] argument's elements (null for NULL). */
const elements = (v: unknown): (string | null)[] => parseArrayText(text(v)) ?? [];

export function installTextSearchFunctions(db: Database.Database): void {
  const fn = (name: string, f: (...args: unknown[]) => unknown) =>
    db.function(name, { deterministic: true, varargs: true }, (...args: unknown[]) =>
      args.some((a) => a === null || a === undefined) ? null : (f(...args) as never),
    );
  fn('__pg_tsvector_in', (s) => tsVectorText(text(s)));
  fn('__pg_tsquery_in', (s) => tsQueryText(text(s)));
  /** (config, text) or (text) with the default configuration. */
  const withConfig =
    <T>(make: (c: Config, s: string) => T, print: (v: T) => string) =>
    (...args: unknown[]) =>
      print(args.length === 1 ? make('english', text(args[0])) : make(configOf(args[0]), text(args[1])));
  fn('__pg_to_tsvector', withConfig(toTsVector, printTsVector));
  // to_tsvector of json or jsonb: its strings; json(b)_to_tsvector: the values its filter names
  const STRINGS = new Set<JsonValueKind>(['string']);
  fn(
    '__pg_json_string_to_tsvector',
    withConfig((c, doc) => toTsVectorOfValues(c, jsonValues(doc, STRINGS)), printTsVector),
  );
  const filtered = (...args: unknown[]) => {
    const [config, doc, filter] = args.length === 2 ? ['english', ...args] : args;
    const kinds = jsonFilterKinds(text(filter));
    return printTsVector(toTsVectorOfValues(configOf(config), jsonValues(text(doc), kinds)));
  };
  fn('__pg_json_to_tsvector', filtered);
  fn('__pg_jsonb_to_tsvector', filtered);
  fn('__pg_to_tsquery', withConfig(toTsQuery, printTsQuery));
  // ts_rewrite(query, target, substitute); its form with a query text (rows of target and substitute) runs a read
  fn('__pg_ts_rewrite', (...args) => {
    if (args.length !== 3)
      throw sqlStateError(
        '0A000',
        'ts_rewrite with a query text is not supported',
        'user',
        'pass the target and the substitute: ts_rewrite(query, target, substitute)',
      );
    return printTsQuery(tsRewrite(readTsQuery(args[0]), readTsQuery(args[1]), readTsQuery(args[2])));
  });
  fn('__pg_plainto_tsquery', withConfig(plainToTsQuery, printTsQuery));
  fn('__pg_phraseto_tsquery', withConfig(phraseToTsQuery, printTsQuery));
  fn('__pg_websearch_to_tsquery', withConfig(websearchToTsQuery, printTsQuery));
  // @@: tsvector @@ tsquery (vq), tsquery @@ tsvector (qv), text @@ tsquery (tq: the text's
  // to_tsvector) and text @@ text (tt: to_tsvector @@ plainto_tsquery), as PostgreSQL's ts_match_*
  const match = (v: TsVector, q: TsQuery) => (tsMatch(v, q) ? 1 : 0);
  fn('__pg_ts_match_vq', (a, b) => match(readTsVector(a), readTsQuery(b)));
  fn('__pg_ts_match_qv', (a, b) => match(readTsVector(b), readTsQuery(a)));
  // (the text's with the session's default_text_search_config when it is not english)
  const configArg = (c: unknown): Config => (c === undefined ? 'english' : configOf(c));
  fn('__pg_ts_match_tq', (a, b, c) => match(toTsVector(configArg(c), text(a)), readTsQuery(b)));
  fn('__pg_ts_match_tt', (a, b, c) => match(toTsVector(configArg(c), text(a)), plainToTsQuery(configArg(c), text(b))));
  // tsquery && and ||: an empty side gives the other; !! negates (tsquery_and, _or, _not)
  fn('__pg_tsquery_and', (a, b) => {
    const [l, r] = [readTsQuery(a), readTsQuery(b)];
    return printTsQuery(l && r ? { t: 'and', l, r } : (l ?? r));
  });
  fn('__pg_tsquery_or', (a, b) => {
    const [l, r] = [readTsQuery(a), readTsQuery(b)];
    return printTsQuery(l && r ? { t: 'or', l, r } : (l ?? r));
  });
  fn('__pg_tsquery_not', (a) => {
    const q = readTsQuery(a);
    return printTsQuery(q ? { t: 'not', arg: q } : null);
  });
  // ts_rank and ts_rank_cd([weights,] vector, query [, normalization]): a real
  const rank =
    (compute: typeof tsRank) =>
    (...args: unknown[]) => {
      const weighted = args.length === 4 || (args.length === 3 && /^\s*\{/.test(text(args[0])));
      const [w, v, q, m] = weighted ? [weightsOf(args[0]), ...args.slice(1)] : [DEFAULT_WEIGHTS, ...args];
      return compute(w as number[], readTsVector(v), readTsQuery(q), m === undefined ? 0 : Number(m));
    };
  fn('__pg_ts_rank', rank(tsRank));
  fn('__pg_ts_rank_cd', rank(tsRankCd));
  // ts_headline(config, document, query [, options]); _d without the configuration (english, or
  // the session's, which translate/text-search-calls.ts puts first)
  fn('__pg_ts_headline', (c, d, q, o) =>
    tsHeadline(configOf(c), text(d), readTsQuery(q), o === undefined ? o : text(o)),
  );
  fn('__pg_ts_headline_d', (d, q, o) => tsHeadline('english', text(d), readTsQuery(q), o === undefined ? o : text(o)));
  // length (its lexemes), strip (no positions), setweight (every position's weight), numnode (items)
  fn('__pg_tsvector_length', (v) => readTsVector(v).length);
  fn('__pg_strip', (v) => printTsVector(readTsVector(v).map((l) => ({ word: l.word, pos: [] }))));
  fn('__pg_setweight', (v, w, lexemes) =>
    printTsVector(
      lexemes === undefined
        ? setWeight(readTsVector(v), weightCode(text(w)))
        : setWeight(readTsVector(v), weightCode(text(w), true), elements(lexemes)),
    ),
  );
  // ts_delete of a lexeme, or (_arr) of an array of them; ts_filter by weights; to and from text[]
  fn('__pg_ts_delete', (v, l) => printTsVector(deleteLexemes(readTsVector(v), [text(l)])));
  fn('__pg_ts_delete_arr', (v, ls) => printTsVector(deleteLexemes(readTsVector(v), elements(ls))));
  fn('__pg_ts_filter', (v, ws) => printTsVector(filterWeights(readTsVector(v), elements(ws))));
  fn('__pg_tsvector_to_array', (v) => arrayText(readTsVector(v).map((l) => l.word)));
  fn('__pg_array_to_tsvector', (ls) => printTsVector(arrayToTsVector(elements(ls))));
  // tsquery @> tsquery (a <@ b is b @> a), querytree, tsquery_phrase
  fn('__pg_tsquery_contains', (a, b) => (queryContains(readTsQuery(a), readTsQuery(b)) ? 1 : 0));
  fn('__pg_tsquery_contained', (a, b) => (queryContains(readTsQuery(b), readTsQuery(a)) ? 1 : 0));
  fn('__pg_querytree', (q) => {
    const tree = queryTree(readTsQuery(q));
    return tree === 'T' ? tree : printTsQuery(tree);
  });
  fn('__pg_tsquery_phrase', (a, b, d) =>
    printTsQuery(queryPhrase(readTsQuery(a), readTsQuery(b), d === undefined ? 1 : Number(d))),
  );
  fn('__pg_numnode', (q) => {
    const count = (n: TsQuery): number =>
      n === null
        ? 0
        : n.t === 'val' || n.t === 'stop'
          ? 1
          : n.t === 'not'
            ? 1 + count(n.arg)
            : 1 + count(n.l) + count(n.r);
    return count(readTsQuery(q));
  });
  fn('__pg_tsvector_concat', (a, b) => printTsVector(concatVectors(readTsVector(a), readTsVector(b))));
}
