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
import { starsSpelled } from './star-columns';
import { selectTypes } from './select-types';
import { OID } from '../types/oids';
import { strings } from './type-signatures';
import { lookup } from '../../../src/lookup';

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
  const verbatim = new Map<number, VerbatimKind>();
  let tree: Node;
  try {
    tree = parseTree(sql);
  } catch {
    return { layouts: out, verbatim };
  }
  const stmt = tree.stmts?.length === 1 ? tree.stmts[0].stmt : undefined;
  const top = stmt?.SelectStmt;
  const commit = (leaves: Leaf[]) => {
    for (const [where, kind] of leaves)
      if (kind.startsWith('layout:')) out.set(where, kind.slice('layout:'.length));
      else verbatim.set(where, kind as VerbatimKind);
  };
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
    // coalesce of other json values than a builder and constants: each argument on its own (a json
    // value's text, a builder's laid out)
    if (e?.CoalesceExpr && (l === 'c' || l === 'v')) {
      for (const a of e.CoalesceExpr.args ?? []) add(a, aliases);
      return;
    }
    // (a json value's own text needs printing only where it is in a builder, or under to_json; the
    // builders inside it laid out, a subquery's `s.o` of a builder)
    if (l === 'v' && !e.FuncCall) {
      commit(leaves.filter((f) => f[2]));
      return;
    }
    if (l !== 'c' && at >= 0) {
      out.set(at, l);
      commit(leaves);
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
      const inner = new Aliases(aliases);
      fromAliases(n.SelectStmt.fromClause, inner, n.SelectStmt.withClause, schema);
      for (const k in n.SelectStmt) visit(n.SelectStmt[k], inner);
      return;
    }
    const cast = n.TypeCast;
    if (cast && TEXT_TYPES.has(strings(cast.typeName?.names).pop()?.toLowerCase() ?? '')) add(cast.arg, aliases);
    // a builder in `||` (json || text is text: the builder's text as PostgreSQL wrote it)
    const op = n.A_Expr;
    if (op?.kind === 'AEXPR_OP' && strings(op.name).at(-1) === '||')
      for (const side of [op.lexpr, op.rexpr]) if (side?.FuncCall) add(side, aliases);
    // a read out of a builder's document (`json_build_object('v', doc) -> 'v'`, `row_to_json(t) ->>
    // 'doc'`): the document as PostgreSQL wrote it, which json's reads slice as written
    // (each read of the chain, `json_build_object(...) -> 'a' ->> 'b'`, slicing that text: 'json-get')
    const ops: number[] = [];
    let base: Node = n;
    for (let x = base?.A_Expr; x?.kind === 'AEXPR_OP' && x.lexpr && x.rexpr; x = base?.A_Expr) {
      if (!JSON_READS.has(strings(x.name).at(-1) ?? '')) break;
      ops.push(x.location);
      base = x.lexpr;
    }
    const builder = base?.FuncCall ? strings(base.FuncCall.funcname).pop()?.toLowerCase() : undefined;
    if (ops.length > 0 && ops.every((at) => at >= 0) && builder && JSON_BUILDERS.has(builder)) {
      add(base, aliases);
      for (const at of ops) verbatim.set(at, 'json-get');
    }
    for (const k in n) visit(n[k], aliases);
  };
  visit(tree.stmts ?? [], new Aliases());
  if (top?.targetList && (!top.op || top.op === 'SETOP_NONE')) {
    const aliases = new Aliases();
    fromAliases(top.fromClause, aliases, top.withClause, schema);
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
  const none = new Aliases();
  const sets = (targets: Node[] | undefined, aliases: Aliases) => {
    for (const t of targets ?? []) {
      const r = t.ResTarget;
      if (r?.val && !r.indirection?.length && isJson(String(r.name ?? ''))) out.push([r.val, aliases]);
    }
  };
  if (stmt.UpdateStmt) {
    const aliases = new Aliases();
    aliases.set(String(write.relation.alias?.aliasname ?? table.name).toLowerCase(), table.name);
    fromAliases(stmt.UpdateStmt.fromClause, aliases, undefined, schema);
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
    const aliases = new Aliases();
    fromAliases(select.fromClause, aliases, undefined, schema);
    (select.targetList as Node[]).forEach((t, i) => {
      if (t.ResTarget?.val && names[i] !== undefined && isJson(names[i])) out.push([t.ResTarget.val, aliases]);
    });
  }
  sets(ins.onConflictClause?.targetList, none);
  return out;
}

/**
 * The names of a FROM list's items, which a bare name in json_agg(t) takes as a whole row, each
 * with its table's name (null for a subquery, a WITH query, or a table of another schema); `withClause`:
 * the query's WITH queries, which its FROM items may name.
 */
