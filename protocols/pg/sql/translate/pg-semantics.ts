// PostgreSQL meanings that SQLite would silently change: the same text runs on both, with a
// different answer. Each rewrite here makes SQLite answer as PostgreSQL 15 does, on tokens that
// the dialect then translates further (test/pg/semantics-oracle.test.ts runs each on both).
//
// - LIKE is case sensitive, and `\` escapes by default: `a LIKE p` becomes `a GLOB __pg_like_glob(p)`
//   (the pattern turned into a GLOB pattern by src/engine/pg-functions.ts); ILIKE likewise, with each
//   letter as the class of its cases (`[aA]`), so that it folds Unicode case as PostgreSQL does in UTF8.
// - NULLs sort last in ascending order and first in descending order: each ORDER BY term without
//   NULLS FIRST/LAST gets the one PostgreSQL implies, except a column every table declares NOT NULL
//   (so an index still gives the order).
// - greatest() and least() ignore NULLs (SQLite's max(a, b) is NULL when one is).
// - A VALUES list in FROM names its columns in its alias, `(VALUES (1, 'a')) AS v(n, s)`, which
//   SQLite's grammar lacks: it becomes `(SELECT column1 AS n, column2 AS s FROM (VALUES ...)) AS v`.
import { pgError } from '../../sqlstate';
import { type Tok, closer, isOp, isPunct, isWord } from '../tokens';

export type { Tok };

/** Words that end an operand (a pattern, an ORDER BY term) rather than name a column. */
const OPERAND_ENDS = new Set([
  'AND', 'OR', 'NOT', 'IS', 'IN', 'BETWEEN', 'LIKE', 'ILIKE', 'GLOB', 'ESCAPE', 'SIMILAR', 'THEN', 'WHEN',
  'ELSE', 'END', 'FROM', 'WHERE', 'GROUP', 'HAVING', 'ORDER', 'LIMIT', 'OFFSET', 'FETCH', 'FOR', 'UNION',
  'EXCEPT', 'INTERSECT', 'RETURNING', 'ON', 'USING', 'ASC', 'DESC', 'NULLS', 'AS', 'COLLATE', 'WINDOW',
  'ROWS', 'RANGE', 'GROUPS', 'SELECT', 'SET', 'VALUES', 'DO', 'ANY', 'ALL', 'SOME', 'JOIN', 'LEFT',
  'RIGHT', 'INNER', 'OUTER', 'CROSS', 'FULL', 'NATURAL',
]); // biome-ignore format: a word list

/**
 * The end (exclusive) of the simple expression starting at toks[i]: literals, parameters, column
 * references, function calls and parenthesised groups joined by `||`, each with `::type` casts.
 * Returns i when there is no such expression there.
 */
function operandEnd(toks: Tok[], i: number): number {
  let j = primaryEnd(toks, i);
  while (j > i && isOp(toks[j], '||')) {
    const k = primaryEnd(toks, j + 1);
    if (k === j + 1) return i;
    j = k;
  }
  return j;
}

const LIKE_OPS: Record<string, { not: boolean; insensitive: boolean }> = {
  '~~': { not: false, insensitive: false },
  '!~~': { not: true, insensitive: false },
  '~~*': { not: false, insensitive: true },
  '!~~*': { not: true, insensitive: true },
};

