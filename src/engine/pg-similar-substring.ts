import type Database from 'better-sqlite3';
import { sqlStateError } from '../errors';

// substring(s SIMILAR p ESCAPE e), and substring(s FROM p FOR e) of text: PostgreSQL's SQL-regular-
// expression substring. The pattern must match the whole string (else NULL); two escape-double-quote
// separators (`#"`) mark the part returned, which is as long as it can be after the shortest possible
// part before it; without separators the whole string is returned. The pattern becomes a regular
// expression as PostgreSQL's similar_to_escape makes one (regexp.c), for JavaScript's engine: `.`
// matches a newline there too, and the first part's quantifiers are lazy, which is what PostgreSQL's
// `(?:part1){1,1}?` asks of its engine (JavaScript's keeps the inner quantifiers greedy otherwise).

/** The regular expression of a SIMILAR pattern with escape `esc` (NULL: none given, backslash). */
export function similarSubstringRegex(pattern: string, esc: string | null): RegExp {
  const e = esc === null ? '\\' : esc;
  if ([...e].length > 1)
    throw sqlStateError('22025', 'invalid escape string', 'user', 'Escape string must be empty or one character.');
  let out = '^(?:';
  let afterEscape = false;
  let quotes = 0;
  let bracketDepth = 0;
  let classPos = 0;
  for (const c of pattern) {
    if (afterEscape) {
      if (c === '"' && bracketDepth < 1) {
        if (quotes === 0) out += '){1,1}?(';
        else if (quotes === 1) out += '){1,1}(?:';
        else
          throw sqlStateError(
            '2200C',
            'SQL regular expression may not contain more than two escape-double-quote separators',
          );
        quotes++;
      } else {
        out += `\\${c}`;
        classPos = 3;
      }
      afterEscape = false;
    } else if (e !== '' && c === e) afterEscape = true;
    else if (bracketDepth > 0) {
      if (c === '\\') out += '\\';
      out += c;
      if (c === ']' && classPos > 2) bracketDepth--;
      else if (c === '[') {
        bracketDepth++;
        classPos = 3;
      } else if (c === '^') classPos++;
      else classPos = 3;
    } else if (c === '[') {
      out += c;
      bracketDepth = 1;
      classPos = 1;
    } else if (c === '%') out += quotes === 0 ? '[\\s\\S]*?' : '[\\s\\S]*';
    else if (c === '_') out += '[\\s\\S]';
    else if (c === '(') out += '(?:';
    else if (c === '\\' || c === '.' || c === '^' || c === '$') out += `\\${c}`;
    else if (quotes === 0 && (c === '*' || c === '+' || c === '?' || c === '}')) out += `${c}?`;
    else out += c;
  }
  out += ')$';
  try {
    return new RegExp(out);
  } catch (err) {
    throw sqlStateError('2201B', `invalid regular expression: ${(err as Error).message}`);
  }
}

export function installSimilarSubstring(db: Database.Database): void {
  // (strict: NULL in, NULL out, as PostgreSQL's substring is)
  db.function('__pg_similar_substring', { deterministic: true }, (s: unknown, p: unknown, e: unknown) => {
    if (s === null || p === null || e === null) return null;
    const m = similarSubstringRegex(String(p), String(e)).exec(String(s));
    if (!m) return null;
    return m.length > 1 ? (m[1] ?? null) : m[0];
  });
}