function fromAliases(from: Node[] | undefined, out: Aliases, withClause?: Node, schema?: Schema): void {
  for (const c of withClause?.ctes ?? []) {
    const cte = c.CommonTableExpr;
    if (!cte?.ctename) continue;
    out.ctes.set(
      String(cte.ctename).toLowerCase(),
      withQuery(cte.ctequery?.SelectStmt, strings(cte.aliascolnames), schema),
    );
  }
  for (const f of from ?? []) {
    if (f.JoinExpr) fromAliases([f.JoinExpr.larg, f.JoinExpr.rarg], out, undefined, schema);
    const fn = jsonFunctionColumns(f.RangeFunction);
    if (fn) {
      out.set(fn.name, null);
      out.funcs.set(fn.name, fn.columns);
      out.subs.delete(fn.name);
      continue;
    }
    const name = f.RangeVar?.alias?.aliasname ?? f.RangeVar?.relname ?? f.RangeSubselect?.alias?.aliasname;
    const relname = f.RangeVar && !f.RangeVar.schemaname ? String(f.RangeVar.relname).toLowerCase() : null;
    if (!name) continue;
    const key = String(name).toLowerCase();
    // a WITH query's name hides a table's
    const cte = relname !== null && out.ctes.has(relname) ? out.ctes.get(relname) : undefined;
    out.set(key, cte === undefined ? relname : null);
    out.funcs.delete(key);
    const sub = f.RangeSubselect;
    const query = cte ?? (sub?.alias?.colnames?.length ? undefined : starsSpelled(sub?.subquery?.SelectStmt, schema));
    if (query) out.subs.set(key, query);
    else out.subs.delete(key);
    // (a LATERAL subquery's rows are rewritten into JSON: not read here)
    if (sub?.lateral) out.noRows.add(key);
    else out.noRows.delete(key);
  }
}

/** json's and jsonb's set-returning functions whose value is a document: their columns' types. */
const JSON_FUNCTIONS: Record<string, Record<string, string>> = {
  json_array_elements: { value: 'json' },
  jsonb_array_elements: { value: 'jsonb' },
  json_each: { key: 'text', value: 'json' },
  jsonb_each: { key: 'text', value: 'jsonb' },
};

/**
 * A FROM item that is json_array_elements(x) or json_each(x) (or jsonb's) without a column list:
 * its name and its columns' types (a one-value function's name is its value too, `json_agg(e)`).
 */
function jsonFunctionColumns(f: Node): { name: string; columns: Map<string, string> } | undefined {
  const items: Node[] | undefined = f?.functions?.[0]?.List?.items;
  const call = f?.functions?.length === 1 && !f.ordinality ? items?.[0]?.FuncCall : undefined;
  const fn = call ? strings(call.funcname).join('.').toLowerCase() : '';
  const types = Object.hasOwn(JSON_FUNCTIONS, fn) ? JSON_FUNCTIONS[fn] : undefined;
  if (!types) return undefined;
  const name = String(f.alias?.aliasname ?? fn).toLowerCase();
  // (a column list, `AS e(k, v)`, names them in order)
  const names = strings(f.alias?.colnames).map((c) => c.toLowerCase());
  const columns = new Map(Object.entries(types).map(([c, t], i): [string, string] => [names[i] ?? c, t]));
  if (!types.key) columns.set(name, types.value);
  return { name, columns };
}

/**
 * A WITH query's query as its columns are read: a recursive one's first branch (which types its
 * columns), `*` spelled out, each item named by the column list when there is one; null when it
 * is no SELECT.
 */
function withQuery(query: Node, names: string[], schema: Schema | undefined): Node | null {
  let first = query;
  while (first?.op && first.op !== 'SETOP_NONE') first = first.larg;
  const q = starsSpelled(first, schema);
  if (!q?.targetList) return null;
  if (names.length === 0) return q;
  if (names.length > q.targetList.length) return null;
  const targetList = (q.targetList as Node[]).map((t, i) =>
    i < names.length && t.ResTarget ? { ResTarget: { ...t.ResTarget, name: names[i] } } : t,
  );
  return { ...q, targetList };
}

/**
 * FROM items visible to an expression: name → its table's name (null when not a schema table);
 * `subs`: a subquery's or WITH query's name → its query; `noRows`: those whose whole row is not
 * read here (LATERAL subqueries); `ctes`: the WITH queries in scope (null for one not
 * read here); `funcs`: JSON set-returning functions' columns.
 */
class Aliases extends Map<string, string | null> {
  readonly subs: Map<string, Node>;
  readonly noRows: Set<string>;
  readonly ctes: Map<string, Node | null>;
  /** json_array_elements(x) and json_each(x) (and jsonb's) as FROM items: their columns' types. */
  readonly funcs: Map<string, Map<string, string>>;
  constructor(outer?: Aliases) {
    super(outer ?? []);
    this.funcs = new Map(outer?.funcs ?? []);
    this.subs = new Map(outer?.subs ?? []);
    this.noRows = new Set(outer?.noRows ?? []);
    this.ctes = new Map(outer?.ctes ?? []);
  }
}