/** LIKE, ILIKE and their operators (~~, ~~*, !~~, !~~*) with PostgreSQL's case and escape rules. */
export function rewriteLike(toks: Tok[]): Tok[] {
  if (!toks.some((t) => isWord(t, 'LIKE') || isWord(t, 'ILIKE') || (t.type === 'op' && LIKE_OPS[t.text]))) return toks;
  const out: Tok[] = [];
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    const op = t.type === 'op' ? LIKE_OPS[t.text] : undefined;
    if (!op && !isWord(t, 'LIKE') && !isWord(t, 'ILIKE')) {
      out.push(t);
      continue;
    }
    const insensitive = op ? op.insensitive : isWord(t, 'ILIKE');
    const name = op ? `operator ${t.text}` : t.text.toUpperCase();
    const end = operandEnd(toks, i + 1);
    if (end === i + 1) {
      const what = toks[i + 1] ? `${toks[i + 1].text} after ${name}` : `${name} without a pattern`;
      throw pgError('0A000', `${what} is not supported: the pattern must be a value, parameter, column or || of these`);
    }
    if (toks[end]?.type === 'op' && !['=', '<>', '!=', '<', '>', '<=', '>='].includes(toks[end].text))
      throw pgError(
        '0A000',
        `operator ${toks[end].text} in a ${name} pattern is not supported: put the pattern in parentheses`,
      );
    if (op?.not) out.push({ type: 'word', text: 'NOT' });
    const pattern = toks.slice(i + 1, end);
    let esc: Tok[] | null = null;
    let next = end;
    if (isWord(toks[end], 'ESCAPE')) {
      const e = operandEnd(toks, end + 1);
      if (e === end + 1) throw pgError('42601', 'syntax error: ESCAPE needs a character');
      esc = toks.slice(end + 1, e);
      next = e;
    }
    const fn = insensitive ? '__pg_ilike_glob' : '__pg_like_glob';
    out.push({ type: 'word', text: 'GLOB' }, { type: 'word', text: fn }, { type: 'punct', text: '(' });
    out.push(...pattern);
    if (esc) out.push({ type: 'punct', text: ',' }, ...esc);
    out.push({ type: 'punct', text: ')' });
    i = next - 1;
  }
  return out;
}

/** Words after which an ORDER BY list ends. */
const ORDER_ENDS = new Set([
  'LIMIT', 'OFFSET', 'FETCH', 'FOR', 'UNION', 'EXCEPT', 'INTERSECT', 'ROWS', 'RANGE', 'GROUPS', 'WINDOW',
  'RETURNING',
]); // biome-ignore format: a word list

/** Keywords a column or table name follows that are not the end of an expression. */
const NOT_BEFORE_ALIAS = new Set(['BY', 'DISTINCT', 'INTO', 'UPDATE', 'TABLE', 'CASE', 'WITH', 'RECURSIVE', 'ONLY']);

/** Words that end an expression, so that a name after them is an alias (`SELECT f(x) id`). */
const aliasBefore = (t: Tok | undefined) =>
  t !== undefined &&
  (isWord(t, 'AS') ||
    isPunct(t, ')') ||
    t.type === 'string' ||
    t.type === 'number' ||
    t.type === 'quoted' ||
    (t.type === 'word' && !OPERAND_ENDS.has(t.text.toUpperCase()) && !NOT_BEFORE_ALIAS.has(t.text.toUpperCase())));

const identName = (t: Tok) => (t.type === 'quoted' ? t.text.slice(1, -1).replace(/""/g, '"') : t.text.toLowerCase());

/**
 * ORDER BY terms with PostgreSQL's NULL order made explicit. `notNull(name)` says whether every
 * table with a column of that name declares it NOT NULL: such a term is left as written, unless the
 * statement also uses the name as an alias.
 */
export function rewriteNullOrder(toks: Tok[], notNull: (column: string) => boolean): Tok[] {
  if (!toks.some((t) => isWord(t, 'ORDER'))) return toks;
  const aliased = new Set<string>();
  for (let i = 1; i < toks.length; i++) {
    const t = toks[i];
    if ((t.type === 'word' || t.type === 'quoted') && aliasBefore(toks[i - 1]) && !isPunct(toks[i + 1], '.'))
      aliased.add(identName(t));
  }
  const out: Tok[] = [];
  const depthAt: number[] = []; // depth of each token
  let depth = 0;
  for (const t of toks) {
    if (isPunct(t, ')')) depth--;
    depthAt.push(depth);
    if (isPunct(t, '(')) depth++;
  }
  let i = 0;
  while (i < toks.length) {
    if (!(isWord(toks[i], 'ORDER') && isWord(toks[i + 1], 'BY'))) {
      out.push(toks[i++]);
      continue;
    }
    out.push(toks[i], toks[i + 1]);
    const d = depthAt[i];
    i += 2;
    let term: Tok[] = [];
    const flush = () => {
      out.push(...term);
      const words = term.filter((t, k) => depthAt[i - term.length + k] === d);
      const last = words[words.length - 1];
      const bare = term.filter((t) => !isWord(t, 'ASC') && !isWord(t, 'DESC'));
      const column = bare.length === 1 ? bare[0] : bare.length === 3 && isPunct(bare[1], '.') ? bare[2] : undefined;
      const keeps =
        column !== undefined &&
        (column.type === 'word' || column.type === 'quoted') &&
        !aliased.has(identName(column)) &&
        notNull(identName(column));
      if (term.length > 0 && !words.some((t) => isWord(t, 'NULLS') || isWord(t, 'USING')) && !keeps) {
        out.push({ type: 'word', text: 'NULLS' }, { type: 'word', text: isWord(last, 'DESC') ? 'FIRST' : 'LAST' });
      }
      term = [];
    };
    while (i < toks.length) {
      const t = toks[i];
      if (
        depthAt[i] < d ||
        (depthAt[i] === d && (isPunct(t, ';') || (t.type === 'word' && ORDER_ENDS.has(t.text.toUpperCase()))))
      )
        break;
      if (depthAt[i] === d && isPunct(t, ',')) {
        flush();
        out.push(t);
        i++;
        continue;
      }
      term.push(t);
      i++;
    }
    flush();
  }
  return out;
}

