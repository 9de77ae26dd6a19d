// The values PostgreSQL's JSON builders put in a document (json_build_object, json_build_array,
// json_agg, to_json, row_to_json and their jsonb twins), as ORMs' relational queries build them
// (Drizzle's json_build_array of a related row, Kysely's json_agg(agg) of a subquery, Prisma's
// jsonb_build_object). SQLite would put a boolean in as 1, a timestamp with a space, a json column
// as a string, and has no whole-row reference (`row_to_json(u)`, `json_agg(t)`). Each argument that
// is a column of a known type becomes its JSON value, and a FROM item's name whose columns are
// known (a schema table, or a subquery with a plain select list) becomes json_object() of them.
// rewriteWholeRows, on the same FROM items: a select item that is such a name, `SELECT t FROM t`,
// becomes PostgreSQL's record text of its columns.
import { OID, declaredModifier, oidOfDeclType } from '../../types/oids';
import { pgError } from '../../sqlstate';
import {
  ARRAY_FLAGS,
  BUILDER_VALUES,
  JSON_TYPED,
  PARAM_SCALE,
  isBuilderValue,
  isObjectKey,
  markFlags,
  valueFlag,
} from '../json-builders';
import type { PgToken } from '../lexer';
import { selectItemType } from '../select-list';
import { FROM_ENDS, type Tok, closer, isOp, isPunct, isWord, topLevelWord } from '../tokens';
import { styledTextKind } from '../session-styles';
import { sessionZone, zonedTextKind } from '../session-zone';
import { type WithQuery, withQueries } from './with-queries';

export interface JsonSchema {
  /** The declared type of a column of `table` (lower case), or null. */
  columnType(table: string, column: string): string | null;
  /** A table's columns in order, or null when there is no such table. */
  columns(table: string): { name: string }[] | null;
}

const BUILDERS = BUILDER_VALUES;

/** Builders that aggregate rows. */
const AGGREGATES = new Set(['json_agg', 'jsonb_agg', 'json_object_agg', 'jsonb_object_agg']);

/** Calls whose value is a JSON document (SQLite marks it so, and embeds it as JSON). */
const JSON_CALLS = new Set([
  ...Object.keys(BUILDERS),
  'json',
  'json_object',
  'json_array',
  '__pg_json_layout',
  // (json_object(text[]) and jsonb_object as translate/json-object.ts calls them)
  '__pg_json_object',
  '__pg_jsonb_object',
]);

const word = (text: string): Tok => ({ type: 'word', text });
const punct = (text: string): Tok => ({ type: 'punct', text });
const str = (text: string): Tok => ({ type: 'string', text: `'${text.replace(/'/g, "''")}'` });
const num = (n: number): Tok => ({ type: 'number', text: String(n) });
const isName = (t: Tok | undefined) => t !== undefined && (t.type === 'word' || t.type === 'quoted');
const nameOf = (t: Tok) => (t.type === 'quoted' ? t.text.slice(1, -1).replace(/""/g, '"') : t.text.toLowerCase());
const quoted = (name: string): Tok => ({ type: 'quoted', text: `"${name.replace(/"/g, '""')}"` });

/** A column of a FROM item: its name and declared type ('json' for a computed document), null when unknown. */
interface Column {
  name: string;
  type: string | null;
  /** Its key in the row's JSON object when not its name: a table's own column renamed by `t AS x(a, b)`. */
  key?: string;
}

/** A FROM item: its name, the '(' that opens its query (-1 for the statement), its columns. */
interface Source {
  name: string;
  scope: number;
  cols: Column[];
  /** A subquery's own tokens, which do not see it. */
  within?: [number, number];
  /** A WITH query's row (its columns' types may be unknown, as a subquery's). */
  withQuery?: boolean;
  /** A function of one value (`abs(-1) AS a(x)`): its name alone is that value, as its column is. */
  scalar?: boolean;
}

/**
 * json's and jsonb's set-returning functions of documents as FROM items (translate/function-columns.ts
 * has taken a column list away): their columns, whose values a builder embeds as documents (SQLite
 * put them in as strings: `json_agg(value)` was `["1", "{\"a\": 2}"]`).
 */
const JSON_FUNCTIONS: Record<string, Column[]> = {
  json_array_elements: [{ name: 'value', type: 'json' }],
  jsonb_array_elements: [{ name: 'value', type: 'jsonb' }],
  json_each: [
    { name: 'key', type: 'text' },
    { name: 'value', type: 'json' },
  ],
  jsonb_each: [
    { name: 'key', type: 'text' },
    { name: 'value', type: 'jsonb' },
  ],
};

/** A source's one column, `"a"."x"`, which its name means when it is a function of one value. */
const scalarColumn = (s: Source): Tok[] => [quoted(s.name), punct('.'), quoted(s.cols[0].name)];

/** Words after a FROM item that are no alias. */
const NOT_ALIAS = new Set([
  'WHERE', 'ON', 'JOIN', 'LEFT', 'RIGHT', 'INNER', 'OUTER', 'FULL', 'CROSS', 'NATURAL', 'GROUP', 'ORDER',
  'LIMIT', 'OFFSET', 'HAVING', 'UNION', 'EXCEPT', 'INTERSECT', 'USING', 'SET', 'RETURNING', 'WINDOW', 'FOR',
  'LATERAL', 'FETCH', 'VALUES', 'SELECT', 'AS',
]); // biome-ignore format: a word list

/** Top-level comma-separated items of toks[from, to). */
function items(toks: readonly Tok[], from: number, to: number): Tok[][] {
  const out: Tok[][] = [[]];
  let depth = 0;
  for (let i = from; i < to; i++) {
    const t = toks[i];
    if (isPunct(t, '(') || isPunct(t, '[')) depth++;
    else if (isPunct(t, ')') || isPunct(t, ']')) depth--;
    if (depth === 0 && isPunct(t, ',')) out.push([]);
    else out[out.length - 1].push(t);
  }
  return out.length === 1 && out[0].length === 0 ? [] : out;
}

/** A column reference `c` or `q.c` (quoted or not): [qualifier, column], else null. */
function columnRef(e: readonly Tok[]): [string | null, string] | null {
  if (e.length === 1 && isName(e[0]) && !isWord(e[0], 'TRUE') && !isWord(e[0], 'FALSE') && !isWord(e[0], 'NULL'))
    return [null, nameOf(e[0])];
  if (e.length === 3 && isName(e[0]) && isPunct(e[1], '.') && isName(e[2])) return [nameOf(e[0]), nameOf(e[2])];
  return null;
}

/** Whether an expression's value is a JSON document: a builder's call, a ::json cast, or coalesce of those. */
function isJsonExpr(e: readonly Tok[]): boolean {
  if (e.length >= 2 && isOp(e[e.length - 2], '::') && /^jsonb?$/i.test(e[e.length - 1].text)) return true;
  if (e.length < 3) return false;
  if (isPunct(e[0], '(') && isWord(e[1], 'SELECT') && closer(e, 0) === e.length - 1) {
    // a scalar subquery of one document
    const from = topLevelWord(e, 2, e.length - 1, 'FROM');
    const list = items(e, 2, from < 0 ? e.length - 1 : from);
    const only = list.length === 1 ? list[0] : [];
    const n = only.length;
    const value = n >= 3 && isWord(only[n - 2], 'AS') ? only.slice(0, n - 2) : only;
    return isJsonExpr(guardedValue(value) ?? value);
  }
  if (e[0].type !== 'word' || !isPunct(e[1], '(') || closer(e, 1) !== e.length - 1) return false;
  const name = e[0].text.toLowerCase();
  if (JSON_CALLS.has(name)) return true;
  return name === 'coalesce' && items(e, 2, e.length - 1).some((a) => isJsonExpr(a));
}

/**
 * The value of translate/one-row.ts's guard of a scalar subquery, `CASE WHEN ... THEN
 * __pg_raise('21000', ...) ELSE (x) END`: x (a subquery in its parentheses); else null.
 */
function guardedValue(e: readonly Tok[]): readonly Tok[] | null {
  const n = e.length;
  if (n < 4 || !isWord(e[0], 'CASE') || !isWord(e[n - 1], 'END') || !isPunct(e[n - 2], ')')) return null;
  const open = e.findIndex((t, i) => isWord(t, 'ELSE') && isPunct(e[i + 1], '(') && closer(e, i + 1) === n - 2);
  if (open < 0 || !e.some((t, i) => isWord(t, '__pg_raise') && e[i + 2]?.text === "'21000'")) return null;
  const x = e.slice(open + 1, n - 1);
  return isWord(x[1], 'SELECT') || isWord(x[1], 'WITH') ? x : x.slice(1, -1);
}

