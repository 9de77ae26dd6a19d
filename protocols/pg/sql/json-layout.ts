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

/** Whether the tokens may hold a json builder (json_build_object, json_agg, ..., row_to_json, to_json): a cheap test before parsing. */
export function mayBuildJson(sig: PgToken[]): boolean {
  return sig.some((t) => t.type === 'word' && /^(json_(build_|agg$|object_agg$)|row_to_json$|to_json$)/i.test(t.text));
}

const TEXT_TYPES = new Set(['text', 'varchar', 'bpchar']);

/**
 * The layouts of the json builders whose text leaves `sql`: the offset where each expression starts
 * → its layout (for wrapJsonLayouts). Expressions whose layout is SQLite's own are left out.
 */
export function jsonLayouts(sql: string, schema?: Schema): JsonLayouts {
  const out = new Map<number, string>();
  const verbatim = new Map<number, 'column' | 'cast' | 'row'>();
  let tree: Node;
  try {
    tree = parseTree(sql);
  } catch {
    return { layouts: out, verbatim };
  }
  const stmt = tree.stmts?.length === 1 ? tree.stmts[0].stmt : undefined;
  const top = stmt?.SelectStmt;
  const add = (e: Node, aliases: Aliases): void => {
    // each branch of a CASE on its own (one may build an object, another an array)
    const c = e?.CaseExpr;
    if (c) {
      for (const w of c.args ?? []) if (w.CaseWhen?.result) add(w.CaseWhen.result, aliases);
      if (c.defresult) add(c.defresult, aliases);
      return;
    }
    const leaves: Leaf[] = [];
    const l = layoutOf(e, aliases, schema, leaves);
    const at = startOf(e);
    // (a json value's own text needs printing only where it is in a builder, or under to_json)
    if (l !== 'c' && (l !== 'v' || e.FuncCall) && at >= 0) {
      out.set(at, l);
      for (const [where, kind] of leaves) verbatim.set(where, kind);
    }
  };
  // a builder written into a json column is stored with PostgreSQL's spacing, which reading it gives back
  if (schema) for (const [value, aliases] of jsonAssignments(stmt, schema)) add(value, aliases);
  const visit = (n: Node, aliases: Aliases): void => {
    if (n === null || typeof n !== 'object') return;
    if (Array.isArray(n)) {
      for (const x of n) visit(x, aliases);
      return;
    }
    if (n.SelectStmt) {
      const inner = new Map(aliases);
      fromAliases(n.SelectStmt.fromClause, inner);
      for (const k in n.SelectStmt) visit(n.SelectStmt[k], inner);
      return;
    }
    const cast = n.TypeCast;
    if (cast && TEXT_TYPES.has(strings(cast.typeName?.names).pop()?.toLowerCase() ?? '')) add(cast.arg, aliases);
    for (const k in n) visit(n[k], aliases);
  };
  visit(tree.stmts ?? [], new Map());
  if (top?.targetList && (!top.op || top.op === 'SETOP_NONE')) {
    const aliases: Aliases = new Map();
    fromAliases(top.fromClause, aliases);
    for (const t of top.targetList) if (t.ResTarget?.val) add(t.ResTarget.val, aliases);
  }
  return { layouts: out, verbatim };
}

