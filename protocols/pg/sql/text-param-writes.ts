// A parameter the client sent no type for, which PostgreSQL makes text where nothing types it (a
// bare item of a subquery, of a VALUES list in FROM or of a WITH query, a set operation's column of
// unknowns alone, `(SELECT $1)`), written into a column of another type: PostgreSQL's 42804 `column
// "flag" is of type boolean but expression is of type text`, at the expression, before anything
// runs. Patina ran the statement with the value read as text: a binary bool or int4 sent so
// (libpq's PQexecParams with no types) was written as the text of its bytes. Read on PostgreSQL's
// parse tree; what the tree does not tell for sure (a function, an expression of the item) is left
// to run.
import type { Schema } from '../../../src/engine/schema/model';
import { OID, TYPE_DISPLAY, oidOfDeclType } from '../types/oids';
import type { PgToken } from './lexer';
import { parseTree } from './parse';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

/** Column types PostgreSQL assigns text to (its casts from text that are implicit or assignment ones). */
const STRINGS = new Set<number>([OID.text, OID.varchar, OID.bpchar, OID.name, 18 /* "char" */, 2205 /* regclass */]);

/** A source of a FROM list or WITH clause: its column names and, per column, where its text item is (-1: not one). */
interface Source {
  names: string[];
  text: number[];
}

type Sources = Map<string, Source>;

export interface TextWrite {
  column: string;
  type: number;
  /** The expression's location in the parsed text (0-based bytes). */
  at: number;
}

/**
 * Whether the statement may write such a parameter (a cheap test of its tokens before the tree): an
 * INSERT or UPDATE with a parameter and a subquery, or an UPDATE with a VALUES list in FROM.
 */
export function mayWriteTextParams(command: string, sig: readonly PgToken[]): boolean {
  if (command !== 'INSERT' && command !== 'UPDATE') return false;
  let param = false;
  let query = false;
  for (const t of sig) {
    if (t.type === 'param') param = true;
    else if (t.type === 'word') {
      const w = t.text.toUpperCase();
      if (w === 'SELECT' || (w === 'VALUES' && command === 'UPDATE')) query = true;
    }
  }
  return param && query;
}

/** The first write of a parameter made text into a column PostgreSQL assigns no text to, or null. */
export function textParamWrite(sql: string, schema: Schema, declared: readonly number[]): TextWrite | null {
  let stmt: Node;
  try {
    stmt = parseTree(sql).stmts?.[0]?.stmt;
  } catch {
    return null; // (the translation or SQLite reports it)
  }
  const w = new Writes(schema, declared);
  if (stmt?.InsertStmt) return w.insert(stmt.InsertStmt);
  if (stmt?.UpdateStmt) return w.update(stmt.UpdateStmt);
  return null;
}

class Writes {
  constructor(
    readonly schema: Schema,
    readonly declared: readonly number[],
  ) {}

  insert(ins: Node): TextWrite | null {
    const types = this.columns(ins.relation);
    if (!types) return null;
    const names = ins.cols?.length
      ? ins.cols.map((c: Node) => String(c.ResTarget?.name ?? '').toLowerCase())
      : [...types.keys()];
    const s = ins.selectStmt?.SelectStmt;
    const ctes = this.ctes(ins.withClause, new Map());
    let found: TextWrite | null = null;
    const check = (k: number, at: number) => {
      const type = types.get(names[k]);
      if (!found && at >= 0 && type !== undefined && !STRINGS.has(type) && TYPE_DISPLAY[type])
        found = { column: names[k], type, at };
    };
    if (s?.valuesLists && (!s.op || s.op === 'SETOP_NONE'))
      for (const row of s.valuesLists)
        (row.List?.items ?? []).forEach((x: Node, k: number) => check(k, this.expr(x, ctes)));
    else if (s) this.outputs(s, ctes, true).forEach((at, k) => check(k, at));
    if (found) return found;
    const conflict = ins.onConflictClause;
    return conflict?.action === 'ONCONFLICT_UPDATE' ? this.setList(conflict.targetList, types, ctes) : null;
  }

  update(u: Node): TextWrite | null {
    const types = this.columns(u.relation);
    if (!types) return null;
    const scope = this.ctes(u.withClause, new Map());
    // (the table's own columns are no parameter's: a name it shares with a FROM item is not placed)
    this.from([{ RangeVar: u.relation }, ...(u.fromClause ?? [])], scope);
    return this.setList(u.targetList, types, scope);
  }

