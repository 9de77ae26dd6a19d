// `EXCEPT ALL` and `INTERSECT ALL`, which SQLite has not (only the set forms): PostgreSQL keeps a
// row max(m - n, 0) times for EXCEPT ALL and min(m, n) times for INTERSECT ALL, m and n its copies
// in the left and right query, NULLs equal as a set operation compares them. Each side's copies are
// numbered (row_number() over a partition by all its columns), and the set form of the numbered
// rows keeps exactly those counts; the number is then dropped:
//   SELECT * FROM (WITH __pg_ms1 AS (<left>), __pg_msl1(__pg_c1, ...) AS (SELECT * FROM __pg_ms1),
//     __pg_msr1(__pg_c1, ...) AS (<right>)
//     SELECT * FROM __pg_ms1 WHERE 0 UNION ALL SELECT __pg_c1, ... FROM (
//       SELECT __pg_c1, ..., row_number() OVER (PARTITION BY __pg_c1, ...) FROM __pg_msl1
//       EXCEPT SELECT ... FROM __pg_msr1))
// (the empty first query keeps the left query's column names, as PostgreSQL names the result). On
// PostgreSQL's tokens, before the other passes, which translate the queries inside as any. INTERSECT
// binds tighter than UNION and EXCEPT, as in PostgreSQL: a chain of the set forms with an INTERSECT
// after a UNION or EXCEPT (`a UNION b INTERSECT c`, which SQLite reads from the left) is put in that
// order too, the compound on the right of another made a subquery (`a UNION SELECT * FROM (b
// INTERSECT c)`); a query in parentheses as written is one already (set-members.ts). A multiset one
// is left as it is (and refused by sql/unsupported.ts) when SQLite cannot prepare the left query on
// its own (one naming a query around it), the width being read off its prepared statement. Inside a
// LATERAL subquery the result is read by its first query's names (namedLateral below).
import { type Tok, closer, isPunct, isWord, topLevelItems } from '../tokens';
import { exactColumns, exactOrder, keyedMatch } from './multiset-keys';

const word = (text: string): Tok => ({ type: 'word', text });
const punct = (text: string): Tok => ({ type: 'punct', text });

const SET_OPS = new Set(['UNION', 'INTERSECT', 'EXCEPT']);
const QUERY_STARTS = new Set(['SELECT', 'VALUES', 'TABLE']);
/** Words ending a set operation's last query: the clauses of the whole operation. */
const CHAIN_ENDS = new Set(['ORDER', 'LIMIT', 'OFFSET', 'FETCH', 'FOR', 'RETURNING']);

const isSetOp = (t: Tok | undefined) => t?.type === 'word' && SET_OPS.has(t.text.toUpperCase());

type Node = { leaf: Tok[] } | { op: string; all: boolean; left: Node; right: Node };

export function rewriteMultisetOperations<T extends Tok>(toks: T[], width: (query: Tok[]) => number | null): T[] {
  // (`UNION DISTINCT`, PostgreSQL's spelling of the set form, which SQLite does not read)
  const distinct = toks.some((t, i) => isSetOp(t) && isWord(toks[i + 1], 'DISTINCT'));
  const plain = distinct ? toks.filter((t, i) => !(isWord(t, 'DISTINCT') && isSetOp(toks[i - 1]))) : toks;
  const some = plain.some((t, i) => (isWord(t, 'EXCEPT') || isWord(t, 'INTERSECT')) && isWord(plain[i + 1], 'ALL'));
  // (or an INTERSECT after a UNION or EXCEPT, which SQLite would apply to the rows before it)
  const tighter = plain.some(
    (t, i) => isWord(t, 'INTERSECT') && plain.slice(0, i).some((x) => isSetOp(x) && !isWord(x, 'INTERSECT')),
  );
  if (!some && !tighter) return plain;
  const counter = { n: 0 };
  return rewriteRegion(plain, 0, plain.length, width, counter) as T[];
}

