// PostgreSQL's SQL/JSON path language (jsonpath, PostgreSQL 15): its text read into a tree and the
// tree printed as jsonpath_out prints it (`$.a + 1` is `($."a" + 1)`, keys quoted, `<>` as `!=`).
// Pure functions; src/engine/jsonpath-eval.ts runs the tree. The grammar is jsonpath_gram.y's:
// `strict`/`lax`, accessors (.key, ."key", .*, [*], [n, m to last], .**{n to m}, ?(filter),
// .method()), arithmetic with + - * / % and unary signs, comparisons, && || !, exists(...),
// like_regex, starts with, is unknown; `@` only inside a filter, `last` only inside brackets
// (42601 otherwise, as there).
import { sqlStateError } from '../errors';
import { type Json, quote } from './jsonb';
import { decimalText, parseDecimal } from './decimal';

export type Method = 'size' | 'type' | 'double' | 'ceiling' | 'floor' | 'abs' | 'keyvalue' | 'datetime';
export type CompareOp = '==' | '!=' | '<' | '<=' | '>' | '>=';
export type ArithOp = '+' | '-' | '*' | '/' | '%';

export type JpNode =
  | { k: 'root' }
  | { k: 'current' }
  | { k: 'last' }
  | { k: 'var'; name: string }
  | { k: 'lit'; v: Json }
  | { k: 'chain'; head: JpNode; steps: JpStep[] }
  | { k: 'arith'; op: ArithOp; l: JpNode; r: JpNode }
  | { k: 'unary'; op: '+' | '-'; arg: JpNode }
  | { k: 'cmp'; op: CompareOp; l: JpNode; r: JpNode }
  | { k: 'and' | 'or'; l: JpNode; r: JpNode }
  | { k: 'not' | 'exists' | 'unknown'; arg: JpNode }
  | { k: 'starts'; l: JpNode; r: JpNode }
  | { k: 'like'; l: JpNode; pattern: string; flags: string };

export type JpStep =
  | { k: 'key'; name: string }
  | { k: 'anyKey' }
  | { k: 'anyArray' }
  | { k: 'index'; subs: [JpNode, JpNode | null][] }
  | { k: 'any'; first: number; last: number } // -1 is `last`; Infinity when unbounded
  | { k: 'method'; name: Method; template?: string }
  | { k: 'filter'; pred: JpNode };

export interface JsonPath {
  strict: boolean;
  expr: JpNode;
}

const PREDICATES = new Set(['cmp', 'and', 'or', 'not', 'exists', 'unknown', 'starts', 'like']);
export const isPredicate = (n: JpNode): boolean => PREDICATES.has(n.k);

type Tok =
  | { t: 'op'; v: string; at: string }
  | { t: 'ident'; v: string; at: string }
  | { t: 'str'; v: string; at: string }
  | { t: 'num'; v: string; at: string }
  | { t: 'var'; v: string; at: string }
  | { t: 'end'; v: ''; at: string };

const syntax = (near: string | null): Error =>
  sqlStateError(
    '42601',
    near === null ? 'syntax error at end of jsonpath input' : `syntax error at or near "${near}" of jsonpath input`,
  );

