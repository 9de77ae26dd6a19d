"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.Analyzer = void 0;
exports.positionalSql = positionalSql;
// Statement analysis: one statement's tokens → its kind, its SQLite form, its parameter types and
// its result columns (Analyzed), kept per session by statement text so that a repeated Parse or a
// simple query differing only in literals is analysed once.
const classify_1 = require("../../../src/engine/classify");
const lru_1 = require("../../../src/lru");
const log_1 = require("../../../src/observability/log");
const lock_table_1 = require("../catalog/lock-table");
const maintenance_1 = require("../catalog/maintenance");
const settings_1 = require("../session/settings");
const sqlstate_1 = require("../sqlstate");
const statement_counts_1 = require("../statement-counts");
const oids_1 = require("../types/oids");
const analyze_commands_1 = require("./analyze-commands");
const lexer_1 = require("./lexer");
const local_statements_1 = require("./local-statements");
const array_assignments_1 = require("./array-assignments");
const param_types_1 = require("./param-types");
const scalar_subqueries_1 = require("./scalar-subqueries");
const json_layout_1 = require("./json-layout");
const param_tree_types_1 = require("./param-tree-types");
const result_columns_1 = require("./result-columns");
const result_types_1 = require("./result-types");
const select_list_1 = require("./select-list");
const select_types_1 = require("./select-types");
const schema_facts_1 = require("./schema-facts");
const statement_kind_1 = require("./statement-kind");
const locking_1 = require("./translate/locking");
const upsert_rows_1 = require("./upsert-rows");
const translate_1 = require("./translate/translate");
const typed_operators_1 = require("./typed-operators");
const typed_operators_hint_1 = require("./typed-operators-hint");
const tokens_1 = require("./tokens");
const unsupported_1 = require("./unsupported");
const grouping_1 = require("./grouping");
/** Analyses a session keeps by statement text. */
const ANALYSES = 256;
/** Analyses statements for one session, against the engine's schema (re-read when it reloads). */
class Analyzer {
    #engine;
    #local;
    #dialect;
    /** Analyses by statement text (Parse of an unnamed statement repeats it for every query). */
    #analyses = new lru_1.Lru(ANALYSES);
    #analysesSchema = null;
    constructor(engine, local, facts) {
        this.#engine = engine;
        this.#local = local;
        this.#dialect = {
            user: facts.user,
            database: facts.database,
            version: facts.version,
            columnType: (table, column) => (0, schema_facts_1.columnType)(this.#engine.schema, table, column),
            columns: (table) => this.#engine.schema.tables.get(table)?.columns ?? null,
            notNull: (column) => (0, schema_facts_1.notNullEverywhere)(this.#engine.schema, column),
            selectWidth: (query) => this.#selectColumns(query)?.length ?? null,
            selectColumns: (query) => this.#selectColumns(query),
        };
    }
    /** The column names of a query (INSERT ... SELECT's, an aliased subquery's), from SQLite's prepared statement; null when it does not prepare. */
    #selectColumns(query) {
        try {
            const sql = (0, translate_1.translate)(query, this.#dialect, false);
            let st;
            try {
                st = this.#local.prepare(sql);
            }
            catch {
                st = this.#engine.writer.prepare(sql);
            }
            return st.reader ? st.columns().map((c) => c.name) : null;
        }
        catch {
            return null;
        }
    }
    /**
     * The analysis stored under `key`, or a new one from `tokens()` (kept unless the schema reloaded
     * since: a `SELECT *` may have gained columns). Errors are not kept.
     */
    cached(key, tokens, declaredTypes = []) {
        if (this.#analysesSchema !== this.#engine.schema) {
            this.#analyses.clear();
            this.#analysesSchema = this.#engine.schema;
        }
        let an = this.#analyses.get(key);
        if (an) {
            statement_counts_1.analysisCounts.hits++;
            return an;
        }
        statement_counts_1.analysisCounts.misses++;
        an = this.analyze(tokens(), declaredTypes);
        this.#analyses.set(key, an);
        return an;
    }
    /**
     * The tokens with each date or time operator and `^` marked with what it computes (from the parse
     * tree and the schema), for translate/typed-arithmetic.ts; the tokens themselves when the
     * statement has none. `text` is the tokens joined by spaces, the text the tree's offsets are in.
     */
    #markTypedOperators(sig, tokens, text, declared) {
        const schema = this.#engine.schema;
        const dated = (0, schema_facts_1.datedColumns)(schema);
        if (!(0, typed_operators_hint_1.mayHaveTypedOperators)(sig, (c) => dated.get(c) ?? null))
            return tokens;
        const found = (0, typed_operators_1.typedOperators)(text, schema, declared);
        if (!found || found.size === 0)
            return tokens;
        const out = tokens.slice();
        let at = 0; // byte offset of out[i] in text
        for (let i = 0; i < out.length; i++) {
            const kind = found.get(at);
            if (kind !== undefined &&
                (kind === 'num-order' ||
                    (kind === 'numx-lit' && out[i].type === 'number') ||
                    ((kind === 'num-fn-col' || kind === 'num-fn' || kind === 'num-pow' || kind === 'numx-abs') &&
                        out[i].type === 'word') ||
                    (kind === 'stat-x' && out[i].type === 'word') ||
                    out[i].type === 'op' ||
                    out[i].type === 'string' ||
                    (0, tokens_1.isWord)(out[i], 'CAST') ||
                    (0, tokens_1.isWord)(out[i], 'AT') ||
                    (0, tokens_1.isWord)(out[i], 'ROUND') ||
                    (0, tokens_1.isWord)(out[i], 'AVG') ||
                    (0, tokens_1.isWord)(out[i], 'EXTRACT') ||
                    (0, tokens_1.isWord)(out[i], 'SUM') ||
                    (0, tokens_1.isWord)(out[i], 'MIN') ||
                    (0, tokens_1.isWord)(out[i], 'TIMEZONE') ||
                    (0, tokens_1.isWord)(out[i], 'BETWEEN') ||
                    (0, tokens_1.isWord)(out[i], 'IN') ||
                    (0, tokens_1.isWord)(out[i], 'NOT') ||
                    (0, tokens_1.isWord)(out[i], 'MAX') ||
                    (0, tokens_1.isWord)(out[i], 'TO_CHAR') ||
                    (0, tokens_1.isWord)(out[i], 'PG_TYPEOF') ||
                    (0, tokens_1.isWord)(out[i], 'CONCAT') ||
                    (0, tokens_1.isWord)(out[i], 'CONCAT_WS') ||
                    (0, tokens_1.isWord)(out[i], 'FORMAT') ||
                    (0, tokens_1.isWord)(out[i], 'ARRAY_POSITION') ||
                    (0, tokens_1.isWord)(out[i], 'ARRAY_REPLACE') ||
                    (0, tokens_1.isWord)(out[i], 'ARRAY_REMOVE')))
                out[i] = { ...out[i], arith: kind };
            const sortKey = found.get((0, typed_operators_1.orderMarkKey)(at));
            if (sortKey !== undefined)
                out[i] = { ...out[i], sortKey };
            at += Buffer.byteLength(out[i].text) + 1;
        }
        return out;
    }
    /** Understands one statement: its kind, its SQLite form, its columns and parameter types. */
    analyze(tokens, declaredTypes = []) {
        const sig = tokens.filter((t) => t.type !== 'space' && t.type !== 'comment');
        const base = { sql: '', local: false, readonly: true, columns: null, paramTypes: [] };
        if (sig.length === 0)
            return { ...base, kind: 'empty', command: '' };
        const w = (i) => (sig[i] && sig[i].type === 'word' ? sig[i].text.toUpperCase() : '');
        const kw = w(0);
        switch (kw) {
            case 'BEGIN':
            case 'START': {
                // BEGIN READ ONLY / READ WRITE: the transaction's mode (the session's default otherwise)
                const mode = (0, settings_1.readMode)(sig);
                return {
                    ...base,
                    kind: 'begin',
                    command: kw === 'START' ? 'START TRANSACTION' : 'BEGIN',
                    ...(mode ? { setting: { name: 'transaction_read_only', value: mode } } : {}),
                };
            }
            case 'COMMIT':
            case 'END':
                return { ...base, kind: 'commit', command: 'COMMIT' };
            case 'ROLLBACK':
            case 'ABORT':
                if (w(1) === 'TO' || ((w(1) === 'TRANSACTION' || w(1) === 'WORK') && w(2) === 'TO'))
                    return {
                        ...base,
                        kind: 'savepoint',
                        command: 'ROLLBACK',
                        sql: sig
                            .map((t) => t.text)
                            .join(' ')
                            .replace(/^ABORT/i, 'ROLLBACK'),
                    };
                return { ...base, kind: 'rollback', command: 'ROLLBACK' };
            case 'SAVEPOINT':
            case 'RELEASE':
                return { ...base, kind: 'savepoint', command: kw, sql: sig.map((t) => t.text).join(' ') };
            case 'SET':
            case 'RESET':
                return { ...base, kind: 'set', command: kw, setting: (0, settings_1.parseSet)(sig) };
            case 'SHOW': {
                const name = sig
                    .slice(1)
                    .map((t) => (0, lexer_1.identName)(t))
                    .join(' ')
                    .replace(/^transaction isolation level$/, 'transaction_isolation')
                    .replace(/^time zone$/, 'timezone');
                return {
                    ...base,
                    kind: 'show',
                    command: 'SHOW',
                    columns: name === 'all'
                        ? [
                            { name: 'name', declType: 'text' },
                            { name: 'setting', declType: 'text' },
                            { name: 'description', declType: 'text' },
                        ]
                        : [{ name: GUC_COLUMN_NAMES[name] ?? name, declType: 'text' }],
                    setting: { name, value: null },
                };
            }
            case 'LISTEN':
            case 'UNLISTEN': {
                if (!sig[1])
                    throw (0, sqlstate_1.pgError)('42601', `syntax error at end of input: ${kw} needs a channel name`);
                return {
                    ...base,
                    kind: kw === 'LISTEN' ? 'listen' : 'unlisten',
                    command: kw,
                    channel: { name: sig[1].text === '*' ? null : (0, lexer_1.identName)(sig[1]), payload: '' },
                };
            }
            case 'NOTIFY': {
                if (!sig[1] || (sig[1].type !== 'word' && sig[1].type !== 'quoted'))
                    throw (0, sqlstate_1.pgError)('42601', 'syntax error: NOTIFY needs a channel name');
                let payload = '';
                if (sig[2]?.text === ',') {
                    if (sig[3]?.type !== 'string' || sig.length > 4)
                        throw (0, sqlstate_1.pgError)('42601', `syntax error at or near "${sig[3]?.text ?? 'end of input'}": NOTIFY's payload is a string literal`);
                    payload = sig[3].text.slice(1, -1).split("''").join("'");
                }
                else if (sig.length > 2)
                    throw (0, sqlstate_1.pgError)('42601', `syntax error at or near "${sig[2].text}"`);
                if (Buffer.byteLength(payload) >= 8000)
                    throw (0, sqlstate_1.pgError)('22023', 'payload string too long');
                return { ...base, kind: 'notify', command: 'NOTIFY', channel: { name: (0, lexer_1.identName)(sig[1]), payload } };
            }
            case 'COPY':
                return (0, analyze_commands_1.analyzeCopy)(sig, tokens, this.#engine.schema, this);
            case 'DECLARE':
                return (0, analyze_commands_1.analyzeDeclare)(sig, tokens, declaredTypes, this);
            case 'FETCH':
            case 'MOVE':
                return (0, analyze_commands_1.analyzeFetch)(sig, kw === 'MOVE');
            case 'CLOSE': {
                const all = w(1) === 'ALL';
                if (!sig[1])
                    throw (0, sqlstate_1.pgError)('42601', 'syntax error at end of input: CLOSE needs a cursor name');
                return {
                    ...base,
                    kind: 'close-cursor',
                    command: all ? 'CLOSE CURSOR ALL' : 'CLOSE CURSOR',
                    cursor: { name: all ? null : (0, lexer_1.identName)(sig[1]) },
                };
            }
            case 'TRUNCATE':
                return (0, analyze_commands_1.analyzeTruncate)(sig, this.#engine.schema);
            case 'EXPLAIN':
                return (0, analyze_commands_1.analyzeExplain)(sig, tokens, declaredTypes, this);
            case 'LOCK':
                return { ...base, kind: 'noop', command: (0, lock_table_1.lockTable)(sig) };
            case 'PREPARE':
            case 'EXECUTE':
                // (PREPARE TRANSACTION, two-phase commit, likewise)
                throw (0, sqlstate_1.pgError)('0A000', `${kw} in SQL is not supported: prepare statements with the protocol (Parse/Bind/Execute), as every driver's prepared statements do`);
            case 'ANALYZE':
            case 'ANALYSE':
            case 'VACUUM':
                return { ...base, kind: 'noop', command: (0, maintenance_1.maintenance)(tokens.map((t) => t.text).join(''), this.#engine.schema) };
            case 'DISCARD':
            case 'DEALLOCATE':
            case 'CHECKPOINT':
                return {
                    ...base,
                    kind: 'noop',
                    command: kw === 'DISCARD' ? `DISCARD ${w(1) || 'ALL'}` : kw,
                    setting: { name: sig[sig.length - 1] ? (0, lexer_1.identName)(sig[sig.length - 1]) : '', value: null },
                };
        }
        (0, classify_1.checkReach)(tokens.map((t) => t.text).join(''), 'statement'); // every statement, catalog and FROM-less ones too
        const notify = (0, analyze_commands_1.pgNotifyCall)(sig);
        if (notify)
            return {
                ...base,
                kind: 'notify',
                command: 'SELECT',
                columns: [{ name: 'pg_notify', declType: 'text' }],
                paramTypes: new Array((0, lexer_1.maxParam)(sig)).fill(oids_1.OID.text),
                channel: notify,
            };
        // (a write runs on the writer even when it reads unnest or generate_series, which every connection has)
        const text = tokens.map((t) => t.text).join(' '); // lifted literals come without spaces
        // a statement that does not begin with its command (WITH ... UPDATE, a query in parentheses): the tree's
        let command = kw === 'WITH' || kw === '' ? ((0, statement_kind_1.statementCommand)(text) ?? (kw || 'SELECT')) : kw;
        if (command === 'VALUES' || command === 'TABLE')
            command = 'SELECT';
        if (command === 'REPLACE')
            command = 'INSERT';
        const write = WRITES.has(command);
        const local = !write && ((0, local_statements_1.catalogRelations)(sig) || ((kw === 'SELECT' || kw === 'VALUES') && (0, local_statements_1.hasNoFrom)(sig)));
        // a column outside the groups of a grouped query is PostgreSQL's 42803 (SQLite took any row's)
        // (and `o.v` is looked for only in the innermost FROM naming o, 42703 when that lacks v)
        const grouping = !local && (0, grouping_1.mayGroup)(sig);
        const guards = grouping || (!local && (0, grouping_1.mayNestAliases)(sig)) ? (0, grouping_1.checkGrouping)(text, this.#engine.schema, grouping) : [];
        // a scalar subquery of more than one row is PostgreSQL's 21000 (SQLite took the first row)
        if (!local && (0, scalar_subqueries_1.maySubquery)(sig))
            for (const at of (0, scalar_subqueries_1.manyRowScalars)(text, this.#engine.schema))
                if (!guards.includes(at))
                    guards.push(at);
        // a value of another type written into an array column is PostgreSQL's 42804 (ARRAY['1'] into bigint[])
        if ((command === 'INSERT' || command === 'UPDATE') && (0, array_assignments_1.mayAssignArrays)(sig, this.#engine.schema))
            (0, array_assignments_1.checkArrayAssignments)(text, this.#engine.schema, declaredTypes);
        let sql;
        try {
            const marked = this.#markTypedOperators(sig, tokens, text, declaredTypes);
            const guarded = guards.length > 0 ? markAt(marked, guards, 'one-row') : marked;
            // `*` over a USING or NATURAL join spreads the merged columns first, as PostgreSQL does
            const stars = !local && mayJoinUsing(sig) ? (0, select_types_1.usingStarLists)(text, this.#engine.schema) : null;
            // a json builder's text has PostgreSQL's spacing where it leaves the statement
            const layouts = (0, json_layout_1.mayBuildJson)(sig) ? (0, json_layout_1.jsonLayouts)(text) : null;
            sql = (0, translate_1.translate)(stars?.size || layouts?.size ? edited(guarded, stars, layouts) : guarded, this.#dialect, local);
        }
        catch (err) {
            throw (0, unsupported_1.explainRefusal)(text, err);
        }
        const nParams = Math.max((0, lexer_1.maxParam)(sig), declaredTypes.length);
        // from the parse tree where it tells (declared types kept), then from the tokens
        const fromTree = nParams > 0 && declaredTypes.filter((d) => d).length < nParams
            ? (0, param_tree_types_1.treeParamTypes)(text, this.#engine.schema, nParams, declaredTypes)
            : null;
        const paramTypes = (0, param_types_1.inferParamTypes)(sig, this.#engine.schema, nParams, fromTree ?? declaredTypes);
        let st;
        try {
            st = this.#local.prepare(sql);
        }
        catch (err) {
            if (!local && /no such function: patina_/.test(err.message))
                st = this.#engine.writer.prepare(sql);
            else if (local && (0, local_statements_1.catalogRelations)(sig, true)) {
                // (a catalog relation Patina does not model; a query of user tables that fails is an error)
                log_1.log.debug({ ...(0, log_1.errorFields)(err), sql }, 'catalog query answered with no rows');
                return {
                    kind: 'sql',
                    command,
                    sql,
                    local,
                    readonly: true,
                    columns: (0, result_columns_1.selectListNames)(tokens).map((name) => ({ name, declType: 'text' })),
                    paramTypes,
                    empty: true,
                };
            }
            else
                throw (0, unsupported_1.explainRefusal)(text, err);
        }
        let columns = null;
        if (st.reader) {
            const cols = st.columns();
            const items = kw === 'SELECT' ? (0, select_list_1.selectListTypes)(sig) : null;
            const typed = items && items.length === cols.length ? items : null;
            // PostgreSQL's parse tree types what SQLite cannot declare (aggregates, functions, CASE)
            const returning = WRITES.has(command) && sig.some((t) => (0, tokens_1.isWord)(t, 'RETURNING'));
            const tree = command === 'SELECT' || returning ? (0, result_types_1.cachedResultColumns)(text, this.#engine.schema) : null;
            const parsed = tree && tree.length === cols.length ? tree : null;
            columns = cols.map((c, i) => {
                const t = typed?.[i];
                const p = parsed?.[i];
                // a set operation's column is typed by all its branches (SQLite declares the first one's)
                const declType = p?.setop ? null : c.type;
                return {
                    name: p?.name ?? t?.name ?? (0, result_columns_1.pgColumnName)(c.name, sql),
                    declType,
                    oid: declType ? 0 : p?.oid || (p?.setop ? 0 : t?.oid || (0, result_columns_1.expressionOid)(c.name, paramTypes)),
                    ...(p?.typmod !== undefined ? { typmod: p.typmod } : {}),
                    ...(p?.scale !== undefined && !declType ? { scale: p.scale } : {}),
                    ...(p?.scaleIsMinimum && !declType ? { scaleIsMinimum: true } : {}),
                    ...(p?.scaleParams?.length && !declType ? { scaleParams: p.scaleParams } : {}),
                };
            });
        }
        const positional = st.readonly && !local ? positionalSql(sql, paramTypes.length) : undefined;
        // a multi-row upsert: its rows' keys, which must not repeat (PostgreSQL's 21000)
        const upsert = command === 'INSERT' && sig.some((t) => (0, tokens_1.isWord)(t, 'CONFLICT')) ? (0, upsert_rows_1.upsertKeys)(text, this.#engine.schema) : null;
        const scaleParams = [...new Set(columns?.flatMap((c) => c.scaleParams ?? []) ?? [])].map((k) => k - 1);
        return {
            kind: 'sql',
            command,
            sql,
            local,
            readonly: st.readonly,
            columns,
            paramTypes,
            positional,
            ...(scaleParams.length > 0 ? { scaleParams } : {}),
            ...(upsert ? { upsertKeys: upsert } : {}),
            ...(command === 'SELECT' && (0, locking_1.hasLockingClause)(sig) ? { locks: true } : {}),
        };
    }
}
exports.Analyzer = Analyzer;
/**
 * The SQL with $1..$n replaced by `?` when they appear each once, in order, and are all the
 * statement's parameters (so the list of values binds by position as it binds by name); else undefined.
 */
function positionalSql(sql, params) {
    if (params === 0)
        return undefined;
    let next = 1;
    let text = '';
    let same = '';
    for (const t of (0, lexer_1.lexPg)(sql)) {
        same += t.text;
        if (t.type !== 'param')
            text += t.text;
        else if (t.text !== `$${next++}`)
            return undefined;
        else
            text += '?';
    }
    // every parameter used, and the tokens are the whole text (nothing the lexer left out)
    return next === params + 1 && same === sql ? text : undefined;
}
const WRITES = new Set(['INSERT', 'UPDATE', 'DELETE']);
/** SHOW's column is the setting's own name, in its case (`SHOW timezone` answers a column TimeZone). */
const GUC_COLUMN_NAMES = {
    timezone: 'TimeZone',
    datestyle: 'DateStyle',
    intervalstyle: 'IntervalStyle',
};
/** Whether the tokens may hold a `*` over a USING or NATURAL join: a cheap test before parsing. */
function mayJoinUsing(sig) {
    return (sig.some((t) => t.type === 'op' && t.text === '*') && sig.some((t) => (0, tokens_1.isWord)(t, 'USING') || (0, tokens_1.isWord)(t, 'NATURAL')));
}
/**
 * The tokens with the one at each byte offset of `stars` (in the tokens joined by spaces) replaced by
 * the tokens of its text, and the expressions at the offsets of `layouts` wrapped in __pg_json_layout.
 */
function edited(tokens, stars, layouts) {
    const before = new Map();
    const after = new Map();
    if (layouts?.size)
        (0, json_layout_1.jsonLayoutEdits)(tokens, layouts, before, after);
    let offset = 0;
    const out = [];
    for (let i = 0; i < tokens.length; i++) {
        const star = stars?.get(offset);
        offset += Buffer.byteLength(tokens[i].text) + 1;
        out.push(...(before.get(i) ?? []), ...(star !== undefined ? (0, lexer_1.lexPg)(star) : [tokens[i]]), ...(after.get(i) ?? []));
    }
    return out;
}
/** The tokens with those at the byte offsets `at` (in the tokens joined by spaces) marked `kind`. */
function markAt(tokens, at, kind) {
    const out = tokens.slice();
    let offset = 0;
    for (let i = 0; i < out.length; i++) {
        if (at.includes(offset))
            out[i] = { ...out[i], arith: kind };
        offset += Buffer.byteLength(out[i].text) + 1;
    }
    return out;
}
//# sourceMappingURL=analyze.js.map