/** greatest(a, b, ...) and least(...) as max()/min() of rotated coalesces, so that NULLs are skipped. */
export function rewriteGreatestLeast(toks: Tok[]): Tok[] {
  if (!toks.some((t) => isWord(t, 'GREATEST') || isWord(t, 'LEAST'))) return toks;
  const out: Tok[] = [];
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    const c = isPunct(toks[i + 1], '(') && !isPunct(toks[i - 1], '.') ? closer(toks, i + 1) : -1;
    if (!(isWord(t, 'GREATEST') || isWord(t, 'LEAST')) || c < 0) {
      out.push(t);
      continue;
    }
    const args: Tok[][] = [[]];
    let depth = 0;
    for (const a of rewriteGreatestLeast(toks.slice(i + 2, c))) {
      if (isPunct(a, '(')) depth++;
      else if (isPunct(a, ')')) depth--;
      if (depth === 0 && isPunct(a, ',')) args.push([]);
      else args[args.length - 1].push(a);
    }
    const fn = isWord(t, 'GREATEST') ? 'max' : 'min';
    const open: Tok = { type: 'punct', text: '(' };
    const close: Tok = { type: 'punct', text: ')' };
    const comma: Tok = { type: 'punct', text: ',' };
    if (args.length === 1) out.push(open, ...args[0], close);
    else {
      out.push({ type: 'word', text: fn }, open);
      args.forEach((_, k) => {
        if (k > 0) out.push(comma);
        out.push({ type: 'word', text: 'coalesce' }, open);
        for (let m = 0; m < args.length; m++) {
          if (m > 0) out.push(comma);
          out.push(open, ...args[(k + m) % args.length], close);
        }
        out.push(close);
      });
      out.push(close);
    }
    i = c;
  }
  return out;
}

/** `(VALUES ...) [AS] v(a, b)` as a subquery that names SQLite's column1, column2, ... a, b. */
export function rewriteValuesAlias(toks: Tok[]): Tok[] {
  if (!toks.some((t, i) => isWord(t, 'VALUES') && isPunct(toks[i - 1], '('))) return toks;
  const out: Tok[] = [];
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    const c = isPunct(t, '(') && isWord(toks[i + 1], 'VALUES') ? closer(toks, i) : -1;
    if (c < 0) {
      out.push(t);
      continue;
    }
    let j = c + 1;
    if (isWord(toks[j], 'AS')) j++;
    const alias = toks[j];
    const names: Tok[] = [];
    const listEnd =
      alias && (alias.type === 'word' || alias.type === 'quoted') && isPunct(toks[j + 1], '(')
        ? closer(toks, j + 1)
        : -1;
    if (listEnd > 0) {
      for (let k = j + 2; k < listEnd; k += 2) {
        const n = toks[k];
        if (!(n.type === 'word' || n.type === 'quoted') || !(k + 1 === listEnd || isPunct(toks[k + 1], ','))) {
          names.length = 0;
          break;
        }
        names.push(n);
      }
    }
    if (names.length === 0) {
      // no column names: the inner tokens go on as they are (nested VALUES lists included)
      out.push(t, ...rewriteValuesAlias(toks.slice(i + 1, c)), toks[c]);
      i = c;
      continue;
    }
    const word = (text: string): Tok => ({ type: 'word', text });
    const punct = (text: string): Tok => ({ type: 'punct', text });
    out.push(punct('('), word('SELECT'));
    names.forEach((n, k) => {
      if (k > 0) out.push(punct(','));
      out.push(word(`column${k + 1}`), word('AS'), n);
    });
    out.push(word('FROM'), ...toks.slice(i, c + 1), punct(')'), word('AS'), alias);
    i = listEnd;
  }
  return out;
}

