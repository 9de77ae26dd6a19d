// PostgreSQL 15's keywords, for pg_get_keywords() (pgjdbc's getSQLKeywords, DBeaver's highlighter):
// each category's words (src/engine/pg-keywords.ts), and the words that cannot be a bare column
// label. Read from a PostgreSQL 15 server's own pg_get_keywords().

import { lookup } from '../../../src/lookup';
import { KEYWORD_CATEGORIES } from '../../../src/engine/pg-keywords';

const NOT_BARE = new Set(
  (
    'array as char character create day except fetch filter for from grant group having hour intersect ' +
    'into isnull limit minute month notnull offset on order over overlaps precision returning second to ' +
    'union varying where window with within without year '
  ).split(' '),
);

const CATDESC: Record<string, string> = lookup({
  U: 'unreserved',
  C: 'unreserved (cannot be function or type name)',
  T: 'reserved (can be function or type name)',
  R: 'reserved',
});

/** Rows of pg_get_keywords(): word, catcode, barelabel, catdesc, baredesc; sorted by word. */
export const PG_KEYWORDS: [string, string, number, string, string][] = Object.entries(KEYWORD_CATEGORIES)
  .flatMap(([cat, words]) =>
    words
      .trim()
      .split(' ')
      .map((w): [string, string, number, string, string] => [
        w,
        cat,
        NOT_BARE.has(w) ? 0 : 1,
        CATDESC[cat],
        NOT_BARE.has(w) ? 'requires AS' : 'can be bare label',
      ]),
  )
  .sort((a, b) => (a[0] < b[0] ? -1 : 1));
