"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.scaleOf = scaleOf;
exports.minimumScaleOf = minimumScaleOf;
exports.castTypmod = castTypmod;
// The display scale PostgreSQL's numeric carries for an expression of the parse tree (what a
// computed numeric prints: `sum(amount)` of a numeric(10,2) has 2 digits, `0.1 + 0.2` one), and the
// type modifier of a cast (`x::numeric(10,2)`, `x::varchar(3)`), for RowDescription and the values.
const oids_1 = require("../types/oids");
const type_signatures_1 = require("./type-signatures");
/** The scale of a column: a subquery's column's, a table column's numeric(p, s), 0 for an integer one. */
function columnScale(t, fields) {
    const name = fields[fields.length - 1]?.toLowerCase();
    const tables = fields.length >= 2 ? [t.scope.get(fields[fields.length - 2].toLowerCase())] : [...new Set(t.scope.values())];
    const found = [];
    for (const src of tables) {
        if (Array.isArray(src)) {
            const col = src.find((c) => c.name.toLowerCase() === name);
            // its computed scale, or its numeric(p, s)'s s (a column of a table passed through), 0 for an integer
            const mod = col?.typmod ?? -1;
            if (col)
                found.push(col.scale ?? (col.oid === oids_1.OID.numeric && mod >= 4 ? (mod - 4) & 0xffff : type_signatures_1.INTS.has(col.oid) ? 0 : undefined));
            continue;
        }
        const col = src ? t.schema.tables.get(src)?.columns.find((c) => c.name.toLowerCase() === name) : undefined;
        if (!col)
            continue;
        const oid = (0, oids_1.oidOfDeclType)(col.type);
        const mod = (0, oids_1.typmodOfDeclType)(col.type);
        found.push(oid === oids_1.OID.numeric && mod >= 4 ? (mod - 4) & 0xffff : type_signatures_1.INTS.has(oid) ? 0 : undefined);
    }
    return found.length === 1 ? found[0] : undefined;
}
/**
 * The display scale PostgreSQL's numeric carries for an expression (digits after the point: a
 * numeric(p, s) column's s, a literal's digits, the larger of a sum's, the total of a product's,
 * round(x, n)'s n); undefined where it is not known this way (a division, avg, a double).
 */
function scaleOf(t, n) {
    if (!n)
        return undefined;
    if (n.ColumnRef)
        return columnScale(t, (0, type_signatures_1.strings)(n.ColumnRef.fields));
    if (n.A_Const) {
        if (n.A_Const.ival !== undefined)
            return 0;
        const f = n.A_Const.fval?.fval;
        if (f === undefined || /e/i.test(String(f)))
            return undefined;
        return /\.(\d*)/.exec(String(f))?.[1].length ?? 0;
    }
    if (n.TypeCast) {
        const mod = castTypmod(n);
        const to = (0, type_signatures_1.typeNameOid)(n.TypeCast.typeName);
        if (to === oids_1.OID.numeric && mod >= 4)
            return (mod - 4) & 0xffff;
        // '10.50'::numeric keeps the string's digits (10.50), as numeric's input does
        const text = n.TypeCast.arg?.A_Const?.sval?.sval;
        if (to === oids_1.OID.numeric && typeof text === 'string')
            return /^\s*[+-]?(\d+\.?\d*|\.\d+)\s*$/.test(text) ? (/\.(\d*)/.exec(text)?.[1].length ?? 0) : undefined;
        if (to === oids_1.OID.numeric)
            return scaleOf(t, n.TypeCast.arg);
        return type_signatures_1.INTS.has(to) ? 0 : undefined;
    }
    if (n.A_Expr?.kind === 'AEXPR_OP') {
        const op = (0, type_signatures_1.strings)(n.A_Expr.name)[0];
        // (integer arithmetic is whole: `10 / 4 * n` is 2 * n)
        if (type_signatures_1.INTS.has(t.type(n)))
            return 0;
        if (!n.A_Expr.lexpr)
            return op === '-' || op === '+' ? scaleOf(t, n.A_Expr.rexpr) : undefined;
        const l = scaleOf(t, n.A_Expr.lexpr);
        const r = scaleOf(t, n.A_Expr.rexpr);
        if (l === undefined || r === undefined)
            return undefined;
        if (op === '+' || op === '-' || op === '%')
            return Math.max(l, r);
        if (op === '*')
            return l + r;
        return undefined;
    }
    if (n.CoalesceExpr || n.MinMaxExpr)
        return largestScale(t, n.CoalesceExpr?.args ?? n.MinMaxExpr.args);
    if (n.CaseExpr) {
        const results = (n.CaseExpr.args ?? []).map((w) => w.CaseWhen?.result);
        if (n.CaseExpr.defresult)
            results.push(n.CaseExpr.defresult);
        return largestScale(t, results);
    }
    if (n.FuncCall) {
        const f = n.FuncCall;
        const name = (0, type_signatures_1.strings)(f.funcname).pop()?.toLowerCase();
        const args = f.args ?? [];
        switch (name) {
            case 'sum':
            case 'min':
            case 'max':
            case 'abs':
            case 'first_value':
            case 'last_value':
                return args.length === 1 ? scaleOf(t, args[0]) : undefined;
            // a window's earlier or later row's value, at its scale (with a default, rows taking it print
            // the default's own scale: left unknown)
            case 'lag':
            case 'lead':
            case 'nth_value':
                return args.length <= 2 && args.length > 0 ? scaleOf(t, args[0]) : undefined;
            case 'round':
            case 'trunc': {
                if (args.length === 1)
                    return 0;
                const k = args[1]?.A_Const?.ival;
                return k === undefined ? undefined : Math.max(0, k.ival ?? 0);
            }
            case 'ceil':
            case 'ceiling':
            case 'floor':
                return 0;
            case 'extract': {
                // PostgreSQL's extract gives microseconds' digits to seconds and the epoch (of a time,
                // timestamp or interval), milliseconds' to milliseconds, whole numbers otherwise and of a date
                const unit = String(args[0]?.A_Const?.sval?.sval ?? '').toLowerCase();
                if (args.length !== 2 || !unit || unit === 'julian')
                    return undefined;
                if (t.type(args[1]) === oids_1.OID.date)
                    return 0;
                return unit === 'epoch' || unit === 'second' ? 6 : unit === 'milliseconds' ? 3 : 0;
            }
            case 'coalesce':
            case 'greatest':
            case 'least':
                return largestScale(t, args);
        }
    }
    return undefined;
}
/**
 * The scale of `x ± $n` (either way round, also nested): at least x's, the parameter's value may
 * carry more digits (`amount + $1` with 1 prints 13.50, with 1.125 13.625), so the values print at
 * that scale or with their own digits beyond it, and at least at the scale of the parameters' text
 * (`$1::numeric` with '1.500' is 1.500: the session knows it at Bind). Undefined where no such bound is known.
 */