/** The values an INSERT (VALUES rows, a SELECT's items), UPDATE or ON CONFLICT DO UPDATE writes into json (not jsonb) columns. */
function jsonAssignments(stmt: Node, schema: Schema): [Node, Aliases][] {
  const out: [Node, Aliases][] = [];
  const write = stmt?.InsertStmt ?? stmt?.UpdateStmt;
  const table = write?.relation?.schemaname
    ? undefined
    : schema.tables.get(String(write?.relation?.relname ?? '').toLowerCase());
  if (!table) return out;
  const isJson = (column: string) =>
    table.columns.find((c) => c.name.toLowerCase() === column.toLowerCase())?.type?.toLowerCase() === 'json';
  const none: Aliases = new Map();
  const sets = (targets: Node[] | undefined, aliases: Aliases) => {
    for (const t of targets ?? []) {
      const r = t.ResTarget;
      if (r?.val && !r.indirection?.length && isJson(String(r.name ?? ''))) out.push([r.val, aliases]);
    }
  };
  if (stmt.UpdateStmt) {
    const aliases: Aliases = new Map([
      [String(write.relation.alias?.aliasname ?? table.name).toLowerCase(), table.name],
    ]);
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
  // INSERT ... SELECT: the select list's items by position
  const select = ins.selectStmt?.SelectStmt;
  if (select?.targetList && (!select.op || select.op === 'SETOP_NONE')) {
    const aliases: Aliases = new Map();
    fromAliases(select.fromClause, aliases);
    (select.targetList as Node[]).forEach((t, i) => {
      if (t.ResTarget?.val && names[i] !== undefined && isJson(names[i])) out.push([t.ResTarget.val, aliases]);
    });
  }
  sets(ins.onConflictClause?.targetList, none);
  return out;
}

/**
 * The names of a FROM list's items, which a bare name in json_agg(t) takes as a whole row, each
 * with its table's name (null for a subquery, or a table of another schema).
 */
function fromAliases(from: Node[] | undefined, out: Aliases): void {
  for (const f of from ?? []) {
    if (f.JoinExpr) fromAliases([f.JoinExpr.larg, f.JoinExpr.rarg], out);
    const name = f.RangeVar?.alias?.aliasname ?? f.RangeVar?.relname ?? f.RangeSubselect?.alias?.aliasname;
    const table = f.RangeVar && !f.RangeVar.schemaname ? String(f.RangeVar.relname).toLowerCase() : null;
    if (name) out.set(String(name).toLowerCase(), table);
  }
}

/** FROM items visible to an expression: name → its table's name (null when not a schema table). */
type Aliases = Map<string, string | null>;

/** A json value whose own text a builder keeps: where it starts in the text, and its form. */
type Leaf = [number, 'column' | 'cast' | 'row'];

/** The layouts of the builders whose text leaves a statement, and the json values inside them kept as written. */
export interface JsonLayouts {
  /** Offset where a builder's expression starts → its layout. */
  layouts: Map<number, string>;
  /**
   * Offset where a json column (`doc`, `t.doc`) or a `::json` cast of a literal, parameter or
   * column starts inside such a builder → its form; printed as its own text (layout 'v').
   */
  verbatim: Map<number, 'column' | 'cast' | 'row'>;
}

/** The schema table a reference to a whole row names (`t`, `t.*`, t a FROM item's name and no column), else undefined. */
function wholeRowTable(ref: Node, aliases: Aliases, schema: Schema | undefined) {
  const fields: Node[] = ref.fields ?? [];
  const star = fields.length === 2 && fields[1].A_Star;
  if (!schema || !(fields.length === 1 || star) || !fields[0].String) return undefined;
  const name = String(fields[0].String.sval).toLowerCase();
  const table = aliases.get(name);
  if (!table) return undefined;
  // (a bare name that is also a column of a FROM item is that column)
  const column = (t: string | null) =>
    !t || schema.tables.get(t)?.columns.some((c) => c.name.toLowerCase() === name) === true;
  if (!star && [...aliases.values()].some(column)) return undefined;
  return schema.tables.get(table);
}

/** Whether a column reference names a json (not jsonb) column of a FROM item's table. */
function isJsonColumn(ref: Node, aliases: Aliases, schema: Schema | undefined): boolean {
  if (!schema) return false;
  const fields = strings(ref.fields).map((f) => f.toLowerCase());
  if (fields.length !== 1 && fields.length !== 2) return false;
  const column = fields[fields.length - 1];
  const typeIn = (table: string | null | undefined) =>
    table
      ? schema.tables
          .get(table)
          ?.columns.find((c) => c.name.toLowerCase() === column)
          ?.type?.toLowerCase()
      : undefined;
  if (fields.length === 2) return aliases.has(fields[0]) && typeIn(aliases.get(fields[0])) === 'json';
  // a bare name: the one FROM item holding such a column (a subquery's columns are not known here)
  const types = [...aliases.values()].map(typeIn).filter((t) => t !== undefined);
  return types.length === 1 && types[0] === 'json' && ![...aliases.values()].some((t) => t === null);
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
function layoutOf(e: Node, aliases: Aliases, schema: Schema | undefined, leaves: Leaf[]): string {
  if (e?.ColumnRef) {
    // a json column: PostgreSQL's builders keep its stored text as it is
    if (e.ColumnRef.location >= 0 && isJsonColumn(e.ColumnRef, aliases, schema)) {
      leaves.push([e.ColumnRef.location, 'column']);
      return 'v';
    }
    // a table's whole row (`t`, `t.*`) with json columns: an object of its columns, those kept as written
    const table = wholeRowTable(e.ColumnRef, aliases, schema);
    if (table && e.ColumnRef.location >= 0 && table.columns.some((c) => c.type?.toLowerCase() === 'json')) {
      leaves.push([e.ColumnRef.location, 'row']);
      return `R(${table.columns.map((c) => (c.type?.toLowerCase() === 'json' ? 'v' : 'c')).join(',')})`;
    }
    return 'c';
  }
  if (e?.TypeCast) {
    const type = strings(e.TypeCast.typeName?.names).pop()?.toLowerCase();
    if (type !== 'json') return 'c';
    const arg = e.TypeCast.arg;
    // `'...'::json`, `$1::json`, `doc::json`: the text as written (`::` only; CAST(x AS json) is left compact)
    const at = arg?.A_Const?.sval ? arg.A_Const.location : (arg?.ParamRef?.location ?? arg?.ColumnRef?.location);
    if ((arg?.A_Const?.sval || arg?.ParamRef || arg?.ColumnRef) && at >= 0 && e.TypeCast.location > at) {
      leaves.push([at, 'cast']);
      return 'v';
    }
    return layoutOf(arg, aliases, schema, leaves);
  }
  if (e?.CoalesceExpr) {
    const [first, ...rest] = e.CoalesceExpr.args as Node[];
    if (!rest.every((a) => a.A_Const)) return 'c';
    const l = layoutOf(first, aliases, schema, leaves);
    // (a json value's text stays compact through coalesce, whose other arguments are not marked)
    return l === 'v' ? 'c' : l;
  }
  const sub = e?.SubLink;
  if (sub) {
    const s = sub.subselect?.SelectStmt;
    if (sub.subLinkType !== 'EXPR_SUBLINK' || !s || (s.op && s.op !== 'SETOP_NONE') || s.targetList?.length !== 1)
      return 'c';
    const inner = new Map(aliases);
    fromAliases(s.fromClause, inner);
    return layoutOf(s.targetList[0].ResTarget?.val, inner, schema, leaves);
  }
  // a CASE inside a builder: its branches' one layout, when they share it
  if (e?.CaseExpr) {
    const results: Node[] = [...(e.CaseExpr.args ?? []).map((w: Node) => w.CaseWhen?.result), e.CaseExpr.defresult];
    // (a NULL branch, or none: no text to lay out)
    const inner: Leaf[] = [];
    const layouts = new Set(
      results.filter((r) => r && !r.A_Const?.isnull).map((r) => layoutOf(r, aliases, schema, inner)),
    );
    if (layouts.size !== 1) return 'c';
    leaves.push(...inner);
    return [...layouts][0];
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
    case 'to_json': {
      // of a json value, to_json is that value as it is (json_quote of a marked json value, a string)
      return args.length === 1 ? layoutOf(args[0], aliases, schema, leaves) : 'c';
    }
    case 'json_build_object':
      return `O(${args
        .filter((_, i) => i % 2 === 1)
        .map((a) => layoutOf(a, aliases, schema, leaves))
        .join(',')})`;
    case 'json_build_array':
      return `A(${args.map((a) => layoutOf(a, aliases, schema, leaves)).join(',')})`;
    case 'row_to_json':
      return args.length === 1 && args[0]?.ColumnRef ? layoutOf(args[0], aliases, schema, leaves) : 'c';
    case 'json_agg': {
      const a = args[0];
      const fields = a?.ColumnRef ? strings(a.ColumnRef.fields) : [];
      // a whole row (json_agg(t), t.*) or an array: PostgreSQL puts a line break between them
      const rows =
        a?.A_ArrayExpr ||
        a?.ColumnRef?.fields?.some((x: Node) => x.A_Star) ||
        (fields.length === 1 && aliases.has(fields[0].toLowerCase()));
      return args.length === 1 ? `G${rows ? 'n' : ''}(${layoutOf(a, aliases, schema, leaves)})` : 'c';
    }
    case 'json_object_agg':
      return args.length === 2 ? `M(${layoutOf(args[1], aliases, schema, leaves)})` : 'c';
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
  { layouts, verbatim }: JsonLayouts,
  before: Map<number, PgToken[]>,
  after: Map<number, PgToken[]>,
  replace: Map<number, PgToken>,
): void {
  let offset = 0;
  for (let i = 0; i < tokens.length; i++) {
    const layout = layouts.get(offset);
    const kept = verbatim.get(offset);
    offset += Buffer.byteLength(tokens[i].text) + 1;
    if (kept === 'row') {
      // a whole row: its name marked, for translate/json-values.ts to pass its json columns marked
      if (tokens[i].type === 'word' || tokens[i].type === 'quoted') replace.set(i, { ...tokens[i], arith: 'json-row' });
    } else if (kept !== undefined) {
      // a json value inside a builder: its text marked, which __pg_json_layout prints as it is
      const end = leafEnd(tokens, i, kept);
      if (end >= 0) {
        before.set(i, [
          ...(before.get(i) ?? []),
          { type: 'word', text: '__pg_json_verbatim' },
          { type: 'punct', text: '(' },
        ]);
        after.set(end, [{ type: 'punct', text: ')' }, ...(after.get(end) ?? [])]);
      }
    }
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

/** The last token of a column reference (`doc`, `t.doc`), or of it, a string or a parameter cast `::json`; -1 when it is not one. */
function leafEnd(tokens: PgToken[], i: number, kind: 'column' | 'cast'): number {
  const name = (t: PgToken | undefined) => t !== undefined && (t.type === 'word' || t.type === 'quoted');
  let end = i;
  if (name(tokens[i])) {
    for (let k = nextSignificant(tokens, i + 1); isPunct(tokens[k], '.'); k = nextSignificant(tokens, k + 1)) {
      const n = nextSignificant(tokens, k + 1);
      if (!name(tokens[n])) return -1;
      end = n;
    }
  } else if (kind === 'column' || (tokens[i]?.type !== 'string' && tokens[i]?.type !== 'param')) return -1;
  if (kind === 'column') return end;
  const cast = nextSignificant(tokens, end + 1);
  const type = nextSignificant(tokens, cast + 1);
  return tokens[cast]?.type === 'op' && tokens[cast].text === '::' && isWord(tokens[type], 'JSON') ? type : -1;
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
