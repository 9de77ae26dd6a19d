"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.markExactColumns = markExactColumns;
// Result columns computed exactly: a numeric division, avg, stddev or variance, extract(epoch ...)
// that is a column of the statement's own SELECT (src/engine/pg-exact-division.ts gives PostgreSQL's digits, as text).
const oids_1 = require("../types/oids");
const numeric_scale_1 = require("./numeric-scale");
const type_signatures_1 = require("./type-signatures");
const typed_operators_hint_1 = require("./typed-operators-hint");
const typed_operators_1 = require("./typed-operators");
/** 'avg-x' or 'stat-x' for avg, stddev or variance of integers or numerics; undefined for anything else. */
function exactAggregate(v, t) {
    const f = v?.FuncCall;
    if (!f || f.agg_star || f.args?.length !== 1)
        return undefined;
    const bare = (0, type_signatures_1.strings)(f.funcname)
        .join('.')
        .toLowerCase()
        .replace(/^pg_catalog\./, '');
    const a = t.type(f.args[0]);
    if (!type_signatures_1.INTS.has(a) && a !== oids_1.OID.numeric)
        return undefined;
    return bare === 'avg' ? 'avg-x' : typed_operators_hint_1.EXACT_STATISTICS.has(bare) ? 'stat-x' : undefined;
}
/**
 * Whether `l / r` of these operand types is numeric's division: one numeric, the other a numeric, an
 * integer or an untyped parameter (0), which PostgreSQL takes as the other's type.
 */
function numericDivision(l, r) {
    const fits = (x) => x === oids_1.OID.numeric || x === 0 || type_signatures_1.INTS.has(x);
    return (l === oids_1.OID.numeric && fits(r)) || (fits(l) && r === oids_1.OID.numeric);
}
/** An operand's type; a parameter's the client declared, 0 for one it did not (PostgreSQL infers it from the other operand). */
function typeOf(n, t, declared) {
    return n?.ParamRef ? (declared[n.ParamRef.number - 1] ?? 0) : t.type(n);
}
/**
 * `+`, `-`, `*` and a numeric `/` over exact aggregates, integers, number literals and numerics
 * (`stddev(x) * 2`, `avg(q) + 1`, `avg(n) * n`, `sum(n) / count(*) * 2`), with one exact aggregate or
 * division at least: computed exactly too ('numx+', ... on the operators, 'numx-lit' on a decimal
 * literal, which goes as text to keep its digits). An operator's mark carries the scale of each
 * operand that is a numeric of known scale and no exact part itself ('numx*:2:' for `avg(x) * n` of a
 * numeric(10,2) n), at which translate/typed-arithmetic.ts hands it over (its value is a double or
 * an integer in SQLite: `12.5` of n is 12.50 to PostgreSQL). Null for any other expression.
 */
