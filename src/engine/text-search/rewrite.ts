// ts_rewrite(query, target, substitute) as tsquery_rewrite.c does it: both queries become n-ary
// trees (QT2QTN, QTNTernary: a & (b & c) is one AND of three), their AND and OR children sorted
// into PostgreSQL's order (QTNSort, which orders operands by a CRC of the lexeme, so the output's
// order is PostgreSQL's), the target replaced wherever it is a node or a subset of an AND's or an
// OR's children (findsubquery), and the tree made binary again (QTNBinary).
import type { QueryNode, TsQuery } from './tsquery';

type Op = 'not' | 'and' | 'or' | 'phrase';
/** QTNode: child[0] is the right operand, as in PostgreSQL's polish array. */
type Node =
  | { t: 'val'; v: Extract<QueryNode, { t: 'val' }>; crc: number; sign: number; noChange: boolean }
  | { t: 'opr'; op: Op; dist: number; child: Node[]; sign: number; noChange: boolean };

/** PostgreSQL's operator numbers (OP_NOT 1 ... OP_PHRASE 4), which the sort compares. */
const OPER: Record<Op, number> = { not: 1, and: 2, or: 3, phrase: 4 };

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** The legacy CRC32 (COMP_LEGACY_CRC32: the reflected table run forwards) tsquery keeps per operand, as its int32. */
function legacyCrc32(word: string): number {
  let crc = 0xffffffff;
  for (const b of Buffer.from(word, 'utf8')) crc = (CRC_TABLE[((crc >>> 24) ^ b) & 0xff] ^ (crc << 8)) >>> 0;
  return (crc ^ 0xffffffff) | 0;
}

function toNode(q: QueryNode): Node {
  if (q.t === 'val') {
    const crc = legacyCrc32(q.word);
    return { t: 'val', v: q, crc, sign: (1 << ((crc >>> 0) % 32)) >>> 0, noChange: false };
  }
  if (q.t === 'stop') throw new Error('a stop word placeholder in a stored tsquery');
  const child = q.t === 'not' ? [toNode(q.arg)] : [toNode(q.r), toNode(q.l)];
  const sign = child.reduce((s, c) => (s | c.sign) >>> 0, 0);
  return { t: 'opr', op: q.t, dist: q.t === 'phrase' ? q.dist : 0, child, sign, noChange: false };
}

function fromNode(n: Node): QueryNode {
  if (n.t === 'val') return n.v;
  if (n.op === 'not') return { t: 'not', arg: fromNode(n.child[0]) };
  const r = fromNode(n.child[0]);
  const l = fromNode(n.child[1]);
  return n.op === 'phrase' ? { t: 'phrase', l, r, dist: n.dist } : { t: n.op, l, r };
}

/** tsCompareString without prefix: bytes, then length. */
function compareWords(a: string, b: string): number {
  const c = Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
  return Math.sign(c);
}

/** QTNodeCompare (operators before operands, a greater operator or CRC first). */
function compare(a: Node, b: Node): number {
  if (a.t !== b.t) return a.t === 'opr' ? -1 : 1; // (QI_OPR 2 > QI_VAL 1)
  if (a.t === 'val' && b.t === 'val') {
    if (a.crc !== b.crc) return a.crc > b.crc ? -1 : 1;
    return compareWords(a.v.word, b.v.word);
  }
  const ao = a as Extract<Node, { t: 'opr' }>;
  const bo = b as Extract<Node, { t: 'opr' }>;
  if (ao.op !== bo.op) return OPER[ao.op] > OPER[bo.op] ? -1 : 1;
  if (ao.child.length !== bo.child.length) return ao.child.length > bo.child.length ? -1 : 1;
  for (let i = 0; i < ao.child.length; i++) {
    const res = compare(ao.child[i], bo.child[i]);
    if (res !== 0) return res;
  }
  if (ao.op === 'phrase' && ao.dist !== bo.dist) return ao.dist > bo.dist ? -1 : 1;
  return 0;
}