/**
 * How a json value inside a builder is kept as its own text: a column (`doc`, `t.doc`), a `::json`
 * cast, an expression (`CAST(x AS json)`, coalesce, a CASE, whose value the analysis makes PostgreSQL's
 * text) each wrapped in __pg_json_verbatim, a jsonb column (`jsonb`) in it and __pg_jsonb_text; a
 * whole row (`row:` and a flag a column: `v` for one kept as its text, `b` a jsonb column's text),
 * its name marked for translate/json-values.ts; json's `->` or `#>` (`json-get`: the operator, which
 * then slices the text as written, src/engine/pg-json-get.ts) and the read wrapped in
 * __pg_json_verbatim (`get:` and the offset of its last operand; `getb:` a jsonb read, as jsonb
 * prints its value).
 */
type VerbatimKind =
  | 'column'
  | 'jsonb'
  | 'cast'
  | 'expr'
  | `row:${string}`
  | `array:${'json' | 'jsonb'}`
  | 'json-get'
  | `get:${number}`
  | `getb:${number}`;

/**
 * A json value whose own text a builder keeps (where it starts in the text, and its form), or a
 * builder laid out inside one (`layout:` and its layout); `nested` for one inside a builder that a
 * json value's text holds (needed where that value is printed as it is).
 */
type Leaf = [number, VerbatimKind | `layout:${string}`, nested?: boolean];

/** The layouts of the builders whose text leaves a statement, and the json values inside them kept as written. */
export interface JsonLayouts {
  /** Offset where a builder's expression starts → its layout. */
  layouts: Map<number, string>;
  /**
   * Offset where a json column (`doc`, `t.doc`), a `::json` cast of a literal, parameter or
   * column, or another json value made PostgreSQL's text starts inside such a builder → its form;
   * printed as its own text (layout 'v').
   */
  verbatim: Map<number, VerbatimKind>;
}

/**
 * The FROM item a reference to a whole row names (`t`, `t.*`, t a FROM item's name and no column):
 * a schema table's name, or a subquery's query; else undefined.
 */
function wholeRow(ref: Node, aliases: Aliases, schema: Schema | undefined): string | { query: Node } | undefined {
  const fields: Node[] = ref.fields ?? [];
  const star = fields.length === 2 && fields[1].A_Star;
  if (!schema || !(fields.length === 1 || star) || !fields[0].String) return undefined;
  const name = String(fields[0].String.sval).toLowerCase();
  const table = aliases.get(name);
  const query = aliases.noRows.has(name) ? undefined : aliases.subs.get(name);
  if (!table && !query) return undefined;
  // (a bare name that is also a column of a FROM item is that column)
  const column = ([alias, t]: [string, string | null]) => {
    const sub = aliases.subs.get(alias);
    if (sub) return subqueryNames(sub)?.includes(name) !== false;
    return !t || schema.tables.get(t)?.columns.some((c) => c.name.toLowerCase() === name) === true;
  };
  if (!star && [...aliases.entries()].some(column)) return undefined;
  return table ?? { query };
}

/** The select item of a FROM subquery a column reference names (`s.o`, or `o` that only one subquery and no table has), else undefined. */
function subqueryColumn(ref: Node, aliases: Aliases): { value: Node; query: Node } | undefined {
  const fields = strings(ref.fields).map((f) => f.toLowerCase());
  if ((fields.length !== 1 && fields.length !== 2) || (ref.fields as Node[]).some((f) => !f.String)) return undefined;
  const column = fields[fields.length - 1];
  const owners = fields.length === 2 ? [fields[0]] : [...aliases.keys()];
  const found: { value: Node; query: Node }[] = [];
  for (const alias of owners) {
    const query = aliases.subs.get(alias);
    if (!query) {
      // (a table's column of that name, or a FROM item whose columns are not known: not told apart here)
      if (fields.length === 1) return undefined;
      continue;
    }
    const names = subqueryNames(query);
    if (!names) return undefined;
    const at = names.indexOf(column);
    if (at >= 0 && names.lastIndexOf(column) === at) found.push({ value: query.targetList[at].ResTarget.val, query });
  }
  return found.length === 1 ? found[0] : undefined;
}

/** The names of a subquery's columns (an alias, or a column reference's last name), null when one has none or is `*`. */
function subqueryNames(s: Node): string[] | null {
  if ((s.op && s.op !== 'SETOP_NONE') || !s.targetList) return null;
  const out: string[] = [];
  for (const t of s.targetList as Node[]) {
    const r = t.ResTarget;
    const fields: Node[] | undefined = r?.val?.ColumnRef?.fields;
    if (!r || fields?.some((f) => f.A_Star)) return null;
    const name = r.name ?? (fields ? fields[fields.length - 1]?.String?.sval : undefined);
    if (name === undefined) return null;
    out.push(String(name).toLowerCase());
  }
  return out;
}

/**
 * A subquery's row in a builder (`row_to_json(s)`): a flag a column, `v` for a json value kept as
 * its text (a json column, a cast to json, a builder laid out inside the subquery), `b`, `J`, `K`
 * a jsonb, json[] or jsonb[] column (ROW_FLAGS), else `c`; null
 * when its columns are not all named (translate/json-values.ts builds no object of them then).
 */
