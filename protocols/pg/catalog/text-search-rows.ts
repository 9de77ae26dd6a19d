// The text search objects Patina runs, as PostgreSQL 15's catalog has them: the configurations
// simple and english (src/engine text search: simple lower-cases, english stems through english_stem),
// their dictionaries, templates and the default parser, with PostgreSQL's OIDs, columns, token maps
// and comments. psql's \dF, \dFd, \dFp and \dFt listed none (the tables were empty), and
// obj_description(oid, 'pg_ts_config') named nothing. PostgreSQL's other 27 configurations (french,
// german, ...) are not listed: Patina does not run them.

/** [oid, name, parser] of pg_ts_config, and its comment. */
export const TS_CONFIGS: [number, string, number, string][] = [
  [3748, 'simple', 3722, 'simple configuration'],
  [13164, 'english', 3722, 'configuration for english language'],
];

/** pg_ts_parser's default parser: [oid, name, start, token, end, headline, lextype], and its comment. */
export const TS_PARSER: [number, string, string, string, string, string, string, string] = [
  3722,
  'default',
  'prsd_start',
  'prsd_nexttoken',
  'prsd_end',
  'prsd_headline',
  'prsd_lextype',
  'default word parser',
];

/** [oid, name, template, init option] of pg_ts_dict, and its comment. */
export const TS_DICTS: [number, string, number, string | null, string][] = [
  [3765, 'simple', 3727, null, 'simple dictionary: just lower case and check for stopword'],
  [
    13163,
    'english_stem',
    13150,
    "language = 'english', stopwords = 'english'",
    'snowball stemmer for english language',
  ],
];

/** [oid, name, init, lexize] of pg_ts_template, and its comment. */
export const TS_TEMPLATES: [number, string, string, string, string][] = [
  [3727, 'simple', 'dsimple_init', 'dsimple_lexize', 'simple dictionary: just lower case and check for stopword'],
  [13150, 'snowball', 'dsnowball_init', 'dsnowball_lexize', 'snowball stemmer'],
];

/** The token types each configuration maps, with its one dictionary for each (pg_ts_config_map). */
const SIMPLE_TOKENS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 15, 16, 17, 18, 19, 20, 21, 22];
/** english's word token types (asciiword, word, numword, asciihword, hword, part words), through english_stem. */
const ENGLISH_STEMMED = new Set([1, 2, 10, 11, 16, 17]);

/** pg_ts_config_map's rows: [config, token type, dictionary]. */
export const TS_CONFIG_MAP: [number, number, number][] = [
  ...SIMPLE_TOKENS.map((t): [number, number, number] => [3748, t, 3765]),
  ...SIMPLE_TOKENS.map((t): [number, number, number] => [13164, t, ENGLISH_STEMMED.has(t) ? 13163 : 3765]),
];

/** The OIDs of the text search objects (their *_is_visible: pg_catalog's, on the search path). */
export const TEXT_SEARCH_OIDS = new Set<number>([
  ...TS_CONFIGS.map((c) => c[0]),
  TS_PARSER[0],
  ...TS_DICTS.map((d) => d[0]),
  ...TS_TEMPLATES.map((t) => t[0]),
]);

/** The comment on text search object `oid` of catalog `of` (pg_ts_config, ...; any when null), as obj_description reads it; undefined for none. */
export function textSearchComment(oid: number, of: string | null): string | undefined {
  const rows: [string, [number, string][]][] = [
    ['pg_ts_config', TS_CONFIGS.map((c) => [c[0], c[3]])],
    ['pg_ts_parser', [[TS_PARSER[0], TS_PARSER[7]]]],
    ['pg_ts_dict', TS_DICTS.map((d) => [d[0], d[4]])],
    ['pg_ts_template', TS_TEMPLATES.map((t) => [t[0], t[4]])],
  ];
  for (const [catalog, comments] of rows)
    if (of === null || of === catalog) {
      const found = comments.find(([o]) => o === oid);
      if (found) return found[1];
    }
  return undefined;
}