/** The date, timestamp or interval type an expression is cast to at its top level (`x::date`, `CAST(x AS timestamp)`, `DATE '...'`), else null. */
function castType(e: readonly Tok[]): string | null {
  const n = e.length;
  const dated = (words: readonly Tok[]) => {
    const name = words.map((w) => w.text.toLowerCase()).join(' ');
    return /^(date|timestamp|timestamptz|timestamp (with|without) time zone|interval)$/.test(name) ? name : null;
  };
  if (n === 2 && e[0].type === 'word' && e[1].type === 'string') return dated([e[0]]);
  if (n === 4 && isWord(e[0], 'TIMESTAMP') && e[3].type === 'string') return dated(e.slice(0, 3));
  for (const k of [n - 1, n - 3]) {
    if (k < 1 || !isOp(e[k - 1], '::')) continue;
    // the cast must be the expression's last operator at its top level: `a || b::date` is no date
    let depth = 0;
    let top = true;
    for (let i = 0; i < k - 1; i++) {
      if (isPunct(e[i], '(') || isPunct(e[i], '[')) depth++;
      else if (isPunct(e[i], ')') || isPunct(e[i], ']')) depth--;
      else if (depth === 0 && e[i].type === 'op' && !isOp(e[i], '::')) top = false;
      else if (depth === 0 && e[i].type === 'word' && /^(and|or|not|is|collate|at)$/i.test(e[i].text)) top = false;
    }
    if (top && e.slice(k).every((w) => w.type === 'word')) return dated(e.slice(k));
  }
  if (n > 5 && isWord(e[0], 'CAST') && isPunct(e[1], '(') && closer(e, 1) === n - 1) {
    let as = n - 2;
    while (as > 2 && e[as].type === 'word' && !isWord(e[as], 'AS')) as--;
    if (isWord(e[as], 'AS')) return dated(e.slice(as + 1, n - 1));
  }
  return null;
}

const COMPARISONS = new Set(['=', '<>', '!=', '<', '>', '<=', '>=']);
const BOOLEAN_WORDS = new Set(['IS', 'NOT', 'AND', 'OR', 'EXISTS', 'IN', 'LIKE', 'ILIKE', 'BETWEEN']);

/**
 * Whether an expression is recognisably boolean: a comparison, IS [NOT] NULL, NOT, AND/OR, EXISTS,
 * IN, LIKE or BETWEEN at its top level (not inside brackets or a CASE), or such an expression in parentheses.
 */
function isBooleanExpr(e: readonly Tok[]): boolean {
  if (e.length === 0) return false;
  if (isPunct(e[0], '(') && closer(e, 0) === e.length - 1)
    return !isWord(e[1], 'SELECT') && isBooleanExpr(e.slice(1, -1));
  let depth = 0;
  for (const t of e) {
    if (isPunct(t, '(') || isPunct(t, '[') || isWord(t, 'CASE')) depth++;
    else if (isPunct(t, ')') || isPunct(t, ']') || isWord(t, 'END')) depth--;
    else if (depth === 0 && t.type === 'op' && COMPARISONS.has(t.text)) return true;
    else if (depth === 0 && t.type === 'word' && BOOLEAN_WORDS.has(t.text.toUpperCase())) return true;
  }
  return false;
}

class JsonRewriter {
  readonly sources: Source[] = [];
  /** The WITH queries whose columns are known (by name: a rewrite moves the tokens). */
  readonly withNames = new Set<string>();

  /** `withRows`: WITH queries read as FROM items too (their whole rows built in builders). */
  constructor(
    readonly toks: Tok[],
    readonly schema: JsonSchema,
    readonly withRows = false,
  ) {
    this.collect();
  }

  /** The '(' of each query level enclosing toks[k], innermost first, then -1 for the statement. */
  openers(k: number): number[] {
    const out: number[] = [];
    let depth = 0;
    for (let i = k - 1; i >= 0; i--) {
      if (isPunct(this.toks[i], ')')) depth++;
      else if (isPunct(this.toks[i], '(')) {
        if (depth === 0) out.push(i);
        else depth--;
      }
    }
    out.push(-1);
    return out;
  }

  /** The FROM items visible at toks[k], innermost query first. */
  visible(k: number): Source[] {
    const out: Source[] = [];
    for (const o of this.openers(k)) for (const s of this.sources) if (s.scope === o) out.push(s);
    return out;
  }

  lookup(name: string, k: number): Source | undefined {
    return this.visible(k).find((s) => s.name === name);
  }

  /** Every FROM item of the statement: tables (by alias, else name), then subqueries. */
  collect(): void {
    const toks = this.toks;
    const derived: [string, number, number, number, boolean][] = [];
    const ctes = this.withRows ? withQueries(toks, (k) => this.openers(k)[0]) : [];
    const cteRefs: [WithQuery, string, number][] = [];
    for (let i = 1; i < toks.length; i++) {
      const prev = toks[i - 1];
      const starts = isWord(prev, 'FROM') || isWord(prev, 'JOIN') || isPunct(prev, ',');
      if (!starts) continue;
      let j = i;
      if ((isWord(toks[j], 'PUBLIC') || toks[j].text === '"public"') && isPunct(toks[j + 1], '.')) j += 2;
      if (isPunct(toks[j], '(') && isWord(toks[j + 1], 'SELECT')) {
        const close = closer(toks, j);
        if (close < 0) continue;
        let a = close + 1;
        if (isWord(toks[a], 'AS')) a++;
        if (isName(toks[a]) && !NOT_ALIAS.has(toks[a].text.toUpperCase()))
          derived.push([nameOf(toks[a]), j + 1, close, this.openers(j)[0], 'scalarFrom' in toks[j]]);
        continue;
      }
      const fn = isWord(toks[j], 'LATERAL') ? j + 1 : j;
      const columns = isName(toks[fn]) && isPunct(toks[fn + 1], '(') ? JSON_FUNCTIONS[nameOf(toks[fn])] : undefined;
      if (columns) {
        const close = closer(toks, fn + 1);
        if (close < 0) continue;
        const name = this.alias(close + 1) ?? nameOf(toks[fn]);
        // (a one-value function's name is its value too, `json_agg(e)`, as translate/set-returning.ts reads it)
        const cols = columns.length === 1 && name !== 'value' ? [...columns, { ...columns[0], name }] : columns;
        this.sources.push({ name, scope: this.openers(fn)[0], cols });
        continue;
      }
      if (!isName(toks[j]) || isPunct(toks[j + 1], '(') || isPunct(toks[j + 1], '.')) continue;
      const table = nameOf(toks[j]);
      // a WITH query in scope hides a table of its name (not inside its own query, unless recursive)
      const levels = this.openers(j);
      const cte = ctes
        .filter((c) => c.name === table && levels.includes(c.level) && (c.recursive || j < c.open || j > c.close))
        .pop();
      if (cte) {
        cteRefs.push([cte, this.alias(j + 1) ?? table, levels[0]]);
        continue;
      }
      const cols = this.schema.columns(table);
      if (!cols) continue;
      // (`t AS x(a, b)`: the list renames the first columns, as PostgreSQL's alias does)
      const at = isWord(toks[j + 1], 'AS') ? j + 2 : j + 1;
      const listed =
        this.alias(j + 1) !== null && isPunct(toks[at + 1], '(')
          ? toks.slice(at + 2, closer(toks, at + 1)).filter((x) => !isPunct(x, ','))
          : [];
      const typed = cols.map((c, k) => ({
        name: listed[k] ? nameOf(listed[k]) : c.name.toLowerCase(),
        type: this.schema.columnType(table, c.name.toLowerCase()),
        // (the row is still t's: its JSON object is keyed by t's names)
        ...(listed[k] ? { key: c.name.toLowerCase() } : {}),
      }));
      this.sources.push({ name: this.alias(j + 1) ?? table, scope: levels[0], cols: typed });
    }
    // WITH queries in their order (a later one may select from an earlier one)
    const known = new Map<WithQuery, Column[] | null>();
    for (const [cte, name, scope] of cteRefs.sort((x, y) => x[0].open - y[0].open)) {
      if (!known.has(cte)) {
        known.set(cte, null); // (a recursive query's own reference, met while reading it)
        known.set(cte, cte.first < 0 ? null : this.selectColumns(cte.first, cte.end, cte.names));
      }
      const cols = known.get(cte);
      if (!cols) continue;
      this.sources.push({ name, scope, cols, withQuery: true });
      this.withNames.add(cte.name);
    }
    // subqueries innermost first (an outer one may select from an inner one's columns)
    derived.sort((x, y) => x[2] - x[1] - (y[2] - y[1]));
    for (const [name, from, to, scope, scalar] of derived) {
      const cols = this.selectColumns(from, to);
      if (cols)
        this.sources.push({
          name,
          scope,
          cols,
          within: [from, to],
          ...(scalar && cols.length === 1 ? { scalar } : {}),
        });
    }
  }