function minimumScaleOf(t, n) {
    const params = [];
    const bound = (x) => {
        const cast = x?.TypeCast;
        const param = x?.ParamRef ??
            (cast && castTypmod(x) < 0 && (0, type_signatures_1.typeNameOid)(cast.typeName) === oids_1.OID.numeric ? cast.arg?.ParamRef : undefined);
        if (param) {
            params.push(param.number);
            return { scale: 0, min: true };
        }
        const e = x?.A_Expr;
        const op = e?.kind === 'AEXPR_OP' && e.lexpr ? (0, type_signatures_1.strings)(e.name)[0] : undefined;
        if (op === '+' || op === '-') {
            const l = bound(e.lexpr);
            const r = bound(e.rexpr);
            return l && r ? { scale: Math.max(l.scale, r.scale), min: l.min || r.min } : undefined;
        }
        const s = scaleOf(t, x);
        // (a plain numeric column's values print their own digits beyond the parameter's: `x + $1`)
        if (s === undefined && x?.ColumnRef && t.type(x) === oids_1.OID.numeric)
            return { scale: 0, min: false };
        return s === undefined ? undefined : { scale: s, min: false };
    };
    const b = bound(n);
    return b?.min ? { scale: b.scale, params } : undefined;
}
function largestScale(t, args) {
    let out;
    for (const a of args) {
        if (a?.A_Const?.isnull)
            continue;
        const s = scaleOf(t, a);
        if (s === undefined)
            return undefined;
        out = Math.max(out ?? 0, s);
    }
    return out;
}
/** The type modifier of `x::numeric(p, s)`, `x::varchar(n)`, `x::char(n)`: -1 for other expressions. */
function castTypmod(n) {
    const tn = n?.TypeCast?.typeName;
    if (!tn?.typmods || tn.arrayBounds)
        return -1;
    const mods = tn.typmods.map((m) => m.A_Const?.ival?.ival ?? (m.A_Const?.ival ? 0 : Number.NaN));
    if (mods.some((m) => !Number.isInteger(m)))
        return -1;
    const oid = (0, type_signatures_1.typeNameOid)(tn);
    if (oid === oids_1.OID.numeric && mods[0] >= 1 && (mods[1] ?? 0) <= mods[0])
        return ((mods[0] << 16) | (mods[1] ?? 0)) + 4;
    if ((oid === oids_1.OID.varchar || oid === oids_1.OID.bpchar) && mods[0] >= 1)
        return mods[0] + 4;
    return -1;
}
//# sourceMappingURL=numeric-scale.js.map