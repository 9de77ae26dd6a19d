// The SQL-standard functions PostgreSQL's grammar knows as keywords, called without parentheses
// (`current_user`, `session_user`, `current_role`, `user`, `current_catalog`; `current_date`,
// `current_time`, `current_timestamp`, `localtime`, `localtimestamp`, which take a precision in
// parentheses but not an empty list): written as a call, `current_user()`, PostgreSQL's parser
// refuses them with 42601 at the parenthesis. SQLite has functions of those names, so the
// statement ran. Qualified (`pg_catalog.current_user()`) they are pg_proc's functions, as there.
import { pgErrorAt } from '../sqlstate';
import type { PgToken } from './lexer';

/** Keywords that take no argument list at all. */
const NO_LIST = new Set(['current_user', 'session_user', 'current_role', 'user', 'current_catalog']);
/** Keywords that take a precision, `current_timestamp(3)`, but no empty list. */
const PRECISION = new Set(['current_date', 'current_time', 'current_timestamp', 'localtime', 'localtimestamp']);

/** Throws PostgreSQL's 42601 for the first of these keywords written as a call. */
export function checkBareFunctionCalls(tokens: readonly PgToken[]): void {
  let at = 0; // (from 0, in the statement as written: its tokens joined as they came)
  let prev: PgToken | undefined;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.type === 'word' && !(prev?.type === 'punct' && prev.text === '.')) {
      const word = t.text.toLowerCase();
      if (NO_LIST.has(word) || PRECISION.has(word)) {
        let j = i + 1;
        let open = at + t.text.length;
        while (tokens[j] && (tokens[j].type === 'space' || tokens[j].type === 'comment'))
          open += tokens[j++].text.length;
        if (tokens[j]?.type === 'punct' && tokens[j].text === '(') {
          let k = j + 1;
          while (tokens[k] && (tokens[k].type === 'space' || tokens[k].type === 'comment')) k++;
          const empty = tokens[k]?.type === 'punct' && tokens[k].text === ')';
          // (current_date takes no precision either: its `(` is the error, as the others')
          if (NO_LIST.has(word) || word === 'current_date')
            throw pgErrorAt('42601', 'syntax error at or near "("', open);
          if (empty) {
            let close = open + 1;
            for (let m = j + 1; m < k; m++) close += tokens[m].text.length;
            throw pgErrorAt('42601', 'syntax error at or near ")"', close);
          }
        }
      }
    }
    if (t.type !== 'space' && t.type !== 'comment') prev = t;
    at += t.text.length;
  }
}
