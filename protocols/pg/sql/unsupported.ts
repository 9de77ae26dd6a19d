// PostgreSQL constructs with no SQLite translation. When SQLite refuses a translated statement, its
// PostgreSQL parse tree is searched for them, so the client gets 0A000 (feature_not_supported)
// naming what it wrote, rather than SQLite's `near "ON": syntax error` about text it never sent;
// text PostgreSQL does not parse gets its parser's 42601 instead.
import type { PgToken } from './lexer';
import { parseTree } from './parse';
import { SET_OPERATION_WIDTHS } from './set-operation-refusals';
import { ordinalityTranslated } from './translate/ordinality';
import { PgError, pgError, pgErrorAt } from '../sqlstate';
import type { PatinaError } from '../../../src/errors';
import { lookup } from '../../../src/lookup';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

/** Text search's functions Patina has not (src/engine/text-search/ has the rest). */
const TEXT_SEARCH_MISSING = new Set(
  'ts_stat ts_debug ts_lexize ts_parse ts_token_type get_current_ts_config'.split(' '),
);
const TEXT_SEARCH_HAS =
  'Patina has to_tsvector, json(b)_to_tsvector, the to_tsquery functions, @@, ts_rank, ts_rank_cd, ts_headline, ts_rewrite, setweight, strip, ts_delete, ts_filter, numnode, querytree and length';

const GROUPING: Record<string, string> = lookup({
  GROUPING_SET_ROLLUP: 'GROUP BY ROLLUP',
  GROUPING_SET_CUBE: 'GROUP BY CUBE',
  GROUPING_SET_SETS: 'GROUP BY GROUPING SETS',
});

/** PostgreSQL's own refusal of a data-modifying WITH query inside a query. */
const NOT_AT_TOP = 'WITH clause containing a data-modifying statement must be at the top level';

/** The first construct of the tree with no translation (`what|hint`); null when none. */
function find(n: Node): string | null {
  if (Array.isArray(n)) {
    for (const x of n) {
      const f = find(x);
      if (f) return f;
    }
    return null;
  }
  if (n === null || typeof n !== 'object') return null;
  const s = n.SelectStmt;
  if (s?.limitOption === 'LIMIT_OPTION_WITH_TIES')
    // (translate/with-ties.ts runs the others)
    return 'FETCH FIRST ... WITH TIES of a subquery selecting * that names the query around it, or of a set operation, SELECT DISTINCT or SELECT DISTINCT ON ordered by other than its result columns|rank() OVER (ORDER BY ...) <= n in a subquery gives the same rows';
  if (s?.distinctClause?.some((d: Node) => Object.keys(d).length > 0)) return 'SELECT DISTINCT ON';
  if (s?.all && (s.op === 'SETOP_INTERSECT' || s.op === 'SETOP_EXCEPT'))
    return `${s.op === 'SETOP_INTERSECT' ? 'INTERSECT' : 'EXCEPT'} ALL|SQLite has only the set forms (without ALL)`;
  if (n.A_Expr?.kind === 'AEXPR_BETWEEN_SYM' || n.A_Expr?.kind === 'AEXPR_NOT_BETWEEN_SYM')
    return 'BETWEEN SYMMETRIC|write x BETWEEN least(a, b) AND greatest(a, b)';
  if (n.FuncCall?.args?.some((a: Node) => a.RowExpr)) return 'a row value (record) as a function argument';
  // (`(t.*)::text` as a select item is the record's text: translate/json-values.ts)
  const starCast = n.TypeCast?.arg?.ColumnRef?.fields;
  if (starCast?.at(-1)?.A_Star && starCast.length === 2)
    return `a whole row cast ((${starCast[0].String?.sval}.*)::...) other than a select item's ::text|name its columns`;
  if (n.GroupingSet) return GROUPING[n.GroupingSet.kind] ?? 'GROUPING SETS';
  // `(x).name`, `(q.x).*`, `(t.*).name`: a field of a row value (SQLite's `near ".": syntax error`)
  // (a function's record, `(json_each(doc)).key`, has its own answers)
  if (n.A_Indirection?.arg?.ColumnRef && n.A_Indirection.indirection?.some((x: Node) => x.String || x.A_Star))
    return 'selecting a field of a row value ((x).name or (x).*)|name the column itself (t.name), or select it inside the subquery';
  if (n.FuncCall?.funcname?.at(-1)?.String?.sval === 'pg_export_snapshot')
    return "exporting a snapshot (pg_export_snapshot())|each of Patina's reads takes its own snapshot of the SQLite file, which another session cannot share (pg_dump: leave out -j)";
  if (n.RangeTableSample) return 'TABLESAMPLE';
  const fn = n.FuncCall?.funcname?.at(-1)?.String?.sval;
  if (fn && TEXT_SEARCH_MISSING.has(fn)) return `the text search function ${fn}|${TEXT_SEARCH_HAS}`;
  if (n.RangeFunction?.ordinality) {
    // (ordinality.ts translates it for one call of the set-returning functions it names)
    const calls = (n.RangeFunction.functions ?? []).map((f: Node) => (f.List?.items ?? f)[0]?.FuncCall);
    const names = calls.map((c: Node) => c?.funcname?.map((p: Node) => p.String?.sval).join('.') ?? '?');
    const schema = calls[0]?.funcname?.length > 1 ? calls[0].funcname[0].String?.sval : 'pg_catalog';
    if (names.length !== 1 || schema !== 'pg_catalog' || !ordinalityTranslated(names[0].replace(/^.*\./, '')))
      return `WITH ORDINALITY of ${names.length === 1 ? `${names[0]}(...)` : 'ROWS FROM (...)'}|Patina numbers the rows of unnest, generate_series, regexp_split_to_table and the json and jsonb set-returning functions`;
  }
  if (n.RangeSubselect?.lateral || n.RangeFunction?.lateral)
    return 'a LATERAL subquery selecting * (or its x.* inside an expression)|name its columns';
  if (n.MergeStmt) return 'MERGE';
  if (n.CommonTableExpr) {
    const q = n.CommonTableExpr.ctequery;
    // (one at the statement's top runs: sql/modifying-with.ts)
    if (q?.InsertStmt || q?.UpdateStmt || q?.DeleteStmt) return NOT_AT_TOP;
  }
  if (n.FuncCall?.agg_within_group && !translatedWithinGroup(n.FuncCall)) return 'WITHIN GROUP';
  for (const k of Object.keys(n)) {
    const f = find(n[k]);
    if (f) return f;
  }
  return null;
}