/** toks[from, to) (a statement, or the inside of parentheses) with its multiset operations rewritten, inner ones first. */
function rewriteRegion(
  toks: Tok[],
  from: number,
  to: number,
  width: (query: Tok[]) => number | null,
  counter: { n: number },
): Tok[] {
  const r: Tok[] = [];
  for (let i = from; i < to; i++) {
    if (isPunct(toks[i], '(')) {
      const end = closer(toks, i);
      if (end > i && end < to) {
        const inner = rewriteRegion(toks, i + 1, end, width, counter);
        r.push(
          toks[i],
          ...(isWord(toks[i - 1], 'LATERAL') ? namedLateral(toks.slice(i + 1, end), inner) : inner),
          toks[end],
        );
        i = end;
        continue;
      }
    }
    r.push(toks[i]);
  }
  return rewriteLevel(r, width, counter) ?? r;
}

/**
 * A LATERAL subquery's rewritten query (`inner`) with its first query's column names as its select
 * list where it became `SELECT * FROM (...)` (translate/lateral-json.ts reads a LATERAL subquery's
 * columns by its select list: `*` over a query reading the outer row it refuses): `SELECT a, b FROM
 * (...)`, when the written query's (`written`) first select list is of names only; else as it is.
 */
function namedLateral(written: Tok[], inner: Tok[]): Tok[] {
  if (!isWord(inner[0], 'SELECT') || !(inner[1]?.type === 'op' && inner[1].text === '*')) return inner;
  if (!isWord(written[0], 'SELECT') || isWord(written[1], 'DISTINCT')) return inner;
  const to = written.findIndex(
    (t, k) =>
      k > 0 &&
      t.type === 'word' &&
      /^(FROM|WHERE|GROUP|HAVING|WINDOW|UNION|INTERSECT|EXCEPT|ORDER|LIMIT)$/i.test(t.text),
  );
  if (to < 0) return inner;
  const names: Tok[] = [];
  for (const [a, b] of topLevelItems(written, 1, to)) {
    const item = written.slice(a, b);
    const last = item.at(-1);
    const named = last && (last.type === 'word' || last.type === 'quoted');
    // a name, `t.name`, or any item `AS name`
    const plainName = item.length === 1 || (item.length === 3 && isPunct(item[1], '.'));
    if (
      !named ||
      !(plainName || isWord(item.at(-2), 'AS')) ||
      isWord(last, 'NULL') ||
      isWord(last, 'TRUE') ||
      isWord(last, 'FALSE')
    )
      return inner;
    names.push(...(names.length > 0 ? [punct(',')] : []), last);
  }
  const seen = names
    .filter((t) => t.type !== 'punct')
    .map((t) => (t.type === 'quoted' ? t.text : t.text.toLowerCase()));
  if (new Set(seen).size !== seen.length) return inner;
  return [word('SELECT'), ...names, word('FROM'), punct('('), ...inner, punct(')')];
}

/** The positions of r's tokens outside parentheses (groups skipped: the index after each ')' is its '('). */
function topLevel(r: Tok[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < r.length; i++) {
    out.push(i);
    if (isPunct(r[i], '(')) {
      const end = closer(r, i);
      if (end < 0) return out;
      i = end;
    }
  }
  return out;
}