function exactTree(v, t, declared) {
    const marks = [];
    let exact = 0;
    // a numeric operand that holds no exact part: its scale, '' when not known (its value's own digits)
    const scaleMark = (n) => {
        if (n?.A_Const || type_signatures_1.INTS.has(t.type(n)))
            return '';
        const s = (0, numeric_scale_1.scaleOf)(t, n);
        return s === undefined ? '' : String(s);
    };
    const visit = (n) => {
        const e = n?.A_Expr;
        const op = e?.kind === 'AEXPR_OP' && e.lexpr && e.rexpr ? (0, type_signatures_1.strings)(e.name).pop() : undefined;
        const division = op === '/' && numericDivision(typeOf(e.lexpr, t, declared), typeOf(e.rexpr, t, declared));
        if (op === '+' || op === '-' || op === '*' || division) {
            if (op === '/')
                exact++;
            const mark = [e.location, `numx${op}`];
            marks.push(mark);
            const before = marks.length;
            if (!visit(e.lexpr))
                return false;
            const left = marks.length === before ? scaleMark(e.lexpr) : '';
            const middle = marks.length;
            if (!visit(e.rexpr))
                return false;
            const right = marks.length === middle ? scaleMark(e.rexpr) : '';
            if (left || right)
                mark[1] += `:${left}:${right}`;
            return true;
        }
        if (e?.kind === 'AEXPR_OP' && !e.lexpr && (0, type_signatures_1.strings)(e.name).pop() === '-') {
            // a sign: exact when what it negates has an exact part (`-avg(x) * 2`), as it is otherwise
            const before = marks.length;
            if (!visit(e.rexpr))
                return false;
            if (marks.length > before)
                marks.push([e.location, 'numx-neg']);
            return true;
        }
        const f = n?.FuncCall;
        if (f?.args?.length === 1 && !f.over && (0, type_signatures_1.strings)(f.funcname).pop()?.toLowerCase() === 'abs') {
            // abs of what has an exact part (`abs(avg(x) - x)`), exactly; as it is otherwise
            const before = marks.length;
            if (!visit(f.args[0]))
                return false;
            if (marks.length > before)
                marks.push([f.location, 'numx-abs']);
            return true;
        }
        if (isExactEpoch(n, t)) {
            exact++;
            marks.push([n.FuncCall.location, 'epoch-x']);
            return true;
        }
        const agg = exactAggregate(n, t);
        if (agg) {
            exact++;
            marks.push([n.FuncCall.location, agg]);
            return true;
        }
        if (n?.A_Const?.fval) {
            // (a negative one starts at its sign, an exponent has no digits to keep: not these)
            const text = String(n.A_Const.fval.fval);
            if (/e|^-/i.test(text))
                return false;
            marks.push([n.A_Const.location, 'numx-lit']);
            return true;
        }
        const type = typeOf(n, t, declared);
        return type_signatures_1.INTS.has(type) || type === oids_1.OID.numeric || (type === 0 && n?.ParamRef !== undefined);
    };
    return visit(v) && exact > 0 && marks.some(([, k]) => k.startsWith('numx') && k !== 'numx-lit') ? marks : null;
}
/**
 * extract(epoch from x) of a timestamp, timestamptz or interval: a numeric of microseconds' digits
 * in PostgreSQL, more digits than a double holds far from 1970 ('-62135596799.999999').
 */
function isExactEpoch(v, t) {
    const f = v?.FuncCall;
    if (!f || (0, type_signatures_1.strings)(f.funcname).pop()?.toLowerCase() !== 'extract' || f.args?.length !== 2)
        return false;
    if (String(f.args[0]?.A_Const?.sval?.sval ?? '').toLowerCase() !== 'epoch')
        return false;
    const a = t.type(f.args[1]);
    return a === oids_1.OID.timestamp || a === oids_1.OID.timestamptz || a === oids_1.OID.interval;
}
/** round(x, n) or trunc(x, n) with n a constant (also of one argument). */
function isRound(v) {
    const f = v?.FuncCall;
    const fn = f ? (0, type_signatures_1.strings)(f.funcname).pop()?.toLowerCase() : undefined;
    return (fn === 'round' || fn === 'trunc') && (f.args?.length === 1 || f.args?.[1]?.A_Const?.ival !== undefined);
}
/** PostgreSQL's name of a select item without an alias, as far as this module needs it. */
function itemName(r) {
    if (r?.name)
        return r.name;
    const v = r?.val;
    if (v?.ColumnRef)
        return (0, type_signatures_1.strings)(v.ColumnRef.fields).pop() ?? '?column?';
    if (v?.FuncCall)
        return (0, type_signatures_1.strings)(v.FuncCall.funcname).pop() ?? '?column?';
    return '?column?';
}
/**
 * A result column of the statement's own SELECT that is a numeric division, avg, stddev or variance
 * of integers or numerics itself, or a tree of them (exactTree), also under DISTINCT: 'num/x',
 * 'avg-x' and 'stat-x', computed exactly and handed to
 * the client as text (src/engine/pg-exact-division.ts, pg-exact-statistics.ts), with PostgreSQL's digits. An ORDER BY naming such a column
 * by its alias sorts by its number ('num-order': SQLite would sort the text); one naming it by
 * position ('num-order:name' on the position) by the item's name, which an item without an alias is
 * given ('num-alias:name' on its first token: PostgreSQL's own name for it, `avg`, `?column?`). Where
 * that name would not be the item's alone (another item, or a column of the schema, has it) the
 * column stays a double, as it does in a set operation. A SELECT that only passes a subquery's
 * columns on keeps the subquery's exact (markPassedThrough). The names of the exact columns.
 */
