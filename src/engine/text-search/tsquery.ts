// PostgreSQL's tsquery: the query language's parser (tsquery.c's standard, websearch and plain
// tokenizers feeding one operator-precedence builder), the removal of stop words' placeholders
// (tsquery_cleanup.c) and the output text (infix). A value is kept in SQLite as its output text.
import { sqlStateError } from '../../errors';
import { isQueryOperator, nextToken, quoteLexeme } from './tsvector';

export type QueryNode =
  | { t: 'val'; word: string; weight: number; prefix: boolean }
  | { t: 'stop' }
  | { t: 'not'; arg: QueryNode }
  | { t: 'and' | 'or'; l: QueryNode; r: QueryNode }
  | { t: 'phrase'; l: QueryNode; r: QueryNode; dist: number };
/** null is the empty query (no lexemes). */
export type TsQuery = QueryNode | null;

type Op = 'not' | 'and' | 'or' | 'phrase';
const PRIORITY: Record<Op, number> = { or: 1, and: 2, phrase: 3, not: 4 };

/** Where operands and operators are pushed, in postfix order (as PostgreSQL's polish list is built). */
export class QueryBuilder {
  readonly stack: QueryNode[] = [];
  value(word: string, weight: number, prefix: boolean): void {
    this.stack.push({ t: 'val', word, weight, prefix });
  }
  stop(): void {
    this.stack.push({ t: 'stop' });
  }
  operator(op: Op, dist = 1): void {
    const r = this.stack.pop()!;
    if (op === 'not') this.stack.push({ t: 'not', arg: r });
    else {
      const l = this.stack.pop()!;
      this.stack.push(op === 'phrase' ? { t: 'phrase', l, r, dist } : { t: op, l, r });
    }
  }
}

/** What an operand becomes: pushed as is (tsquery input) or through a configuration (to_tsquery). */
export type PushValue = (b: QueryBuilder, word: string, weight: number, prefix: boolean) => void;

export const pushAsIs: PushValue = (b, word, weight, prefix) => b.value(word, weight, prefix);

type Token =
  | { k: 'val'; word: string; weight: number; prefix: boolean }
  | { k: 'op'; op: Op; dist: number }
  | { k: 'open' }
  | { k: 'close' }
  | { k: 'end' }
  | { k: 'stop-end' };

const isSpace = (c: string | undefined) =>
  c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '\v';

type Mode = 'standard' | 'web' | 'plain';

class QueryTokens {
  i = 0;
  count = 0;
  waitOperand = true;
  first = true;
  constructor(
    readonly text: string,
    readonly mode: Mode,
  ) {}
  syntax() {
    return sqlStateError('42601', `syntax error in tsquery: "${this.text}"`);
  }

  /** The modifiers after an operand (`:*AB`), as get_modifiers reads them. */
  private modifiers(): { weight: number; prefix: boolean } {
    let weight = 0;
    let prefix = false;
    if (this.text[this.i] !== ':') return { weight, prefix };
    this.i++;
    for (;;) {
      const c = this.text[this.i];
      if (c === 'a' || c === 'A') weight |= 8;
      else if (c === 'b' || c === 'B') weight |= 4;
      else if (c === 'c' || c === 'C') weight |= 2;
      else if (c === 'd' || c === 'D') weight |= 1;
      else if (c === '*') prefix = true;
      else return { weight, prefix };
      this.i++;
    }
  }

  /** `<->` or `<N>`: the distance, or null when the text here is not one (it must not end the input). */
  private phrase(): number | null {
    const rest = this.text.slice(this.i);
    const big = /^<(\d+)/.exec(rest);
    if (big && Number(big[1]) > 16384)
      throw sqlStateError(
        '22023',
        'distance in phrase operator must be an integer value between zero and 16384 inclusive',
      );
    const m = /^<(-|(\d+))>/.exec(rest);
    if (!m || rest.length === m[0].length) return null;
    this.i += m[0].length;
    return m[2] === undefined ? 1 : Number(m[2]);
  }

