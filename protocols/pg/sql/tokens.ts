// Token tests shared by the PG dialect's rewrites (dialect.ts, sql/pg-semantics.ts, lateral.ts).
import type { PgToken } from './lexer';

/** A lexer token, or a group of tokens already rewritten into one piece of text. */
export type Tok = PgToken | { type: 'group'; text: string };

export const isWord = (t: Tok | undefined, w?: string) =>
  t !== undefined && t.type === 'word' && (w === undefined || t.text.toUpperCase() === w);
export const isPunct = (t: Tok | undefined, p: string) => t !== undefined && t.type === 'punct' && t.text === p;
export const isOp = (t: Tok | undefined, o: string) => t !== undefined && t.type === 'op' && t.text === o;

/** Index of the ')' matching the '(' at toks[i], or -1 when it is not closed. */
export function closer(toks: readonly Tok[], i: number): number {
  let depth = 0;
  for (; i < toks.length; i++) {
    if (isPunct(toks[i], '(')) depth++;
    else if (isPunct(toks[i], ')') && --depth === 0) return i;
  }
  return -1;
}

/** The index of the word `w` in toks[from, to) outside any parentheses, or -1. */
export function topLevelWord(toks: readonly Tok[], from: number, to: number, w: string): number {
  let depth = 0;
  for (let i = from; i < to; i++) {
    if (isPunct(toks[i], '(')) depth++;
    else if (isPunct(toks[i], ')')) depth--;
    else if (depth === 0 && isWord(toks[i], w)) return i;
  }
  return -1;
}