/** Characters that end an identifier (jsonpath_scan.l's `special` and blanks). */
const SPECIAL = /[?%$.[\]{}()|&!=<>@#,*:\-+/\\" \t\n\r\f]/;

function readQuoted(s: string, i: number, quoteChar: string): [string, number] {
  let out = '';
  for (;;) {
    if (i >= s.length) throw sqlStateError('42601', 'unexpected end of quoted string at end of jsonpath input');
    const c = s[i];
    if (c === quoteChar) return [out, i + 1];
    if (c !== '\\') {
      out += c;
      i++;
      continue;
    }
    const e = s[i + 1];
    i += 2;
    const simple: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };
    if (e === undefined) throw sqlStateError('42601', 'unexpected end after backslash at end of jsonpath input');
    if (Object.hasOwn(simple, e)) out += simple[e];
    else if (e === 'u') {
      const m = /^(?:\{([0-9a-fA-F]{1,6})\}|([0-9a-fA-F]{4}))/.exec(s.slice(i));
      if (!m) throw sqlStateError('42601', 'invalid Unicode escape sequence at or near "\\u" of jsonpath input');
      out += String.fromCodePoint(Number.parseInt(m[1] ?? m[2], 16));
      i += m[0].length;
    } else if (e === 'x') {
      const m = /^[0-9a-fA-F]{2}/.exec(s.slice(i));
      if (!m) throw sqlStateError('42601', 'invalid hexadecimal character sequence at or near "\\x" of jsonpath input');
      out += String.fromCharCode(Number.parseInt(m[0], 16));
      i += 2;
    } else out += e;
  }
}

function lex(s: string): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  while (i < s.length) {
    const c = s[i];
    if (/[ \t\n\r\f]/.test(c)) {
      i++;
      continue;
    }
    const start = i;
    const two = s.slice(i, i + 2);
    if (['==', '!=', '<>', '<=', '>=', '&&', '||', '**'].includes(two)) {
      out.push({ t: 'op', v: two === '<>' ? '!=' : two, at: two });
      i += 2;
      continue;
    }
    if (c === '"') {
      const [v, j] = readQuoted(s, i + 1, '"');
      out.push({ t: 'str', v, at: s.slice(start, j) });
      i = j;
      continue;
    }
    if (c === '$') {
      if (s[i + 1] === '"') {
        const [v, j] = readQuoted(s, i + 2, '"');
        out.push({ t: 'var', v, at: s.slice(start, j) });
        i = j;
        continue;
      }
      let j = i + 1;
      while (j < s.length && !SPECIAL.test(s[j])) j++;
      if (j > i + 1) out.push({ t: 'var', v: s.slice(i + 1, j), at: s.slice(i, j) });
      else out.push({ t: 'op', v: '$', at: '$' });
      i = j;
      continue;
    }
    if (/\d/.test(c) || (c === '.' && /\d/.test(s[i + 1] ?? ''))) {
      const [text, junk] = numberAt(s, i);
      if (junk) throw sqlStateError('42601', `${junk} at or near "${text}" of jsonpath input`);
      out.push({ t: 'num', v: text, at: text });
      i += text.length;
      continue;
    }
    if (SPECIAL.test(c)) {
      out.push({ t: 'op', v: c, at: c });
      i++;
      continue;
    }
    let j = i;
    let v = '';
    while (j < s.length && !SPECIAL.test(s[j])) v += s[j++];
    // (an identifier PostgreSQL's grammar does not expect is reported at what ended it: a blank, or
    // the end of the input, as its scanner leaves yytext)
    out.push({ t: 'ident', v, at: /[ \t\n\r\f]/.test(s[j] ?? '') ? s[j] : '' });
    i = j;
  }
  out.push({ t: 'end', v: '', at: '' });
  return out;
}

const NUMBER_FORMS = [
  /^(?:(?:0|[1-9]\d*)(?:\.\d*)?|\.\d+)[eE][-+]?\d+/, // real
  /^(?:(?:0|[1-9]\d*)\.\d*|\.\d+)/, // decimal
  /^(?:0|[1-9]\d*)/, // integer
];
const REAL_FAIL = /^(?:(?:0|[1-9]\d*)(?:\.\d*)?|\.\d+)[eE][-+]/;

/**
 * The number at s[i] as jsonpath_scan.l (PostgreSQL 15) reads it, the longest of its forms: with
 * the error of one followed by a character that could go on a name (`1a`, `00`, `3.abs()`:
 * `trailing junk after numeric literal`) or of an exponent without digits (`1e+`).
 */