/** r (one level, its parentheses already rewritten) with its set operation rewritten; null when it holds no multiset one. */
function rewriteLevel(r: Tok[], width: (query: Tok[]) => number | null, counter: { n: number }): Tok[] | null {
  const top = topLevel(r);
  const ops = top.filter((i) => isSetOp(r[i]));
  const multiset = ops.some((i) => isWord(r[i + 1], 'ALL') && !isWord(r[i], 'UNION'));
  const tighter = ops.some(
    (i, k) => isWord(r[i], 'INTERSECT') && ops.slice(0, k).some((j) => !isWord(r[j], 'INTERSECT')),
  );
  if (!multiset && !tighter) return null;
  // the first query: from the last SELECT (VALUES, TABLE) before the first operator, or a query in parentheses
  const before = top.filter((i) => i < ops[0]);
  const starts = before.filter((i) => r[i].type === 'word' && QUERY_STARTS.has(r[i].text.toUpperCase()));
  let start = starts.at(-1);
  if (start === undefined) {
    const open = before.at(-1);
    if (open === undefined || !isPunct(r[open], '(')) return null;
    start = open;
  }
  const end =
    top.find(
      (i) => i > ops[0] && (isPunct(r[i], ';') || (r[i].type === 'word' && CHAIN_ENDS.has(r[i].text.toUpperCase()))),
    ) ?? r.length;
  // the queries between the operators, and the operators
  const members: Tok[][] = [];
  const kinds: { op: string; all: boolean }[] = [];
  let from = start;
  for (const at of ops) {
    if (at < start || at >= end) continue;
    members.push(r.slice(from, at));
    const mark = r[at + 1];
    const all = isWord(mark, 'ALL');
    kinds.push({ op: r[at].text.toUpperCase(), all });
    from = at + (all || isWord(mark, 'DISTINCT') ? 2 : 1);
  }
  members.push(r.slice(from, end));
  if (members.some((m) => m.length === 0)) return null;
  const tree = precedence(members, kinds);
  // a query's width: SQLite's (after the statement's WITH queries it may read), else its select list's
  const prefix = isWord(r[0], 'WITH') ? r.slice(0, start) : [];
  const widthOf = (q: Tok[]) => width([...prefix, ...standalone(q)]) ?? listWidth(q);
  // (a numeric column exact somewhere or of several scales: matched and sorted by its number, multiset-keys.ts)
  const exact = exactColumns(leftmost(tree));
  const keys = exact ? [...exact.kinds].map((x) => x === 'x') : [];
  const emitted = emit(tree, widthOf, counter, keys);
  if (!emitted) return null;
  const tail = r.slice(end);
  return [...r.slice(0, start), ...emitted, ...(exact ? exactOrder(tail, exact.kinds, exact.names) : tail)];
}

/** The operations' tree: INTERSECT first, then UNION and EXCEPT from the left, as PostgreSQL's grammar binds them. */
function precedence(members: Tok[][], kinds: { op: string; all: boolean }[]): Node {
  // INTERSECT chains into single operands
  const operands: Node[] = [{ leaf: members[0] }];
  const outer: { op: string; all: boolean }[] = [];
  kinds.forEach((k, i) => {
    const right: Node = { leaf: members[i + 1] };
    if (k.op === 'INTERSECT') {
      const left = operands.pop() as Node;
      operands.push({ ...k, left, right });
    } else {
      outer.push(k);
      operands.push(right);
    }
  });
  let tree = operands[0];
  outer.forEach((k, i) => {
    tree = { ...k, left: tree, right: operands[i + 1] };
  });
  return tree;
}

/** The leftmost query of a node. */
const leftmost = (n: Node): Tok[] => ('leaf' in n ? n.leaf : leftmost(n.left));

/** The number of items of a query's select list (or a VALUES row) that selects no `*`; null else. */
function listWidth(q: Tok[]): number | null {
  const values = isWord(q[0], 'VALUES') && isPunct(q[1], '(');
  if (!isWord(q[0], 'SELECT') && !values) return null;
  let from = values ? 2 : 1;
  if (isWord(q[from], 'DISTINCT') || isWord(q[from], 'ALL')) from++;
  if (isWord(q[from - 1], 'DISTINCT') && isWord(q[from], 'ON')) return null;
  let to = values ? closer(q, 1) : q.length;
  if (!values)
    for (let k = from, depth = 0; k < q.length; k++) {
      if (isPunct(q[k], '(')) depth++;
      else if (isPunct(q[k], ')')) depth--;
      else if (depth === 0 && q[k].type === 'word' && /^(FROM|WHERE|GROUP|HAVING|WINDOW|INTO)$/i.test(q[k].text)) {
        to = k;
        break;
      }
    }
  if (to <= from) return null;
  const items = topLevelItems(q, from, to);
  return items.some(([a, b]) =>
    q
      .slice(a, b)
      .some(
        (t, i, all) =>
          t.type === 'op' && t.text === '*' && (i === 0 || isPunct(all[i - 1], '.')) && i === all.length - 1,
      ),
  )
    ? null
    : items.length;
}