  /** The alias at toks[a] (after an optional AS), else null. */
  alias(a: number): string | null {
    if (isWord(this.toks[a], 'AS')) a++;
    const t = this.toks[a];
    return isName(t) && !NOT_ALIAS.has(t.text.toUpperCase()) ? nameOf(t) : null;
  }

  /**
   * The columns of `SELECT ... FROM ...` in toks[from, to), or null when a name is not plain
   * (`names`: a WITH query's column list, which names them).
   */
  selectColumns(from: number, to: number, names: string[] | null = null): Column[] | null {
    let start = from + 1;
    if (isWord(this.toks[start], 'DISTINCT') || isWord(this.toks[start], 'ALL')) start++;
    const fromAt = topLevelWord(this.toks, start, to, 'FROM');
    const inside = start + 1; // a position inside this query, to see its FROM items
    const out: Column[] = [];
    for (const item of items(this.toks, start, fromAt < 0 ? to : fromAt)) {
      const n = item.length;
      if (n >= 1 && isOp(item[n - 1], '*')) {
        const q = n === 3 ? nameOf(item[0]) : null;
        const own = this.visible(inside).filter((s) => s.scope === this.openers(inside)[0]);
        const cols = q ? this.lookup(q, inside)?.cols : n === 1 && own.length === 1 ? own[0].cols : undefined;
        if (!cols) return null;
        out.push(...cols);
        continue;
      }
      let expr = item;
      let name: string | null = null;
      if (n >= 3 && isWord(item[n - 2], 'AS') && isName(item[n - 1])) {
        name = nameOf(item[n - 1]);
        expr = item.slice(0, n - 2);
      } else if (n >= 2 && isName(item[n - 1]) && !isPunct(item[n - 2], '.') && !isOp(item[n - 2], '::')) {
        name = nameOf(item[n - 1]);
        expr = item.slice(0, n - 1);
      }
      const ref = columnRef(expr);
      name ??= ref?.[1] ?? null;
      if (name === null && names?.[out.length] === undefined) return null;
      out.push({ name: name ?? '', type: ref ? this.columnType(ref, inside) : computedType(expr) });
    }
    if (!names) return out;
    // (a column list longer than the query's columns is PostgreSQL's 42P10; fewer names keep the rest)
    return names.length > out.length ? null : out.map((c, i) => (i < names.length ? { ...c, name: names[i] } : c));
  }

  columnType([q, c]: [string | null, string], k: number): string | null {
    const candidates = q !== null ? [this.lookup(q, k)] : this.visible(k);
    for (const s of candidates) {
      const col = s?.cols.find((x) => x.name === c);
      if (col) return col.type;
    }
    return null;
  }

  /** An argument of a builder as its JSON value (`flag`: its mark's, sql/json-builders.ts). */
  value(e: Tok[], k: number, flag = '-'): Tok[] {
    // json_agg(DISTINCT b): the value after DISTINCT (SQLite's DISTINCT keeps its JSON mark)
    if (e.length > 1 && isWord(e[0], 'DISTINCT')) return [e[0], ...this.value(e.slice(1), k, flag)];
    if (flag === 'b') return this.typed(e, 'bytea');
    if (flag === 'R') return this.typed(e, 'float4');
    if (flag === 'F') return this.typed(e, 'float8');
    if (flag === 'I')
      return [
        word('json'),
        punct('('),
        word('CAST'),
        punct('('),
        ...e,
        word('AS'),
        word('INTEGER'),
        punct(')'),
        punct(')'),
      ];
    if (ARRAY_FLAGS[flag]) return this.array(e, flag);
    if (flag.startsWith('{')) return numeric(e, flag.slice(1, -1));
    // (a subquery's whole row: its columns' flags)
    const types = flag.startsWith('(') ? markFlags(flag.slice(1, -1)) : [];
    if (e.length === 1 && (isWord(e[0], 'TRUE') || isWord(e[0], 'FALSE')))
      return [word('json'), punct('('), str(e[0].text.toLowerCase()), punct(')')];
    // `t.*`: the FROM item's whole row, as `t` is (to_json(t.*), row_to_json(t.*))
    // (a name sql/json-layout.ts marked 'json-row:' and a flag a column: those flagged `v` kept as
    // written, a builder's text leaving the statement)
    const mark = 'arith' in e[0] ? e[0].arith : undefined;
    const kept = mark?.startsWith('json-row:') ? mark.slice('json-row:'.length) : '';
    if (e.length === 3 && isName(e[0]) && isPunct(e[1], '.') && isOp(e[2], '*')) {
      const whole = this.lookup(nameOf(e[0]), k);
      if (whole) return this.row(whole, kept, types);
    }
    const ref = columnRef(e);
    if (ref) {
      // a bare name that is no column but a FROM item: the whole row, as an object
      const whole = ref[0] === null && this.columnType(ref, k) === null ? this.lookup(ref[1], k) : undefined;
      if (whole?.scalar) return this.typed(scalarColumn(whole), whole.cols[0].type);
      if (whole && !this.visible(k).some((s) => s.cols.some((c) => c.name === ref[1])))
        return this.row(whole, kept, types);
      return this.typed(e, this.columnType(ref, k));
    }
    // a ::json cast, or a scalar subquery of a document (SQLite's JSON mark does not cross a subquery)
    if (
      (e.length > 2 && isOp(e[e.length - 2], '::') && /^jsonb?$/i.test(e[e.length - 1].text)) ||
      (isPunct(e[0], '(') && isJsonExpr(e)) ||
      // (json_object(text[]) is Patina's function's text, without SQLite's JSON mark)
      (/^__pg_jsonb?_object$/i.test(e[0].text) && isPunct(e[1], '(') && closer(e, 1) === e.length - 1)
    )
      return [word('json'), punct('('), ...e, punct(')')];
    // SQLite's 1/0/NULL of a comparison as JSON's true/false/null, evaluated once
    if (isBooleanExpr(e))
      return [
        word('json'),
        punct('('),
        word('CASE'),
        punct('('),
        ...e,
        punct(')'),
        word('WHEN'),
        { type: 'number', text: '1' },
        word('THEN'),
        str('true'),
        word('WHEN'),
        { type: 'number', text: '0' },
        word('THEN'),
        str('false'),
        word('END'),
        punct(')'),
      ];
    // a cast to a date or timestamp type, or such a typed literal (DATE '...'): by that type
    const cast = castType(e);
    if (cast !== null) return this.typed(e, cast);
    if (e.length > 3 && isWord(e[0], 'COALESCE') && isPunct(e[1], '(') && closer(e, 1) === e.length - 1) {
      const args = items(e, 2, e.length - 1).map((a) => this.value(a, k));
      return [e[0], punct('('), ...args.flatMap((a, k) => (k === 0 ? a : [punct(','), ...a])), punct(')')];
    }
    return e;
  }

  /**
   * An object's key (json_build_object's even arguments, json_object_agg's first) that is a boolean
   * column, comparison or literal: PostgreSQL's text of it, `true` or `false` (SQLite's label was
   * its 1 or 0); NULL stays NULL, for the key's 22023. `typed`: the analysis found it a boolean
   * (sql/json-builders.ts; a CASE, a VALUES column). Any other argument as it is.
   */
  key(builder: string, a: Tok[], i: number, k: number, typed: boolean): Tok[] {
    if (!isObjectKey(builder.toLowerCase(), k) || a.length === 0) return a;
    // (json_object_agg(DISTINCT b, v): its pairs sort by the text, false before true as by the boolean)
    if (a.length > 1 && isWord(a[0], 'DISTINCT')) return [a[0], ...this.key(builder, a.slice(1), i, k, typed)];
    if (a.length === 1 && (isWord(a[0], 'TRUE') || isWord(a[0], 'FALSE'))) return [str(a[0].text.toLowerCase())];
    const ref = columnRef(a);
    const type = ref ? (this.columnType(ref, i) ?? '').toLowerCase().trim() : '';
    if (!(typed || type === 'bool' || type === 'boolean' || (!ref && isBooleanExpr(a)))) return a;
    // (__pg_bool: an element of a boolean array, unnest's, is SQLite's text 't' or 'f')
    return [
      punct('('),
      word('CASE'),
      word('__pg_bool'),
      punct('('),
      ...a,
      punct(')'),
      word('WHEN'),
      num(1),
      word('THEN'),
      str('true'),
      word('WHEN'),
      num(0),
      word('THEN'),
      str('false'),
      word('END'),
      punct(')'),
    ];
  }

