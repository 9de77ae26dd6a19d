// SQL/JSON path evaluation as PostgreSQL 15's jsonpath_exec.c does it, on parsed JSON (jsonb.ts's
// values). Lax mode unwraps an array under an accessor, a method or a filter (one level), wraps a
// scalar under [..], and lets structural errors (a key that is not there, a subscript out of range)
// give nothing; strict mode raises them (2203A, 22039, 22033, 2203C). Errors of this kind are
// JsonPathError, which `silent` and predicates swallow (a predicate whose operand fails is unknown);
// a variable missing from `vars` (42704) is raised whatever the mode, as there.
import { PatinaError, sqlStateError } from '../errors';
import { decimalText, parseDecimal } from './decimal';
import { type Json, byKey, compareNumbers } from './jsonb';
import type { ArithOp, JpNode, JpStep, JsonPath } from './jsonpath-parse';
import { divScale, divideText } from './pg-exact-division';
import { containerOffsets } from './jsonb-offsets';

/** An error PostgreSQL's path engine reports through RETURN_ERROR (suppressed by `silent`). */
export class JsonPathError extends PatinaError {}

const fail = (code: string, message: string): never => {
  throw new JsonPathError('user', message, undefined, code);
};

type Bool = true | false | null; // null: unknown

interface Ctx {
  root: Json;
  vars: Map<string, Json>;
  strict: boolean;
  ignoreStructural: boolean;
  current: Json;
  /** The innermost array a subscript is read for (its `last`). */
  arraySize: number;
  /** The path's own accessors and where their results go as they are found (kept when a later item fails). */
  top: JpStep[] | null;
  found: Json[];
  /** Whether the path ends at the first item `top` finds. */
  first: boolean;
  /** Whether errors are not raised here (`silent`, or a predicate's operand, which is then unknown). */
  silent: boolean;
  /** The document .keyvalue() numbers objects in (the target, vars, or a pair it made) and its number. */
  base: { id: number; doc: Json; offsets: Map<object, number> | null };
  lastId: number;
  /** The vars argument, the base of accessors after a variable. */
  varsDoc: Json;
}

const isArray = (v: Json): v is Json[] => Array.isArray(v);
const isObject = (v: Json): v is Map<string, Json> => v instanceof Map;
const isNumber = (v: Json): v is { num: string } =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Map);

const structural = (ctx: Ctx) => !ctx.strict || ctx.ignoreStructural;

// numbers, exactly, as numeric's arithmetic: digits × 10^-scale
interface Scaled {
  digits: bigint;
  scale: number;
}
function scaled(v: { num: string }): Scaled {
  const d = parseDecimal(v.num)!;
  const digits = BigInt((d.int || '0') + d.frac);
  return { digits: d.neg ? -digits : digits, scale: d.frac.length };
}
function scaledNum(x: Scaled): { num: string } {
  const neg = x.digits < 0n;
  const s = (neg ? -x.digits : x.digits).toString().padStart(x.scale + 1, '0');
  const int = s.slice(0, s.length - x.scale);
  const frac = s.slice(s.length - x.scale);
  return { num: decimalText({ neg, int: int.replace(/^0+/, ''), frac }) };
}
const align = (a: Scaled, s: number) => a.digits * 10n ** BigInt(s - a.scale);

function arith(op: ArithOp, a: { num: string }, b: { num: string }): { num: string } {
  const x = scaled(a);
  const y = scaled(b);
  const s = Math.max(x.scale, y.scale);
  switch (op) {
    case '+':
      return scaledNum({ digits: align(x, s) + align(y, s), scale: s });
    case '-':
      return scaledNum({ digits: align(x, s) - align(y, s), scale: s });
    case '*':
      return scaledNum({ digits: x.digits * y.digits, scale: x.scale + y.scale });
    case '/':
      if (y.digits === 0n) fail('22012', 'division by zero');
      return { num: divideText(x, y, divScale(x, y)) };
    case '%': {
      if (y.digits === 0n) fail('22012', 'division by zero');
      // x - trunc(x / y) * y, at the larger scale (numeric's mod_var)
      const [ax, ay] = [align(x, s), align(y, s)];
      return scaledNum({ digits: ax % ay, scale: s });
    }
  }
}

