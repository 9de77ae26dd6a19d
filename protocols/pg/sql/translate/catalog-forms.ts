// What catalog queries ask that the agent's catalog tables answer another way, on the tokens of a
// statement for the catalog connection (translate.ts's last passes; groups read back into tokens):
//  - pgjdbc's getPrimaryKeys and getIndexInfo select `information_schema._pg_expandarray(i.indkey)`,
//    a set-returning call in a select list (one row per element), and read its fields as
//    `(information_schema._pg_expandarray(i.indkey)).n` or, through an alias `AS "keys"`, as
//    `(i.keys).x`. The call becomes a join with __pg_elems (value, 0-based key) at the end of its
//    SELECT's FROM clause; `AS "keys"` becomes the two columns "keys.x" and "keys.n".
//  - `proc.oid = typ.typreceive` (Npgsql's type loading query, what .NET clients and Power BI run
//    when they connect): pg_type's function columns hold the function's name here (a regproc prints
//    as one), so the join compares pg_proc's name. Both orders.
//  - `typname[0] = '_'` (pg_dump's test of an array type's name): a `name` is an array of its
//    characters, counted from 0; a subscript of a catalog's name column (arrays.ts made it
//    __pg_elem(typname, 0)) becomes that character.
import { type Tok, closer, isPunct, isWord, selectOpen, ungroup } from '../tokens';

const PROC_COLUMNS = new Set(['TYPINPUT', 'TYPOUTPUT', 'TYPRECEIVE', 'TYPSEND']);
/** Words that end a FROM clause: the join goes before the first. */
const FROM_CLAUSE_ENDS = new Set(['WHERE', 'GROUP', 'ORDER', 'LIMIT', 'HAVING', 'UNION', 'WINDOW', 'OFFSET']);

const word = (text: string): Tok => ({ type: 'word', text });
const punct = (text: string): Tok => ({ type: 'punct', text });
const isName = (t: Tok | undefined) => t !== undefined && (t.type === 'word' || t.type === 'quoted');

/** The catalog's `name` columns a client subscripts. */
const NAME_COLUMNS = new Set(['TYPNAME', 'RELNAME', 'ATTNAME', 'PRONAME', 'NSPNAME']);

const wanted = (t: Tok) =>
  t.type === 'word' &&
  (isWord(t, '_PG_EXPANDARRAY') || isWord(t, '__PG_ELEM') || PROC_COLUMNS.has(t.text.toUpperCase()));

export function rewriteCatalogForms(input: Tok[]): Tok[] {
  if (!input.some((t) => t.type === 'group' || wanted(t))) return input;
  const toks = ungroup(input);
  if (!toks.some(wanted)) return input;
  const out = nameCharacters(procJoins(expandArrays(toks)));
  return out === toks ? input : out;
}

/** The first index in toks[from, to) at parenthesis depth 0 (counted from `from`) that `test` accepts, after `after`; -1 when none. */
function topLevel(toks: Tok[], from: number, to: number, after: number, test: (t: Tok) => boolean): number {
  let depth = 0;
  for (let i = from; i < to; i++) {
    if (isPunct(toks[i], '(')) depth++;
    else if (isPunct(toks[i], ')')) depth--;
    else if (depth === 0 && i > after && test(toks[i])) return i;
  }
  return -1;
}

/** Whether toks[i] starts `information_schema._pg_expandarray(arg)`: the index of its ')', or -1. */
function expandCall(toks: Tok[], i: number, arg?: Tok[]): number {
  if (!isWord(toks[i], 'INFORMATION_SCHEMA') || !isPunct(toks[i + 1], '.')) return -1;
  if (!isWord(toks[i + 2], '_PG_EXPANDARRAY') || !isPunct(toks[i + 3], '(')) return -1;
  const close = closer(toks, i + 3);
  if (close < 0 || arg === undefined) return close;
  const same =
    close - (i + 4) === arg.length &&
    arg.every((t, k) => t.type === toks[i + 4 + k].type && t.text.toLowerCase() === toks[i + 4 + k].text.toLowerCase());
  return same ? close : -1;
}