  /** A column's value as JSON by its declared type. */
  typed(e: Tok[], type: string | null): Tok[] {
    const t = (type ?? '')
      .toLowerCase()
      .replace(/\(.*?\)/g, '')
      .trim();
    if (t === 'bool' || t === 'boolean')
      return [
        word('json'),
        punct('('),
        word('CASE'),
        word('WHEN'),
        ...e,
        word('THEN'),
        str('true'),
        word('WHEN'),
        word('NOT'),
        ...e,
        word('THEN'),
        str('false'),
        word('END'),
        punct(')'),
      ];
    if (t === 'json') return [word('json'), punct('('), ...e, punct(')')];
    // a char(n) padded to n, as PostgreSQL keeps it (`row_to_json(t)`'s {"ch":"ab  "}; kept unpadded)
    const chars = declaredModifier(type);
    if (chars?.type === 'char')
      return [word('__pg_text'), punct('('), str(`bpchar:${chars.precision}`), punct(','), ...e, punct(')')];
    // a numeric(p, s) at its scale (2.5 is 2.50); a plain numeric as it is, but an infinity
    // (SQLite's JSON of the REAL would be 9.0e+999) as "Infinity"
    const scale = /^(?:numeric|decimal)\s*\(\s*\d+\s*,\s*(\d+)\s*\)$/i.exec((type ?? '').trim())?.[1];
    if (scale !== undefined) return numeric(e, scale);
    if (t === 'numeric' || t === 'decimal') return numeric(e, '=');
    // (a real's as float4 prints it; a REAL column is a double in Patina, schema/column-types.ts)
    if (FLOAT_TYPES.has(t)) {
      const single = t === 'float4' ? [punct(','), num(1)] : [];
      return [word('json'), punct('('), word('__pg_json_float'), punct('('), ...e, ...single, punct(')'), punct(')')];
    }
    // jsonb as PostgreSQL keeps it (keys sorted, the last of duplicates), whatever text was stored
    if (t === 'jsonb')
      return [word('json'), punct('('), word('__pg_jsonb_text'), punct('('), ...e, punct(')'), punct(')')];
    const zone =
      t === 'timestamptz' || t === 'timestamp with time zone'
        ? 1
        : t === 'timestamp' || t === 'datetime' || t === 'timestamp without time zone'
          ? 0
          : -1;
    if (t === 'date') return [word('__pg_json_date'), punct('('), ...e, punct(')')];
    // (bytea and intervals as their output prints them: in the session's bytea_output and IntervalStyle)
    if (t === 'bytea' || t === 'blob') {
      const kind = styledTextKind('bytea');
      return kind === 'bytea'
        ? [word('__pg_json_bytea'), punct('('), ...e, punct(')')]
        : [word('__pg_text'), punct('('), str(kind!), punct(','), ...e, punct(')')];
    }
    // an array as a JSON array (its array text was put in as a string)
    const flag = /\[\s*\]$/.test(t) ? valueFlag(oidOfDeclType(t.replace(/^blob\b/, 'bytea'))) : '-';
    if (ARRAY_FLAGS[flag]) return this.array(e, flag);
    if (t === 'interval' && styledTextKind('interval') !== null)
      return [word('__pg_text'), punct('('), str(styledTextKind('interval')!), punct(','), ...e, punct(')')];
    if (zone >= 0)
      return [
        word('__pg_json_timestamp'),
        punct('('),
        ...e,
        punct(','),
        // (a timestamptz with the session in a zone other than UTC: that zone, its offset printed)
        zone === 1 && sessionZone() !== null ? str(sessionZone()!) : { type: 'number', text: String(zone) },
        punct(')'),
      ];
    return e;
  }

  /** An array of the kind `flag` names (json-builders.ts's ARRAY_FLAGS) as a JSON array of its elements. */
  array(e: Tok[], flag: string): Tok[] {
    // (a json[] or jsonb[] column sql/json-layout.ts marked: its elements' own text, which
    // __pg_json_layout prints as it is; SQLite's json() would compact them)
    const mark = 'arith' in e[0] ? e[0].arith : undefined;
    if (flag === 'j' && mark?.startsWith('json-array:')) return keptJsonArray(e, mark.slice('json-array:'.length));
    // (a bytea[]'s elements in the session's bytea_output)
    if (flag === 'a') {
      const array = [word('__pg_json_bytea_array'), punct('('), ...e, punct(','), str(byteaStyle()), punct(')')];
      return [word('json'), punct('('), ...array, punct(')')];
    }
    // (a timestamptz[]'s elements at the session zone's offset)
    const zone = flag === 'z' ? [punct(','), sessionZone() !== null ? str(sessionZone()!) : num(1)] : [];
    const array = [word('__pg_json_array'), punct('('), ...e, punct(','), str(ARRAY_FLAGS[flag]), ...zone, punct(')')];
    return [word('json'), punct('('), ...array, punct(')')];
  }

  /**
   * json_object('c1', a.c1, ...) of a FROM item's columns (`kept`: a flag a column, `v` for one
   * passed as __pg_json_verbatim's marked text, `b` a jsonb column's text so marked; `types`: a
   * subquery's columns' flags from the analysis, sql/json-builders.ts).
   */
  row(source: Source, kept = '', types: string[] = []): Tok[] {
    const alias = source.name;
    const flags = kept.length === source.cols.length ? kept : '';
    const typed = types.length === source.cols.length ? types : [];
    const args = source.cols.flatMap((c, i) => {
      const col = [quoted(alias), punct('.'), quoted(c.name)];
      return [
        punct(','),
        str(c.key ?? c.name),
        punct(','),
        ...(flags[i] === 'v'
          ? [word('__pg_json_verbatim'), punct('('), ...col, punct(')')]
          : flags[i] === 'b'
            ? [
                word('__pg_json_verbatim'),
                punct('('),
                word('__pg_jsonb_text'),
                punct('('),
                ...col,
                punct(')'),
                punct(')'),
              ]
            : flags[i] === 'J' || flags[i] === 'K'
              ? keptJsonArray(col, flags[i] === 'J' ? 'json' : 'jsonb')
              : c.type === null && (typed[i] === 'R' || typed[i] === 'F')
                ? this.typed(col, typed[i] === 'R' ? 'float4' : 'float8')
                : c.type === null && ARRAY_FLAGS[typed[i]]
                  ? this.array(col, typed[i])
                  : c.type === null && typed[i]?.startsWith('{')
                    ? numeric(col, typed[i].slice(1, -1))
                    : c.type === null && (source.within || source.withQuery)
                      ? // a subquery's value of a type not known here: a bytea as its text (SQLite's JSON
                        // refuses a blob; a value read from a subquery has no JSON mark to lose)
                        [word('__pg_json_blob'), punct('('), ...col, punct(','), str(byteaStyle()), punct(')')]
                      : this.typed(col, c.type)),
      ];
    });
    return [word('json_object'), punct('('), ...args.slice(1), punct(')')];
  }

  /** Each builder's value arguments, last call first (so earlier indexes stay put). */
  rewrite(): Tok[] {
    const toks = this.toks;
    for (let i = toks.length - 2; i >= 0; i--) {
      const t = toks[i];
      if (t.type !== 'word' || !isPunct(toks[i + 1], '(') || isPunct(toks[i - 1], '.')) continue;
      const which = BUILDERS[t.text.toLowerCase()];
      if (which === undefined) continue;
      const close = closer(toks, i + 1);
      if (close < 0) continue;
      // json_agg(x ORDER BY ...): the ORDER BY stays after the value
      const orderAt = topLevelWord(toks, i + 2, close, 'ORDER');
      const args = items(toks, i + 2, orderAt < 0 ? close : orderAt);
      // (a bytea, an array or a subquery's row the analysis typed, sql/json-builders.ts: its flag)
      const mark = 'arith' in t && t.arith?.startsWith(JSON_TYPED) ? markFlags(t.arith.slice(JSON_TYPED.length)) : [];
      const out = args.map((a, k) =>
        isBuilderValue(which, k)
          ? this.value(a, i, mark[k])
          : objectKey(t.text, which, this.key(t.text, a, i, k, mark[k] === 'B'), k),
      );
      if (which === 'odd' && args.length % 2 === 1) {
        const err = pgError('22023', 'argument list must have even number of elements');
        err.hint = `The arguments of ${t.text.toLowerCase()}() must consist of alternating keys and values.`;
        throw err;
      }
      if (t.text.toLowerCase() === 'array_to_json' && out.length > 0) {
        this.arrayToJson(i, close, args[0], out[0], out[1]);
        continue;
      }
      const body = out.flatMap((a, k) => (k === 0 ? a : [punct(','), ...a]));
      toks.splice(i + 2, (orderAt < 0 ? close : orderAt) - (i + 2), ...body);
      if (AGGREGATES.has(t.text.toLowerCase())) this.nullWhenEmpty(i);
    }
    return toks;
  }