function numberAt(s: string, i: number): [string, string | null] {
  const rest = s.slice(i);
  const fail = REAL_FAIL.exec(rest)?.[0] ?? '';
  let best = '';
  for (const re of NUMBER_FORMS) {
    const m = re.exec(rest)?.[0] ?? '';
    if (m.length > best.length) best = m;
  }
  const next = rest[best.length];
  const junk = next !== undefined && !SPECIAL.test(next);
  if (fail.length > best.length + (junk ? 1 : 0)) return [fail, 'invalid numeric literal'];
  return junk ? [best + next, 'trailing junk after numeric literal'] : [best, null];
}

const METHODS = new Set(['size', 'type', 'double', 'ceiling', 'floor', 'abs', 'keyvalue', 'datetime']);

class Parser {
  i = 0;
  constructor(readonly toks: Tok[]) {}
  peek(k = 0): Tok {
    return this.toks[Math.min(this.i + k, this.toks.length - 1)];
  }
  fail(): never {
    const t = this.peek();
    throw syntax(t.at === '' ? null : t.at);
  }
  isOp(v: string, k = 0): boolean {
    const t = this.peek(k);
    return t.t === 'op' && t.v === v;
  }
  isWord(v: string, k = 0): boolean {
    const t = this.peek(k);
    // keywords are read without regard to case (`STRICT`, `$.SIZE()`), but for true, false and null
    return t.t === 'ident' && t.v.toLowerCase() === v;
  }
  expectOp(v: string): void {
    if (!this.isOp(v)) this.fail();
    this.i++;
  }