function subqueryFlags(s: Node, schema: Schema | undefined, leaves: Leaf[]): string | null {
  if (!subqueryNames(s)) return null;
  // (a FROM subquery sees none of its query's FROM items; the enclosing queries' are left out too)
  const inner = new Aliases();
  fromAliases(s.fromClause, inner, undefined, schema);
  let flags = '';
  for (const t of s.targetList as Node[]) {
    const kept: Leaf[] = [];
    const value = t.ResTarget.val;
    const json = jsonText(value, inner, schema, kept) === 'json';
    if (json) leaves.push(...kept);
    const column = (type: string) => value?.ColumnRef && isJsonColumn(value.ColumnRef, inner, schema, type);
    flags += json ? 'v' : column('jsonb') ? 'b' : column('json[]') ? 'J' : column('jsonb[]') ? 'K' : 'c';
  }
  return flags;
}

/**
 * A whole row's flag of a column of a type: `v` a json column's text, `b` a jsonb column's as jsonb
 * prints it, `J` and `K` a json[] and a jsonb[] column's elements so.
 */
const ROW_FLAGS: Record<string, string> = lookup({ json: 'v', jsonb: 'b', 'json[]': 'J', 'jsonb[]': 'K' });

/** Builders whose document is json (not jsonb). */
const JSON_BUILDERS = new Set([
  'json_build_object',
  'json_build_array',
  'json_agg',
  'json_object_agg',
  'row_to_json',
  'to_json',
]);

/**
 * Whether an expression's value can be made PostgreSQL's json text: 'json' for a json value whose
 * text the translation gives as PostgreSQL prints it (a json column, a cast to json of a literal,
 * parameter or column, a builder, laid out by a leaf in `leaves`, coalesce, CASE or a scalar
 * subquery of those), 'unknown' for a string literal or NULL (json beside json), else 'no'.
 */
function jsonText(e: Node, aliases: Aliases, schema: Schema | undefined, leaves: Leaf[]): 'json' | 'unknown' | 'no' {
  if (!e) return 'no';
  if (e.A_Const) return e.A_Const.isnull || e.A_Const.sval ? 'unknown' : 'no';
  if (e.ColumnRef) return isJsonColumn(e.ColumnRef, aliases, schema) ? 'json' : 'no';
  const get = jsonGet(e, aliases, schema);
  if (get && !get.jsonb) {
    leaves.push(...(get.kept ?? []), ...get.ops.map((at): Leaf => [at, 'json-get']));
    return 'json';
  }
  if (e.TypeCast) {
    if (strings(e.TypeCast.typeName?.names).pop()?.toLowerCase() !== 'json') return 'no';
    const arg = e.TypeCast.arg;
    if (arg?.A_Const?.sval || arg?.ParamRef || arg?.ColumnRef) return 'json';
    return jsonText(arg, aliases, schema, leaves) === 'json' ? 'json' : 'no';
  }
  const parts: Node[] | undefined = e.CoalesceExpr
    ? e.CoalesceExpr.args
    : e.CaseExpr
      ? [
          ...(e.CaseExpr.args ?? []).map((w: Node) => w.CaseWhen?.result),
          e.CaseExpr.defresult ?? { A_Const: { isnull: true } },
        ]
      : undefined;
  if (parts) {
    const kept: Leaf[] = [];
    const kinds = parts.map((p) => jsonText(p, aliases, schema, kept));
    if (kinds.includes('no')) return 'no';
    leaves.push(...kept);
    return kinds.includes('json') ? 'json' : 'unknown';
  }
  const sub = e.SubLink;
  if (sub) {
    const q = sub.subselect?.SelectStmt;
    if (sub.subLinkType !== 'EXPR_SUBLINK' || !q || (q.op && q.op !== 'SETOP_NONE') || q.targetList?.length !== 1)
      return 'no';
    const inner = new Aliases(aliases);
    fromAliases(q.fromClause, inner, undefined, schema);
    return jsonText(q.targetList[0].ResTarget?.val, inner, schema, leaves) === 'json' ? 'json' : 'no';
  }
  const f = e.FuncCall;
  const name = f
    ? strings(f.funcname)
        .join('.')
        .toLowerCase()
        .replace(/^pg_catalog\./, '')
    : '';
  // (json_object of text arrays: its own text, PostgreSQL's layout)
  if (f && name === 'json_object' && !f.func_variadic) return 'json';
  if (!f || f.func_variadic || !JSON_BUILDERS.has(name) || f.location < 0) return 'no';
  if (f.over && name !== 'json_agg' && name !== 'json_object_agg') return 'no';
  const inner: Leaf[] = [];
  const l = layoutOf(e, aliases, schema, inner);
  if (l !== 'c') leaves.push(...inner.map(([at, kind]): Leaf => [at, kind, true]), [f.location, `layout:${l}`, true]);
  return 'json';
}