/**
 * PostgreSQL's own answer when the translation or SQLite refused a statement: its parser's syntax
 * error (42601, PostgreSQL's words) when the text does not parse, 0A000 naming a construct with
 * no translation, else the error itself.
 */
/** The WITHIN GROUP forms translate/ordered-set.ts writes: the percentiles, mode and hypothetical-set aggregates of one key. */
function translatedWithinGroup(f: Node): boolean {
  const name = f.funcname?.[f.funcname.length - 1]?.String?.sval?.toLowerCase() ?? '';
  if (f.agg_order?.length !== 1) return false;
  if (['percentile_cont', 'percentile_disc', 'mode'].includes(name)) return true;
  return ['rank', 'dense_rank', 'percent_rank', 'cume_dist'].includes(name) && f.args?.length === 1;
}

export function explainRefusal(sql: string, err: unknown, tokens?: readonly PgToken[]): unknown {
  // the translation's own refusal (0A000 naming the case, 42P10) already says what is wrong
  const state = (err as { sqlstate?: string } | null)?.sqlstate;
  if (state === '0A000' || state === '42P10') return err;
  // (so does a literal's input error the analysis found, `SELECT id ... EXCEPT ALL SELECT 'x'`:
  // PostgreSQL's answer before any construct Patina may not run)
  if (err instanceof PgError && state?.startsWith('22')) return err;
  // (queries of a set operation of different widths: PostgreSQL's 42601 there, sqlite-refusals.ts)
  if (SET_OPERATION_WIDTHS.test((err as Error | null)?.message ?? '')) return err;
  let tree: Node;
  try {
    tree = parseTree(sql);
  } catch (parseErr) {
    // only the parser's refusals carry sqlDetails (not, say, a module not loaded)
    return syntaxError(sql, parseErr, tokens) ?? err;
  }
  // lastval() with no sequence: Patina has none, so no nextval() has run in the session; PostgreSQL's
  // answer there (PDO's lastInsertId() without a sequence name calls it and reports the SQLSTATE)
  if (/no such function: lastval$/i.test((err as Error | null)?.message ?? ''))
    return pgError('55000', 'lastval is not yet defined in this session');
  // tableoid left as it was written (translate/table-oids.ts makes a table's a constant): no table
  // of the statement has it (a subquery's, a WITH query's, a view's rows), as in PostgreSQL
  const tableoid = /no such column: (?:("?[^".\s]+"?)\.)?"?tableoid"?(?:$|\s)/i.exec(
    (err as Error | null)?.message ?? '',
  );
  if (tableoid)
    return pgError(
      '42703',
      tableoid[1] ? `column ${tableoid[1]}.tableoid does not exist` : 'column "tableoid" does not exist',
    );
  // a system column PostgreSQL's tables have and Patina's rows do not: xmin and the rest are
  // transaction ids, ctid a place in the heap, which SQLite keeps no equal of (a constant xmin
  // would make an ORM's optimistic lock on it pass whatever another writer did)
  const system = /no such column: (?:"?[^".\s]+"?\.)?"?(xmin|xmax|cmin|cmax|ctid)"?(?:$|\s)/i.exec(
    (err as Error | null)?.message ?? '',
  )?.[1];
  if (system)
    return pgError(
      '0A000',
      `system column "${system.toLowerCase()}" is not supported: Patina's rows carry no transaction ids, heap positions (use the primary key, or a version column for optimistic locking)`,
    );
  const missingRelation = namedAsWritten((err as Error | null)?.message ?? '', tree.stmts);
  if (missingRelation) return missingRelation;
  // SQLite's `no such table: f` for a function called in FROM that the translation did not make a
  // one-row table (translate/scalar-from.ts) nor a set-returning one
  const table = /no such table: (?:main\.)?(?:__pg_)?(\w+)$/
    .exec((err as Error | null)?.message ?? '')?.[1]
    ?.toLowerCase();
  // (a text search function Patina has not, ts_stat's rows, is named as in the select list)
  if (table !== undefined && TEXT_SEARCH_MISSING.has(table) && fromFunctionNames(tree.stmts, new Set()).has(table))
    return pgError('0A000', `the text search function ${table} is not supported: ${TEXT_SEARCH_HAS}`);
  if (table !== undefined && fromFunctionNames(tree.stmts, new Set()).has(table))
    return pgError(
      '42883',
      `function ${table}(...) does not exist as a function in FROM: Patina has no such set-returning function, and runs only some scalar ones there (call it in the select list: SELECT ${table}(...))`,
    );
  // SQLite's `no such column: t` for a FROM item's name: a whole-row reference where no
  // translation makes one (a cast, an aggregate but count, in a scalar subquery, of a function or VALUES)
  const missing = /no such column: ("?)([^".\s]+)\1$/.exec((err as Error | null)?.message ?? '')?.[2]?.toLowerCase();
  const whole = missing !== undefined && relationNames(tree.stmts, new Set()).has(missing);
  const found = whole
    ? `a whole-row reference (${missing}) other than a select item, count(${missing}), IS [NOT] NULL or a comparison of rows, over tables, subqueries and WITH queries|name its columns (${missing}.* or ${missing}.column)`
    : find(tree.stmts ?? []);
  if (!found) return err;
  // a grouping set the translation made (translate/grouping-sets.ts) over a column no table has:
  // SQLite's no such column is the answer, PostgreSQL's 42703 (it was 0A000 naming the ROLLUP)
  if (missing !== undefined && !whole && found.startsWith('GROUP BY ')) return err;
  if (found === NOT_AT_TOP) return pgError('0A000', found);
  const [what, hint] = found.split('|');
  return pgError('0A000', `${what} is not supported${hint ? `: ${hint}` : ''}`);
}