function markExactColumns(s, typerOf, out, declared = []) {
    const exact = new Set();
    // (SELECT DISTINCT compares the texts, which for one number are one text: exact values of equal
    // numbers carry the same scale; DISTINCT ON picks rows by its keys, which are not marked)
    if (s?.op === 'SETOP_UNION' && s.all)
        return markUnionAll(s, typerOf, out, declared);
    if (!s?.targetList || (s.op && s.op !== 'SETOP_NONE'))
        return exact;
    const inner = passedThrough(s);
    if (inner)
        return markPassedThrough(s, inner, typerOf, out, declared);
    const joined = joinedThrough(s);
    if (joined)
        return markJoinedThrough(s, joined, typerOf, out, declared);
    const t = typerOf(s);
    const distinctOn = s.distinctClause?.some((k) => Object.keys(k).length > 0);
    const sorts = (s.sortClause ?? []).map((x) => x.SortBy?.node);
    const names = s.targetList.map((item) => itemName(item.ResTarget).toLowerCase());
    s.targetList.forEach((item, k) => {
        const v = item.ResTarget?.val;
        const name = item.ResTarget?.name;
        if (!v)
            return;
        const byPosition = sorts.filter((n) => (n?.A_Const?.ival?.ival ?? (n?.A_Const?.ival ? 0 : -1)) === k + 1);
        // the name ORDER BY k sorts by: PostgreSQL's, unless another item or a column has it (SQLite
        // would take that), then one of its own (the client sees the name the parse tree gives)
        let own = itemName(item.ResTarget);
        const taken = (x) => names.filter((y) => y === x.toLowerCase()).length > 1 ||
            [...t.schema.tables.values()].some((tb) => tb.columns.some((c) => c.name.toLowerCase() === x.toLowerCase()));
        // (DISTINCT ON's rewrite reads its ORDER BY positions itself: such an item stays as it was)
        if (byPosition.length > 0 && distinctOn)
            return;
        if (byPosition.length > 0 && taken(own)) {
            if (name)
                return;
            own = `__pg_exact_${k + 1}`;
        }
        const e = v.A_Expr;
        let marks = null;
        if (e?.kind === 'AEXPR_OP' && e.lexpr && e.rexpr && (0, type_signatures_1.strings)(e.name).pop() === '/') {
            if (numericDivision(typeOf(e.lexpr, t, declared), typeOf(e.rexpr, t, declared)))
                marks = [
                    [e.location, 'num/x'],
                    // extract(epoch ...) divided: its exact digits (`extract(epoch from d) / 60`)
                    ...[e.lexpr, e.rexpr]
                        .filter((x) => isExactEpoch(x, t))
                        .map((x) => [x.FuncCall.location, 'epoch-x']),
                ];
        }
        else if (isExactEpoch(v, t))
            marks = [[v.FuncCall.location, 'epoch-x']];
        else if (exactAggregate(v, t))
            marks = [[v.FuncCall.location, exactAggregate(v, t)]];
        else if (isRound(v)) {
            // round(stddev(x), 2): rounds the exact value (its double could round the other way)
            const arg = v.FuncCall.args[0];
            marks = exactAggregate(arg, t) ? [[arg.FuncCall.location, exactAggregate(arg, t)]] : exactTree(arg, t, declared);
        }
        else
            marks = exactTree(v, t, declared);
        if (!marks)
            return;
        // an unnamed avg is named avg in PostgreSQL and avg(x) in SQLite: ORDER BY avg stays as it was
        const byName = sorts.filter((n) => n?.ColumnRef?.fields?.length === 1);
        const called = (0, type_signatures_1.strings)(v.FuncCall?.funcname ?? []).pop();
        if (!name && called && byName.some((n) => (0, type_signatures_1.strings)(n.ColumnRef.fields)[0] === called))
            return;
        for (const [at, kind] of marks)
            out.set(at, kind);
        exact.add(itemName(item.ResTarget).toLowerCase());
        for (const n of byName)
            if ((0, type_signatures_1.strings)(n.ColumnRef.fields)[0] === name)
                out.set(n.ColumnRef.location, 'num-order');
        if (byPosition.length === 0)
            return;
        if (!name)
            out.set((0, typed_operators_1.orderMarkKey)(item.ResTarget.location), `num-alias:${own}`);
        for (const n of byPosition)
            out.set((0, typed_operators_1.orderMarkKey)(n.A_Const.location), `num-order:${own}`);
    });
    return exact;
}
/**
 * The subquery a SELECT passes on as it is (`SELECT * FROM (...) s`, `SELECT a, b FROM (...) s`, a
 * WHERE, ORDER BY and LIMIT of its own): its one FROM item, a subquery of no WITH clause, and no
 * grouping, DISTINCT or window; undefined for any other SELECT.
 */
