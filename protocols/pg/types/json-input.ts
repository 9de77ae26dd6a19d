// PostgreSQL's error for text that json_in or jsonb_in refuses, as its parser (src/common/jsonapi.c)
// reports it: the message, a DETAIL naming what it expected and found, and a CONTEXT line quoting
// the input up to the token it stopped at (`JSON data, line 1: {"a":1}x`). Patina's own JSON parser
// says only whether text is JSON; this walks the text as PostgreSQL's recursive descent does to
// find where and why it stops, so a client sees the same words.
import { PgError } from '../sqlstate';

type Tok = '{' | '}' | '[' | ']' | ',' | ':' | 'string' | 'number' | 'true' | 'false' | 'null' | 'end';

/** An error of the lexer or parser: its DETAIL (the token's text filled in at the throw). */
class Stop {
  constructor(
    readonly detail: string,
    readonly zero = false,
  ) {}
}

const WORD = (c: number) =>
  (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c >= 128;
const DIGIT = (c: number) => c >= 48 && c <= 57;
const HEX = (c: number) => DIGIT(c) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70);

/** The bytes of one UTF-8 character starting with byte `c` (PostgreSQL's pg_encoding_mblen). */
const charLen = (c: number) => (c < 0x80 ? 1 : c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1);

class Lexer {
  readonly b: Buffer;
  /** jsonb's input de-escapes its strings: surrogate pairs and \u0000 are checked (json's is not). */
  readonly escapes: boolean;
  tokenStart = -1;
  tokenEnd = 0;
  tokenType: Tok | null = null;
  lineNumber = 1;
  lineStart = 0;
  tok: Tok = 'end';

  constructor(b: Buffer, escapes: boolean) {
    this.b = b;
    this.escapes = escapes;
  }

  token(): string {
    return this.b.subarray(this.tokenStart, this.tokenEnd).toString('utf8');
  }

  /** PostgreSQL's json_lex: the next token, or a Stop. */
  lex(): void {
    const b = this.b;
    let s = this.tokenEnd;
    while (s < b.length && (b[s] === 32 || b[s] === 9 || b[s] === 10 || b[s] === 13)) {
      if (b[s++] === 10) {
        this.lineNumber++;
        this.lineStart = s;
      }
    }
    this.tokenStart = s;
    if (s >= b.length) {
      this.tokenStart = -1;
      this.tokenEnd = s;
      this.tok = this.tokenType = 'end';
      return;
    }
    const c = b[s];
    if ('{}[],:'.includes(String.fromCharCode(c))) {
      this.tokenEnd = s + 1;
      this.tok = this.tokenType = String.fromCharCode(c) as Tok;
      return;
    }
    if (c === 34) {
      this.string(s);
      return;
    }
    if (c === 45 || DIGIT(c)) {
      this.number(c === 45 ? s + 1 : s);
      return;
    }
    let p = s;
    while (p < b.length && WORD(b[p])) p++;
    if (p === s) {
      this.tokenEnd = s + 1;
      throw new Stop(`Token "${this.token()}" is invalid.`);
    }
    this.tokenEnd = p;
    const word = b.subarray(s, p).toString('latin1');
    if (word !== 'true' && word !== 'false' && word !== 'null') throw new Stop(`Token "${this.token()}" is invalid.`);
    this.tok = this.tokenType = word;
  }

  number(s: number): void {
    const b = this.b;
    let bad = false;
    if (s < b.length && b[s] === 48) s++;
    else if (s < b.length && DIGIT(b[s]) && b[s] !== 48) while (s < b.length && DIGIT(b[s])) s++;
    else bad = true;
    if (s < b.length && b[s] === 46) {
      s++;
      if (s >= b.length || !DIGIT(b[s])) bad = true;
      else while (s < b.length && DIGIT(b[s])) s++;
    }
    if (s < b.length && (b[s] === 101 || b[s] === 69)) {
      s++;
      if (s < b.length && (b[s] === 43 || b[s] === 45)) s++;
      if (s >= b.length || !DIGIT(b[s])) bad = true;
      else while (s < b.length && DIGIT(b[s])) s++;
    }
    for (; s < b.length && WORD(b[s]); s++) bad = true;
    this.tokenEnd = s;
    if (bad) throw new Stop(`Token "${this.token()}" is invalid.`);
    this.tok = this.tokenType = 'number';
  }