/** Whether a column reference names a json (not jsonb; or of `type`) column of a FROM item's table. */
function isJsonColumn(ref: Node, aliases: Aliases, schema: Schema | undefined, type = 'json'): boolean {
  if (!schema) return false;
  const fields = strings(ref.fields).map((f) => f.toLowerCase());
  if (fields.length !== 1 && fields.length !== 2) return false;
  const column = fields[fields.length - 1];
  const subqueryJsonb = (alias: string) => {
    const sub = aliases.subs.get(alias);
    const col = sub ? selectTypes(sub, schema)?.find((c) => c.name.toLowerCase() === column) : undefined;
    return col?.oid === OID.jsonb ? 'jsonb' : undefined;
  };
  // (a table's column, or a JSON set-returning function's, or a subquery's jsonb column: a table's
  // passed up, `json_agg(s.doc)` of `(SELECT doc ...) s`, whose text SQLite's json() would compact)
  const typeIn = (alias: string) => {
    const table = aliases.get(alias);
    if (table === null) return aliases.funcs.get(alias)?.get(column) ?? subqueryJsonb(alias);

    return table
      ? schema.tables
          .get(table)
          ?.columns.find((c) => c.name.toLowerCase() === column)
          ?.type?.toLowerCase()
      : undefined;
  };
  if (fields.length === 2) return aliases.has(fields[0]) && typeIn(fields[0]) === type;
  // a bare name: the one FROM item holding such a column (and no subquery or WITH query that may)
  const types = [...aliases.keys()].map(typeIn).filter((t) => t !== undefined);
  const mayHold = ([alias, t]: [string, string | null]) => {
    const sub = aliases.subs.get(alias);
    return (
      t === null &&
      !aliases.funcs.has(alias) &&
      subqueryJsonb(alias) === undefined &&
      (sub ? subqueryNames(sub)?.includes(column) !== false : true)
    );
  };
  return types.length === 1 && types[0] === type && ![...aliases.entries()].some(mayHold);
}