/** The items of a sequence with arrays opened one level (lax mode's auto-unwrap of a result). */
function unwrapped(ctx: Ctx, vs: Json[]): Json[] {
  if (ctx.strict) return vs;
  return vs.flatMap((v) => (isArray(v) ? v : [v]));
}

/** +v or -v of one item: 2203B for what is no number. */
function signed(op: '+' | '-', v: Json): Json {
  if (!isNumber(v)) fail('2203B', `operand of unary jsonpath operator ${op} is not a numeric value`);
  return op === '+' ? v : arith('-', { num: '0' }, v as { num: string });
}

/** The results of a path expression on `item` (the current value the accessors read). */
function evalNode(ctx: Ctx, n: JpNode, item: Json): Json[] {
  switch (n.k) {
    case 'root':
      return [ctx.root];
    case 'current':
      return [ctx.current];
    case 'last':
      return [{ num: String(ctx.arraySize - 1) }];
    case 'var':
      if (!ctx.vars.has(n.name)) throw sqlStateError('42704', `could not find jsonpath variable "${n.name}"`);
      return [ctx.vars.get(n.name)!];
    case 'lit':
      return [n.v];
    case 'chain': {
      const out: Json[] = [];
      // (accessors after a variable read the vars document, .keyvalue()'s base number 1)
      const base = ctx.base;
      if (n.head.k === 'var') ctx.base = { id: 1, doc: ctx.varsDoc, offsets: null };
      try {
        for (const v of evalNode(ctx, n.head, item)) out.push(...steps(ctx, n.steps, 0, v));
      } finally {
        ctx.base = base;
      }
      return out;
    }
    case 'arith': {
      const name = n.op;
      const l = unwrapped(ctx, evalNode(ctx, n.l, item));
      const r = unwrapped(ctx, evalNode(ctx, n.r, item));
      if (l.length !== 1 || !isNumber(l[0]))
        fail('22038', `left operand of jsonpath operator ${name} is not a single numeric value`);
      if (r.length !== 1 || !isNumber(r[0]))
        fail('22038', `right operand of jsonpath operator ${name} is not a single numeric value`);
      return [arith(n.op, l[0] as { num: string }, r[0] as { num: string })];
    }
    case 'unary':
      return unwrapped(ctx, evalNode(ctx, n.arg, item)).map((v) => signed(n.op, v));
    default: {
      // a predicate as a value: true, false or null (unknown)
      const b = evalBool(ctx, n, item);
      return [b];
    }
  }
}

/** Thrown to end a path at its first item where only whether it finds one counts. */
const STOP = { stop: true };

/**
 * The items of `node` on `item`, into `found` as they are found; with `first`, only until the first
 * (PostgreSQL's executeJsonPath without a result list: what would fail after it is not reached).
 */
function collect(ctx: Ctx, node: JpNode, item: Json, first: boolean, found: Json[] = []): Json[] {
  const saved = { top: ctx.top, found: ctx.found, first: ctx.first };
  ctx.top = node.k === 'chain' ? node.steps : null;
  ctx.found = found;
  ctx.first = first;
  try {
    // (a sign's items go to `found` one by one: those before one that is no number are kept)
    if (node.k === 'unary')
      for (const v of unwrapped(ctx, evalNode(ctx, node.arg, item))) found.push(signed(node.op, v));
    else found.push(...evalNode(ctx, node, item));
  } catch (err) {
    if (err !== STOP) throw err;
  } finally {
    Object.assign(ctx, saved);
  }
  return found;
}

/** steps[i..] applied to `v`. */
function steps(ctx: Ctx, list: JpStep[], i: number, v: Json): Json[] {
  if (i >= list.length) {
    if (list !== ctx.top) return [v];
    ctx.found.push(v);
    if (ctx.first) throw STOP;
    return [];
  }
  return step(ctx, list, i, v, !ctx.strict);
}