function passedThrough(s) {
    const from = s.fromClause?.length === 1 ? s.fromClause[0].RangeSubselect : undefined;
    // (an alias naming the columns, `AS s(q, a)`, renames them: not these)
    const inner = from && !from.lateral && !from.alias?.colnames ? from.subquery?.SelectStmt : undefined;
    if (!inner || inner.withClause || s.groupClause || s.havingClause || s.distinctClause || s.windowClause)
        return;
    const plain = s.targetList.every((x) => x.ResTarget?.val?.ColumnRef);
    return plain ? inner : undefined;
}
/** The column names a tree refers to (the last field of each reference), outside subqueries. */
function namesIn(n, into) {
    if (n === null || typeof n !== 'object')
        return into;
    if (Array.isArray(n)) {
        for (const x of n)
            namesIn(x, into);
        return into;
    }
    const last = n.ColumnRef?.fields?.[n.ColumnRef.fields.length - 1];
    if (last?.String)
        into.add(String(last.String.sval).toLowerCase());
    for (const k in n)
        if (k !== 'location')
            namesIn(n[k], into);
    return into;
}
/** The column references of a tree outside its subqueries. */
function refsIn(n, into) {
    if (n === null || typeof n !== 'object')
        return into;
    if (Array.isArray(n)) {
        for (const x of n)
            refsIn(x, into);
        return into;
    }
    if (n.SubLink || n.SelectStmt)
        return into;
    if (n.ColumnRef)
        into.push(n.ColumnRef);
    for (const k in n)
        if (k !== 'location')
            refsIn(n[k], into);
    return into;
}
/** The names the subqueries of a tree refer to. */
function namesInSubqueries(n, into) {
    if (n === null || typeof n !== 'object')
        return into;
    if (Array.isArray(n)) {
        for (const x of n)
            namesInSubqueries(x, into);
        return into;
    }
    if (n.SubLink || n.SelectStmt)
        return namesIn(n, into);
    for (const k in n)
        if (k !== 'location')
            namesInSubqueries(n[k], into);
    return into;
}
/**
 * A SELECT that passes a subquery's columns on: the subquery's exact columns stay exact through it
 * when it hands them on, compares them by their bare name in its WHERE, or sorts by them (by name or
 * position: 'num-order', by their number, NaN above all). Where it reads them otherwise (a qualified
 * name in WHERE, a subquery, an ORDER BY expression, a position naming an item SQLite names by its
 * text) they stay doubles. Its exact columns' names.
 */