function sort(n: Node): void {
  if (n.t !== 'opr') return;
  for (const c of n.child) sort(c);
  if (n.child.length > 1 && n.op !== 'phrase') n.child.sort(compare);
}

/** QTNTernary: an AND's AND children (an OR's OR children) become its own. */
function ternary(n: Node): void {
  if (n.t !== 'opr') return;
  for (const c of n.child) ternary(c);
  if (n.op !== 'and' && n.op !== 'or') return;
  n.child = n.child.flatMap((c) => (c.t === 'opr' && c.op === n.op ? c.child : [c]));
}

/** QTNBinary, pairing children as PostgreSQL does (the first two, then the last). */
function binary(n: Node): void {
  if (n.t !== 'opr') return;
  for (const c of n.child) binary(c);
  while (n.child.length > 2) {
    const pair: Node = {
      t: 'opr',
      op: n.op,
      dist: n.dist,
      child: [n.child[0], n.child[1]],
      sign: (n.child[0].sign | n.child[1].sign) >>> 0,
      noChange: false,
    };
    n.child[0] = pair;
    n.child[1] = n.child[n.child.length - 1];
    n.child.length--;
  }
}

function copy(n: Node): Node {
  return n.t === 'val' ? { ...n } : { ...n, child: n.child.map(copy) };
}

const equal = (a: Node, b: Node) => (a.sign & b.sign) >>> 0 === a.sign && a.sign === b.sign && compare(a, b) === 0;

/** The substitute's copy (null when it is empty), not to be searched again. */
function replacement(subs: Node | null): Node | null {
  if (!subs) return null;
  const c = copy(subs);
  c.noChange = true;
  return c;
}

/** findeq: the node replaced when it is the target, or the target's children among its own replaced. */
function findEq(node: Node, ex: Node, subs: Node | null): Node | null {
  if ((node.sign & ex.sign) >>> 0 !== ex.sign || node.t !== ex.t || node.noChange) return node;
  if (node.t === 'val') return ex.t === 'val' && node.crc === ex.crc && equal(node, ex) ? replacement(subs) : node;
  const e = ex as Extract<Node, { t: 'opr' }>;
  if (node.op !== e.op) return node;
  if (node.child.length === e.child.length) return equal(node, ex) ? replacement(subs) : node;
  if (node.child.length > e.child.length && e.child.length > 0) {
    const matched = new Array<boolean>(node.child.length).fill(false);
    let found = 0;
    let i = 0;
    let j = 0;
    while (i < node.child.length && j < e.child.length) {
      const cmp = compare(node.child[i], e.child[j]);
      if (cmp === 0) {
        matched[i] = true;
        found++;
        i++;
        j++;
      } else if (cmp < 0) i++;
      else break;
    }
    if (found === e.child.length) {
      node.child = node.child.filter((_, k) => !matched[k]);
      const r = replacement(subs);
      if (r) node.child.push(r);
      sort(node);
    }
  }
  return node;
}

/** dofindsubquery: the replacement at the node, else in its children; an operator left with none dropped, with one (not NOT) that one. */
function findSub(root: Node, ex: Node, subs: Node | null): Node | null {
  const n = findEq(root, ex, subs);
  if (n && !n.noChange && n.t === 'opr') {
    n.child = n.child.map((c) => findSub(c, ex, subs)).filter((c): c is Node => c !== null);
    if (n.child.length === 0) return null;
    if (n.child.length === 1 && n.op !== 'not') return n.child[0];
  }
  return n;
}

export function tsRewrite(query: TsQuery, target: TsQuery, substitute: TsQuery): TsQuery {
  if (!query || !target) return query;
  const tree = toNode(query);
  ternary(tree);
  sort(tree);
  const ex = toNode(target);
  ternary(ex);
  sort(ex);
  const out = findSub(tree, ex, substitute ? toNode(substitute) : null);
  if (!out) return null;
  binary(out);
  return fromNode(out);
}