/** steps[i] applied to `v` (lax: an array opened first when `unwrap`), then the rest. */
function step(ctx: Ctx, list: JpStep[], i: number, v: Json, unwrap: boolean): Json[] {
  const s = list[i];
  const next = (x: Json) => steps(ctx, list, i + 1, x);
  const eachElement = () => (v as Json[]).flatMap((e) => step(ctx, list, i, e, false));
  switch (s.k) {
    case 'key':
      if (isObject(v)) {
        if (v.has(s.name)) return next(v.get(s.name)!);
        if (!structural(ctx)) fail('2203A', `JSON object does not contain key "${s.name}"`);
        return [];
      }
      if (unwrap && isArray(v)) return eachElement();
      if (!structural(ctx)) fail('2203A', 'jsonpath member accessor can only be applied to an object');
      return [];
    case 'anyKey':
      if (isObject(v)) return [...v.keys()].sort(byKey).flatMap((k) => next(v.get(k)!));
      if (unwrap && isArray(v)) return eachElement();
      if (!structural(ctx)) fail('2203C', 'jsonpath wildcard member accessor can only be applied to an object');
      return [];
    case 'anyArray':
      if (isArray(v)) return v.flatMap(next);
      if (!ctx.strict) return next(v);
      if (!structural(ctx)) fail('22039', 'jsonpath wildcard array accessor can only be applied to an array');
      return [];
    case 'index': {
      if (!isArray(v) && ctx.strict && !structural(ctx))
        fail('22039', 'jsonpath array accessor can only be applied to an array');
      if (!isArray(v) && ctx.strict) return [];
      const arr = isArray(v) ? v : [v];
      const out: Json[] = [];
      const saved = ctx.arraySize;
      ctx.arraySize = arr.length;
      try {
        for (const [a, b] of s.subs) {
          let from = index(ctx, a, v);
          let to = b ? index(ctx, b, v) : from;
          if (from < 0 || from > to || to >= arr.length) {
            if (!structural(ctx)) fail('22033', 'jsonpath array subscript is out of bounds');
          }
          from = Math.max(from, 0);
          to = Math.min(to, arr.length - 1);
          for (let k = from; k <= to; k++) out.push(...next(arr[k]));
        }
      } finally {
        ctx.arraySize = saved;
      }
      return out;
    }
    case 'any': {
      const out: Json[] = [];
      const saved = ctx.ignoreStructural;
      ctx.ignoreStructural = true;
      try {
        // (`last` as a level is past every level; `.**{last}` is the leaves, as jsonpath_exec.c reads it)
        const last = s.last < 0 ? Number.MAX_SAFE_INTEGER : s.last;
        const first = s.first < 0 ? Number.MAX_SAFE_INTEGER : s.first;
        const leaves = s.first < 0 && s.last < 0;
        const container = (x: Json) => isArray(x) || isObject(x);
        if (s.first === 0) {
          // the item itself: where errors are not raised, one there is dropped when the item is a
          // container and the levels below are read all the same (PostgreSQL overwrites its result)
          try {
            out.push(...next(v));
          } catch (err) {
            if (!(ctx.silent && container(v) && err instanceof JsonPathError)) throw err;
          }
        }
        const walk = (x: Json, level: number) => {
          const children = isArray(x) ? x : isObject(x) ? [...x.keys()].sort(byKey).map((k) => x.get(k)!) : [];
          for (const c of children) {
            if ((level >= first && level <= last) || (leaves && !container(c))) out.push(...next(c));
            if (level < last && container(c)) walk(c, level + 1);
          }
        };
        walk(v, 1);
      } finally {
        ctx.ignoreStructural = saved;
      }
      return out;
    }
    case 'filter': {
      if (unwrap && isArray(v)) return eachElement();
      const saved = ctx.current;
      ctx.current = v;
      let keep: Bool;
      try {
        keep = evalBool(ctx, s.pred, v);
      } finally {
        ctx.current = saved;
      }
      return keep === true ? next(v) : [];
    }
    case 'method':
      return method(ctx, s.name, v, unwrap, eachElement, next);
  }
}