  /** predicate or expression, by precedence: || then && then ! then comparisons, + -, * / %, unary. */
  orExpr(): JpNode {
    let l = this.andExpr();
    while (this.isOp('||')) {
      this.i++;
      const r = this.andExpr();
      if (!isPredicate(l) || !isPredicate(r)) this.fail();
      l = { k: 'or', l, r };
    }
    return l;
  }
  andExpr(): JpNode {
    let l = this.notExpr();
    while (this.isOp('&&')) {
      this.i++;
      const r = this.notExpr();
      if (!isPredicate(l) || !isPredicate(r)) this.fail();
      l = { k: 'and', l, r };
    }
    return l;
  }
  notExpr(): JpNode {
    if (this.isOp('!')) {
      this.i++;
      // `!` takes a delimited predicate: `(predicate)` or exists(...)
      if (!this.isOp('(') && !(this.isWord('exists') && this.isOp('(', 1))) this.fail();
      const arg = this.comparison();
      if (!isPredicate(arg)) this.fail();
      return { k: 'not', arg };
    }
    return this.comparison();
  }
  comparison(): JpNode {
    const l = this.additive();
    const t = this.peek();
    if (t.t === 'op' && ['==', '!=', '<', '<=', '>', '>='].includes(t.v)) {
      if (isPredicate(l)) this.fail();
      this.i++;
      const r = this.additive();
      if (isPredicate(r)) this.fail();
      return { k: 'cmp', op: t.v as CompareOp, l, r };
    }
    if (this.isWord('starts') && this.isWord('with', 1)) {
      if (isPredicate(l)) this.fail();
      this.i += 2;
      const r = this.peek();
      if (r.t === 'str') {
        this.i++;
        return { k: 'starts', l, r: { k: 'lit', v: r.v } };
      }
      if (r.t === 'var') {
        this.i++;
        return { k: 'starts', l, r: { k: 'var', name: r.v } };
      }
      this.fail();
    }
    if (this.isWord('like_regex')) {
      if (isPredicate(l)) this.fail();
      this.i++;
      const p = this.peek();
      if (p.t !== 'str') this.fail();
      this.i++;
      let flags = '';
      if (this.isWord('flag')) {
        this.i++;
        const f = this.peek();
        if (f.t !== 'str') this.fail();
        this.i++;
        flags = f.v;
        const bad = /[^ismxq]/.exec(flags);
        if (!bad && flags.includes('x') && !flags.includes('q'))
          throw sqlStateError('0A000', 'XQuery "x" flag (expanded regular expressions) is not implemented');
        if (bad)
          throw Object.assign(sqlStateError('42601', 'invalid input syntax for type jsonpath'), {
            detail: `Unrecognized flag character "${bad[0]}" in LIKE_REGEX predicate.`,
          });
      }
      return { k: 'like', l, pattern: p.v, flags };
    }
    return l;
  }
  additive(): JpNode {
    let l = this.multiplicative();
    for (;;) {
      const t = this.peek();
      if (t.t !== 'op' || (t.v !== '+' && t.v !== '-')) return l;
      if (isPredicate(l)) this.fail();
      this.i++;
      const r = this.multiplicative();
      if (isPredicate(r)) this.fail();
      l = { k: 'arith', op: t.v, l, r };
    }
  }
  multiplicative(): JpNode {
    let l = this.unary();
    for (;;) {
      const t = this.peek();
      if (t.t !== 'op' || (t.v !== '*' && t.v !== '/' && t.v !== '%')) return l;
      if (isPredicate(l)) this.fail();
      this.i++;
      const r = this.unary();
      if (isPredicate(r)) this.fail();
      l = { k: 'arith', op: t.v as ArithOp, l, r };
    }
  }
  unary(): JpNode {
    const t = this.peek();
    if (t.t === 'op' && (t.v === '+' || t.v === '-')) {
      this.i++;
      const arg = this.unary();
      if (isPredicate(arg)) this.fail();
      return { k: 'unary', op: t.v, arg };
    }
    return this.accessor();
  }
  accessor(): JpNode {
    const head = this.primary();
    const steps: JpStep[] = [];
    for (;;) {
      const s = this.step();
      if (!s) break;
      steps.push(s);
    }
    if (steps.length === 0) return head;
    // (a parenthesized predicate may take accessors only as `(predicate) is unknown`'s operand; PostgreSQL's grammar allows them)
    return head.k === 'chain'
      ? { k: 'chain', head: head.head, steps: [...head.steps, ...steps] }
      : { k: 'chain', head, steps };
  }
  primary(): JpNode {
    const t = this.peek();
    this.i++;
    switch (t.t) {
      case 'str':
        return { k: 'lit', v: t.v };
      case 'num':
        return { k: 'lit', v: { num: decimalText(parseDecimal(t.v)!) } };
      case 'var':
        return { k: 'var', name: t.v };
      case 'ident':
        if (t.v === 'true') return { k: 'lit', v: true };
        if (t.v === 'false') return { k: 'lit', v: false };
        if (t.v === 'null') return { k: 'lit', v: null };
        if (t.v.toLowerCase() === 'last') return { k: 'last' };
        if (t.v.toLowerCase() === 'exists' && this.isOp('(')) {
          this.i++;
          const arg = this.orExpr();
          if (isPredicate(arg)) this.fail();
          this.expectOp(')');
          return { k: 'exists', arg };
        }
        break;
      case 'op':
        if (t.v === '$') return { k: 'root' };
        if (t.v === '@') return { k: 'current' };
        if (t.v === '(') {
          const inner = this.orExpr();
          this.expectOp(')');
          if (isPredicate(inner) && this.isWord('is') && this.isWord('unknown', 1)) {
            this.i += 2;
            return { k: 'unknown', arg: inner };
          }
          return inner;
        }
        break;
    }
    this.i--;
    return this.fail();
  }
  step(): JpStep | null {
    if (this.isOp('.')) {
      this.i++;
      const t = this.peek();
      if (t.t === 'op' && t.v === '*') {
        this.i++;
        return { k: 'anyKey' };
      }
      if (t.t === 'op' && t.v === '**') {
        this.i++;
        return this.anyPath();
      }
      if (t.t === 'str') {
        this.i++;
        return { k: 'key', name: t.v };
      }
      if (t.t === 'ident') {
        this.i++;
        const name = t.v.toLowerCase();
        if (METHODS.has(name) && this.isOp('(')) {
          this.i++;
          if (name === 'datetime' && this.peek().t === 'str') {
            const template = this.peek().v;
            this.i++;
            this.expectOp(')');
            return { k: 'method', name: 'datetime', template };
          }
          this.expectOp(')');
          return { k: 'method', name: name as Method };
        }
        return { k: 'key', name: t.v };
      }
      // a number after the dot is a key too (`$.1`? no: PostgreSQL's scanner makes it a number)
      this.fail();
    }
    if (this.isOp('[')) {
      this.i++;
      if (this.isOp('*') && this.isOp(']', 1)) {
        this.i += 2;
        return { k: 'anyArray' };
      }
      const subs: [JpNode, JpNode | null][] = [];
      for (;;) {
        const from = this.subscript();
        let to: JpNode | null = null;
        if (this.isWord('to')) {
          this.i++;
          to = this.subscript();
        }
        subs.push([from, to]);
        if (this.isOp(',')) {
          this.i++;
          continue;
        }
        this.expectOp(']');
        return { k: 'index', subs };
      }
    }
    if (this.isOp('?') && this.isOp('(', 1)) {
      this.i += 2;
      const pred = this.orExpr();
      if (!isPredicate(pred)) this.fail();
      this.expectOp(')');
      return { k: 'filter', pred };
    }
    return null;
  }
  subscript(): JpNode {
    const e = this.additive();
    if (isPredicate(e)) this.fail();
    return e;
  }
  anyPath(): JpStep {
    if (!this.isOp('{')) return { k: 'any', first: 0, last: Number.POSITIVE_INFINITY };
    this.i++;
    const level = (): number => {
      const t = this.peek();
      this.i++;
      if (t.t === 'ident' && t.v.toLowerCase() === 'last') return -1;
      if (t.t === 'num' && /^\d+$/.test(t.v)) return Number(t.v);
      this.i--;
      return this.fail();
    };
    const first = level();
    let last = first;
    if (this.isWord('to')) {
      this.i++;
      last = level();
    }
    this.expectOp('}');
    return { k: 'any', first, last };
  }
}