  /**
   * array_to_json(a [, pretty]) at toks[i]: `value`, its argument made JSON, or the argument itself
   * when its type is not known here (then a JSON array of strings); with pretty, laid out by
   * __pg_array_to_json (a line break between the elements).
   */
  arrayToJson(i: number, close: number, arg: Tok[], value: Tok[], pretty: Tok[] | undefined): void {
    const json = value === arg ? this.array(arg, 's') : value;
    const call = pretty
      ? [word('__pg_array_to_json'), punct('('), ...json, punct(','), ...pretty, punct(')')]
      : [punct('('), ...json, punct(')')];
    this.toks.splice(i, close + 1 - i, ...call);
  }

  /**
   * json_agg over no rows is NULL in PostgreSQL, where SQLite's json_group_array says '[]' (and
   * json_group_object '{}'): the call at toks[i] becomes CASE WHEN count(*) = 0 THEN NULL ELSE ... END,
   * which keeps its value a JSON document. A window call's count(*) is over its window (OVER).
   */
  nullWhenEmpty(i: number): void {
    const toks = this.toks;
    let end = closer(toks, i + 1) + 1;
    const filter: Tok[] = [];
    if (isWord(toks[end], 'FILTER') && isPunct(toks[end + 1], '(')) {
      const c = closer(toks, end + 1);
      filter.push(...toks.slice(end, c + 1));
      end = c + 1;
    }
    // a window call: count(*) over the same window (an empty frame is NULL too)
    if (isWord(toks[end], 'OVER')) {
      const c = isPunct(toks[end + 1], '(') ? closer(toks, end + 1) : end + 1;
      if (c < 0 || c >= toks.length) return;
      filter.push(...toks.slice(end, c + 1));
      end = c + 1;
    }
    const call = toks.slice(i, end);
    toks.splice(
      i,
      end - i,
      punct('('),
      word('CASE'),
      word('WHEN'),
      word('count'),
      punct('('),
      { type: 'op', text: '*' },
      punct(')'),
      ...filter,
      { type: 'op', text: '=' },
      { type: 'number', text: '0' },
      word('THEN'),
      word('NULL'),
      word('ELSE'),
      ...call,
      word('END'),
      punct(')'),
    );
  }
}

/**
 * The type of a subquery's computed column where its tokens tell one that prints otherwise than
 * SQLite's value: a built document (json), a comparison or other boolean (its 1 and 0 are t and f in a
 * record's text, true and false in JSON); null for the rest.
 */
function computedType(expr: Tok[]): string | null {
  if (isJsonExpr(expr)) return 'json';
  const plain = expr.filter((t): t is PgToken => t.type !== 'group');
  return plain.length === expr.length && selectItemType(plain).oid === OID.bool ? 'boolean' : null;
}