/** jsonb's operators, as the functions src/engine/pg-functions.ts defines. */
const JSONB_FUNCTIONS: Record<string, string> = {
  '@>': '__pg_jsonb_contains',
  '<@': '__pg_jsonb_contained',
  '?': '__pg_jsonb_exists',
  '?|': '__pg_jsonb_exists_any',
  '?&': '__pg_jsonb_exists_all',
  '#>': '__pg_jsonb_path',
  '#>>': '__pg_jsonb_path_text',
  '#-': '__pg_jsonb_delete_path',
};

/** Operators that bind at least as tightly as jsonb's, so that a left operand goes on through them. */
const LEFT_CHAIN = new Set(['||', '->', '->>', '+', '-', '*', '/', '%', '^']);
const ARITHMETIC = new Set(['+', '-', '*', '/', '%', '^']);

/** Index of the opener matching the closer at ts[j] (')' or ']'), scanning back; -1 when none. */
function openerBefore(ts: readonly Tok[], j: number): number {
  const close = ts[j].text;
  const open = close === ')' ? '(' : '[';
  let depth = 0;
  for (let k = j; k >= 0; k--) {
    if (isPunct(ts[k], close)) depth++;
    else if (isPunct(ts[k], open) && --depth === 0) return k;
  }
  return -1;
}

/** Index of the ']' matching the '[' at ts[i]; -1 when none. */
function bracketAfter(ts: readonly Tok[], i: number): number {
  let depth = 0;
  for (let k = i; k < ts.length; k++) {
    if (isPunct(ts[k], '[')) depth++;
    else if (isPunct(ts[k], ']') && --depth === 0) return k;
  }
  return -1;
}

const nameTok = (t: Tok | undefined) =>
  t !== undefined && (t.type === 'quoted' || (t.type === 'word' && !OPERAND_ENDS.has(t.text.toUpperCase())));

/** Start of the primary expression (with casts and subscripts) that ends at ts[end - 1]; -1 when none. */
function primaryStart(ts: readonly Tok[], end: number): number {
  let j = end - 1;
  for (;;) {
    // a cast's type at the end: ::name, ::name(n), ::name[]
    let k = j;
    while (isPunct(ts[k], ']') && isPunct(ts[k - 1], '[')) k -= 2;
    if (isPunct(ts[k], ')')) {
      const o = openerBefore(ts, k);
      if (o > 1 && nameTok(ts[o - 1]) && isOp(ts[o - 2], '::')) k = o - 1;
    }
    if (nameTok(ts[k]) && isOp(ts[k - 1], '::')) {
      j = k - 2;
      continue;
    }
    break;
  }
  const t = ts[j];
  if (t === undefined) return -1;
  if (isPunct(t, ']')) {
    const o = openerBefore(ts, j);
    if (o < 0) return -1;
    if (isWord(ts[o - 1], 'ARRAY')) return o - 1;
    return primaryStart(ts, o); // a subscript of what comes before
  }
  if (isPunct(t, ')')) {
    let s = openerBefore(ts, j);
    if (s < 0) return -1;
    if (nameTok(ts[s - 1])) {
      s--; // a function call
      while (isPunct(ts[s - 1], '.') && nameTok(ts[s - 2])) s -= 2;
    }
    return s;
  }
  if (t.type === 'string' || t.type === 'number' || t.type === 'param' || t.type === 'group') return j;
  if (nameTok(t)) {
    let s = j;
    while (isPunct(ts[s - 1], '.') && nameTok(ts[s - 2])) s -= 2;
    return s;
  }
  return -1;
}