/** A query standing alone (a query in parentheses made `SELECT * FROM (query)`). */
function standalone(q: Tok[]): Tok[] {
  return isPunct(q[0], '(') ? [word('SELECT'), { type: 'op', text: '*' }, word('FROM'), ...q] : q;
}

/** A node's SQL as a query SQLite reads (a compound of simple queries); null when a width is not known. */
function emit(n: Node, width: (query: Tok[]) => number | null, counter: { n: number }, keys: boolean[]): Tok[] | null {
  if ('leaf' in n) return n.leaf;
  const left = emit(n.left, width, counter, keys);
  const right = emit(n.right, width, counter, keys);
  if (!left || !right) return null;
  const op = [word(n.op), ...(n.all ? [word('ALL')] : [])];
  if (!(n.all && n.op !== 'UNION')) {
    // SQLite reads a compound from the left: a compound on the right stands in a subquery
    return [...left, ...op, ...('leaf' in n.right ? right : wrap(right))];
  }
  const w = width(leftmost(n));
  if (w === null || w < 1) return null;
  // (queries of different widths: the set form, for SQLite's refusal, which is PostgreSQL's 42601 then)
  const rw = width(leftmost(n.right));
  if (rw !== null && rw !== w) return [...left, word(n.op), ...('leaf' in n.right ? right : wrap(right))];
  const k = ++counter.n;
  const [all, l, rr] = [`__pg_ms${k}`, `__pg_msl${k}`, `__pg_msr${k}`];
  const cols = Array.from({ length: w }, (_, i) => `__pg_c${i + 1}`);
  const list = (names: string[]): Tok[] => names.flatMap((c, i) => (i > 0 ? [punct(','), word(c)] : [word(c)]));
  const numbered = (table: string): Tok[] => [
    word('SELECT'),
    ...list(cols),
    punct(','),
    word('row_number'),
    punct('('),
    punct(')'),
    word('OVER'),
    punct('('),
    word('PARTITION'),
    word('BY'),
    ...list(cols),
    punct(')'),
    word('FROM'),
    word(table),
  ];
  const star: Tok[] = [word('SELECT'), { type: 'op', text: '*' }, word('FROM')];
  return [
    ...star,
    punct('('),
    word('WITH'),
    word(all),
    word('AS'),
    punct('('),
    ...standalone(left),
    punct(')'),
    punct(','),
    word(l),
    punct('('),
    ...list(cols),
    punct(')'),
    word('AS'),
    punct('('),
    ...star,
    word(all),
    punct(')'),
    punct(','),
    word(rr),
    punct('('),
    ...list(cols),
    punct(')'),
    word('AS'),
    punct('('),
    ...standalone(right),
    punct(')'),
    ...star,
    word(all),
    word('WHERE'),
    { type: 'number', text: '0' },
    word('UNION'),
    word('ALL'),
    ...(keys.length === w && keys.includes(true)
      ? [keyedMatch(n.op, cols, keys, l, rr, k)]
      : [
          word('SELECT'),
          ...list(cols),
          word('FROM'),
          punct('('),
          ...numbered(l),
          word(n.op),
          ...numbered(rr),
          punct(')'),
        ]),
    punct(')'),
  ];
}

/** A compound as one query: `SELECT * FROM (compound)`. */
function wrap(q: Tok[]): Tok[] {
  return [word('SELECT'), { type: 'op', text: '*' }, word('FROM'), punct('('), ...q, punct(')')];
}