/** Checks `@` (filters only) and `last` (subscripts only) as flattenJsonPathParseItem does. */
function checkPlaces(n: JpNode, inFilter: boolean, inSubscript: boolean): void {
  const sub = (x: JpNode) => checkPlaces(x, inFilter, inSubscript);
  switch (n.k) {
    case 'current':
      if (!inFilter) throw sqlStateError('42601', '@ is not allowed in root expressions');
      return;
    case 'last':
      if (!inSubscript) throw sqlStateError('42601', 'LAST is allowed only in array subscripts');
      return;
    case 'chain':
      sub(n.head);
      for (const s of n.steps) {
        if (s.k === 'filter') checkPlaces(s.pred, true, inSubscript);
        if (s.k === 'index')
          for (const [a, b] of s.subs) {
            checkPlaces(a, inFilter, true);
            if (b) checkPlaces(b, inFilter, true);
          }
      }
      return;
    case 'arith':
    case 'cmp':
    case 'and':
    case 'or':
    case 'starts':
      sub(n.l);
      sub(n.r);
      return;
    case 'unary':
    case 'not':
    case 'exists':
    case 'unknown':
      sub(n.arg);
      return;
    case 'like':
      sub(n.l);
      return;
    default:
      return;
  }
}

/** Reads jsonpath text: 42601 for what PostgreSQL's jsonpath_in refuses. */
export function parseJsonPath(text: string): JsonPath {
  const toks = lex(text);
  const p = new Parser(toks);
  let strict = false;
  if (p.isWord('strict') || p.isWord('lax')) {
    strict = p.isWord('strict');
    p.i++;
  }
  if (p.peek().t === 'end') p.fail();
  const expr = p.orExpr();
  if (p.peek().t !== 'end') p.fail();
  checkPlaces(expr, false, false);
  return { strict, expr };
}

