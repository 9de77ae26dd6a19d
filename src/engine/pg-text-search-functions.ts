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
  websearchToTsQuery,
} from './text-search/configs';
import { tsMatch } from './text-search/match';
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
  fn('__pg_to_tsquery', withConfig(toTsQuery, printTsQuery));
  fn('__pg_plainto_tsquery', withConfig(plainToTsQuery, printTsQuery));
  fn('__pg_phraseto_tsquery', withConfig(phraseToTsQuery, printTsQuery));
  fn('__pg_websearch_to_tsquery', withConfig(websearchToTsQuery, printTsQuery));
  // @@: tsvector @@ tsquery (vq), tsquery @@ tsvector (qv), text @@ tsquery (tq: the text's
  // to_tsvector) and text @@ text (tt: to_tsvector @@ plainto_tsquery), as PostgreSQL's ts_match_*
  const match = (v: TsVector, q: TsQuery) => (tsMatch(v, q) ? 1 : 0);
  fn('__pg_ts_match_vq', (a, b) => match(readTsVector(a), readTsQuery(b)));
  fn('__pg_ts_match_qv', (a, b) => match(readTsVector(b), readTsQuery(a)));
  fn('__pg_ts_match_tq', (a, b) => match(toTsVector('english', text(a)), readTsQuery(b)));
  fn('__pg_ts_match_tt', (a, b) => match(toTsVector('english', text(a)), plainToTsQuery('english', text(b))));
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
  fn('__pg_tsvector_concat', (a, b) => printTsVector(concatVectors(readTsVector(a), readTsVector(b))));
}
