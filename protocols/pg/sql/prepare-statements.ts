// SQL-level prepared statements as PostgreSQL's grammar reads them: PREPARE name [(type, ...)] AS
// statement, EXECUTE name [(expression, ...)], DEALLOCATE [PREPARE] name | ALL. Only the words are
// read here; the session resolves the types, analyses the statement and evaluates the arguments
// when the statement runs (session/prepared.ts), as PostgreSQL does after its parser.
import { preparedGid } from '../session/two-phase';
import { pgErrorAt } from '../sqlstate';
import type { Analyzed } from './analyzed';
import { type PgToken, identName } from './lexer';

const BASE = { sql: '', local: false, readonly: true, columns: null, paramTypes: [] as number[] };

/** The statements PREPARE takes (PostgreSQL's PreparableStmt: a query, INSERT, UPDATE, DELETE). */
const PREPARABLE = new Set(['SELECT', 'VALUES', 'TABLE', 'WITH', 'INSERT', 'UPDATE', 'DELETE']);

/** Where token t starts in the statement's text (its tokens are the text); its end for none. */
function offsetOf(tokens: PgToken[], t: PgToken | undefined): number {
  let at = 0;
  let end = 0;
  for (const u of tokens) {
    if (u === t) return at;
    at += u.text.length;
    if (u.type !== 'space' && u.type !== 'comment') end = at;
  }
  return end;
}

/** PostgreSQL's syntax error at token t (at the end of the statement for none), with its position. */
const syntaxError = (tokens: PgToken[], t: PgToken | undefined) =>
  pgErrorAt('42601', t ? `syntax error at or near "${t.text}"` : 'syntax error at end of input', offsetOf(tokens, t));

/** A statement's name (an identifier), or PostgreSQL's syntax error. */
function nameAt(sig: PgToken[], tokens: PgToken[], i: number): string {
  const t = sig[i];
  if (!t || (t.type !== 'word' && t.type !== 'quoted')) throw syntaxError(tokens, t);
  return identName(t);
}

/**
 * The items of the parenthesised list opening at sig[open], each as written (its tokens' text from
 * `tokens`) with where it starts, and the index in sig after its `)`; 42601 for an empty item, as
 * PostgreSQL's grammar.
 */
function listAt(sig: PgToken[], tokens: PgToken[], open: number): { items: string[]; at: number[]; next: number } {
  const items: string[] = [];
  const at: number[] = [];
  let depth = 0;
  let from = open + 1;
  const item = (to: number) => {
    if (to === from) throw syntaxError(tokens, sig[to]);
    at.push(offsetOf(tokens, sig[from]));
    const a = tokens.indexOf(sig[from]);
    const b = tokens.indexOf(sig[to - 1]);
    items.push(
      tokens
        .slice(a, b + 1)
        .map((t) => t.text)
        .join(''),
    );
    from = to + 1;
  };
  for (let i = open; i < sig.length; i++) {
    const t = sig[i].type === 'punct' ? sig[i].text : '';
    if (t === '(' || t === '[') depth++;
    else if (t === ')' || t === ']') {
      depth--;
      if (depth === 0) {
        item(i);
        return { items, at, next: i + 1 };
      }
    } else if (t === ',' && depth === 1) item(i);
  }
  throw syntaxError(tokens, undefined);
}

/** PREPARE name [(type, ...)] AS statement: its name, type names and statement's text. */
export function analyzePrepare(sig: PgToken[], tokens: PgToken[]): Analyzed {
  const up = (i: number) => (sig[i]?.type === 'word' ? sig[i].text.toUpperCase() : '');
  // PREPARE TRANSACTION 'gid' as PostgreSQL 15 with max_prepared_transactions = 0 (its default):
  // the block ends as ROLLBACK would end it, then 55000 when there was one (Session)
  if (up(1) === 'TRANSACTION') return { ...BASE, kind: 'rollback', command: 'ROLLBACK', prepares: preparedGid(sig, 2) };
  const name = nameAt(sig, tokens, 1);
  let i = 2;
  let types: string[] = [];
  let at: number[] = [];
  if (sig[i]?.text === '(') ({ items: types, at, next: i } = listAt(sig, tokens, i));
  if (up(i) !== 'AS') throw syntaxError(tokens, sig[i]);
  const first = sig[i + 1];
  if (!first || !(PREPARABLE.has(up(i + 1)) || first.text === '(')) throw syntaxError(tokens, first);
  const body = tokens
    .slice(tokens.indexOf(first))
    .map((t) => t.text)
    .join('')
    .trimEnd();
  const bodyAt = offsetOf(tokens, first);
  return { ...BASE, kind: 'prepare', command: 'PREPARE', prepared: { name, types, at, body, bodyAt } };
}

/** EXECUTE name [(expression, ...)]: its name and each argument as written, with where it stands. */
export function analyzeExecute(sig: PgToken[], tokens: PgToken[]): Analyzed {
  const name = nameAt(sig, tokens, 1);
  let i = 2;
  let args: string[] = [];
  let at: number[] = [];
  if (sig[i]?.text === '(') ({ items: args, at, next: i } = listAt(sig, tokens, i));
  if (i < sig.length) throw syntaxError(tokens, sig[i]);
  return { ...BASE, kind: 'execute', command: 'EXECUTE', prepared: { name, args, at } };
}

/** DEALLOCATE [PREPARE] name | ALL (a null name). */
export function analyzeDeallocate(sig: PgToken[], tokens: PgToken[]): Analyzed {
  let i = 1;
  if (sig[i]?.type === 'word' && sig[i].text.toUpperCase() === 'PREPARE' && sig.length > 2) i++;
  const all = sig[i]?.type === 'word' && sig[i].text.toUpperCase() === 'ALL';
  const name = all ? null : nameAt(sig, tokens, i);
  if (i + 1 < sig.length) throw syntaxError(tokens, sig[i + 1]);
  return { ...BASE, kind: 'deallocate', command: all ? 'DEALLOCATE ALL' : 'DEALLOCATE', prepared: { name } };
}