/** A subscript's value: one number, truncated to an integer (22033 otherwise). */
function index(ctx: Ctx, n: JpNode, v: Json): number {
  const vs = evalNode(ctx, n, v);
  if (vs.length !== 1 || !isNumber(vs[0])) fail('22033', 'jsonpath array subscript is not a single numeric value');
  const d = parseDecimal((vs[0] as { num: string }).num)!;
  const i = Number((d.neg ? '-' : '') + (d.int || '0'));
  if (!Number.isSafeInteger(i) || i > 2147483647 || i < -2147483648)
    fail('22033', 'jsonpath array subscript is out of integer range');
  return i;
}

const FLOAT_TEXT = /^\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*$/;

function method(
  ctx: Ctx,
  name: string,
  v: Json,
  unwrap: boolean,
  eachElement: () => Json[],
  next: (x: Json) => Json[],
): Json[] {
  if (name === 'type') {
    const t =
      v === null
        ? 'null'
        : typeof v === 'boolean'
          ? 'boolean'
          : typeof v === 'string'
            ? 'string'
            : isArray(v)
              ? 'array'
              : isObject(v)
                ? 'object'
                : 'number';
    return next(t);
  }
  if (name === 'size') {
    if (isArray(v)) return next({ num: String(v.length) });
    if (!ctx.strict) return next({ num: '1' });
    if (!structural(ctx)) fail('22039', 'jsonpath item method .size() can only be applied to an array');
    return [];
  }
  if (unwrap && isArray(v)) return eachElement();
  switch (name) {
    case 'abs':
    case 'floor':
    case 'ceiling': {
      if (!isNumber(v)) return fail('22036', `jsonpath item method .${name}() can only be applied to a numeric value`);
      const d = parseDecimal(v.num)!;
      if (name === 'abs') return next({ num: decimalText({ ...d, neg: false }) });
      const whole = /[1-9]/.test(d.frac);
      const up = name === 'ceiling' ? !d.neg : d.neg;
      let x = BigInt(d.int || '0');
      if (whole && up) x += 1n;
      return next({ num: decimalText({ neg: d.neg && x !== 0n, int: x.toString(), frac: '' }) });
    }
    case 'double': {
      if (isNumber(v)) {
        if (!Number.isFinite(Number(v.num)))
          fail('22036', 'numeric argument of jsonpath item method .double() is out of range for type double precision');
        return next(v);
      }
      if (typeof v === 'string') {
        const f = FLOAT_TEXT.test(v) ? Number(v) : Number.NaN;
        if (!Number.isFinite(f))
          fail(
            '22036',
            'string argument of jsonpath item method .double() is not a valid representation of a double precision number',
          );
        // float8_numeric: the double's 15 significant digits
        const d = parseDecimal(f.toPrecision(15))!;
        return next({ num: decimalText({ ...d, frac: d.frac.replace(/0+$/, '') }) });
      }
      return fail('22036', 'jsonpath item method .double() can only be applied to a string or numeric value');
    }
    case 'keyvalue': {
      if (!isObject(v)) return fail('2203C', 'jsonpath item method .keyvalue() can only be applied to an object');
      // the id: the object's byte offset in PostgreSQL's binary jsonb of its base document, plus
      // the base's number times 10^10 (the target 0, vars 1, each pair made here the next number)
      const base = ctx.base;
      base.offsets ??= containerOffsets(base.doc);
      const at = base.offsets.get(v);
      if (at === undefined)
        throw sqlStateError('0A000', 'jsonpath item method .keyvalue() of this object is not supported in Patina');
      const id = { num: (BigInt(base.id) * 10000000000n + BigInt(at)).toString() };
      const out: Json[] = [];
      for (const k of [...v.keys()].sort(byKey)) {
        const pair = new Map<string, Json>([
          ['id', id],
          ['key', k],
          ['value', v.get(k)!],
        ]);
        ctx.base = { id: ++ctx.lastId, doc: pair, offsets: null };
        try {
          out.push(...next(pair));
        } finally {
          ctx.base = base;
        }
      }
      return out;
    }
    default:
      // .datetime(): PostgreSQL's 22031 for what is no string; reading dates is not done here
      if (typeof v !== 'string') fail('22031', `jsonpath item method .${name}() can only be applied to a string`);
      throw sqlStateError('0A000', `jsonpath item method .${name}() is not supported in Patina`);
  }
}