/**
 * SQLite's `no such table` and `no such column` in PostgreSQL's words where they need the statement
 * as written: a table named with its schema is `relation "public.nope"` (the translation drops the
 * schema), an UPDATE's SET column the relation lacks is `column "x" of relation "t"`; else null.
 */
function namedAsWritten(message: string, stmts: Node): unknown {
  const table = /^no such table: (?:main\.)?(\S+)$/.exec(message)?.[1];
  if (table !== undefined) {
    const rel = qualifiedRelation(stmts, table.toLowerCase());
    return rel ? pgError('42P01', `relation "${rel.schemaname}.${rel.relname}" does not exist`) : null;
  }
  const column = /^no such column: ("?)([^".\s]+)\1$/.exec(message)?.[2];
  const update = stmts?.length === 1 ? stmts[0].stmt?.UpdateStmt : undefined;
  if (column === undefined || !update) return null;
  const set = (update.targetList ?? []).some(
    (t: Node) => String(t.ResTarget?.name).toLowerCase() === column.toLowerCase(),
  );
  return set ? pgError('42703', `column "${column}" of relation "${update.relation.relname}" does not exist`) : null;
}

/** The first RangeVar of the tree that names `name` with a schema. */
function qualifiedRelation(n: Node, name: string): { schemaname: string; relname: string } | null {
  if (n === null || typeof n !== 'object') return null;
  if (Array.isArray(n)) {
    for (const x of n) {
      const r = qualifiedRelation(x, name);
      if (r) return r;
    }
    return null;
  }
  const rv = n.RangeVar ?? (n.relation?.relname ? n.relation : null);
  if (rv?.schemaname && String(rv.relname).toLowerCase() === name) return rv;
  for (const k in n) {
    const r = qualifiedRelation(n[k], name);
    if (r) return r;
  }
  return null;
}