/** The left operand of a jsonb operator: primaries joined by operators that bind as tightly or more. */
function leftOperandStart(ts: readonly Tok[], end: number): number {
  let s = primaryStart(ts, end);
  if (s < 0) return -1;
  while (ts[s - 1]?.type === 'op' && LEFT_CHAIN.has(ts[s - 1].text)) {
    const before = primaryStart(ts, s - 1);
    if (before >= 0) s = before;
    else if (ts[s - 1].text === '-' || ts[s - 1].text === '+')
      return s - 1; // unary
    else break;
  }
  return s;
}

/** End (exclusive) of the primary expression starting at ts[i], with subscripts and casts; i when none. */
function primaryEnd(ts: readonly Tok[], i: number): number {
  let j = i;
  if (isOp(ts[j], '-') || isOp(ts[j], '+')) j++;
  const t = ts[j];
  if (t === undefined) return i;
  if (isPunct(t, '(')) j = closer(ts, j) + 1;
  else if (isWord(t, 'ARRAY') && isPunct(ts[j + 1], '[')) j = bracketAfter(ts, j + 1) + 1;
  else if (t.type === 'string' || t.type === 'number' || t.type === 'param' || t.type === 'group') j++;
  else if (nameTok(t)) {
    j++;
    while (isPunct(ts[j], '.') && nameTok(ts[j + 1])) j += 2;
    if (isPunct(ts[j], '(')) j = closer(ts, j) + 1;
  } else return i;
  if (j <= 0) return i; // an unclosed bracket
  for (;;) {
    if (isPunct(ts[j], '[')) {
      const c = bracketAfter(ts, j);
      if (c < 0) return i;
      j = c + 1;
    } else if (isOp(ts[j], '::') && nameTok(ts[j + 1])) {
      j += 2;
      if (isPunct(ts[j], '(')) {
        const c = closer(ts, j);
        if (c < 0) return i;
        j = c + 1;
      }
      while (isPunct(ts[j], '[') && isPunct(ts[j + 1], ']')) j += 2;
    } else return j;
  }
}

/** The right operand: primaries joined by arithmetic, which binds more tightly than jsonb's operators. */
function rightOperandEnd(ts: readonly Tok[], i: number): number {
  let j = primaryEnd(ts, i);
  while (j > i && ts[j]?.type === 'op' && ARITHMETIC.has(ts[j].text)) {
    const k = primaryEnd(ts, j + 1);
    if (k === j + 1) break;
    j = k;
  }
  return j;
}

/**
 * jsonb's operators `@>`, `<@`, `?`, `?|`, `?&`, `#>`, `#>>`, `#-` as calls of their functions, with
 * PostgreSQL's precedence (they bind less tightly than arithmetic, more than comparison, and from
 * the left). `ARRAY[...]` as the keys of `?|`/`?&` or a path becomes a JSON array.
 */
export function rewriteJsonbOps(toks: Tok[]): Tok[] {
  if (!toks.some((t) => t.type === 'op' && JSONB_FUNCTIONS[t.text])) return toks;
  const out: Tok[] = [];
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    const fn = t.type === 'op' ? JSONB_FUNCTIONS[t.text] : undefined;
    if (!fn) {
      out.push(t);
      continue;
    }
    const start = leftOperandStart(out, out.length);
    const end = rightOperandEnd(toks, i + 1);
    if (start < 0 || end === i + 1)
      throw pgError(
        '0A000',
        `operator ${t.text} here is not supported: put each of its operands in parentheses, as in (a) ${t.text} (b)`,
      );
    let right = rewriteJsonbOps(toks.slice(i + 1, end));
    if (isWord(right[0], 'ARRAY') && isPunct(right[1], '[') && bracketAfter(right, 1) === right.length - 1)
      right = [
        { type: 'word', text: 'json_array' },
        { type: 'punct', text: '(' },
        ...right.slice(2, -1),
        { type: 'punct', text: ')' },
      ];
    const left = out.splice(start);
    out.push({ type: 'word', text: fn }, { type: 'punct', text: '(' }, ...left, { type: 'punct', text: ',' }, ...right);
    out.push({ type: 'punct', text: ')' });
    i = end - 1;
  }
  return out;
}
