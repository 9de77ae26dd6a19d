"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.Typer = void 0;
const oids_1 = require("../types/oids");
const registry_1 = require("../types/registry");
const type_signatures_1 = require("./type-signatures");
const typed_operators_1 = require("./typed-operators");
const select_types_1 = require("./select-types");
/** Operators whose result has their operands' type when both are one number type. */
const ARITHMETIC = new Set(['+', '-', '*', '/', '%']);
class Typer {
    schema;
    scope;
    constructor(schema, scope) {
        this.schema = schema;
        this.scope = scope;
    }
    column(fields) {
        const name = fields[fields.length - 1]?.toLowerCase();
        if (!name)
            return 0;
        const tables = fields.length >= 2
            ? [this.scope.get(fields[fields.length - 2].toLowerCase())]
            : [...new Set(this.scope.values())]; // two aliases of one table (excluded) are one source
        let found = 0;
        for (const t of tables) {
            if (Array.isArray(t)) {
                const col = t.find((c) => c.name.toLowerCase() === name);
                if (col) {
                    if (found)
                        return 0;
                    found = col.oid;
                }
                continue;
            }
            const col = t ? this.schema.tables.get(t)?.columns.find((c) => c.name.toLowerCase() === name) : undefined;
            if (col) {
                if (found)
                    return 0; // ambiguous: SQLite will say so
                found = (0, oids_1.oidOfDeclType)(col.type);
            }
        }
        // a FROM item's name that is no column: its whole row (`SELECT t FROM t`), a record
        if (!found && fields.length === 1 && this.scope.has(name))
            return oids_1.OID.record;
        return found;
    }
    /** The type of an expression, 0 when not known. */
    type(n) {
        if (!n)
            return 0;
        if (n.ColumnRef)
            return this.column((0, type_signatures_1.strings)(n.ColumnRef.fields));
        if (n.GroupingFunc)
            return oids_1.OID.int4;
        if (n.A_Const) {
            const c = n.A_Const;
            if (c.isnull)
                return 0;
            if (c.ival !== undefined)
                return oids_1.OID.int4;
            if (c.fval !== undefined) {
                const f = String(c.fval.fval);
                // an integer too large for int4 is int8, then numeric; a negated one (-2147483648) that fits
                // int4 is int4, as PostgreSQL's grammar folds the sign into the constant
                if (/^-?\d+$/.test(f)) {
                    const v = BigInt(f);
                    if (v >= -2147483648n && v <= 2147483647n)
                        return oids_1.OID.int4;
                    return v >= -9223372036854775808n && v <= 9223372036854775807n ? oids_1.OID.int8 : oids_1.OID.numeric;
                }
                return oids_1.OID.numeric;
            }
            if (c.boolval !== undefined)
                return oids_1.OID.bool;
            if (c.sval !== undefined)
                return oids_1.OID.text;
            if (c.bsval !== undefined)
                return 0;
            return 0;
        }
        if (n.TypeCast)
            return (0, type_signatures_1.typeNameOid)(n.TypeCast.typeName);
        if (n.BoolExpr || n.NullTest || n.BooleanTest)
            return oids_1.OID.bool;
        if (n.SubLink) {
            const t = n.SubLink.subLinkType;
            if (t === 'EXPR_SUBLINK' || t === 'ARRAY_SUBLINK') {
                const inner = n.SubLink.subselect?.SelectStmt;
                const cols = inner ? (0, select_types_1.selectTypes)(inner, this.schema) : null;
                const oid = cols?.length === 1 ? cols[0].oid : 0;
                // ARRAY(SELECT x): an array of x's type (it was typed bool, as EXISTS is)
                return t === 'EXPR_SUBLINK' ? oid : oid ? ((0, registry_1.arrayOidOf)(oid) ?? 0) : 0;
            }
            return oids_1.OID.bool;
        }
        if (n.SQLValueFunction)
            return type_signatures_1.SQL_VALUE_FUNCTIONS[n.SQLValueFunction.op]?.[1] ?? 0;
        if (n.CoalesceExpr)
            return this.common(n.CoalesceExpr.args);
        if (n.MinMaxExpr)
            return this.common(n.MinMaxExpr.args);
        if (n.CaseExpr) {
            const results = (n.CaseExpr.args ?? []).map((w) => w.CaseWhen?.result);
            if (n.CaseExpr.defresult)
                results.push(n.CaseExpr.defresult);
            return this.common(results);
        }
        if (n.A_Expr)
            return this.operator(n.A_Expr);
        if (n.FuncCall)
            return this.func(n.FuncCall);
        if (n.A_ArrayExpr) {
            // ARRAY[1, 2]: an array of its elements' common type
            const t = this.common(n.A_ArrayExpr.elements);
            return t ? ((0, registry_1.arrayOidOf)(t) ?? 0) : 0;
        }
        if (n.A_Indirection && n.A_Indirection.indirection?.length === 1 && n.A_Indirection.indirection[0].A_Indices) {
            // (ARRAY[...])[n]: an element
            const t = this.type(n.A_Indirection.arg);
            return n.A_Indirection.indirection[0].A_Indices.is_slice ? t : ((0, registry_1.elementOidOf)(t) ?? 0);
        }
        return 0;
    }
    /** The type the branches of CASE or COALESCE resolve to: one type, or numbers promoted. */
    common(args) {
        let out = 0;
        let literal = false;
        for (const a of args ?? []) {
            if (a?.A_Const?.isnull)
                continue;
            // an unknown literal takes the others' type (text when all are such)
            if (a?.A_Const?.sval !== undefined) {
                literal = true;
                continue;
            }
            const t = this.type(a);
            if (t === 0)
                return 0;
            if (out === 0 || out === t)
                out = t;
            else if ((0, type_signatures_1.isNumber)(out) && (0, type_signatures_1.isNumber)(t))
                out = (0, type_signatures_1.promote)(out, t);
            else
                return 0;
        }
        return out || (literal ? oids_1.OID.text : 0);
    }
    operator(e) {
        const op = (0, type_signatures_1.strings)(e.name)[0];
        switch (e.kind) {
            case 'AEXPR_OP': {
                if (!e.lexpr && op === '~')
                    return this.type(e.rexpr); // ~x: bitwise NOT, no regex match
                if (type_signatures_1.BOOL_OPERATORS.has(op))
                    return oids_1.OID.bool;
                if (op === '||') {
                    // an array's concatenation is that array, jsonb's jsonb; text otherwise
                    const l = this.type(e.lexpr);
                    const r = this.type(e.rexpr);
                    if (l === oids_1.OID.jsonb || r === oids_1.OID.jsonb)
                        return oids_1.OID.jsonb;
                    // bytea's own ||, an untyped side read as bytea
                    if ((l === oids_1.OID.bytea && (r === oids_1.OID.bytea || (0, typed_operators_1.untyped)(e.rexpr))) || (r === oids_1.OID.bytea && (0, typed_operators_1.untyped)(e.lexpr)))
                        return oids_1.OID.bytea;
                    return (0, registry_1.elementOidOf)(l) !== undefined ? l : (0, registry_1.elementOidOf)(r) !== undefined ? r : oids_1.OID.text;
                }
                if (op === '->' || op === '#>')
                    return this.type(e.lexpr) === oids_1.OID.jsonb ? oids_1.OID.jsonb : oids_1.OID.json;
                if (op === '->>' || op === '#>>')
                    return oids_1.OID.text;
                if (op === '#-')
                    return oids_1.OID.jsonb;
                if (!e.lexpr)
                    return this.type(e.rexpr); // unary minus
                const l = this.type(e.lexpr);
                const r = this.type(e.rexpr);
                if (op === '-' && l === oids_1.OID.jsonb)
                    return oids_1.OID.jsonb;
                if (op === '^')
                    return l === oids_1.OID.numeric || r === oids_1.OID.numeric ? oids_1.OID.numeric : oids_1.OID.float8;
                if ((0, type_signatures_1.isNumber)(l) && (0, type_signatures_1.isNumber)(r))
                    return (0, type_signatures_1.promote)(l, r);
                const unknown = (0, typed_operators_1.untyped)(e.lexpr) ? 'l' : (0, typed_operators_1.untyped)(e.rexpr) ? 'r' : null;
                // a number and a parameter or a quoted literal: PostgreSQL reads the unknown side as the
                // number's type (`sum(n) + $1` is numeric; it was typed text)
                if ((unknown === 'r' && (0, type_signatures_1.isNumber)(l)) || (unknown === 'l' && (0, type_signatures_1.isNumber)(r)))
                    return ARITHMETIC.has(op) ? (unknown === 'r' ? l : r) : 0;
                try {
                    return (0, typed_operators_1.dateOperator)(l, op, r, unknown)?.oid ?? 0;
                }
                catch {
                    return 0; // no such operator: the statement is refused when it is translated
                }
            }
            case 'AEXPR_NULLIF':
                return this.type(e.lexpr);
            default: // IN, LIKE, ILIKE, BETWEEN, DISTINCT, ANY/ALL, SIMILAR
                return oids_1.OID.bool;
        }
    }
    func(f) {
        const names = (0, type_signatures_1.strings)(f.funcname);
        const name = names[names.length - 1]?.toLowerCase();
        if (name in type_signatures_1.FIXED)
            return type_signatures_1.FIXED[name];
        const arg = (i) => this.type(f.args?.[i]);
        if (type_signatures_1.MATH_FUNCTIONS.has(name))
            return (0, type_signatures_1.mathResult)(name, (f.args ?? []).map((_, i) => arg(i)));
        switch (name) {
            case 'sum': {
                const t = arg(0);
                if (t === oids_1.OID.int2 || t === oids_1.OID.int4)
                    return oids_1.OID.int8;
                if (t === oids_1.OID.int8 || t === oids_1.OID.numeric)
                    return oids_1.OID.numeric;
                if (type_signatures_1.FLOATS.has(t) || t === oids_1.OID.interval)
                    return t;
                return 0;
            }
            case 'stddev':
            case 'stddev_samp':
            case 'stddev_pop':
            case 'variance':
            case 'var_samp':
            case 'var_pop': {
                // numeric over integers and numerics, as avg
                const t = arg(0);
                return type_signatures_1.INTS.has(t) || t === oids_1.OID.numeric ? oids_1.OID.numeric : type_signatures_1.FLOATS.has(t) ? oids_1.OID.float8 : 0;
            }
            case 'avg': {
                const t = arg(0);
                if (type_signatures_1.INTS.has(t) || t === oids_1.OID.numeric)
                    return oids_1.OID.numeric;
                if (type_signatures_1.FLOATS.has(t))
                    return oids_1.OID.float8;
                return t === oids_1.OID.interval ? t : 0;
            }
            case 'max':
            case 'min':
                // of varchar and char PostgreSQL takes the text aggregate
                return arg(0) === oids_1.OID.varchar || arg(0) === oids_1.OID.bpchar ? oids_1.OID.text : arg(0);
            case 'abs':
            case 'first_value':
            case 'last_value':
            case 'lag':
            case 'lead':
            case 'nth_value':
                return arg(0);
            case 'gcd':
            case 'lcm': {
                // integers keep the wider integer type; a numeric or an unknown side is numeric
                const [a, b] = [arg(0), arg(1)];
                return type_signatures_1.INTS.has(a) && type_signatures_1.INTS.has(b) ? (0, type_signatures_1.promote)(a, b) : oids_1.OID.numeric;
            }
            case 'bit_and':
            case 'bit_or':
            case 'bit_xor': {
                const t = arg(0);
                return type_signatures_1.INTS.has(t) ? t : 0;
            }
            case 'timezone': {
                // x AT TIME ZONE z: a timestamp's wall time read in z is an instant; an instant's wall time in z
                const t = arg(1);
                return t === oids_1.OID.timestamp ? oids_1.OID.timestamptz : t === oids_1.OID.timestamptz || t === oids_1.OID.date ? oids_1.OID.timestamp : 0;
            }
            case 'date_bin':
                return arg(1) === oids_1.OID.timestamptz ? oids_1.OID.timestamptz : oids_1.OID.timestamp;
            case 'date_trunc': {
                const t = arg(1);
                return t === oids_1.OID.timestamptz || t === oids_1.OID.date ? oids_1.OID.timestamptz : t === oids_1.OID.interval ? t : oids_1.OID.timestamp;
            }
            case 'coalesce':
            case 'greatest':
            case 'least':
                return this.common(f.args);
            case 'array_append':
            case 'array_remove':
            case 'array_replace':
            case 'array_cat':
            case 'array_prepend': {
                // the array argument's type
                const t = arg(name === 'array_prepend' ? 1 : 0) || (name === 'array_cat' ? arg(1) : 0);
                return (0, registry_1.elementOidOf)(t) !== undefined ? t : 0;
            }
            case 'array_agg': {
                const t = arg(0);
                return t ? ((0, registry_1.arrayOidOf)(t) ?? 0) : 0;
            }
            case 'percentile_cont':
                return f.args?.[0]?.A_ArrayExpr ? 0 : oids_1.OID.float8;
            case 'percentile_disc':
            case 'mode':
                // the type of the WITHIN GROUP (ORDER BY x) key
                return f.agg_within_group ? this.type(f.agg_order?.[0]?.SortBy?.node) : 0;
            case 'unnest':
                return f.args?.length === 1 ? ((0, registry_1.elementOidOf)(arg(0)) ?? 0) : 0;
            case 'generate_series': {
                const t = arg(0);
                if (type_signatures_1.INTS.has(t) || t === oids_1.OID.numeric)
                    return (0, type_signatures_1.promote)(t, arg(1));
                // timestamps with an interval step; a date is read as a timestamp with time zone, as there
                return t === oids_1.OID.timestamp ? t : t === oids_1.OID.timestamptz || t === oids_1.OID.date ? oids_1.OID.timestamptz : 0;
            }
        }
        return 0;
    }
    /** PostgreSQL's name for an unaliased result column. */
    name(n) {
        return this.figure(n)[0];
    }
    /**
     * PostgreSQL's FigureColname: a name and its strength (2 from a column, function or keyword
     * expression, 1 from a cast's type or CASE, 0 for none); a cast or CASE keeps a stronger name
     * from its operand (its ELSE branch for CASE).
     */
    figure(n) {
        if (!n)
            return ['?column?', 0];
        if (n.ColumnRef) {
            const f = n.ColumnRef.fields;
            const last = f[f.length - 1]?.String?.sval;
            return last ? [last, 2] : ['?column?', 0];
        }
        if (n.FuncCall) {
            const names = (0, type_signatures_1.strings)(n.FuncCall.funcname);
            return [names[names.length - 1] ?? '?column?', 2];
        }
        if (n.GroupingFunc)
            return ['grouping', 2];
        if (n.TypeCast) {
            const inner = this.figure(n.TypeCast.arg);
            return inner[1] > 1 ? inner : [(0, type_signatures_1.typeDisplayName)(n.TypeCast.typeName), 1];
        }
        if (n.CaseExpr) {
            const inner = this.figure(n.CaseExpr.defresult);
            return inner[1] > 1 ? inner : ['case', 1];
        }
        if (n.SQLValueFunction)
            return [type_signatures_1.SQL_VALUE_FUNCTIONS[n.SQLValueFunction.op]?.[0] ?? '?column?', 2];
        if (n.CoalesceExpr)
            return ['coalesce', 2];
        if (n.MinMaxExpr)
            return [n.MinMaxExpr.op === 'IS_GREATEST' ? 'greatest' : 'least', 2];
        if (n.A_Expr?.kind === 'AEXPR_NULLIF')
            return ['nullif', 2];
        if (n.SubLink?.subLinkType === 'EXISTS_SUBLINK')
            return ['exists', 2];
        if (n.SubLink?.subLinkType === 'ARRAY_SUBLINK' || n.A_ArrayExpr)
            return ['array', 2];
        if (n.A_Indirection) {
            // x.field names the field; x[n] takes x's name
            const last = n.A_Indirection.indirection?.[n.A_Indirection.indirection.length - 1];
            return last?.String?.sval ? [last.String.sval, 2] : this.figure(n.A_Indirection.arg);
        }
        if (n.SubLink?.subLinkType === 'EXPR_SUBLINK') {
            const t = n.SubLink.subselect?.SelectStmt?.targetList;
            if (t?.length === 1) {
                if (t[0].ResTarget.name)
                    return [t[0].ResTarget.name, 2];
                return this.figure(t[0].ResTarget.val);
            }
        }
        return ['?column?', 0];
    }
}
exports.Typer = Typer;
//# sourceMappingURL=expression-types.js.map