  string(s: number): void {
    const b = this.b;
    let hi = -1;
    const invalid = (at: number) => {
      this.tokenEnd = at;
      return new Stop(`Token "${this.token()}" is invalid.`);
    };
    // (these stop at the end of the character read, PostgreSQL's FAIL_AT_CHAR_END)
    const at = (s: number, detail: string, zero = false) => {
      this.tokenEnd = s + charLen(b[s]);
      return new Stop(detail, zero);
    };
    const lowSurrogate = (s: number) => at(s, 'Unicode low surrogate must follow a high surrogate.');
    for (;;) {
      s++;
      if (s >= b.length) throw invalid(s);
      const c = b[s];
      if (c === 34) break;
      if (c < 32) {
        this.tokenEnd = s;
        throw new Stop(`Character with value 0x${c.toString(16).padStart(2, '0')} must be escaped.`);
      }
      if (c === 92) {
        s++;
        if (s >= b.length) throw invalid(s);
        if (b[s] === 117) {
          let ch = 0;
          for (let i = 1; i <= 4; i++) {
            s++;
            if (s >= b.length) throw invalid(s);
            if (!HEX(b[s])) {
              this.tokenEnd = s + charLen(b[s]);
              throw new Stop('"\\u" must be followed by four hexadecimal digits.');
            }
            ch = ch * 16 + Number.parseInt(String.fromCharCode(b[s]), 16);
          }
          if (!this.escapes) continue;
          if (ch >= 0xd800 && ch <= 0xdbff) {
            if (hi !== -1) throw at(s, 'Unicode high surrogate must not follow a high surrogate.');
            hi = ch;
            continue;
          }
          if (ch >= 0xdc00 && ch <= 0xdfff) {
            if (hi === -1) throw lowSurrogate(s);
            hi = -1;
            continue;
          }
          if (hi !== -1) throw lowSurrogate(s);
          if (ch === 0) throw at(s, '\\u0000 cannot be converted to text.', true);
        } else {
          if (this.escapes && hi !== -1) throw lowSurrogate(s);
          if (!'"\\/bfnrt'.includes(String.fromCharCode(b[s]))) {
            this.tokenStart = s;
            this.tokenEnd = s + charLen(b[s]);
            throw new Stop(`Escape sequence "\\${this.token()}" is invalid.`);
          }
        }
      } else if (this.escapes && hi !== -1) throw lowSurrogate(s);
    }
    if (hi !== -1) throw lowSurrogate(s);
    this.tokenEnd = s + 1;
    this.tok = this.tokenType = 'string';
  }
}

type Context = 'end' | 'value' | 'string' | 'array-next' | 'object-start' | 'object-label' | 'object-next';

const EXPECTED: Record<Context, string> = {
  end: 'Expected end of input, but found',
  value: 'Expected JSON value, but found',
  string: 'Expected string, but found',
  'array-next': 'Expected "," or "]", but found',
  'object-start': 'Expected string or "}", but found',
  'object-label': 'Expected ":", but found',
  'object-next': 'Expected "," or "}", but found',
};

const SCALARS = new Set<Tok>(['string', 'number', 'true', 'false', 'null']);

/** PostgreSQL's pg_parse_json over the lexer: returns when the text is JSON, throws a Stop where it is not. */
function parse(lx: Lexer): void {
  // (the token now: read through a call, as each lex() moves it)
  const peek = (): Tok => lx.tok;
  const refuse = (ctx: Context) =>
    new Stop(lx.tok === 'end' ? 'The input string ended unexpectedly.' : `${EXPECTED[ctx]} "${lx.token()}".`);
  const expect = (ctx: Context, tok: Tok) => {
    if (lx.tok !== tok) throw refuse(ctx);
    lx.lex();
  };
  const value = (): void => {
    if (lx.tok === '{') object();
    else if (lx.tok === '[') array();
    else if (SCALARS.has(lx.tok)) lx.lex();
    else throw refuse('value');
  };
  const field = () => {
    if (lx.tok !== 'string') throw refuse('string');
    lx.lex();
    expect('object-label', ':');
    value();
  };
  const object = () => {
    lx.lex();
    if (lx.tok === 'string') {
      field();
      while (peek() === ',') {
        lx.lex();
        field();
      }
    } else if (lx.tok !== '}') throw refuse('object-start');
    expect('object-next', '}');
  };
  const array = () => {
    lx.lex();
    if (lx.tok !== ']') {
      value();
      while (peek() === ',') {
        lx.lex();
        value();
      }
    }
    expect('array-next', ']');
  };
  lx.lex();
  value();
  expect('end', 'end');
}

/** PostgreSQL's report_json_context: the line up to the token's end (at most about 50 bytes of it). */
function context(lx: Lexer): string {
  const b = lx.b;
  const end = lx.tokenEnd;
  let start = lx.lineStart;
  while (end - start >= 50) start += b[start] >= 0x80 ? charLen(b[start]) : 1;
  if (start - lx.lineStart <= 3) start = lx.lineStart;
  const prefix = start > lx.lineStart ? '...' : '';
  const suffix = lx.tokenType !== 'end' && end < b.length && b[end] !== 10 && b[end] !== 13 ? '...' : '';
  return `JSON data, line ${lx.lineNumber}: ${prefix}${b.subarray(start, end).toString('utf8')}${suffix}`;
}

/**
 * PostgreSQL's error for `text` as json's input (or jsonb's, when `jsonb`: its strings de-escaped,
 * so a lone surrogate or \u0000 is refused too): 22P02 `invalid input syntax for type json`, or
 * 22P05 for \u0000 in jsonb, with its DETAIL and CONTEXT; null when PostgreSQL takes the text.
 */
export function jsonInputError(text: string, jsonb: boolean): PgError | null {
  const lx = new Lexer(Buffer.from(text, 'utf8'), jsonb);
  try {
    parse(lx);
    return null;
  } catch (err) {
    if (!(err instanceof Stop)) throw err;
    const e = err.zero
      ? new PgError('user', 'unsupported Unicode escape sequence', '22P05', err.detail)
      : new PgError('user', 'invalid input syntax for type json', '22P02', err.detail);
    e.where = context(lx);
    return e;
  }
}