/** jsonpath_gram.y's operationPriority: whether an operand is printed in parentheses. */
function priority(n: JpNode): number {
  switch (n.k) {
    case 'or':
      return 0;
    case 'and':
      return 1;
    case 'cmp':
    case 'starts':
    case 'like':
    case 'not':
    case 'exists':
    case 'unknown':
      return n.k === 'cmp' || n.k === 'starts' || n.k === 'like' ? 2 : 6;
    case 'arith':
      return n.op === '+' || n.op === '-' ? 3 : 4;
    case 'unary':
      return 5;
    default:
      return 6;
  }
}

const printNumber = (v: Json) => (v !== null && typeof v === 'object' && 'num' in v ? v.num : '');

function printStep(s: JpStep): string {
  switch (s.k) {
    case 'key':
      return `.${quote(s.name)}`;
    case 'anyKey':
      return '.*';
    case 'anyArray':
      return '[*]';
    case 'index':
      return `[${s.subs.map(([a, b]) => (b ? `${print(a, false)} to ${print(b, false)}` : print(a, false))).join(',')}]`;
    case 'any': {
      const lv = (n: number) => (n < 0 ? 'last' : String(n));
      if (s.first === 0 && s.last === Number.POSITIVE_INFINITY) return '.**';
      if (s.first === s.last) return `.**{${lv(s.first)}}`;
      return `.**{${lv(s.first)} to ${s.last === Number.POSITIVE_INFINITY ? 'last' : lv(s.last)}}`;
    }
    case 'method':
      return s.name === 'datetime' && s.template !== undefined ? `.datetime(${quote(s.template)})` : `.${s.name}()`;
    case 'filter':
      return `?(${print(s.pred, false)})`;
  }
}

function print(n: JpNode, brackets: boolean): string {
  const operand = (x: JpNode) => print(x, priority(x) <= priority(n));
  const wrap = (s: string) => (brackets ? `(${s})` : s);
  switch (n.k) {
    case 'root':
      return '$';
    case 'current':
      return '@';
    case 'last':
      return 'last';
    case 'var':
      return `$${quote(n.name)}`;
    case 'lit':
      return typeof n.v === 'string'
        ? quote(n.v)
        : n.v === null
          ? 'null'
          : typeof n.v === 'boolean'
            ? String(n.v)
            : printNumber(n.v);
    case 'chain':
      // (a number followed by accessors is printed in parentheses, `(3).abs()`, as printJsonPathItem does)
      return (
        (n.head.k === 'lit' && printNumber(n.head.v) !== '' ? `(${print(n.head, false)})` : print(n.head, brackets)) +
        n.steps.map(printStep).join('')
      );
    case 'arith':
    case 'cmp':
    case 'and':
    case 'or':
      return wrap(
        `${operand(n.l)} ${n.k === 'and' ? '&&' : n.k === 'or' ? '||' : (n as { op: string }).op} ${operand(n.r)}`,
      );
    case 'unary':
      return wrap(`${n.op}${operand(n.arg)}`);
    case 'not':
      return `!(${print(n.arg, false)})`;
    case 'exists':
      return `exists (${print(n.arg, false)})`;
    case 'unknown':
      return `(${print(n.arg, false)}) is unknown`;
    case 'starts':
      return wrap(`${operand(n.l)} starts with ${operand(n.r)}`);
    case 'like':
      return wrap(`${operand(n.l)} like_regex ${quote(n.pattern)}${n.flags ? ` flag ${quote(n.flags)}` : ''}`);
  }
}

/** jsonpath's text as PostgreSQL prints it. */
export function printJsonPath(p: JsonPath): string {
  return (p.strict ? 'strict ' : '') + print(p.expr, true);
}