/** Compares two items as compareItems does: unknown (null) for items of two kinds or containers. */
function compare(op: string, a: Json, b: Json): Bool {
  const kind = (v: Json) =>
    v === null
      ? 'null'
      : typeof v === 'boolean'
        ? 'bool'
        : typeof v === 'string'
          ? 'string'
          : isNumber(v)
            ? 'num'
            : 'container';
  const [ka, kb] = [kind(a), kind(b)];
  if (ka !== kb) {
    if (ka === 'null' || kb === 'null') return op === '!=';
    return null;
  }
  let c: number;
  if (ka === 'container') return null;
  if (ka === 'null') c = 0;
  else if (ka === 'bool') c = a === b ? 0 : a ? 1 : -1;
  else if (ka === 'num') c = compareNumbers((a as { num: string }).num, (b as { num: string }).num);
  else c = Buffer.compare(Buffer.from(a as string), Buffer.from(b as string)); // code point order
  switch (op) {
    case '==':
      return c === 0;
    case '!=':
      return c !== 0;
    case '<':
      return c < 0;
    case '<=':
      return c <= 0;
    case '>':
      return c > 0;
    default:
      return c >= 0;
  }
}

/** An operand of a predicate: its items, or undefined when it failed (the predicate is then unknown). */
function operand(ctx: Ctx, n: JpNode, item: Json, unwrap: boolean): Json[] | undefined {
  const silent = ctx.silent;
  ctx.silent = true;
  try {
    const vs = evalNode(ctx, n, item);
    return unwrap ? unwrapped(ctx, vs) : vs;
  } catch (err) {
    if (err instanceof JsonPathError) return undefined;
    throw err;
  } finally {
    ctx.silent = silent;
  }
}

/** executePredicate: any pair true (lax stops there), unknown when a pair is (strict stops there). */
function predicate(
  ctx: Ctx,
  l: JpNode,
  r: JpNode | null,
  item: Json,
  unwrapRight: boolean,
  test: (a: Json, b: Json | undefined) => Bool,
): Bool {
  const ls = operand(ctx, l, item, true);
  if (ls === undefined) return null;
  const rs = r ? operand(ctx, r, item, unwrapRight) : [undefined];
  if (rs === undefined) return null;
  let error = false;
  let found = false;
  for (const a of ls)
    for (const b of rs) {
      const res = test(a, b as Json | undefined);
      if (res === null) {
        if (ctx.strict) return null;
        error = true;
      } else if (res) {
        if (!ctx.strict) return true;
        found = true;
      }
    }
  if (found) return true;
  return error ? null : false;
}

/** POSIX bracket classes as JavaScript's (with the u flag). */
const CLASSES: Record<string, string> = {
  alpha: '\\p{L}',
  digit: '0-9',
  alnum: '\\p{L}\\p{Nd}',
  upper: '\\p{Lu}',
  lower: '\\p{Ll}',
  space: '\\s',
  blank: ' \\t',
  punct: '\\p{P}',
  xdigit: '0-9A-Fa-f',
  word: '\\w',
  cntrl: '\\p{Cc}',
  print: '\\P{C}',
  graph: '\\p{L}\\p{M}\\p{N}\\p{P}\\p{S}',
};

/**
 * A POSIX regular expression as JavaScript's, with like_regex's flags as jspConvertRegexFlags
 * reads them: `.` stops at a newline unless `s`, `m` anchors at lines, `i` ignores case, `q` takes
 * the pattern literally (`x` is refused when the path is read).
 */
function likeRegex(pattern: string, flags: string): RegExp {
  const src = flags.includes('q')
    ? pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    : pattern.replace(/\[:([a-z]+):\]/g, (m, name: string) => CLASSES[name] ?? m);
  let f = 'u';
  if (flags.includes('i')) f += 'i';
  if (flags.includes('s')) f += 's';
  if (flags.includes('m')) f += 'm';
  try {
    return new RegExp(src, f);
  } catch (err) {
    throw sqlStateError('2201B', `invalid regular expression: ${(err as Error).message}`);
  }
}

