// The text search configurations Patina has, `simple` and `english` (PostgreSQL's default
// default_text_search_config), and what reads text through them: to_tsvector (parsetext) and the
// to_tsquery family's operands (pushval_morph). A token type's dictionary is PostgreSQL 15's
// (\dF+ english): words through english_stem (stop words, then the Snowball english stemmer),
// numbers, emails, hosts, URLs and paths through simple (lower case); tags, entities, protocols
// and blanks are not indexed and take no position.
import stem from 'wink-porter2-stemmer';
import { sqlStateError } from '../../errors';
import { ENGLISH_STOP_WORDS } from './english-stop';
import { type TokenType, parseText } from './parser';
import { type PushValue, type QueryBuilder, type TsQuery, parseQuery } from './tsquery';
import { type Lexeme, MAX_POS, type TsVector, normaliseLexemes } from './tsvector';

export type Config = 'simple' | 'english';

const STEMMED = new Set<TokenType>(['asciiword', 'word', 'asciihword', 'hword', 'hword_asciipart', 'hword_part']);
const SIMPLE = new Set<TokenType>([
  'numword', 'numhword', 'hword_numpart', 'email', 'url', 'host', 'url_path', 'file', 'sfloat', 'float',
  'int', 'uint', 'version',
]); // biome-ignore format: a word list

/** The configurations PostgreSQL 15 ships with Snowball stemmers: named, but not here. */
const OTHER_BUILT_IN = new Set(
  'arabic armenian basque catalan danish dutch finnish french german greek hindi hungarian indonesian irish italian lithuanian nepali norwegian portuguese romanian russian serbian spanish swedish tamil turkish yiddish'.split(
    ' ',
  ),
);

/**
 * A configuration's name as default_text_search_config takes it (an identifier, maybe qualified by
 * pg_catalog: unquoted in lower case): one PostgreSQL ships, or null.
 */
export function builtInConfigName(value: string): string | null {
  const ident = '(?:"((?:[^"]|"")+)"|([^\\s."]+))';
  const m = new RegExp(`^\\s*${ident}\\s*(?:\\.\\s*${ident}\\s*)?$`).exec(value);
  if (!m) return null;
  const read = (quoted: string | undefined, bare: string | undefined) =>
    quoted !== undefined ? quoted.replaceAll('""', '"') : bare?.toLowerCase();
  const first = read(m[1], m[2]);
  const second = read(m[3], m[4]);
  const [schema, name] = second === undefined ? [undefined, first] : [first, second];
  if (name === undefined || (schema !== undefined && schema !== 'pg_catalog')) return null;
  return name === 'simple' || name === 'english' || OTHER_BUILT_IN.has(name) ? name : null;
}

/** PostgreSQL's OIDs of the two, which a regconfig value holds (protocols/pg/catalog/regconfig.ts). */
const CONFIG_OIDS = new Map<number, Config>([
  [3748, 'simple'],
  [13164, 'english'],
]);

/**
 * A regconfig argument's configuration: its OID ('english'::regconfig) or its name (names are read
 * as identifiers: unquoted in lower case).
 */
export function configOf(name: unknown): Config {
  if (typeof name === 'number' || typeof name === 'bigint' || /^\s*\d+\s*$/.test(String(name))) {
    const config = CONFIG_OIDS.get(Number(name));
    if (config) return config;
    throw sqlStateError('XX000', `cache lookup failed for text search configuration ${Number(name)}`);
  }
  const raw = String(name).trim();
  const unq = raw.startsWith('"') && raw.endsWith('"') && raw.length > 1 ? raw.slice(1, -1) : raw.toLowerCase();
  const bare = unq.startsWith('pg_catalog.') ? unq.slice('pg_catalog.'.length) : unq;
  if (bare === 'simple' || bare === 'english') return bare;
  if (OTHER_BUILT_IN.has(bare))
    throw sqlStateError('0A000', `text search configuration "${bare}" is not supported: Patina has simple and english`);
  throw sqlStateError('42704', `text search configuration "${raw}" does not exist`);
}

