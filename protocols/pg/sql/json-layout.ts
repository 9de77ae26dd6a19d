// Where a json builder's document leaves the statement as text (a select item of the statement's
// own SELECT, or a cast to text), the analysis reads the builders' layout off the parse tree and
// the translation reprints SQLite's compact document with PostgreSQL's spacing
// (`__pg_json_layout(doc, layout)`, src/engine/pg-json-layout.ts): `{"a" : "x"}` where SQLite wrote
// `{"a":"x"}`. Inside the statement (a builder in a builder, `->`, a cast to jsonb) the document
// stays SQLite's, which its JSON functions read. Each branch of a CASE is laid out on its own, and a
// builder written into a json column (INSERT ... VALUES, UPDATE ... SET, ON CONFLICT DO UPDATE SET)
// is stored with PostgreSQL's spacing, as PostgreSQL stores the text its builder wrote.
import { parseTree } from './parse';
import type { Schema } from '../../../src/engine/schema/model';
import type { PgToken } from './lexer';
import { isPunct, isWord } from './tokens';
import { strings } from './type-signatures';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

/** Whether the tokens may hold a json builder (json_build_object, json_agg, ...): a cheap test before parsing. */
export function mayBuildJson(sig: PgToken[]): boolean {
  return sig.some((t) => t.type === 'word' && /^json_(build_|agg$|object_agg$)/i.test(t.text));
}

const TEXT_TYPES = new Set(['text', 'varchar', 'bpchar']);

/**
 * The layouts of the json builders whose text leaves `sql`: the offset where each expression starts
 * → its layout (for wrapJsonLayouts). Expressions whose layout is SQLite's own are left out.
 */
export function jsonLayouts(sql: string, schema?: Schema): Map<number, string> {
  const out = new Map<number, string>();
  let tree: Node;
  try {
    tree = parseTree(sql);
  } catch {
    return out;
  }
  const stmt = tree.stmts?.length === 1 ? tree.stmts[0].stmt : undefined;
  const top = stmt?.SelectStmt;
  const add = (e: Node, aliases: Set<string>): void => {
    // each branch of a CASE on its own (one may build an object, another an array)
    const c = e?.CaseExpr;
    if (c) {
      for (const w of c.args ?? []) if (w.CaseWhen?.result) add(w.CaseWhen.result, aliases);
      if (c.defresult) add(c.defresult, aliases);
      return;
    }
    const l = layoutOf(e, aliases);
    const at = startOf(e);
    if (l !== 'c' && at >= 0) out.set(at, l);
  };
  // a builder written into a json column is stored with PostgreSQL's spacing, which reading it gives back
  if (schema) for (const [value, aliases] of jsonAssignments(stmt, schema)) add(value, aliases);
  const visit = (n: Node, aliases: Set<string>): void => {
    if (n === null || typeof n !== 'object') return;
    if (Array.isArray(n)) {
      for (const x of n) visit(x, aliases);
      return;
    }
    if (n.SelectStmt) {
      const inner = new Set(aliases);
      fromAliases(n.SelectStmt.fromClause, inner);
      for (const k in n.SelectStmt) visit(n.SelectStmt[k], inner);
      return;
    }
    const cast = n.TypeCast;
    if (cast && TEXT_TYPES.has(strings(cast.typeName?.names).pop()?.toLowerCase() ?? '')) add(cast.arg, aliases);
    for (const k in n) visit(n[k], aliases);
  };
  visit(tree.stmts ?? [], new Set());
  if (top?.targetList && (!top.op || top.op === 'SETOP_NONE')) {
    const aliases = new Set<string>();
    fromAliases(top.fromClause, aliases);
    for (const t of top.targetList) if (t.ResTarget?.val) add(t.ResTarget.val, aliases);
  }
  return out;
}

/** The values an INSERT (VALUES rows), UPDATE or ON CONFLICT DO UPDATE writes into json (not jsonb) columns. */
function jsonAssignments(stmt: Node, schema: Schema): [Node, Set<string>][] {
  const out: [Node, Set<string>][] = [];
  const write = stmt?.InsertStmt ?? stmt?.UpdateStmt;
  const table = write?.relation?.schemaname
    ? undefined
    : schema.tables.get(String(write?.relation?.relname ?? '').toLowerCase());
  if (!table) return out;
  const isJson = (column: string) =>
    table.columns.find((c) => c.name.toLowerCase() === column.toLowerCase())?.type?.toLowerCase() === 'json';
  const none = new Set<string>();
  const sets = (targets: Node[] | undefined, aliases: Set<string>) => {
    for (const t of targets ?? []) {
      const r = t.ResTarget;
      if (r?.val && !r.indirection?.length && isJson(String(r.name ?? ''))) out.push([r.val, aliases]);
    }
  };
  if (stmt.UpdateStmt) {
    const aliases = new Set<string>();
    fromAliases(stmt.UpdateStmt.fromClause, aliases);
    sets(stmt.UpdateStmt.targetList, aliases);
    return out;
  }
  const ins = stmt.InsertStmt;
  const names: string[] = ins.cols?.length
    ? ins.cols.map((c: Node) => String(c.ResTarget?.name ?? ''))
    : table.columns.map((c) => c.name);
  for (const row of ins.selectStmt?.SelectStmt?.valuesLists ?? [])
    (row.List?.items ?? []).forEach((v: Node, i: number) => {
      if (names[i] !== undefined && isJson(names[i])) out.push([v, none]);
    });
  sets(ins.onConflictClause?.targetList, none);
  return out;
}