/** The names FROM items and WITH queries take in the tree (tables, aliases). */
function relationNames(n: Node, out: Set<string>): Set<string> {
  if (n === null || typeof n !== 'object') return out;
  if (Array.isArray(n)) for (const x of n) relationNames(x, out);
  else {
    const name = n.RangeVar?.alias?.aliasname ?? n.RangeVar?.relname ?? n.CommonTableExpr?.ctename;
    const alias = n.RangeSubselect?.alias?.aliasname ?? n.RangeFunction?.alias?.aliasname;
    for (const x of [name, alias]) if (x) out.add(String(x).toLowerCase());
    for (const k in n) relationNames(n[k], out);
  }
  return out;
}

/** The names of the functions called as FROM items in the tree (lower case, without a schema). */
function fromFunctionNames(n: Node, out: Set<string>): Set<string> {
  if (n === null || typeof n !== 'object') return out;
  if (Array.isArray(n)) for (const x of n) fromFunctionNames(x, out);
  else {
    for (const f of n.RangeFunction?.functions ?? []) {
      const call = (f.List?.items ?? f)[0]?.FuncCall;
      const name = call?.funcname?.at(-1)?.String?.sval;
      if (name) out.add(String(name).toLowerCase());
    }
    for (const k in n) fromFunctionNames(n[k], out);
  }
  return out;
}

/**
 * PostgreSQL's 42601 for a text its parser refused, with the position its scanner gives (psql's
 * `LINE 1:` and the caret under `FRM`), or null when `err` is no refusal of the parser's. `sql` is
 * the statement's `tokens` joined by single spaces when they are given (the analysis reads that
 * text): the position is then taken back to the statement as written, its tokens joined as they came.
 */
export function syntaxError(sql: string, err: unknown, tokens?: readonly PgToken[]): PatinaError | null {
  const details = (err as { sqlDetails?: { cursorPosition?: number; fileName?: string } } | null)?.sqlDetails;
  if (!details) return null;
  const message = (err as Error).message;
  const code = scannerCode(message, details.fileName);
  // (the encoding's refusal has no position)
  if (code === '22021') return pgError(code, message);
  const chars = details.cursorPosition;
  if (typeof chars !== 'number' || chars < 0) return withHint(pgError(code ?? '42601', message));
  // (the parser counts characters; the position is carried as an index into the JS string)
  let at = [...sql].slice(0, chars).join('').length;
  if (tokens) {
    let inText = 0;
    let written = 0;
    for (const t of tokens) {
      if (at <= inText + t.text.length) break;
      inText += t.text.length + 1;
      written += t.text.length;
    }
    at = written + Math.max(0, at - inText);
  }
  return withHint(pgErrorAt(code ?? '42601', message, at));
}

/**
 * The SQLSTATE of a refusal by PostgreSQL's scanner that is no syntax error: an E'' string of
 * bytes that are no UTF-8 (E'\\0', E'\\377') is 22021, a short \\u escape in one 22025 (a U&''
 * string's is 42601, from the parser).
 */
function scannerCode(message: string, file: string | undefined): string | null {
  if (message.startsWith('invalid byte sequence for encoding')) return '22021';
  if (message === 'invalid Unicode escape' && file === 'scan.l') return '22025';
  return null;
}

/** The HINTs PostgreSQL's grammar gives with its refusals (the parser's error carries none). */
const SYNTAX_HINTS: Record<string, string> = lookup({
  'LIMIT #,# syntax is not supported': 'Use separate LIMIT and OFFSET clauses.',
});

function withHint(err: PatinaError): PatinaError {
  const hint = SYNTAX_HINTS[err.message];
  if (hint && err instanceof PgError) err.hint = hint;
  return err;
}