  next(): Token {
    const s = this.text;
    if (this.mode === 'plain') {
      if (this.i >= s.length) return { k: 'end' };
      const word = s.slice(this.i);
      this.i = s.length;
      return { k: 'val', word, weight: 0, prefix: false };
    }
    for (;;) {
      const c = s[this.i];
      if (this.waitOperand) {
        if (this.mode === 'standard') {
          if (c === '!') {
            this.i++;
            this.first = false;
            return { k: 'op', op: 'not', dist: 0 };
          }
          if (c === '(') {
            this.i++;
            this.first = false;
            this.count++;
            return { k: 'open' };
          }
          if (c === ':') throw this.syntax();
        } else {
          if (c === '-') {
            this.i++;
            this.first = false;
            return { k: 'op', op: 'not', dist: 0 };
          }
          if (c === '"') {
            const close = s.indexOf('"', this.i + 1);
            const word = s.slice(this.i + 1, close < 0 ? s.length : close);
            this.i = close < 0 ? s.length : close + 1;
            this.waitOperand = false;
            this.first = false;
            return { k: 'val', word, weight: 0, prefix: false };
          }
          if (isQueryOperator(c)) {
            this.i++;
            this.first = false;
            continue;
          }
        }
        if (c !== undefined && !isSpace(c)) {
          const t = nextToken(s, this.i, { query: true, web: this.mode === 'web' });
          if (t) {
            this.i = t.end;
            const m = this.mode === 'standard' ? this.modifiers() : { weight: 0, prefix: false };
            this.waitOperand = false;
            this.first = false;
            return { k: 'val', word: t.word, ...m };
          }
        }
        if (c === undefined) {
          if (this.first) return { k: 'end' };
          if (this.mode === 'web') return { k: 'stop-end' };
          throw sqlStateError('42601', `no operand in tsquery: "${s}"`);
        }
      } else if (this.mode === 'standard') {
        if (c === '&' || c === '|') {
          this.i++;
          this.waitOperand = true;
          return { k: 'op', op: c === '&' ? 'and' : 'or', dist: 0 };
        }
        const dist = c === '<' ? this.phrase() : null;
        if (dist !== null) {
          this.waitOperand = true;
          return { k: 'op', op: 'phrase', dist };
        }
        if (c === ')') {
          this.i++;
          this.count--;
          if (this.count < 0) throw this.syntax();
          return { k: 'close' };
        }
        if (c === undefined) {
          if (this.count) throw this.syntax();
          return { k: 'end' };
        }
        if (!isSpace(c)) throw this.syntax();
      } else {
        if (c === undefined) return { k: 'end' };
        if (/^or/i.test(s.slice(this.i, this.i + 2)) && this.orOperator()) {
          this.i += 2;
          this.waitOperand = true;
          return { k: 'op', op: 'or', dist: 0 };
        }
        if (isQueryOperator(c)) {
          this.i++;
          continue;
        }
        if (!isSpace(c)) {
          this.waitOperand = true;
          return { k: 'op', op: 'and', dist: 0 };
        }
      }
      this.i += c.length;
    }
  }

  /** websearch's OR: not part of a word, and some operand after it (parse_or_operator). */
  private orOperator(): boolean {
    const rest = this.text.slice(this.i + 2);
    if (rest === '') return false;
    if (/^[-_\p{L}\p{N}]/u.test(rest)) return false;
    return /\S/.test(rest.slice(1));
  }
}

/** makepol: operands and operators with their precedence (! binds from the right), groups recursively. */
function makePolish(tokens: QueryTokens, b: QueryBuilder, push: PushValue): void {
  const ops: { op: Op; dist: number }[] = [];
  const clean = (op: Op) => {
    const p = PRIORITY[op];
    while (ops.length) {
      const top = ops[ops.length - 1];
      if ((op !== 'not' && p > PRIORITY[top.op]) || (op === 'not' && p >= PRIORITY[top.op])) break;
      ops.pop();
      b.operator(top.op, top.dist);
    }
  };
  for (;;) {
    const t = tokens.next();
    if (t.k === 'end' || t.k === 'stop-end') {
      if (t.k === 'stop-end') b.stop();
      break;
    }
    if (t.k === 'val') push(b, t.word, t.weight, t.prefix);
    else if (t.k === 'op') {
      clean(t.op);
      ops.push({ op: t.op, dist: t.dist });
    } else if (t.k === 'open') makePolish(tokens, b, push);
    else if (t.k === 'close') {
      clean('or');
      return;
    }
  }
  clean('or');
}