  setList(targets: Node[] | undefined, types: Map<string, number>, scope: Sources): TextWrite | null {
    for (const t of targets ?? []) {
      const r = t.ResTarget;
      const column = String(r?.name ?? '').toLowerCase();
      const type = types.get(column);
      if (!r || r.indirection || type === undefined || STRINGS.has(type) || !TYPE_DISPLAY[type]) continue;
      const multi = r.val?.MultiAssignRef;
      // SET (a, b) = (SELECT $1, $2): the subquery's items; SET a = (SELECT $1), a = v.x of FROM
      const sub = multi?.source?.SubLink?.subselect?.SelectStmt;
      const at = multi ? (sub ? (this.outputs(sub, scope)[multi.colno - 1] ?? -1) : -1) : this.expr(r.val, scope);
      if (at >= 0) return { column, type, at };
    }
    return null;
  }

  /** The table's column types by name (in order), or null for a relation not in the schema. */
  columns(rel: Node): Map<string, number> | null {
    if (rel?.schemaname && rel.schemaname !== 'public') return null;
    const table = this.schema.tables.get(String(rel?.relname ?? '').toLowerCase());
    if (!table) return null;
    return new Map(table.columns.map((c) => [c.name.toLowerCase(), oidOfDeclType(c.type)]));
  }

  /** WITH queries as sources, each seeing the ones before it. */
  ctes(withClause: Node, scope: Sources): Sources {
    const out: Sources = new Map(scope);
    for (const c of withClause?.ctes ?? []) {
      const cte = c.CommonTableExpr;
      const s = cte?.ctequery?.SelectStmt;
      if (!s) continue;
      out.set(String(cte.ctename).toLowerCase(), this.source(s, cte.aliascolnames, out));
    }
    return out;
  }

  /** A subquery as a source: its output names (or the alias's) and its text items. */
  source(s: Node, aliases: Node[] | undefined, scope: Sources): Source {
    const text = this.outputs(s, scope);
    const own = outputNames(s);
    const names = text.map((_, k) => String(aliases?.[k]?.String?.sval ?? own[k] ?? '').toLowerCase());
    return { names, text };
  }

  /**
   * The FROM list's subqueries, WITH queries and tables, by their names, added to `scope`; the
   * sources in the list's order (what `*` spreads), null when one is something else (a join, a
   * function: `*` is then not read).
   */
  from(items: Node[] | undefined, scope: Sources): Source[] | null {
    const list: Source[] | null = [];
    let whole = true;
    const add = (name: string, src: Source) => {
      scope.set(name, src);
      list.push(src);
    };
    for (const f of items ?? []) {
      const sub = f.RangeSubselect;
      const rv = f.RangeVar;
      if (sub?.subquery?.SelectStmt && sub.alias?.aliasname)
        add(String(sub.alias.aliasname).toLowerCase(), this.source(sub.subquery.SelectStmt, sub.alias.colnames, scope));
      else if (rv && !rv.schemaname) {
        const cte = scope.get(String(rv.relname).toLowerCase());
        const name = String(rv.alias?.aliasname ?? rv.relname).toLowerCase();
        const cols = cte ? null : this.columns(rv);
        // a table's columns are no parameter's (its name shadows a WITH query's)
        if (cte) add(name, renamed(cte, rv.alias?.colnames));
        else if (cols) add(name, { names: [...cols.keys()], text: [...cols.keys()].map(() => -1) });
        else {
          scope.delete(name);
          whole = false;
        }
      } else whole = false;
    }
    return whole ? list : null;
  }

  /**
   * Per output column of `s`, where the parameter that makes it text is (-1 where it is not one).
   * `top`: the INSERT's own SELECT, whose bare parameters take their columns' types.
   */
  outputs(s: Node, outer: Sources, top = false): number[] {
    const scope = this.ctes(s.withClause, outer);
    if (s.op && s.op !== 'SETOP_NONE') {
      // a set operation's column is text when every branch's item is an unknown, one a parameter
      const arms = [s.larg, s.rarg].map((a: Node) => this.unknowns(a ?? {}, scope));
      const width = Math.max(arms[0].length, arms[1].length);
      return Array.from({ length: width }, (_, k) => {
        const [l, r] = [arms[0][k], arms[1][k]];
        if (l === undefined || r === undefined || l.kind === 'no' || r.kind === 'no') return -1;
        if (l.kind !== 'param' && r.kind !== 'param') return -1;
        return l.at;
      });
    }
    if (s.valuesLists) {
      const rows: Node[][] = s.valuesLists.map((r: Node) => r.List?.items ?? []);
      return (rows[0] ?? []).map((first, k) => {
        const kinds = rows.map((row) => this.unknown(row[k]));
        return kinds.every((u) => u !== 'no') && kinds.includes('param') ? location(first) : -1;
      });
    }
    const inner: Sources = new Map(scope);
    const sources = this.from(s.fromClause, inner);
    const out: number[] = [];
    for (const t of s.targetList ?? []) {
      const v = t.ResTarget?.val;
      const fields: Node[] | undefined = v?.ColumnRef?.fields;
      if (fields?.at(-1)?.A_Star !== undefined) {
        // `*` or `v.*`: the columns of the sources it spreads, each at the star
        const only = fields.length > 1 ? inner.get(String(fields[0].String?.sval ?? '').toLowerCase()) : null;
        const spread = fields.length > 1 ? (only ? [only] : null) : sources;
        if (!spread) return out; // (what follows is not placed: nothing more is read)
        for (const src of spread) for (const at of src.text) out.push(at >= 0 ? v.ColumnRef.location : -1);
        continue;
      }
      out.push(!top && this.unknown(v) === 'param' ? location(v) : this.expr(v, inner));
    }
    return out;
  }