/** How __pg_text prints a field of a declared type in a record's text, or null for SQLite's own text. */
function fieldKind(type: string | null): string | null {
  const t = (type ?? '').toLowerCase().trim();
  const base = t.replace(/\(.*$/, '').trim();
  if (base === 'bool' || base === 'boolean') return 'boolout';
  if (base === 'real' || base === 'float4') return 'float4';
  if (FLOAT_TYPES.has(base)) return 'float8';
  if (base === 'date' || base === 'time' || base === 'timestamp' || base === 'timestamptz') return base;
  if (base === 'datetime' || base === 'timestamp without time zone') return 'timestamp';
  if (base === 'timestamp with time zone') return 'timestamptz';
  // (printed anew in the session's IntervalStyle and bytea_output, styledTextKind)
  if (base === 'interval' || base === 'bytea') return base;
  // (a bytea[]'s elements in the escape format under bytea_output escape; they are kept in hex)
  if (/^(bytea|blob)\s*\[\s*\]$/.test(t)) return styledTextKind('byteaarray') === null ? 'array' : 'byteaarray';
  if (/\[\s*\]$/.test(t)) return 'array';
  const chars = /^(?:char|character|bpchar)\s*\(\s*(\d+)\s*\)$/.exec(t);
  if (chars) return `bpchar:${chars[1]}`;
  const scale = /^(?:numeric|decimal)\s*\(\s*\d+\s*,\s*(\d+)\s*\)$/.exec(t);
  return scale ? `numeric:${scale[1]}` : null;
}

/**
 * A select item that is a FROM item's name and no column (`SELECT t FROM t`, `SELECT u, t.id ...`):
 * the whole row as PostgreSQL's record text, `(1,abc,)`, by __pg_record of its columns, each
 * printed as its declared type prints. Its column is named as the FROM item (typed record by
 * sql/expression-types.ts).
 */
export function rewriteWholeRows(toks: Tok[], schema: JsonSchema): Tok[] {
  // first a cheap look: a select item (after SELECT or a comma, before a comma, FROM or AS) named as
  // a word that follows FROM, JOIN or a comma, or the alias after it
  const names = new Set<string>();
  toks.forEach((t, k) => {
    if (isWord(t, 'FROM') || isWord(t, 'JOIN') || isPunct(t, ','))
      for (const x of [toks[k + 1], toks[k + 2], toks[k + 3]]) if (isName(x)) names.add(nameOf(x!));
    // a subquery's alias: `) AS s`, `) s` (a query without FROM puts no name within three tokens)
    const alias = isWord(toks[k + 1], 'AS') ? toks[k + 2] : toks[k + 1];
    if (isPunct(t, ')') && isName(alias)) names.add(nameOf(alias!));
  });
  const maybe = toks.some(
    (t, k) =>
      isName(t) &&
      names.has(nameOf(t)) &&
      (isWord(toks[k - 1], 'SELECT') ||
        isWord(toks[k - 1], 'DISTINCT') ||
        isWord(toks[k - 1], 'ALL') ||
        isPunct(toks[k - 1], ',')) &&
      (isPunct(toks[k + 1], ',') || isWord(toks[k + 1], 'FROM') || isWord(toks[k + 1], 'AS') || isName(toks[k + 1])),
  );
  // (or `t::text`, `(t.*)::text`, `row(t.*)` there)
  const recordText = toks.some(
    (t, k) =>
      isName(t) &&
      names.has(nameOf(t)) &&
      ((isOp(toks[k + 1], '::') && isWord(toks[k + 2], 'TEXT')) ||
        (isPunct(toks[k + 1], '.') && isOp(toks[k + 2], '*') && isPunct(toks[k - 1], '('))),
  );
  if (maybe || recordText) selectItemRows(toks, schema);
  if (toks.some((t) => 'scalarFrom' in t)) scalarReferences(toks, schema);
  return wholeRowTests(toks, schema, names);
}

/** Words an expression may follow (a name after any other word is an alias, `SELECT 1 a`). */
const BEFORE_EXPRESSION = new Set(
  'SELECT DISTINCT ALL WHERE AND OR NOT BY ON THEN ELSE WHEN CASE HAVING RETURNING IS IN BETWEEN LIKE SET'.split(' '),
);

/**
 * The name of a function of one value in FROM read in an expression (`SELECT a + 1 FROM abs(-1)
 * AS a(x)`): its column, `"a"."x"`, where no column of that name comes first (SQLite has no such
 * column as `a`).
 */
function scalarReferences(toks: Tok[], schema: JsonSchema): void {
  const r = new JsonRewriter(toks, schema, true);
  const named = new Set(r.sources.filter((s) => s.scalar && s.cols[0].name !== s.name).map((s) => s.name));
  if (named.size === 0) return;
  for (let k = toks.length - 1; k > 0; k--) {
    const t = toks[k];
    const prev = toks[k - 1];
    const next = toks[k + 1];
    if (!isName(t) || !named.has(nameOf(t)) || isPunct(next, '.') || isPunct(next, '(')) continue;
    const follows = prev.type === 'op' || isPunct(prev, '(') || isPunct(prev, ',') || isPunct(prev, '[');
    if (!follows && !(prev.type === 'word' && BEFORE_EXPRESSION.has(prev.text.toUpperCase()))) continue;
    const source = wholeRowSource(r, toks, k, schema);
    if (source?.scalar) toks.splice(k, 1, ...scalarColumn(source));
  }
}

/** The whole-row select items of rewriteWholeRows, in place. */
function selectItemRows(toks: Tok[], schema: JsonSchema): void {
  const r = new JsonRewriter(toks, schema, true);
  if (r.sources.length === 0) return;
  for (let i = toks.length - 1; i >= 0; i--) {
    if (!isWord(toks[i], 'SELECT')) continue;
    const opener = r.openers(i)[0];
    const levelEnd = opener < 0 ? toks.length : closer(toks, opener);
    if (levelEnd < 0) continue;
    let start = i + 1;
    if (isWord(toks[start], 'ALL')) start++;
    else if (isWord(toks[start], 'DISTINCT'))
      start = isWord(toks[start + 1], 'ON') && isPunct(toks[start + 2], '(') ? closer(toks, start + 2) + 1 : start + 1;
    const fromAt = topLevelWord(toks, start, levelEnd, 'FROM');
    if (fromAt < 0 || !knownFrom(r, fromAt, levelEnd)) continue;
    // the select items' ranges, last first (a replacement leaves earlier ones in place)
    const ranges: [number, number][] = [];
    let depth = 0;
    let a = start;
    for (let k = start; k <= fromAt; k++) {
      if (k === fromAt || (depth === 0 && isPunct(toks[k], ','))) {
        ranges.push([a, k]);
        a = k + 1;
      } else if (isPunct(toks[k], '(') || isPunct(toks[k], '[')) depth++;
      else if (isPunct(toks[k], ')') || isPunct(toks[k], ']')) depth--;
    }
    for (const [x, y] of ranges.reverse()) {
      const n = y - x;
      const form = recordTextForm(toks, x, y);
      if (form) {
        // `t::text`, `(t.*)::text`, `row(t.*)`: the record's text too, named as PostgreSQL names it
        const rest = y - form.end;
        const named =
          rest === 0 || (rest === 2 && isWord(toks[form.end], 'AS')) || (rest === 1 && isName(toks[form.end]));
        const source = named ? itemSource(r, toks, x, form.name, form.star) : undefined;
        if (!source || source.scalar) continue;
        toks.splice(x, form.end - x, ...recordCall(source), ...(rest === 0 ? [word('AS'), quoted(form.as)] : []));
        continue;
      }
      const aliased = (n === 3 && isWord(toks[x + 1], 'AS') && isName(toks[x + 2])) || (n === 2 && isName(toks[x + 1]));
      if (!isName(toks[x]) || !(n === 1 || aliased) || NOT_ALIAS.has(toks[x].text.toUpperCase())) continue;
      if (['TRUE', 'FALSE', 'NULL', 'DEFAULT'].includes(toks[x].text.toUpperCase()) && toks[x].type === 'word')
        continue;
      // PostgreSQL's order, innermost query first: a column of that name, else a FROM item's whole row
      const name = nameOf(toks[x]);
      let source: Source | undefined;
      for (const o of r.openers(x)) {
        const level = r.sources.filter((s) => s.scope === o && !(s.within && s.within[0] <= x && x < s.within[1]));
        if (level.some((s) => s.cols.some((c) => c.name === name))) break;
        source = level.find((s) => s.name === name);
        if (source) break;
      }
      if (!source) continue;
      const value = source.scalar ? scalarColumn(source) : recordCall(source);
      toks.splice(x, 1, ...value, ...(n === 1 ? [word('AS'), quoted(name)] : []));
    }
  }
}

/**
 * A select item (toks[x..y)) that is a FROM item's row as a record or its text: `t::text`,
 * `(t.*)::text`, `row(t.*)`, `row(t.*)::text`. Its FROM item's name, whether it was written `t.*`
 * (then no column of that name comes first), the name PostgreSQL gives the item and the index after
 * the form (an alias may follow); null for any other item.
 */
function recordTextForm(
  toks: Tok[],
  x: number,
  y: number,
): { name: string; star: boolean; as: string; end: number } | null {
  const text = (k: number) => isOp(toks[k], '::') && isWord(toks[k + 1], 'TEXT');
  const starAt = (k: number) =>
    isPunct(toks[k], '(') &&
    isName(toks[k + 1]) &&
    isPunct(toks[k + 2], '.') &&
    isOp(toks[k + 3], '*') &&
    isPunct(toks[k + 4], ')');
  let form: { name: string; star: boolean; as: string; end: number } | null = null;
  if (isName(toks[x]) && text(x + 1)) form = { name: nameOf(toks[x]), star: false, as: nameOf(toks[x]), end: x + 3 };
  else if (starAt(x) && text(x + 5))
    form = { name: nameOf(toks[x + 1]), star: true, as: nameOf(toks[x + 1]), end: x + 7 };
  else if (isWord(toks[x], 'ROW') && starAt(x + 1))
    form = { name: nameOf(toks[x + 2]), star: true, as: 'row', end: text(x + 6) ? x + 8 : x + 6 };
  return form && form.end <= y ? form : null;
}

/**
 * The FROM item a select item at toks[x] names as a whole row, in PostgreSQL's order (innermost
 * query first; there a column of that name comes first unless the item was written `t.*`).
 */
function itemSource(r: JsonRewriter, toks: Tok[], x: number, name: string, star: boolean): Source | undefined {
  for (const o of r.openers(x)) {
    const level = r.sources.filter((s) => s.scope === o && !(s.within && s.within[0] <= x && x < s.within[1]));
    if (!star && level.some((s) => s.cols.some((c) => c.name === name))) return undefined;
    const source = level.find((s) => s.name === name);
    if (source) return source;
  }
  return undefined;
}

/** __pg_record of a FROM item's columns: its row as PostgreSQL's record text, each field as its type prints. */
function recordCall(source: Source): Tok[] {
  const args = source.cols.flatMap((c) => {
    const col = [quoted(source.name), punct('.'), quoted(c.name)];
    const fk = fieldKind(c.type);
    const kind = fk === null ? null : styledTextKind(fk);
    const field = kind
      ? [word('__pg_text'), punct('('), str(zonedTextKind(kind)), punct(','), ...col, punct(')')]
      : col;
    return [punct(','), ...field];
  });
  return [word('__pg_record'), punct('('), ...args.slice(1), punct(')')];
}

/**
 * `count(t)`, `count(DISTINCT t)`, `t IS NULL` and `t IS NOT NULL` of a FROM item's whole row: PostgreSQL counts the rows
 * where the row is not NULL (a row a LEFT JOIN did not match is), and a row IS NULL when every
 * field is, IS NOT NULL when none is. Over the columns: count(CASE WHEN a IS NOT NULL OR ... THEN 1
 * END), (a IS NULL AND b IS NULL ...). A row of a table has its NOT NULL primary key, so one with
 * a field set is one the join matched.
 */
function wholeRowTests(toks: Tok[], schema: JsonSchema, names: Set<string>): Tok[] {
  const at: number[] = [];
  const whole = (k: number) =>
    isName(toks[k]) && names.has(nameOf(toks[k])) && !isPunct(toks[k - 1], '.') && !isPunct(toks[k + 1], '.');
  toks.forEach((t, k) => {
    if (!whole(k)) return;
    const counted = countOf(toks, k) !== null;
    if (counted || nullTest(toks, k + 1) > 0 || ((comparison(toks[k + 1]) || ordering(toks[k + 1])) && whole(k + 2)))
      at.push(k);
  });
  if (at.length === 0) return toks;
  const r = new JsonRewriter(toks, schema, true);
  // (before any replacement moves the tokens the sources' positions are of)
  const nullable = new Set(r.sources.filter((s) => mayBeNulled(toks, s)));
  for (const k of at.reverse()) {
    const source = wholeRowSource(r, toks, k, schema);
    if (!source) continue;
    if (source.scalar) {
      toks.splice(k, 1, ...scalarColumn(source));
      continue;
    }
    if (ordering(toks[k + 1])) {
      // t < u of whole rows of one shape: field by field (PostgreSQL's record_cmp)
      const other = wholeRowSource(r, toks, k + 2, schema);
      const compared = other && recordOrder(toks[k + 1].text, source, other);
      if (compared) toks.splice(k, 3, ...nullRows(nullable, source, other, compared));
      continue;
    }
    if (comparison(toks[k + 1])) {
      // t = u, t <> u of whole rows: their record texts, two NULL fields equal (PostgreSQL's record_eq)
      const other = wholeRowSource(r, toks, k + 2, schema);
      if (!other) continue;
      const not = !isOp(toks[k + 1], '=');
      const unlike = recordEqual(source, other);
      const compared: Tok[] = unlike
        ? [{ type: 'group', text: not ? `(NOT ${unlike})` : unlike } as Tok]
        : [
            punct('('),
            ...recordCall(source),
            word('IS'),
            ...(not ? [word('NOT')] : []),
            ...recordCall(other),
            punct(')'),
          ];
      toks.splice(k, 3, ...nullRows(nullable, source, other, compared));
      continue;
    }
    const field = (c: Column, test: Tok[]) => [quoted(source.name), punct('.'), quoted(c.name), ...test];
    const isNull = [word('IS'), word('NULL')];
    const notNull = [word('IS'), word('NOT'), word('NULL')];
    const joined = (test: Tok[], op: string) =>
      source.cols.flatMap((c, n) => (n === 0 ? field(c, test) : [word(op), ...field(c, test)]));
    const width = nullTest(toks, k + 1);
    if (width === 0) {
      // count(t): the rows with a field set; count(DISTINCT t): their distinct record texts. A
      // subquery's or WITH query's row whose fields are all NULL is still a row (not NULL): where no
      // outer join can make it NULL, every row counts
      const value = countOf(toks, k) === 'distinct' ? recordCall(source) : [{ type: 'number', text: '1' } as Tok];
      const kept = source.within ? !nullExtended(toks, source) : source.withQuery && !nullable.has(source);
      if (kept) toks.splice(k, 1, ...value);
      else toks.splice(k, 1, word('CASE'), word('WHEN'), ...joined(notNull, 'OR'), word('THEN'), ...value, word('END'));
    } else {
      toks.splice(k, 1 + width, punct('('), ...joined(width === 2 ? isNull : notNull, 'AND'), punct(')'));
    }
  }
  return toks;
}

/** `=`, `<>` or `!=`. */
const comparison = (t: Tok | undefined) => isOp(t, '=') || isOp(t, '<>') || isOp(t, '!=');
/** `<`, `<=`, `>` or `>=`. */
const ordering = (t: Tok | undefined) => isOp(t, '<') || isOp(t, '<=') || isOp(t, '>') || isOp(t, '>=');

/** The declared type of a column as this file compares them. */
const declared = (c: Column) => (c.type ?? '').toLowerCase().replace(/\s+/g, ' ').trim();

/** PostgreSQL's name of a declared type, as its errors print it (format_type_be: no modifiers). */
function pgTypeName(decl: string): string {
  const array = /\[\s*\]$/.test(decl);
  const base = decl.replace(/\[\s*\]$/, '').trim();
  const names: Record<number, string> = {
    [OID.int8]: 'bigint',
    [OID.int4]: 'integer',
    [OID.int2]: 'smallint',
    [OID.bool]: 'boolean',
    [OID.float8]: 'double precision',
    [OID.float4]: 'real',
    [OID.varchar]: 'character varying',
    [OID.bpchar]: 'character',
    [OID.timestamp]: 'timestamp without time zone',
    [OID.timestamptz]: 'timestamp with time zone',
  };
  const oid = oidOfDeclType(base);
  const name = names[oid] ?? base.replace(/\(.*$/, '').trim();
  return array ? `${name}[]` : name;
}

/**
 * Where PostgreSQL's record_eq / record_cmp of two rows stops with an error, field by field: the
 * first position whose declared types differ (42804 `cannot compare dissimilar column types`), or
 * hold json (42883: json has no equality or order); past the last field of one, rows of different
 * widths (42804). The position and the
 * raise, or null when the rows compare to the end; undefined when a type is not known here.
 */
function recordStop(a: Source, b: Source, ordering: boolean): { at: number; raise: string } | null | undefined {
  const n = Math.min(a.cols.length, b.cols.length);
  const raise = (code: string, message: string) => `__pg_raise('${code}', '${message.replace(/'/g, "''")}')`;
  for (let i = 0; i < n; i++) {
    const [x, y] = [declared(a.cols[i]), declared(b.cols[i])];
    if (!x || !y) return undefined;
    if (pgTypeName(x) !== pgTypeName(y))
      return {
        at: i,
        raise: raise(
          '42804',
          `cannot compare dissimilar column types ${pgTypeName(x)} and ${pgTypeName(y)} at record column ${i + 1}`,
        ),
      };
    if (/^json$/.test(pgTypeName(x)))
      return {
        at: i,
        raise: raise(
          '42883',
          `could not identify ${ordering ? 'a comparison function' : 'an equality operator'} for type json`,
        ),
      };
  }
  if (a.cols.length !== b.cols.length)
    return { at: n, raise: raise('42804', 'cannot compare record types with different numbers of columns') };
  return null;
}

/** A quoted column of a source. */
const fieldOf = (s: Source, n: number) => `"${s.name.replace(/"/g, '""')}"."${s.cols[n].name.replace(/"/g, '""')}"`;

/**
 * `a = b` of whole rows that record_eq stops on (another shape, a json field): equal fields (two
 * NULLs equal) up to where it stops, its error there; false at the first unequal field before.
 * Undefined when the rows compare to the end (record texts compare them) or a type is not known.
 */
function recordEqual(a: Source, b: Source): string | undefined {
  const stop = recordStop(a, b, false);
  if (!stop) return undefined;
  const whens: string[] = [];
  for (let i = 0; i < stop.at; i++) whens.push(`WHEN ${fieldOf(a, i)} IS NOT ${fieldOf(b, i)} THEN 0`);
  return `(CASE ${whens.join(' ')} ${whens.length ? 'ELSE' : 'WHEN 1 THEN'} ${stop.raise} END)`;
}

/**
 * The comparison of two whole rows, NULL when either is a row an outer join did not match (every
 * field NULL on a side an outer join may null: PostgreSQL's row is then NULL, and so the comparison).
 */
function nullRows(nullable: Set<Source>, a: Source, b: Source, compared: Tok[]): Tok[] {
  const nulled = [a, b].filter((s, n) => (n === 0 || s !== a) && nullable.has(s));
  if (nulled.length === 0) return compared;
  const test = nulled.map((s) => `(${s.cols.map((_, n) => `${fieldOf(s, n)} IS NULL`).join(' AND ')})`).join(' OR ');
  return [
    punct('('),
    { type: 'group', text: `CASE WHEN ${test} THEN NULL ELSE` } as Tok,
    ...compared,
    word('END'),
    punct(')'),
  ];
}

/** Whether an outer join may make a FROM item's row NULL: a subquery after LEFT or FULL JOIN, or any item of a query level with an outer join. */
function mayBeNulled(toks: Tok[], s: Source): boolean {
  if (s.cols.length === 0) return false;
  if (s.within) return nullExtended(toks, s);
  const end = s.scope < 0 ? toks.length : closer(toks, s.scope);
  let depth = 0;
  for (let k = s.scope + 1; k < end; k++) {
    if (isPunct(toks[k], '(')) depth++;
    else if (isPunct(toks[k], ')')) depth--;
    else if (depth === 0 && (isWord(toks[k], 'LEFT') || isWord(toks[k], 'RIGHT') || isWord(toks[k], 'FULL')))
      return true;
  }
  return false;
}

/**
 * `a op b` of two whole rows whose columns have the same declared types, as PostgreSQL's record_cmp
 * orders them: field by field, the first unequal one decides, a NULL field after any value and two
 * NULLs equal (so never NULL); an interval by its length, an array of numbers, booleans or text by
 * its elements, a jsonb field by jsonb's order; rows of other shapes or with a json field up to
 * where record_cmp stops with its error (recordStop). Undefined (the reference stays, refused) when
 * a field's type is not known here.
 */
function recordOrder(op: string, a: Source, b: Source): Tok[] | undefined {
  const types = a.cols.map(declared);
  // where record_cmp stops with an error (another type, a json field, another width): raised there
  const stop = a.cols.length === 0 ? undefined : recordStop(a, b, true);
  if (stop === undefined) return undefined;
  const width = stop ? stop.at : types.length;
  const key = (s: Source, n: number) => {
    const col = `"${s.name.replace(/"/g, '""')}"."${s.cols[n].name.replace(/"/g, '""')}"`;
    const t = types[n];
    const array = /\[\s*\]$/.test(t);
    if (array && /^(numeric|decimal|bool)/.test(t))
      return `__pg_array_sortkey('${/^bool/.test(t) ? 'boolean' : 'numeric'}', ${col})`;
    if (array && /^((big|small)?int|real|float|double)/.test(t)) return `__pg_array_sortkey('numeric', ${col})`;
    if (array && /^(text|varchar|character varying|char)/.test(t)) return `__pg_array_sortkey('text', ${col})`;
    if (!array && /interval/.test(t)) return `__pg_interval_key(${col})`;
    return col;
  };
  // a jsonb field by jsonb's order (__pg_jsonb_cmp: -1, 0, 1, a NULL after any value)
  const jsonb = types.map((t) => t === 'jsonb');
  const stepwise = stop !== null || jsonb.some((j) => j);
  // x < y over the fields from n on
  const less = (x: Source, y: Source, n: number): string => {
    if (n === width) return stop ? stop.raise : '0';
    const [l, r] = [key(x, n), key(y, n)];
    if (jsonb[n]) {
      const c = `__pg_jsonb_cmp(${l}, ${r})`;
      return `(CASE WHEN ${c} = 0 THEN ${less(x, y, n + 1)} ELSE ${c} < 0 END)`;
    }
    const here = `(CASE WHEN ${l} IS NULL THEN 0 WHEN ${r} IS NULL THEN 1 ELSE ${l} < ${r} END)`;
    if (stepwise) return `(CASE WHEN ${l} IS ${r} THEN ${less(x, y, n + 1)} ELSE ${here} END)`;
    return n + 1 === width ? here : `(${here} OR (${l} IS ${r} AND ${less(x, y, n + 1)}))`;
  };
  const text =
    op === '<'
      ? less(a, b, 0)
      : op === '>'
        ? less(b, a, 0)
        : op === '<='
          ? `NOT ${less(b, a, 0)}`
          : `NOT ${less(a, b, 0)}`;
  return [{ type: 'group', text: `(${text})` } as Tok];
}

/**
 * Whether an outer join may make a subquery's row NULL: it follows LEFT or FULL JOIN, or its query
 * level has a RIGHT or FULL JOIN (which side is not worked out here).
 */
function nullExtended(toks: Tok[], s: Source): boolean {
  let p = s.within![0] - 2; // the word before its '('
  if (isWord(toks[p], 'JOIN')) {
    p--;
    if (isWord(toks[p], 'OUTER')) p--;
    if (isWord(toks[p], 'LEFT') || isWord(toks[p], 'FULL')) return true;
  }
  const end = s.scope < 0 ? toks.length : closer(toks, s.scope);
  let depth = 0;
  for (let k = s.scope + 1; k < end; k++) {
    if (isPunct(toks[k], '(')) depth++;
    else if (isPunct(toks[k], ')')) depth--;
    else if (depth === 0 && (isWord(toks[k], 'RIGHT') || isWord(toks[k], 'FULL'))) return true;
  }
  return false;
}

/** Whether toks[k] is the argument of count(k) ('plain') or count(DISTINCT k) ('distinct'), else null. */
function countOf(toks: Tok[], k: number): 'plain' | 'distinct' | null {
  if (!isPunct(toks[k + 1], ')')) return null;
  if (isWord(toks[k - 2], 'COUNT') && isPunct(toks[k - 1], '(')) return 'plain';
  return isWord(toks[k - 3], 'COUNT') && isPunct(toks[k - 2], '(') && isWord(toks[k - 1], 'DISTINCT')
    ? 'distinct'
    : null;
}

/** The number of tokens of `IS NULL` (2) or `IS NOT NULL` (3) at toks[i], else 0. */
function nullTest(toks: Tok[], i: number): number {
  if (!isWord(toks[i], 'IS')) return 0;
  if (isWord(toks[i + 1], 'NULL')) return 2;
  return isWord(toks[i + 1], 'NOT') && isWord(toks[i + 2], 'NULL') ? 3 : 0;
}

/**
 * The FROM item whose whole row the name at toks[k] is, in PostgreSQL's order (innermost query
 * first, a column of that name before a FROM item); undefined when it is a column, or when its
 * query's FROM list holds something whose columns are not known here.
 */
function wholeRowSource(r: JsonRewriter, toks: Tok[], k: number, schema: JsonSchema): Source | undefined {
  const name = nameOf(toks[k]);
  for (const o of r.openers(k)) {
    const level = r.sources.filter((s) => s.scope === o && !(s.within && s.within[0] <= k && k < s.within[1]));
    if (level.some((s) => s.cols.some((c) => c.name === name))) return undefined;
    const source = level.find((s) => s.name === name);
    if (!source) continue;
    const end = o < 0 ? toks.length : closer(toks, o);
    const start = levelSelect(toks, o + 1, k);
    if (start < 0 || end < 0) return undefined;
    const fromAt = topLevelWord(toks, start + 1, end, 'FROM');
    return fromAt >= 0 && knownFrom(r, fromAt, end) ? source : undefined;
  }
  return undefined;
}

/** The last SELECT in toks[from, k) outside parentheses (after a WITH clause's queries), else -1. */
function levelSelect(toks: Tok[], from: number, k: number): number {
  let depth = 0;
  let at = -1;
  for (let i = from; i < k; i++) {
    if (isPunct(toks[i], '(')) depth++;
    else if (isPunct(toks[i], ')')) depth--;
    else if (depth === 0 && isWord(toks[i], 'SELECT')) at = i;
  }
  return at;
}

/**
 * Whether each item of the FROM list at toks[from] is a schema table, a subquery or a WITH query
 * whose columns are known: a function's columns are not known here, and one of them may be the
 * name a select item means.
 */
function knownFrom(r: JsonRewriter, from: number, to: number): boolean {
  const { toks, schema } = r;
  let depth = 0;
  for (let k = from; k < to; k++) {
    const t = toks[k];
    if (isPunct(t, '(')) depth++;
    else if (isPunct(t, ')')) depth--;
    if (depth !== 0) continue;
    if (t.type === 'word' && FROM_ENDS.has(t.text.toUpperCase()) && k > from) return true;
    if (!(isWord(t, 'FROM') || isWord(t, 'JOIN') || isPunct(t, ','))) continue;
    let j = k + 1;
    if (isWord(toks[j], 'LATERAL')) return false;
    if ((isWord(toks[j], 'PUBLIC') || toks[j]?.text === '"public"') && isPunct(toks[j + 1], '.')) j += 2;
    if (isPunct(toks[j], '(')) {
      if (!isWord(toks[j + 1], 'SELECT')) return false; // VALUES, a join in parentheses
    } else if (
      !isName(toks[j]) ||
      isPunct(toks[j + 1], '(') ||
      isPunct(toks[j + 1], '.') ||
      !(schema.columns(nameOf(toks[j])) || r.withNames.has(nameOf(toks[j])))
    )
      return false;
  }
  return true;
}

/**
 * A json[] or jsonb[] value as a JSON array of its elements' own text (`type`: `json` as stored,
 * `jsonb` as jsonb prints it), marked for __pg_json_layout to print as it is.
 */
const keptJsonArray = (e: Tok[], type: string): Tok[] => [
  word('__pg_json_verbatim'),
  punct('('),
  word('__pg_json_array'),
  punct('('),
  ...e,
  punct(','),
  str(type),
  punct(')'),
  punct(')'),
];

/**
 * A numeric as JSON at its display scale (`scale` digits after the point, '' for the value's own
 * text: an exact avg's, '=' a stored double's own digits, `2;1+0` given by a parameter as bound, PARAM_SCALE;
 * src/engine/pg-json-numbers.ts).
 */
const numeric = (e: Tok[], scale: string): Tok[] => [
  word('json'),
  punct('('),
  word(scale.includes(';') ? '__pg_json_numeric_least' : '__pg_json_numeric'),
  punct('('),
  ...e,
  punct(','),
  scale.includes(';')
    ? str(PARAM_SCALE + scale)
    : { type: 'number', text: scale === '' ? '-1' : scale === '=' ? '-2' : scale },
  punct(')'),
  punct(')'),
];

/**
 * A json_build_object key (an even argument, `which` 'odd'): a string literal as it is, anything else
 * its text through __pg_json_key (a number's digits; NULL PostgreSQL's 22023), as SQLite's
 * json_object takes only text labels (a number was 42000).
 */
function objectKey(builder: string, which: string | number, a: Tok[], k: number): Tok[] {
  if (which !== 'odd' || (a.length === 1 && a[0].type === 'string')) return a;
  return [
    word('__pg_json_key'),
    punct('('),
    ...a,
    punct(','),
    num(k + 1),
    punct(','),
    num(/^jsonb/i.test(builder) ? 1 : 0),
    punct(')'),
  ];
}

/** The session's bytea_output, as __pg_json_bytea_array and __pg_json_blob take it. */
const byteaStyle = () => (styledTextKind('bytea') === 'bytea' ? 'hex' : 'escape');

/** Rewrites the value arguments of PostgreSQL's JSON builders (see the top of this file). */
export function rewriteJsonValues(toks: Tok[], schema: JsonSchema): Tok[] {
  if (!toks.some((t) => t.type === 'word' && BUILDERS[t.text.toLowerCase()] !== undefined)) return toks;
  return new JsonRewriter(toks, schema, true).rewrite();
}

/** Declared types of doubles, whose JSON is PostgreSQL's float text. */
const FLOAT_TYPES = new Set(['real', 'float', 'float4', 'float8', 'double', 'double precision']);
