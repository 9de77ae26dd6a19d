// PostgreSQL's tsvector: its text input (tsvectorin, with the tokenizer tsquery input shares) and
// output (tsvectorout). A value is kept in SQLite as its output text and read back here.
import { sqlStateError } from '../../errors';

/** Positions past this are kept at it (PostgreSQL's MAXENTRYPOS - 1). */
export const MAX_POS = 16383;
/** At most this many positions per lexeme (MAXNUMPOS). */
const MAX_NUM_POS = 256;

/** A lexeme and its positions, each `weight << 14 | position` (weight A 3, B 2, C 1, D 0). */
export interface Lexeme {
  word: string;
  pos: number[];
}
/** Lexemes in PostgreSQL's order (by their UTF-8 bytes, a prefix first), each once. */
export type TsVector = Lexeme[];

export const posOf = (p: number) => p & 0x3fff;
export const weightOf = (p: number) => p >> 14;

/** PostgreSQL's tsCompareString: by bytes, a prefix before the longer word. */
export function compareWords(a: string, b: string): number {
  return a === b ? 0 : Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

const isSpace = (c: string | undefined) =>
  c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '\v';
/** Characters that end an unquoted word in a tsquery (ISOPERATOR). */
export const isQueryOperator = (c: string | undefined) =>
  c === '!' || c === '&' || c === '|' || c === '(' || c === ')' || c === '<';

export interface TokenizerOptions {
  /** tsquery: operators end a word and `:` ends it (the modifiers follow). */
  query: boolean;
  /** websearch_to_tsquery: no quoting or escapes, `"` ends a word. */
  web?: boolean;
}

/**
 * gettoken_tsvector: the word at `from` (quoted with '', escaped with \), with its positions when
 * not in a query; null at the end of the input. `input` is the whole text, for the error message.
 */
export function nextToken(
  input: string,
  from: number,
  opts: TokenizerOptions,
): { word: string; pos: number[]; end: number } | null {
  const chars = input;
  const kind = opts.query ? 'tsquery' : 'tsvector';
  const syntax = () => sqlStateError('42601', `syntax error in ${kind}: "${input}"`);
  const web = opts.web === true;
  let i = from;
  let word = '';
  let state: 'word' | 'end' | 'next' | 'cmplx' | 'charcmplx' | 'posinfo' | 'inpos' | 'posdelim' = 'word';
  let back: 'end' | 'cmplx' = 'end';
  const pos: number[] = [];
  for (;;) {
    const c = chars[i];
    if (state === 'word') {
      if (c === undefined) return null;
      if (!web && c === "'") state = 'cmplx';
      else if (!web && c === '\\') {
        state = 'next';
        back = 'end';
      } else if ((opts.query && isQueryOperator(c)) || (web && c === '"')) throw syntax();
      else if (!isSpace(c)) {
        word += c;
        state = 'end';
      }
    } else if (state === 'next') {
      if (c === undefined) throw sqlStateError('42601', `there is no escaped character: "${input}"`);
      word += c;
      state = back;
    } else if (state === 'end') {
      if (!web && c === '\\') {
        state = 'next';
        back = 'end';
      } else if (isSpace(c) || c === undefined || (opts.query && isQueryOperator(c)) || (web && c === '"')) {
        if (word === '') throw syntax();
        return { word, pos, end: i };
      } else if (c === ':') {
        if (word === '') throw syntax();
        if (opts.query) return { word, pos, end: i };
        state = 'inpos';
      } else word += c;
    } else if (state === 'cmplx') {
      if (!web && c === "'") state = 'charcmplx';
      else if (!web && c === '\\') {
        state = 'next';
        back = 'cmplx';
      } else if (c === undefined) throw syntax();
      else word += c;
    } else if (state === 'charcmplx') {
      if (!web && c === "'") {
        word += c;
        state = 'cmplx';
      } else {
        if (word === '') throw syntax();
        if (opts.query) return { word, pos, end: i };
        state = 'posinfo';
        continue; // this character again
      }
    } else if (state === 'posinfo') {
      if (c === ':') state = 'inpos';
      else return { word, pos, end: i };
    } else if (state === 'inpos') {
      if (c !== undefined && c >= '0' && c <= '9') {
        // atoi of the digits from here (the following digits are passed over in posdelim)
        const digits = /^\d+/.exec(chars.slice(i))![0];
        const n = Number(digits.length > 9 ? '999999999' : digits);
        const p = n >= MAX_POS + 1 ? MAX_POS : n;
        if (p === 0) throw sqlStateError('42601', `wrong position info in tsvector: "${input}"`);
        pos.push(p);
        state = 'posdelim';
      } else throw syntax();
    } else if (state === 'posdelim') {
      const last = pos.length - 1;
      const setWeight = (w: number) => {
        if (weightOf(pos[last]) !== 0) throw syntax();
        pos[last] = (w << 14) | posOf(pos[last]);
      };
      if (c === ',') state = 'inpos';
      else if (c === 'a' || c === 'A' || c === '*') setWeight(3);
      else if (c === 'b' || c === 'B') setWeight(2);
      else if (c === 'c' || c === 'C') setWeight(1);
      else if (c === 'd' || c === 'D') {
        if (weightOf(pos[last]) !== 0) throw syntax();
      } else if (isSpace(c) || c === undefined) return { word, pos, end: i };
      else if (!(c >= '0' && c <= '9')) throw syntax();
    }
    i += c === undefined ? 0 : c.length;
    if (c === undefined) return null;
  }
}

/** Positions sorted and each once, the highest weight kept for a repeated one (uniquePos). */
function uniquePositions(pos: number[]): number[] {
  const sorted = [...pos].sort((a, b) => posOf(a) - posOf(b));
  const out: number[] = [];
  for (const p of sorted) {
    const last = out.length - 1;
    if (last >= 0 && posOf(out[last]) === posOf(p)) {
      if (weightOf(p) > weightOf(out[last])) out[last] = p;
    } else out.push(p);
  }
  return out.slice(0, MAX_NUM_POS);
}

/** Lexemes sorted and merged (a word's positions joined), as tsvectorin and to_tsvector leave them. */
export function normaliseLexemes(entries: Lexeme[]): TsVector {
  const byWord = new Map<string, number[]>();
  for (const e of entries) {
    const had = byWord.get(e.word);
    if (had) had.push(...e.pos);
    else byWord.set(e.word, [...e.pos]);
  }
  return [...byWord.entries()]
    .sort((a, b) => compareWords(a[0], b[0]))
    .map(([word, pos]) => ({ word, pos: uniquePositions(pos) }));
}

/** tsvectorin. */
export function parseTsVector(text: string): TsVector {
  const entries: Lexeme[] = [];
  let i = 0;
  for (;;) {
    const t = nextToken(text, i, { query: false });
    if (!t) break;
    if (Buffer.byteLength(t.word) > 2046)
      throw sqlStateError('54000', `word is too long (${Buffer.byteLength(t.word)} bytes, max 2046 bytes)`);
    entries.push({ word: t.word, pos: t.pos });
    i = t.end;
  }
  return normaliseLexemes(entries);
}

/** A lexeme quoted as tsvectorout and tsqueryout print it (' and \ doubled). */
export function quoteLexeme(word: string): string {
  return `'${word.replace(/['\\]/g, (c) => c + c)}'`;
}

const WEIGHT_LETTERS = ['', 'C', 'B', 'A'];

/** tsvectorout. */
export function printTsVector(v: TsVector): string {
  return v
    .map((l) => {
      const q = quoteLexeme(l.word);
      if (l.pos.length === 0) return q;
      return `${q}:${l.pos.map((p) => `${posOf(p)}${WEIGHT_LETTERS[weightOf(p)]}`).join(',')}`;
    })
    .join(' ');
}