/** Whether a column reference names an array column (`TEXT[]`) of a FROM item's table. */
function isArrayColumn(ref: Node, aliases: Aliases, schema: Schema | undefined): boolean {
  if (!schema) return false;
  const fields = strings(ref.fields).map((f) => f.toLowerCase());
  const column = fields[fields.length - 1];
  const tables = fields.length === 2 ? [aliases.get(fields[0])] : fields.length === 1 ? [...aliases.values()] : [];
  const types = tables
    .map((t) => (t ? schema.tables.get(t)?.columns.find((c) => c.name.toLowerCase() === column)?.type : undefined))
    .filter((t) => t !== undefined);
  return types.length === 1 && /\[\s*\]\s*$/.test(types[0]);
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
    // a jsonb column: its text as jsonb prints it (`{"a": 1}`; SQLite's document was compact)
    if (e.ColumnRef.location >= 0 && isJsonColumn(e.ColumnRef, aliases, schema, 'jsonb')) {
      leaves.push([e.ColumnRef.location, 'jsonb']);
      return 'v';
    }
    // a json[] or jsonb[] column: its elements as their text (a json one's as written), not compacted
    for (const type of ['json', 'jsonb'] as const)
      if (e.ColumnRef.location >= 0 && isJsonColumn(e.ColumnRef, aliases, schema, `${type}[]`)) {
        leaves.push([e.ColumnRef.location, `array:${type}`]);
        return 'v';
      }
    // a subquery's json value (`s.o` of `(SELECT json_build_object(...) AS o ...) s`): made
    // PostgreSQL's text inside it (its builders laid out), kept as it is
    const item = e.ColumnRef.location >= 0 ? subqueryColumn(e.ColumnRef, aliases) : undefined;
    if (item) {
      const kept: Leaf[] = [];
      const inner = new Aliases();
      fromAliases(item.query.fromClause, inner, undefined, schema);
      if (jsonText(item.value, inner, schema, kept) === 'json') {
        leaves.push(...kept, [e.ColumnRef.location, 'column']);
        return 'v';
      }
    }
    // a whole row (`t`, `t.*`) with json columns: an object of its columns, those kept as written
    // (a table's json columns; a subquery's json values, its builders laid out inside it)
    const row = e.ColumnRef.location >= 0 ? wholeRow(e.ColumnRef, aliases, schema) : undefined;
    const inner: Leaf[] = [];
    const flags =
      typeof row === 'string'
        ? schema?.tables
            .get(row)
            ?.columns.map((c) => ROW_FLAGS[c.type?.toLowerCase().replace(/\s+/g, '') ?? ''] ?? 'c')
            .join('')
        : row
          ? subqueryFlags(row.query, schema, inner)
          : undefined;
    if (!flags || !/[vbJK]/.test(flags)) return 'c';
    leaves.push(...inner, [e.ColumnRef.location, `row:${flags}`]);
    return `R(${flags
      .split('')
      .map((f) => (f === 'c' ? 'c' : 'v'))
      .join(',')})`;
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
    // `CAST(x AS json)`: the whole cast, whose value is x's text
    if ((arg?.A_Const?.sval || arg?.ParamRef || arg?.ColumnRef) && e.TypeCast.location >= 0) {
      leaves.push([e.TypeCast.location, 'expr']);
      return 'v';
    }
    return layoutOf(arg, aliases, schema, leaves);
  }
  if (e?.CoalesceExpr) {
    const [first, ...rest] = e.CoalesceExpr.args as Node[];
    // coalesce(json_agg(...), '[]'): the builder's layout, which a constant's text keeps
    if (rest.every((a) => a.A_Const)) {
      const kept: Leaf[] = [];
      const l = layoutOf(first, aliases, schema, kept);
      if (l !== 'c' && l !== 'v') {
        leaves.push(...kept);
        return l;
      }
    }
    return verbatimText(e, e.CoalesceExpr.location, aliases, schema, leaves);
  }
  const sub = e?.SubLink;
  if (sub) {
    const s = sub.subselect?.SelectStmt;
    if (sub.subLinkType !== 'EXPR_SUBLINK' || !s || (s.op && s.op !== 'SETOP_NONE') || s.targetList?.length !== 1)
      return 'c';
    const inner = new Aliases(aliases);
    fromAliases(s.fromClause, inner, undefined, schema);
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
    if (layouts.size !== 1) return verbatimText(e, e.CaseExpr.location, aliases, schema, leaves);
    leaves.push(...inner);
    return [...layouts][0];
  }
  // json's `doc -> 'a'`, `doc #> '{a,b}'`: the value's text as written, as PostgreSQL slices json
  const get = e?.A_Expr ? jsonGet(e, aliases, schema) : undefined;
  if (get?.jsonb) {
    // (jsonb's: its value as jsonb prints it, `{"b": 1}`; SQLite's -> compacts it)
    leaves.push([get.start, `getb:${get.end}`]);
    return 'v';
  }
  if (get) {
    leaves.push(...(get.kept ?? []), ...get.ops.map((at): Leaf => [at, 'json-get']), [get.start, `get:${get.end}`]);
    return 'v';
  }
  const f = e?.FuncCall;
  // (a window's json_agg or json_object_agg is laid out as the aggregate is)
  if (!f || (f.over && !/^(pg_catalog\.)?json_(agg|object_agg)$/i.test(strings(f.funcname).join('.')))) return 'c';
  const name = strings(f.funcname)
    .join('.')
    .toLowerCase()
    .replace(/^pg_catalog\./, '');
  const args: Node[] = f.args ?? [];
  if (f.func_variadic) return 'c';
  // an anonymous row, `row_to_json(row(a, doc))`: compact, its json fields as written
  // (translate/anonymous-rows.ts builds the object)
  const row: Node[] | undefined = args.length === 1 ? args[0]?.RowExpr?.args : undefined;
  if (row && (name === 'to_json' || name === 'row_to_json'))
    return `R(${row.map((a) => layoutOf(a, aliases, schema, leaves)).join(',')})`;
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
      // a whole row (json_agg(t), t.*) or an array (ARRAY[...], an array column, a subquery's
      // ARRAY[...]): PostgreSQL puts a line break between them
      const sub = a?.ColumnRef ? subqueryColumn(a.ColumnRef, aliases) : undefined;
      const rows =
        a?.A_ArrayExpr ||
        sub?.value?.A_ArrayExpr ||
        a?.ColumnRef?.fields?.some((x: Node) => x.A_Star) ||
        (fields.length === 1 && aliases.has(fields[0].toLowerCase()) && !aliases.funcs.has(fields[0].toLowerCase())) ||
        (a?.ColumnRef && isArrayColumn(a.ColumnRef, aliases, schema));
      return args.length === 1 ? `G${rows ? 'n' : ''}(${layoutOf(a, aliases, schema, leaves)})` : 'c';
    }
    case 'json_object_agg':
      return args.length === 2 ? `M(${layoutOf(args[1], aliases, schema, leaves)})` : 'c';
    case 'json_object':
    case 'jsonb_object':
      // of text arrays (src/engine/pg-json-functions.ts): its text, PostgreSQL's layout already
      leaves.push([f.location, 'expr']);
      return 'v';
    default:
      return 'c';
  }
}

const JSON_GETS = new Set(['->', '#>']);
/** json's reads, of which `->>` and `#>>` give text. */
const JSON_READS = new Set(['->', '#>', '->>', '#>>']);

/** Where a constant operand starts: a string, a number, a parameter, ARRAY[...], or a `::` cast of one; -1 for another. */
function operandAt(n: Node): number {
  if (n?.ParamRef) return n.ParamRef.location;
  if (n?.A_Const && !n.A_Const.isnull) return n.A_Const.location;
  if (n?.A_ArrayExpr) return n.A_ArrayExpr.location;
  const at = n?.TypeCast ? operandAt(n.TypeCast.arg) : -1;
  return at >= 0 && n.TypeCast.location > at ? at : -1;
}

/**
 * json's `->` or `#>` (a chain of them, `doc -> 'l' -> 1`) of a json column, or of a `::json`
 * cast of a string, parameter or column: the offsets of its operators, where the read starts and
 * where its last operand (a string, a number, a parameter, ARRAY[...], a `::` cast of one) starts;
 * `jsonb` for one of a jsonb column or cast; else undefined. SQLite's `->` would give the value
 * compacted (`{"b":1}` for `{"b":  1}`), which PostgreSQL's builders copy as written (a jsonb
 * value as jsonb prints it).
 */
