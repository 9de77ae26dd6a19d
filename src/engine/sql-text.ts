/** A lexical token of SQLite SQL, enough to split statements and find keywords without parsing. */
export interface Token {
  type: 'word' | 'string' | 'quoted' | 'number' | 'punct' | 'space' | 'comment';
  text: string;
  start: number;
  line: number;
}

/** Lexes SQLite SQL. Unterminated strings and comments run to the end of the text. */
export function tokenize(sql: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  let line = 1;
  const push = (type: Token['type'], end: number) => {
    const text = sql.slice(i, end);
    out.push({ type, text, start: i, line });
    for (let k = 0; k < text.length; k++) if (text.charCodeAt(k) === 10) line++;
    i = end;
  };
  while (i < sql.length) {
    const c = sql[i];
    if (/\s/.test(c)) {
      let j = i + 1;
      while (j < sql.length && /\s/.test(sql[j])) j++;
      push('space', j);
    } else if (c === '-' && sql[i + 1] === '-') {
      const j = sql.indexOf('\n', i);
      push('comment', j < 0 ? sql.length : j);
    } else if (c === '/' && sql[i + 1] === '*') {
      const j = sql.indexOf('*/', i + 2);
      push('comment', j < 0 ? sql.length : j + 2);
    } else if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      for (;;) {
        const k = sql.indexOf(c, j);
        if (k < 0) {
          j = sql.length;
          break;
        }
        if (sql[k + 1] === c) {
          j = k + 2;
          continue;
        }
        j = k + 1;
        break;
      }
      push(c === "'" ? 'string' : 'quoted', j);
    } else if (c === '[') {
      const k = sql.indexOf(']', i);
      push('quoted', k < 0 ? sql.length : k + 1);
    } else if (/[A-Za-z_\u0080-\uffff]/.test(c)) {
      let j = i + 1;
      while (j < sql.length && /[A-Za-z0-9_$\u0080-\uffff]/.test(sql[j])) j++;
      push('word', j);
    } else if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(sql[i + 1] ?? ''))) {
      let j = i + 1;
      while (j < sql.length && /[0-9A-Za-z_.]/.test(sql[j])) j++;
      push('number', j);
    } else {
      push('punct', i + 1);
    }
  }
  return out;
}

/** The tokens that carry meaning: no spaces or comments. */
export function significant(tokens: Token[]): Token[] {
  return tokens.filter((t) => t.type !== 'space' && t.type !== 'comment');
}

/** A statement cut out of a larger text, with the line it starts on. */
export interface StatementText {
  sql: string;
  line: number;
}

/** Splits text at top-level semicolons; statements that hold only spaces and comments are dropped. */
export function splitStatements(text: string): StatementText[] {
  const out: StatementText[] = [];
  let current: Token[] = [];
  const flush = () => {
    const first = current.find((t) => t.type !== 'space' && t.type !== 'comment');
    if (first) {
      const last = current[current.length - 1];
      out.push({ sql: text.slice(first.start, last.start + last.text.length).trim(), line: first.line });
    }
    current = [];
  };
  for (const t of tokenize(text)) {
    if (t.type === 'punct' && t.text === ';') flush();
    else current.push(t);
  }
  flush();
  return out;
}

/** The first keyword of a statement, upper-cased ('' if none). */
export function firstKeyword(sql: string): string {
  const t = significant(tokenize(sql))[0];
  return t && t.type === 'word' ? t.text.toUpperCase() : '';
}

/** An identifier without its quotes, as SQLite reads it. */
export function unquoteIdentifier(text: string): string {
  const c = text[0];
  if (c === '"' || c === '`')
    return text
      .slice(1, -1)
      .split(c + c)
      .join(c);
  if (c === '[') return text.slice(1, -1);
  return text;
}

/** Quotes an identifier for SQLite, whatever it holds. */
export function quoteIdentifier(name: string): string {
  return '"' + name.split('"').join('""') + '"';
}

/** Which positional placeholders a statement uses: plain `?` and/or numbered `?NNN`. */
export function positionalPlaceholders(sql: string): { plain: boolean; numbered: boolean } {
  const toks = tokenize(sql);
  let plain = false;
  let numbered = false;
  for (let i = 0; i < toks.length; i++) {
    if (toks[i].type !== 'punct' || toks[i].text !== '?') continue;
    if (toks[i + 1]?.type === 'number' && /^\d+$/.test(toks[i + 1].text)) numbered = true;
    else plain = true;
  }
  return { plain, numbered };
}

/** Quotes a string as a SQL literal, whatever it holds. */
export function quoteLiteral(s: string): string {
  return "'" + s.split("'").join("''") + "'";
}

/**
 * The name of a table-valued function's parameter (its hidden column). SQLite lets a query name a
 * hidden column like any other, so a plain name (`arr`, `j`, `s`) made a user's column of that name
 * ambiguous in `SELECT unnest(arr) FROM t` (42702): the parameters take names no schema has.
 */
export const hiddenName = (p: string): string => `__pg_arg_${p}`;