function markPassedThrough(s, inner, typerOf, out, declared) {
    const marks = new Map();
    const innerExact = markExactColumns(inner, typerOf, marks, declared);
    const none = new Set();
    if (innerExact.size === 0)
        return none;
    const last = (fields) => fields[fields.length - 1];
    const isExact = (name) => innerExact.has(String(name).toLowerCase());
    const sorts = (s.sortClause ?? []).map((x) => x.SortBy?.node);
    const byName = sorts.filter((n) => n?.ColumnRef?.fields?.length === 1 && n.ColumnRef.fields[0].String);
    const byPosition = sorts.filter((n) => n?.A_Const?.ival !== undefined);
    const otherSorts = sorts.filter((n) => !byName.includes(n) && !byPosition.includes(n));
    // a WHERE comparing them by their bare name compares their numbers
    const compared = refsIn(s.whereClause, []).filter((r) => isExact(last(r.fields)?.String?.sval));
    const elsewhere = namesIn(otherSorts, namesInSubqueries(s.whereClause, new Set()));
    if (compared.some((r) => r.fields.length !== 1) || [...innerExact].some((x) => elsewhere.has(x)))
        return none;
    // the subquery's columns, then the statement's, as SQLite names them (to sort by position)
    let inside = inner.targetList ? [] : null;
    for (const item of (inner.targetList ?? [])) {
        const r = item.ResTarget;
        const fields = r?.val?.ColumnRef?.fields;
        if (!r || fields?.some((f) => f.A_Star))
            inside = null;
        if (!r || !inside)
            break;
        const column = fields ? last(fields)?.String?.sval : undefined;
        inside.push({ sqlite: r.name ?? (column === undefined ? null : String(column)), exact: isExact(itemName(r)) });
    }
    const exact = new Set();
    let yielded = [];
    for (const item of s.targetList) {
        const fields = item.ResTarget.val.ColumnRef.fields;
        if (last(fields).A_Star) {
            for (const x of innerExact)
                exact.add(x);
            yielded = yielded && inside ? [...yielded, ...inside] : null;
            continue;
        }
        const name = String(item.ResTarget.name ?? last(fields).String.sval);
        const on = isExact(last(fields).String.sval);
        if (on)
            exact.add(name.toLowerCase());
        yielded?.push({ sqlite: name, exact: on });
    }
    const positions = [];
    for (const n of byPosition) {
        if (!yielded)
            return none;
        const col = yielded[n.A_Const.ival.ival - 1];
        if (col?.exact && !col.sqlite)
            return none;
        if (col?.exact && col.sqlite)
            positions.push([n, col.sqlite]);
    }
    for (const [at, kind] of marks)
        out.set(at, kind);
    for (const n of byName) {
        const name = String(n.ColumnRef.fields[0].String.sval);
        if (isExact(name) || exact.has(name.toLowerCase()))
            out.set(n.ColumnRef.location, 'num-order');
    }
    for (const r of compared)
        out.set(r.location, 'num-order');
    for (const [n, name] of positions)
        out.set((0, typed_operators_1.orderMarkKey)(n.A_Const.location), `num-order:${name}`);
    return exact;
}
/**
 * A SELECT that passes on columns of a join of one subquery with tables (`SELECT s.a, m.id FROM
 * (...) s JOIN m USING (q)`, `SELECT * FROM (...) s, m WHERE ...`): only column references in its
 * list, no grouping, DISTINCT or window. The subquery and its alias; undefined for any other SELECT.
 */
function joinedThrough(s) {
    if (!s.fromClause?.length || s.groupClause || s.havingClause || s.distinctClause || s.windowClause)
        return;
    const items = [];
    const flat = (f) => {
        if (f.JoinExpr)
            return !f.JoinExpr.alias && flat(f.JoinExpr.larg) && flat(f.JoinExpr.rarg);
        items.push(f);
        return !!f.RangeVar || !!f.RangeSubselect;
    };
    if (!s.fromClause.every(flat))
        return;
    const subs = items.filter((f) => f.RangeSubselect);
    const from = subs.length === 1 && items.length > 1 ? subs[0].RangeSubselect : undefined;
    const inner = from && !from.lateral && from.alias && !from.alias.colnames ? from.subquery?.SelectStmt : undefined;
    if (!inner || inner.withClause)
        return;
    if (!s.targetList.every((x) => x.ResTarget?.val?.ColumnRef))
        return;
    return { inner, alias: String(from.alias.aliasname).toLowerCase(), items };
}
/** The ON conditions and USING names of a FROM list's joins, and whether one is NATURAL. */
function joinConditions(from, into) {
    let natural = false;
    for (const f of from) {
        const j = f.JoinExpr;
        if (!j)
            continue;
        natural ||= !!j.isNatural;
        into.push(j.quals ?? null, j.usingClause ?? null);
        natural = joinConditions([j.larg, j.rarg], into) || natural;
    }
    return natural;
}
/**
 * A SELECT that passes on columns of a join of a subquery (joinedThrough): the subquery's exact
 * columns stay exact through it when it only hands them on (`*`, `s.*`, `s.a`, a bare `a` no table
 * of the join has). Where it reads them otherwise (in a join's condition or USING list, a NATURAL
 * join, its WHERE, ORDER BY or LIMIT, a sort by position) they stay doubles. Its exact columns' names.
 */