function jsonGet(
  e: Node,
  aliases: Aliases,
  schema: Schema | undefined,
): { ops: number[]; start: number; end: number; jsonb?: boolean; kept?: Leaf[] } | undefined {
  const top = e?.A_Expr;
  const end = operandAt(top?.rexpr);
  if (end < 0) return undefined;
  const ops: number[] = [];
  let base: Node = e;
  for (let x = top; x; x = base?.A_Expr) {
    const op = x.kind === 'AEXPR_OP' && x.lexpr && x.rexpr ? strings(x.name).pop() : undefined;
    if (!op || !JSON_GETS.has(op) || x.location < 0) return undefined;
    ops.push(x.location);
    base = x.lexpr;
  }
  if (base?.ColumnRef) {
    const start = base.ColumnRef.location;
    if (start < 0) return undefined;
    if (isJsonColumn(base.ColumnRef, aliases, schema)) return { ops, start, end };
    if (isJsonColumn(base.ColumnRef, aliases, schema, 'jsonb')) return { ops, start, end, jsonb: true };
    // a subquery's json value (`s.d -> 'a'` of `(SELECT doc AS d ...) s`): made PostgreSQL's text
    // inside it (the leaves in `kept`), then sliced as written
    const item = subqueryColumn(base.ColumnRef, aliases);
    if (!item) return undefined;
    const kept: Leaf[] = [];
    const inner = new Aliases();
    fromAliases(item.query.fromClause, inner, undefined, schema);
    return jsonText(item.value, inner, schema, kept) === 'json' ? { ops, start, end, kept } : undefined;
  }
  // a json builder's document (`json_build_object('v', doc) -> 'v'`): laid out as PostgreSQL wrote
  // it (its own leaves and its layout in `kept`), then sliced as written
  const builder = base?.FuncCall ? strings(base.FuncCall.funcname).pop()?.toLowerCase() : undefined;
  if (builder && JSON_BUILDERS.has(builder) && base.FuncCall.location >= 0) {
    const kept: Leaf[] = [];
    const layout = layoutOf(base, aliases, schema, kept);
    if (layout === 'c' || layout === 'v') return undefined;
    return { ops, start: base.FuncCall.location, end, kept: [...kept, [base.FuncCall.location, `layout:${layout}`]] };
  }
  const cast = base?.TypeCast;
  const arg = cast?.arg;
  const type = strings(cast?.typeName?.names).pop()?.toLowerCase();
  if (type !== 'json' && type !== 'jsonb') return undefined;
  const at = arg?.A_Const?.sval ? arg.A_Const.location : (arg?.ParamRef?.location ?? arg?.ColumnRef?.location);
  // (`::json` after its operand; CAST(x AS json) is not read here)
  if (at === undefined || at < 0 || cast.location < at) return undefined;
  return type === 'json' ? { ops, start: at, end } : { ops, start: at, end, jsonb: true };
}