function expandArrays(toks: Tok[]): Tok[] {
  for (let n = 0; ; n++) {
    const at = toks.findIndex((_, i) => expandCall(toks, i) >= 0);
    if (at < 0) return toks;
    const argEnd = expandCall(toks, at);
    const arg = toks.slice(at + 4, argEnd);
    const open = selectOpen(toks, at);
    const scopeEnd = open < 0 ? toks.length : closer(toks, open);
    if (scopeEnd < 0) return toks;
    const from = topLevel(toks, open + 1, scopeEnd, at, (t) => isWord(t, 'FROM'));
    if (from < 0) return toks;
    const end = topLevel(
      toks,
      from,
      scopeEnd,
      from,
      (t) => t.type === 'word' && FROM_CLAUSE_ENDS.has(t.text.toUpperCase()),
    );
    const fromEnd = end < 0 ? scopeEnd : end;
    const e = word(`__x${n}`);
    const out: Tok[] = toks.slice(0, open + 1);
    let moved = false;
    for (let i = open + 1; i < scopeEnd; i++) {
      if (i === fromEnd) out.push(word('JOIN'), word('__pg_elems'), punct('('), ...arg, punct(')'), e);
      // (call).n, (call).x
      const inner = isPunct(toks[i], '(') ? expandCall(toks, i + 1, arg) : -1;
      const field = toks[inner + 3];
      if (
        inner >= 0 &&
        isPunct(toks[inner + 1], ')') &&
        isPunct(toks[inner + 2], '.') &&
        (isWord(field, 'N') || isWord(field, 'X'))
      ) {
        out.push(
          ...(isWord(field, 'N')
            ? [
                punct('('),
                e,
                punct('.'),
                word('key'),
                { type: 'op', text: '+' } as Tok,
                { type: 'number', text: '1' } as Tok,
                punct(')'),
              ]
            : [e, punct('.'), word('value')]),
        );
        moved ||= i + 1 === at;
        i = inner + 3;
        continue;
      }
      // call AS "k"
      const close = expandCall(toks, i, arg);
      const k = toks[close + 2];
      if (close >= 0 && isWord(toks[close + 1], 'AS') && k?.type === 'quoted') {
        const name = k.text.slice(1, -1);
        out.push(e, punct('.'), word('value'), word('AS'), { type: 'quoted', text: `"${name}.x"` }, punct(','));
        out.push(e, punct('.'), word('key'), { type: 'op', text: '+' }, { type: 'number', text: '1' });
        out.push(word('AS'), { type: 'quoted', text: `"${name}.n"` });
        moved ||= i === at;
        i = close + 2;
        continue;
      }
      out.push(toks[i]);
    }
    if (fromEnd === scopeEnd) out.push(word('JOIN'), word('__pg_elems'), punct('('), ...arg, punct(')'), e);
    if (!moved) return toks; // nothing we know how to move
    toks = [...out, ...toks.slice(scopeEnd)];
    // (i.keys).x: a field of the alias AS "keys" named, now the column "keys.x"
    toks = fieldsOfAliases(toks);
  }
}

/** `(a.k).x` and `(a.k).n` → `a."k.x"`, `a."k.n"`. */
function fieldsOfAliases(toks: Tok[]): Tok[] {
  const out: Tok[] = [];
  for (let i = 0; i < toks.length; i++) {
    const [a, dot, k, close, dot2, f] = toks.slice(i + 1, i + 7);
    if (
      isPunct(toks[i], '(') &&
      a?.type === 'word' &&
      isPunct(dot, '.') &&
      k?.type === 'word' &&
      isPunct(close, ')') &&
      isPunct(dot2, '.') &&
      f?.type === 'word' &&
      (f.text === 'x' || f.text === 'n')
    ) {
      out.push(a, dot, { type: 'quoted', text: `"${k.text}.${f.text}"` });
      i += 6;
    } else out.push(toks[i]);
  }
  return out;
}

function procJoins(toks: Tok[]): Tok[] {
  if (!toks.some((t) => t.type === 'word' && PROC_COLUMNS.has(t.text.toUpperCase()))) return toks;
  const out = [...toks];
  let changed = false;
  const column = (i: number, test: (t: Tok) => boolean) =>
    isName(out[i]) && isPunct(out[i + 1], '.') && test(out[i + 2]);
  const isOid = (t: Tok) => isWord(t, 'OID');
  const isProc = (t: Tok) => t.type === 'word' && PROC_COLUMNS.has(t.text.toUpperCase());
  for (let i = 0; i + 6 < out.length; i++) {
    if (!(out[i + 3].type === 'op' && out[i + 3].text === '=')) continue;
    if (column(i, isOid) && column(i + 4, isProc)) out[i + 2] = word('proname');
    else if (column(i, isProc) && column(i + 4, isOid)) out[i + 6] = word('proname');
    else continue;
    changed = true;
  }
  return changed ? out : toks;
}

function nameCharacters(toks: Tok[]): Tok[] {
  if (!toks.some((t) => isWord(t, '__PG_ELEM'))) return toks;
  const out: Tok[] = [];
  for (let i = 0; i < toks.length; i++) {
    // __pg_elem ( [alias .] name , n )
    const at = isName(toks[i + 2]) && isPunct(toks[i + 3], '.') ? i + 4 : i + 2;
    const column = toks[at];
    const n = toks[at + 2];
    if (
      isWord(toks[i], '__PG_ELEM') &&
      isPunct(toks[i + 1], '(') &&
      column?.type === 'word' &&
      NAME_COLUMNS.has(column.text.toUpperCase()) &&
      isPunct(toks[at + 1], ',') &&
      n?.type === 'number' &&
      /^\d+$/.test(n.text) &&
      isPunct(toks[at + 3], ')')
    ) {
      out.push(
        word('substr'),
        punct('('),
        ...toks.slice(i + 2, at + 1),
        punct(','),
        { type: 'number', text: String(Number(n.text) + 1) },
        punct(','),
        { type: 'number', text: '1' },
        punct(')'),
      );
      i = at + 3;
    } else out.push(toks[i]);
  }
  return out;
}
