// Regular expressions run in reads only: src/engine/functions.ts installs them on the connections
// that read and not on the writer, where a pathological pattern would stall every write. A write
// that calls one (`UPDATE t SET s = regexp_replace(s, 'a', 'b')`, `DELETE FROM t WHERE s ~ '^x'`,
// `INSERT ... VALUES (regexp_split_to_array(...))`) failed when it ran with SQLite's `no such
// function`, which the client read as 42883 `function REGEXP(...) does not exist`: a function
// PostgreSQL has. It is refused at analysis as what it is, 0A000 naming the call.
import { READ_ONLY_FUNCTIONS } from '../../../src/engine/functions';
import { pgError } from '../sqlstate';
import { lexPg } from './lexer';

/** What the client wrote for each read-only call of the translation. */
const WRITTEN: Record<string, string> = {
  regexp: 'a regular expression match (~, ~*, !~, !~*, SIMILAR TO)',
  __pg_regexp_matches: 'regexp_matches',
  __pg_substring_regex: 'substring(... FROM pattern)',
};

/** Throws 0A000 when the translated write `sql` calls a function that only reads have. */
export function checkReadOnlyCalls(sql: string): void {
  const tokens = lexPg(sql).filter((t) => t.type !== 'space' && t.type !== 'comment');
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    const name = t.type === 'word' ? t.text.toLowerCase() : '';
    if (!READ_ONLY_FUNCTIONS.has(name)) continue;
    // (a call, or `x REGEXP p`; a column of such a name is none)
    const next = tokens[i + 1];
    if (name !== 'regexp' && !(next?.type === 'punct' && next.text === '(')) continue;
    throw pgError(
      '0A000',
      `${WRITTEN[name] ?? name} is not supported in a write: Patina runs regular expressions in reads only (read the values with a SELECT, then write them)`,
    );
  }
}