function markJoinedThrough(s, joined, typerOf, out, declared) {
    const none = new Set();
    const marks = new Map();
    const innerExact = markExactColumns(joined.inner, typerOf, marks, declared);
    if (innerExact.size === 0)
        return none;
    const conditions = [];
    if (joinConditions(s.fromClause, conditions))
        return none;
    const t = typerOf(s);
    const sorts = (s.sortClause ?? []).map((x) => x.SortBy?.node);
    // sorted by or compared in WHERE by their bare name: by their number ('num-order')
    const bare = (n) => n?.ColumnRef?.fields?.length === 1 && n.ColumnRef.fields[0].String;
    const byName = sorts.filter((n) => bare(n));
    const compared = refsIn(s.whereClause, []).filter((r) => r.fields.length === 1 && r.fields[0].String);
    const otherSorts = sorts.filter((n) => !byName.includes(n));
    const read = namesIn([otherSorts, s.limitCount ?? null, conditions], namesInSubqueries(s.whereClause, new Set()));
    for (const r of refsIn(s.whereClause, []))
        if (r.fields.length !== 1)
            namesIn({ ColumnRef: r }, read);
    if ([...innerExact].some((x) => read.has(x)) || sorts.some((n) => n?.A_Const))
        return none;
    const tables = joined.items.filter((f) => f.RangeVar);
    const inTable = (name) => tables.some((f) => {
        const alias = String(f.RangeVar.alias?.aliasname ?? f.RangeVar.relname).toLowerCase();
        const x = t.scope.get(alias);
        const cols = Array.isArray(x) ? x : x ? t.schema.tables.get(x)?.columns : undefined;
        return cols === undefined || cols.some((c) => c.name.toLowerCase() === name);
    });
    const exact = new Set();
    for (const item of s.targetList) {
        const fields = item.ResTarget.val.ColumnRef.fields;
        const last = fields[fields.length - 1];
        const source = fields.length === 2 ? String(fields[0].String?.sval).toLowerCase() : undefined;
        if (last.A_Star) {
            if (fields.length === 1 || source === joined.alias)
                for (const x of innerExact)
                    exact.add(x);
            continue;
        }
        const column = String(last.String?.sval).toLowerCase();
        const ours = fields.length === 1 ? !inTable(column) : fields.length === 2 && source === joined.alias;
        if (ours && innerExact.has(column))
            exact.add(String(item.ResTarget.name ?? column).toLowerCase());
    }
    const ours = (name) => innerExact.has(String(name).toLowerCase()) && !inTable(String(name).toLowerCase());
    // a bare name of an exact column a table of the join also has: PostgreSQL's error, SQLite's
    if ([...byName.map((n) => n.ColumnRef), ...compared].some((r) => innerExact.has(String(r.fields[0].String.sval).toLowerCase()) && !ours(r.fields[0].String.sval)))
        return none;
    for (const [at, kind] of marks)
        out.set(at, kind);
    for (const n of byName)
        if (ours(n.ColumnRef.fields[0].String.sval) || exact.has(String(n.ColumnRef.fields[0].String.sval).toLowerCase()))
            out.set(n.ColumnRef.location, 'num-order');
    for (const r of compared)
        if (ours(r.fields[0].String.sval))
            out.set(r.location, 'num-order');
    return exact;
}
/**
 * A UNION ALL of two plain SELECTs with no ORDER BY of its own: a column exact in both branches
 * stays exact (the values pass as they are). Where one branch's column is exact and the other's not,
 * all stay doubles. The first branch's exact names.
 */
function markUnionAll(s, typerOf, out, declared) {
    const none = new Set();
    const branches = [s.larg, s.rarg];
    if (s.sortClause || branches.some((b) => !b?.targetList || (b.op && b.op !== 'SETOP_NONE')))
        return none;
    const marks = new Map();
    // each item alone (a branch's names need not be its own: `?column?` twice)
    const exactAt = branches.map((b) => b.targetList.map((item) => markExactColumns({ ...b, targetList: [item] }, typerOf, marks, declared).size > 0 ? 1 : 0));
    const [l, r] = exactAt;
    if (l.length !== r.length || l.some((x, k) => x !== r[k]) || !l.includes(1))
        return none;
    for (const [at, kind] of marks)
        out.set(at, kind);
    const names = s.larg.targetList.map((x) => itemName(x.ResTarget).toLowerCase());
    return new Set(names.filter((_, k) => l[k] === 1));
}
//# sourceMappingURL=exact-columns.js.map