function evalBool(ctx: Ctx, n: JpNode, item: Json): Bool {
  switch (n.k) {
    case 'and': {
      const l = evalBool(ctx, n.l, item);
      if (l === false) return false;
      const r = evalBool(ctx, n.r, item);
      return r === true ? l : r;
    }
    case 'or': {
      const l = evalBool(ctx, n.l, item);
      if (l === true) return true;
      const r = evalBool(ctx, n.r, item);
      return r === false ? l : r;
    }
    case 'not': {
      const b = evalBool(ctx, n.arg, item);
      return b === null ? null : !b;
    }
    case 'unknown':
      return evalBool(ctx, n.arg, item) === null;
    case 'exists': {
      if (ctx.strict) {
        const vs = operand(ctx, n.arg, item, false);
        return vs === undefined ? null : vs.length > 0;
      }
      // lax: true at the first item found, before anything after it could fail
      const silent = ctx.silent;
      ctx.silent = true;
      try {
        return collect(ctx, existsTarget(n.arg), item, true).length > 0;
      } catch (err) {
        if (err instanceof JsonPathError) return null;
        throw err;
      } finally {
        ctx.silent = silent;
      }
    }
    case 'cmp':
      return predicate(ctx, n.l, n.r, item, true, (a, b) => compare(n.op, a, b as Json));
    case 'starts':
      return predicate(ctx, n.l, n.r, item, false, (a, b) =>
        typeof a !== 'string' || typeof b !== 'string' ? null : a.startsWith(b),
      );
    case 'like': {
      const re = likeRegex(n.pattern, n.flags);
      return predicate(ctx, n.l, null, item, false, (a) => (typeof a !== 'string' ? null : re.test(a)));
    }
    default:
      // (the grammar admits only predicates here)
      throw sqlStateError('42601', 'syntax error in jsonpath predicate');
  }
}

/**
 * What a path is run as when only whether it finds something counts (jsonb_path_exists, @?, lax
 * exists()): a unary sign there skips non-numbers instead of failing, as executeUnaryArithmExpr
 * does without a result list.
 */
function existsTarget(n: JpNode): JpNode {
  if (n.k !== 'unary') return n;
  const type: JpNode = { k: 'chain', head: { k: 'current' }, steps: [{ k: 'method', name: 'type' }] };
  const numeric: JpNode = { k: 'cmp', op: '==', l: type, r: { k: 'lit', v: 'number' } };
  return { k: 'chain', head: n.arg, steps: [{ k: 'filter', pred: numeric }] };
}

/** Checks a like_regex pattern when the path is read (PostgreSQL compiles it in jsonpath_in). */
export function checkRegexes(n: JpNode): void {
  const walk = (x: unknown): void => {
    if (x === null || typeof x !== 'object') return;
    const o = x as { k?: string; pattern?: string; flags?: string };
    if (o.k === 'like') likeRegex(o.pattern!, o.flags!);
    for (const v of Object.values(o)) if (typeof v === 'object') walk(v);
  };
  walk(n);
}

/**
 * The items a path gives on `target` (executeJsonPath), into `found` as they are found; throws
 * JsonPathError for what `silent` suppresses (`found` then holds the items found before). `vars` must be an object (22023 otherwise, whatever `silent`).
 */
export function runJsonPath(
  path: JsonPath,
  target: Json,
  vars: Json,
  found: Json[] = [],
  exists = false,
  silent = false,
): Json[] {
  if (!isObject(vars))
    throw Object.assign(sqlStateError('22023', '"vars" argument is not an object'), {
      detail: 'Jsonpath parameters should be encoded as key-value pairs of "vars" object.',
    });
  const ctx: Ctx = {
    root: target,
    vars,
    strict: path.strict,
    ignoreStructural: false,
    current: target,
    arraySize: -1,
    top: null,
    found,
    first: false,
    silent,
    base: { id: 0, doc: target, offsets: null },
    lastId: 1,
    varsDoc: vars,
  };
  // (strict mode runs the whole path even then, to find any error in it, as PostgreSQL does)
  const first = exists && !path.strict;
  return collect(ctx, first ? existsTarget(path.expr) : path.expr, target, first, found);
}