/** A json expression (coalesce, CASE) made PostgreSQL's text and kept as it is ('v'), when it can be; else 'c'. */
function verbatimText(e: Node, at: number, aliases: Aliases, schema: Schema | undefined, leaves: Leaf[]): string {
  const kept: Leaf[] = [];
  if (at < 0 || jsonText(e, aliases, schema, kept) !== 'json') return 'c';
  leaves.push(...kept, [at, 'expr']);
  return 'v';
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
  const offsets: number[] = [];
  for (let i = 0, at = 0; i < tokens.length; at += Buffer.byteLength(tokens[i++].text) + 1) offsets.push(at);
  // tokens i..end as __pg_json_verbatim(...) (of __pg_jsonb_text(...) for a jsonb: printed as jsonb prints it)
  const wrapVerbatim = (i: number, end: number, jsonb: boolean | undefined) => {
    before.set(i, [
      ...(before.get(i) ?? []),
      { type: 'word', text: '__pg_json_verbatim' },
      { type: 'punct', text: '(' },
      ...(jsonb ? [{ type: 'word', text: '__pg_jsonb_text' } as const, { type: 'punct', text: '(' } as const] : []),
    ]);
    after.set(end, [
      { type: 'punct', text: ')' },
      ...(jsonb ? [{ type: 'punct', text: ')' } as const] : []),
      ...(after.get(end) ?? []),
    ]);
  };
  // (a json read whose tokens could not be wrapped: its operators left as they were, SQLite's document)
  let unwrapped = -1;
  for (let i = 0; i < tokens.length; i++) {
    const offset = offsets[i];
    const layout = layouts.get(offset);
    const kept = verbatim.get(offset);
    if (kept === 'json-get') {
      // json's -> or #> read as its text as written (translate/jsonb-ops.ts)
      if (tokens[i].type === 'op' && offset > unwrapped) replace.set(i, { ...tokens[i], arith: 'json-get' });
    } else if (kept?.startsWith('get:') || kept?.startsWith('getb:')) {
      // the read's value: that text marked, which __pg_json_layout prints as it is (jsonb's as jsonb prints it)
      const jsonb = kept.startsWith('getb:');
      const start = offsets.indexOf(Number(kept.slice(kept.indexOf(':') + 1)), i);
      const end = start < 0 ? -1 : operandEnd(tokens, start);
      // (a parenthesised operand, `(doc) -> 'a'`: the read starts at its parenthesis)
      let from = i;
      for (
        let p = previousSignificant(tokens, from - 1);
        end >= 0 && !balanced(tokens, from, end) && isPunct(tokens[p], '(');
      )
        [from, p] = [p, previousSignificant(tokens, p - 1)];
      if (end >= 0 && balanced(tokens, from, end)) {
        wrapVerbatim(from, end, jsonb);
      } else unwrapped = end >= 0 ? offsets[end] : Number.MAX_SAFE_INTEGER;
    } else if (kept?.startsWith('row:')) {
      // a whole row: its name marked, for translate/json-values.ts to pass its json columns marked
      if (tokens[i].type === 'word' || tokens[i].type === 'quoted')
        replace.set(i, { ...tokens[i], arith: `json-row:${kept.slice('row:'.length)}` });
    } else if (kept?.startsWith('array:')) {
      // a json[] or jsonb[] column: marked, for translate/json-values.ts to write its JSON array as text kept
      if (tokens[i].type === 'word' || tokens[i].type === 'quoted')
        replace.set(i, { ...tokens[i], arith: `json-${kept}` });
    } else if (kept !== undefined) {
      // a json value inside a builder: its text marked, which __pg_json_layout prints as it is
      const end =
        kept === 'expr'
          ? expressionEnd(tokens, i)
          : leafEnd(tokens, i, kept === 'jsonb' ? 'column' : (kept as 'column' | 'cast'));
      if (end >= 0) {
        const jsonb = kept === 'jsonb';
        wrapVerbatim(i, end, jsonb);
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

/** The index of the last token of the call (with its FILTER), CASE or subquery starting at tokens[i]; -1 when not found. */
function expressionEnd(tokens: PgToken[], i: number): number {
  if (isWord(tokens[i], 'CASE')) {
    let depth = 0;
    for (let k = i; k < tokens.length; k++)
      if (isWord(tokens[k], 'CASE')) depth++;
      else if (isWord(tokens[k], 'END') && --depth === 0) return k;
    return -1;
  }
  let open = i;
  while (open < tokens.length && !isPunct(tokens[open], '(')) open++;
  let end = close(tokens, open);
  if (end < 0) return -1;
  let next = nextSignificant(tokens, end + 1);
  if (isWord(tokens[next], 'FILTER')) {
    end = close(tokens, nextSignificant(tokens, next + 1));
    if (end < 0) return -1;
    next = nextSignificant(tokens, end + 1);
  }
  // a window call: its OVER (...) or OVER name
  if (isWord(tokens[next], 'OVER')) {
    const w = nextSignificant(tokens, next + 1);
    end = isPunct(tokens[w], '(') ? close(tokens, w) : w < tokens.length ? w : -1;
  }
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

/**
 * The last token of the constant operand starting at tokens[k] (operandAt's): a string, a number
 * (a negative one's constant starts at its sign), a parameter, ARRAY[...], each with `::type` or
 * `::type[]` casts after it; -1 when it is none of those.
 */
function operandEnd(tokens: PgToken[], k: number): number {
  if (tokens[k]?.type === 'op' && tokens[k].text === '-') k = nextSignificant(tokens, k + 1);
  if (isWord(tokens[k], 'ARRAY')) {
    const open = nextSignificant(tokens, k + 1);
    if (!isPunct(tokens[open], '[')) return -1;
    let depth = 0;
    for (k = open; k < tokens.length; k++)
      if (isPunct(tokens[k], '[')) depth++;
      else if (isPunct(tokens[k], ']') && --depth === 0) break;
    if (k >= tokens.length) return -1;
  } else if (!['string', 'number', 'param'].includes(tokens[k]?.type ?? '')) return -1;
  for (;;) {
    const cast = nextSignificant(tokens, k + 1);
    if (tokens[cast]?.type !== 'op' || tokens[cast].text !== '::') return k;
    k = nextSignificant(tokens, cast + 1);
    if (tokens[k]?.type !== 'word' && tokens[k]?.type !== 'quoted') return -1;
    const open = nextSignificant(tokens, k + 1);
    const shut = nextSignificant(tokens, open + 1);
    if (isPunct(tokens[open], '[') && isPunct(tokens[shut], ']')) k = shut;
  }
}

/** Whether tokens[from..to] open and close their parentheses within them. */
function balanced(tokens: PgToken[], from: number, to: number): boolean {
  let depth = 0;
  for (let k = from; k <= to; k++) {
    if (isPunct(tokens[k], '(')) depth++;
    else if (isPunct(tokens[k], ')') && --depth < 0) return false;
  }
  return depth === 0;
}

function previousSignificant(tokens: PgToken[], i: number): number {
  while (i >= 0 && (tokens[i].type === 'space' || tokens[i].type === 'comment')) i--;
  return i;
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