  /** Each output item of a set operation's branch as unknown (a parameter, a string literal or NULL) or not. */
  unknowns(s: Node, scope: Sources): { kind: 'param' | 'literal' | 'no'; at: number }[] {
    const b = s.SelectStmt ?? s;
    if (b.op && b.op !== 'SETOP_NONE')
      return this.outputs(b, scope).map((at) => ({ kind: at >= 0 ? 'param' : 'no', at }));
    const items: Node[] = b.valuesLists
      ? (b.valuesLists[0]?.List?.items ?? [])
      : (b.targetList ?? []).map((t: Node) => t.ResTarget?.val);
    if (b.valuesLists && b.valuesLists.length > 1)
      return this.outputs(b, scope).map((at) => ({ kind: at >= 0 ? 'param' : 'no', at }));
    return items.map((x) => ({ kind: this.unknown(x), at: location(x) }));
  }

  /** Whether `x` is an untyped parameter, an unknown literal, or neither. */
  unknown(x: Node): 'param' | 'literal' | 'no' {
    if (x?.ParamRef) return this.declared[x.ParamRef.number - 1] ? 'no' : 'param';
    if (x?.A_Const && (x.A_Const.sval !== undefined || x.A_Const.isnull)) return 'literal';
    return 'no';
  }

  /** Where a text-made parameter reaches `x` (a column of a source, a scalar subquery), else -1. */
  expr(x: Node, scope: Sources): number {
    if (x?.SubLink?.subLinkType === 'EXPR_SUBLINK') {
      const s = x.SubLink.subselect?.SelectStmt;
      return s && (this.outputs(s, scope)[0] ?? -1) >= 0 ? x.SubLink.location : -1;
    }
    const fields: Node[] | undefined = x?.ColumnRef?.fields;
    if (!fields || fields.some((f) => f.String?.sval === undefined)) return -1;
    const [rel, col] =
      fields.length === 2 ? [fields[0].String.sval, fields[1].String.sval] : [null, fields[0].String.sval];
    const name = String(col).toLowerCase();
    const matches = [...scope.entries()].filter(
      ([alias, src]) => (rel === null || alias === String(rel).toLowerCase()) && src.names.includes(name),
    );
    if (matches.length !== 1) return -1;
    const src = matches[0][1];
    return src.text[src.names.indexOf(name)] >= 0 ? x.ColumnRef.location : -1;
  }
}

/** A WITH query's source under an alias with column names of its own. */
function renamed(src: Source, colnames: Node[] | undefined): Source {
  if (!colnames?.length) return src;
  return { names: src.names.map((n, k) => String(colnames[k]?.String?.sval ?? n).toLowerCase()), text: src.text };
}

/** The names a query gives its output columns (VALUES: column1, ...); '' where PostgreSQL figures one not needed here. */
function outputNames(s: Node): string[] {
  if (s.op && s.op !== 'SETOP_NONE') return outputNames(s.larg ?? {});
  if (s.valuesLists) return (s.valuesLists[0]?.List?.items ?? []).map((_: Node, k: number) => `column${k + 1}`);
  return (s.targetList ?? []).map((t: Node) => {
    const r = t.ResTarget;
    if (r?.name) return String(r.name);
    const f = r?.val?.ColumnRef?.fields;
    return f ? String(f.at(-1)?.String?.sval ?? '') : '';
  });
}

function location(x: Node): number {
  if (!x || typeof x !== 'object') return -1;
  for (const v of Object.values(x))
    if (v && typeof v === 'object' && typeof (v as Node).location === 'number') return (v as Node).location;
  return -1;
}