/** The names of a FROM list's items, which a bare name in json_agg(t) takes as a whole row. */
function fromAliases(from: Node[] | undefined, out: Set<string>): void {
  for (const f of from ?? []) {
    if (f.JoinExpr) fromAliases([f.JoinExpr.larg, f.JoinExpr.rarg], out);
    const name = f.RangeVar?.alias?.aliasname ?? f.RangeVar?.relname ?? f.RangeSubselect?.alias?.aliasname;
    if (name) out.add(String(name).toLowerCase());
  }
}

/** Where an expression starts in the text: a call's name, a subquery's '(', a cast's operand. */
function startOf(e: Node): number {
  if (e.TypeCast) return startOf(e.TypeCast.arg);
  if (e.FuncCall) return e.FuncCall.location;
  if (e.CoalesceExpr) return e.CoalesceExpr.location;
  if (e.SubLink) return e.SubLink.location;
  return -1;
}

/** The layout of an expression's json document ('c': as SQLite writes it). */
function layoutOf(e: Node, aliases: Set<string>): string {
  if (e?.TypeCast) {
    const type = strings(e.TypeCast.typeName?.names).pop()?.toLowerCase();
    return type === 'json' ? layoutOf(e.TypeCast.arg, aliases) : 'c';
  }
  if (e?.CoalesceExpr) {
    const [first, ...rest] = e.CoalesceExpr.args as Node[];
    return rest.every((a) => a.A_Const) ? layoutOf(first, aliases) : 'c';
  }
  const sub = e?.SubLink;
  if (sub) {
    const s = sub.subselect?.SelectStmt;
    if (sub.subLinkType !== 'EXPR_SUBLINK' || !s || (s.op && s.op !== 'SETOP_NONE') || s.targetList?.length !== 1)
      return 'c';
    const inner = new Set(aliases);
    fromAliases(s.fromClause, inner);
    return layoutOf(s.targetList[0].ResTarget?.val, inner);
  }
  // a CASE inside a builder: its branches' one layout, when they share it
  if (e?.CaseExpr) {
    const results: Node[] = [...(e.CaseExpr.args ?? []).map((w: Node) => w.CaseWhen?.result), e.CaseExpr.defresult];
    // (a NULL branch, or none: no text to lay out)
    const layouts = new Set(results.filter((r) => r && !r.A_Const?.isnull).map((r) => layoutOf(r, aliases)));
    return layouts.size === 1 ? [...layouts][0] : 'c';
  }
  const f = e?.FuncCall;
  if (!f || f.over) return 'c';
  const name = strings(f.funcname)
    .join('.')
    .toLowerCase()
    .replace(/^pg_catalog\./, '');
  const args: Node[] = f.args ?? [];
  if (f.func_variadic) return 'c';
  switch (name) {
    case 'to_json':
      // of a json value, to_json is that value as it is
      return args.length === 1 ? layoutOf(args[0], aliases) : 'c';
    case 'json_build_object':
      return `O(${args
        .filter((_, i) => i % 2 === 1)
        .map((a) => layoutOf(a, aliases))
        .join(',')})`;
    case 'json_build_array':
      return `A(${args.map((a) => layoutOf(a, aliases)).join(',')})`;
    case 'json_agg': {
      const a = args[0];
      const fields = a?.ColumnRef ? strings(a.ColumnRef.fields) : [];
      // a whole row (json_agg(t), t.*) or an array: PostgreSQL puts a line break between them
      const rows =
        a?.A_ArrayExpr ||
        a?.ColumnRef?.fields?.some((x: Node) => x.A_Star) ||
        (fields.length === 1 && aliases.has(fields[0].toLowerCase()));
      return args.length === 1 ? `G${rows ? 'n' : ''}(${layoutOf(a, aliases)})` : 'c';
    }
    case 'json_object_agg':
      return args.length === 2 ? `M(${layoutOf(args[1], aliases)})` : 'c';
    default:
      return 'c';
  }
}

/**
 * The tokens to put before and after tokens (by index) to wrap each expression starting at an
 * offset of `layouts` (in the tokens joined by spaces) as `__pg_json_layout(expression, 'layout')`.
 */
export function jsonLayoutEdits(
  tokens: PgToken[],
  layouts: Map<number, string>,
  before: Map<number, PgToken[]>,
  after: Map<number, PgToken[]>,
): void {
  let offset = 0;
  for (let i = 0; i < tokens.length; i++) {
    const layout = layouts.get(offset);
    offset += Buffer.byteLength(tokens[i].text) + 1;
    if (layout === undefined) continue;
    const end = expressionEnd(tokens, i);
    if (end < 0) continue;
    before.set(i, [...(before.get(i) ?? []), { type: 'word', text: '__pg_json_layout' }, { type: 'punct', text: '(' }]);
    after.set(end, [
      { type: 'punct', text: ',' },
      { type: 'string', text: `'${layout}'` },
      { type: 'punct', text: ')' },
      ...(after.get(end) ?? []),
    ]);
  }
}

/** The index of the last token of the call (with its FILTER) or subquery starting at tokens[i]; -1 when not found. */
function expressionEnd(tokens: PgToken[], i: number): number {
  let open = i;
  while (open < tokens.length && !isPunct(tokens[open], '(')) open++;
  let end = close(tokens, open);
  if (end < 0) return -1;
  const next = nextSignificant(tokens, end + 1);
  if (isWord(tokens[next], 'FILTER')) end = close(tokens, nextSignificant(tokens, next + 1));
  return end;
}

function nextSignificant(tokens: PgToken[], i: number): number {
  while (i < tokens.length && (tokens[i].type === 'space' || tokens[i].type === 'comment')) i++;
  return i;
}

function close(tokens: PgToken[], i: number): number {
  if (!isPunct(tokens[i], '(')) return -1;
  let depth = 0;
  for (; i < tokens.length; i++) {
    if (isPunct(tokens[i], '(')) depth++;
    else if (isPunct(tokens[i], ')') && --depth === 0) return i;
  }
  return -1;
}