/**
 * clean_stopword_intree: placeholders of stop words removed, a phrase's distance taking in the words
 * removed beside it. Returns [node, ladd, radd].
 */
function cleanStops(n: QueryNode): [QueryNode | null, number, number] {
  if (n.t === 'val') return [n, 0, 0];
  if (n.t === 'stop') return [null, 0, 0];
  if (n.t === 'not') {
    const [arg, l, r] = cleanStops(n.arg);
    return arg ? [{ t: 'not', arg }, l, r] : [null, l, r];
  }
  const [left, lladd, lradd] = cleanStops(n.l);
  const [right, rladd, rradd] = cleanStops(n.r);
  const isPhrase = n.t === 'phrase';
  const dist = n.t === 'phrase' ? n.dist : 0;
  if (!left && !right) {
    const add = isPhrase ? lladd + dist + rladd : Math.max(lladd, rladd);
    return [null, add, add];
  }
  if (!left) return [right, isPhrase ? lladd + dist + rladd : rladd, rradd];
  if (!right) return [left, lladd, isPhrase ? lradd + dist + rradd : lradd];
  if (n.t === 'phrase') return [{ t: 'phrase', l: left, r: right, dist: n.dist + lradd + rladd }, lladd, rradd];
  return [{ t: n.t, l: left, r: right }, 0, 0];
}

function hasStop(n: QueryNode): boolean {
  if (n.t === 'stop') return true;
  if (n.t === 'val') return false;
  if (n.t === 'not') return hasStop(n.arg);
  return hasStop(n.l) || hasStop(n.r);
}

/** parse_tsquery: the text read in `mode`, each operand through `push`; stop words cleaned away. */
export function parseQuery(text: string, push: PushValue = pushAsIs, mode: Mode = 'standard'): TsQuery {
  const b = new QueryBuilder();
  makePolish(new QueryTokens(text, mode), b, push);
  if (b.stack.length === 0) return null;
  const root = b.stack[0];
  return hasStop(root) ? cleanStops(root)[0] : root;
}

const priorityOf = (n: QueryNode) => (n.t === 'val' || n.t === 'stop' ? 5 : PRIORITY[n.t]);

/** tsqueryout's infix: parentheses where a lower-priority operator is an operand, or a phrase right of a phrase. */
function infix(n: QueryNode, parent: number, rightOfPhrase: boolean): string {
  if (n.t === 'val') {
    let s = quoteLexeme(n.word);
    if (n.weight || n.prefix) {
      s += `:${n.prefix ? '*' : ''}`;
      for (const [bit, letter] of [
        [8, 'A'],
        [4, 'B'],
        [2, 'C'],
        [1, 'D'],
      ] as const)
        if (n.weight & bit) s += letter;
    }
    return s;
  }
  if (n.t === 'stop') return '';
  const p = priorityOf(n);
  if (n.t === 'not') {
    const inner = `!${infix(n.arg, p, false)}`;
    return p < parent ? `( ${inner} )` : inner;
  }
  const right = infix(n.r, p, n.t === 'phrase');
  const left = infix(n.l, p, false);
  const op = n.t === 'phrase' ? (n.dist === 1 ? '<->' : `<${n.dist}>`) : n.t === 'or' ? '|' : '&';
  const s = `${left} ${op} ${right}`;
  return p < parent || (n.t === 'phrase' && rightOfPhrase) ? `( ${s} )` : s;
}

export function printTsQuery(q: TsQuery): string {
  return q ? infix(q, -1, false) : '';
}