/** The lexemes a token gives: null when its type is not indexed, [] for a stop word (ts_headline reads each token too). */
export function lexize(config: Config, type: TokenType, text: string): string[] | null {
  if (type === 'protocol' || type === 'tag' || type === 'entity' || type === 'blank') return null;
  const lower = text.toLowerCase();
  if (config === 'simple' || SIMPLE.has(type) || !STEMMED.has(type)) return [lower];
  if (ENGLISH_STOP_WORDS.has(lower)) return [];
  return [stem(lower)];
}

/** parsetext: each indexed token's lexemes at the next position (a stop word takes one too). */
export function parsedWords(config: Config, text: string): { word: string; pos: number }[] {
  return parseFrom(config, text, [], 0).words;
}

/** parsetext on from position `start`: the words pushed onto `words`, and the last position taken. */
function parseFrom(config: Config, text: string, words: { word: string; pos: number }[], start: number) {
  let pos = start;
  for (const t of parseText(text)) {
    if (Buffer.byteLength(t.text) >= 2047) continue; // PostgreSQL: NOTICE word is too long to be indexed
    const lexemes = lexize(config, t.type, t.text);
    if (lexemes === null) continue;
    pos++;
    for (const word of lexemes) words.push({ word, pos: Math.min(pos, MAX_POS) });
  }
  return { words, last: pos };
}

export function toTsVector(config: Config, text: string): TsVector {
  const entries: Lexeme[] = parsedWords(config, text).map((w) => ({ word: w.word, pos: [w.pos] }));
  return normaliseLexemes(entries);
}

/**
 * to_tsvector of json or jsonb (add_to_tsvector): each value's words at the positions after the
 * previous value's, one more between two values that gave words, so that a phrase does not match
 * across them.
 */
export function toTsVectorOfValues(config: Config, texts: string[]): TsVector {
  const words: { word: string; pos: number }[] = [];
  let pos = 0;
  for (const text of texts) {
    const before = words.length;
    pos = parseFrom(config, text, words, pos).last;
    if (words.length > before) pos++;
  }
  return normaliseLexemes(words.map((w) => ({ word: w.word, pos: [w.pos] })));
}

/**
 * pushval_morph: an operand read through the configuration, its words joined by `op` (<-> for
 * to_tsquery, phraseto_tsquery and websearch_to_tsquery, & for plainto_tsquery), a stop word's
 * place kept as a placeholder the cleanup turns into distance.
 */
function morph(config: Config, op: 'phrase' | 'and'): PushValue {
  return (b: QueryBuilder, text: string, weight: number, prefix: boolean) => {
    const words = parsedWords(config, text);
    if (words.length === 0) {
      b.stop();
      return;
    }
    let count = 0;
    let pos = 0;
    let cntpos = 0;
    while (count < words.length) {
      if (pos > 0 && pos + 1 < words[count].pos) {
        while (pos + 1 < words[count].pos) {
          b.stop();
          if (cntpos) b.operator(op, 1);
          cntpos++;
          pos++;
        }
      }
      pos = words[count].pos;
      // (one dictionary gives one variant of one word here, so no & or | within a position)
      b.value(words[count].word, weight, prefix);
      count++;
      if (cntpos) b.operator(op, 1);
      cntpos++;
    }
  };
}

export function toTsQuery(config: Config, text: string): TsQuery {
  return parseQuery(text, morph(config, 'phrase'), 'standard');
}
export function plainToTsQuery(config: Config, text: string): TsQuery {
  return parseQuery(text, morph(config, 'and'), 'plain');
}
export function phraseToTsQuery(config: Config, text: string): TsQuery {
  return parseQuery(text, morph(config, 'phrase'), 'plain');
}
export function websearchToTsQuery(config: Config, text: string): TsQuery {
  return parseQuery(text, morph(config, 'phrase'), 'web');
}
