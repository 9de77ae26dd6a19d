"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.mayAssignArrays = mayAssignArrays;
exports.checkArrayAssignments = checkArrayAssignments;
// A value written into an array column must be of a type PostgreSQL assigns to it: psycopg2 sends
// a Python list of str as ARRAY['1','x'], which into a bigint[] column is 42804 (`column "ids" is
// of type bigint[] but expression is of type text[]`) in PostgreSQL, where Patina stored the text.
// Checked on PostgreSQL's parse tree for INSERT ... VALUES, INSERT ... SELECT, UPDATE ... SET and
// ON CONFLICT ... DO UPDATE SET, over the expressions whose type the tree tells for sure (literals,
// ARRAY[...], casts, columns, ARRAY(SELECT ...)); anything else is left to run.
const libpg_query_1 = require("libpg-query");
const sqlstate_1 = require("../sqlstate");
const oids_1 = require("../types/oids");
const registry_1 = require("../types/registry");
const expression_types_1 = require("./expression-types");
const select_types_1 = require("./select-types");
const type_signatures_1 = require("./type-signatures");
/** Type families: an assignment between two is refused unless they are one family or the target is text. */
const FAMILIES = {
    [oids_1.OID.int2]: 'number',
    [oids_1.OID.int4]: 'number',
    [oids_1.OID.int8]: 'number',
    [oids_1.OID.numeric]: 'number',
    [oids_1.OID.float4]: 'number',
    [oids_1.OID.float8]: 'number',
    [oids_1.OID.text]: 'string',
    [oids_1.OID.varchar]: 'string',
    [oids_1.OID.bpchar]: 'string',
    [oids_1.OID.name]: 'string',
    [oids_1.OID.bool]: 'bool',
    [oids_1.OID.date]: 'datetime',
    [oids_1.OID.timestamp]: 'datetime',
    [oids_1.OID.timestamptz]: 'datetime',
    [oids_1.OID.time]: 'time',
    [oids_1.OID.interval]: 'interval',
    [oids_1.OID.json]: 'json',
    [oids_1.OID.jsonb]: 'json',
    [oids_1.OID.uuid]: 'uuid',
    [oids_1.OID.bytea]: 'bytea',
};
const tablesWithArrays = new WeakMap();
/** Whether the statement may write an array column: it names a table that has one (a cheap test before parsing). */
function mayAssignArrays(sig, schema) {
    let tables = tablesWithArrays.get(schema);
    if (!tables) {
        tables = new Set();
        for (const [name, t] of schema.tables)
            if (t.columns.some((c) => /\[\s*\]\s*$/.test(c.type ?? '')))
                tables.add(name.toLowerCase());
        tablesWithArrays.set(schema, tables);
    }
    if (tables.size === 0)
        return false;
    return sig.some((t) => (t.type === 'word' || t.type === 'quoted') && tables.has(t.text.replace(/"/g, '').toLowerCase()));
}
/** Throws 42804 for a value of a type PostgreSQL does not assign to the array column it is written into. */
function checkArrayAssignments(sql, schema, declared = []) {
    let stmts;
    try {
        stmts = (0, libpg_query_1.parseSync)(sql).stmts ?? [];
    }
    catch {
        return; // the translation or SQLite reports it
    }
    for (const s of stmts) {
        const insert = s.stmt?.InsertStmt;
        if (insert)
            checkInsert(insert, schema, declared);
        const update = s.stmt?.UpdateStmt;
        if (update) {
            const table = tableOf(update.relation, schema);
            if (!table)
                continue;
            const scope = new Map([[String(update.relation.alias?.aliasname ?? table).toLowerCase(), table]]);
            (0, select_types_1.scopeOf)(update.fromClause, scope, schema);
            checkSetList(update.targetList, table, new expression_types_1.Typer(schema, scope), schema, declared);
        }
    }
}
/** The schema's table a RangeVar names (lower case), or null. */
function tableOf(rel, schema) {
    const name = String(rel?.relname ?? '').toLowerCase();
    if (rel?.schemaname && rel.schemaname !== 'public')
        return null;
    return schema.tables.has(name) ? name : null;
}
function checkInsert(insert, schema, declared) {
    const table = tableOf(insert.relation, schema);
    if (!table)
        return;
    const def = schema.tables.get(table);
    const names = insert.cols?.length
        ? insert.cols.map((c) => String(c.ResTarget?.name ?? '').toLowerCase())
        : def.columns.map((c) => c.name.toLowerCase());
    const select = insert.selectStmt?.SelectStmt;
    if (select && (!select.op || select.op === 'SETOP_NONE')) {
        if (select.valuesLists) {
            const typer = new expression_types_1.Typer(schema, new Map());
            for (const row of select.valuesLists)
                (row.List?.items ?? []).forEach((v, k) => check(table, names[k], v, typer, schema, declared));
        }
        else if (select.targetList && !select.withClause) {
            const scope = new Map();
            (0, select_types_1.scopeOf)(select.fromClause, scope, schema);
            const typer = new expression_types_1.Typer(schema, scope);
            select.targetList.forEach((t, k) => check(table, names[k], t.ResTarget?.val, typer, schema, declared));
        }
    }
    const conflict = insert.onConflictClause;
    if (conflict?.action === 'ONCONFLICT_UPDATE') {
        const scope = new Map([
            [String(insert.relation.alias?.aliasname ?? table).toLowerCase(), table],
            ['excluded', table],
        ]);
        checkSetList(conflict.targetList, table, new expression_types_1.Typer(schema, scope), schema, declared);
    }
}
function checkSetList(targets, table, typer, schema, declared) {
    for (const t of targets ?? []) {
        const r = t.ResTarget;
        // `SET ids[1] = ...` and `SET (a, b) = (...)` are not checked
        if (!r?.name || r.indirection || r.val?.MultiAssignRef)
            continue;
        check(table, String(r.name).toLowerCase(), r.val, typer, schema, declared);
    }
}
/** 42804 when `value`'s type is known and PostgreSQL has no assignment from it to the array column. */
function check(table, column, value, typer, schema, declared) {
    if (!column || !value)
        return;
    const decl = schema.tables.get(table)?.columns.find((c) => c.name.toLowerCase() === column)?.type;
    if (!decl || !/\[\s*\]\s*$/.test(decl))
        return;
    const target = (0, oids_1.oidOfDeclType)(decl);
    if ((0, registry_1.elementOidOf)(target) === undefined)
        return; // an array of a type this port does not name
    const source = sourceType(value, typer, declared);
    if (source === 0 || source === target || assignable(source, target))
        return;
    const name = (oid) => oids_1.TYPE_DISPLAY[oid] ?? 'unknown';
    throw (0, sqlstate_1.pgError)('42804', `column "${column}" is of type ${name(target)} but expression is of type ${name(source)}`);
}
/** The type of a value the tree tells for sure; 0 for an untyped literal (read by the column's type) or anything else. */
function sourceType(v, typer, declared) {
    if (v.A_Const)
        return v.A_Const.sval !== undefined || v.A_Const.isnull ? 0 : typer.type(v);
    if (v.A_ArrayExpr) {
        // ARRAY['a', NULL, $1]: untyped literals and parameters alone make a text[]
        const untyped = (e) => (e.A_Const && (e.A_Const.sval !== undefined || e.A_Const.isnull)) ||
            (e.ParamRef && !declared[e.ParamRef.number - 1]);
        const elements = v.A_ArrayExpr.elements ?? [];
        if (elements.length > 0 && elements.every(untyped))
            return (0, registry_1.arrayOidOf)(oids_1.OID.text);
        return typer.type(v);
    }
    if (v.TypeCast) {
        // a cast to a type this port does not name (a domain, int[][]) is not judged
        const names = (0, type_signatures_1.strings)(v.TypeCast.typeName?.names);
        if (names.length === 0 || (v.TypeCast.typeName.arrayBounds?.length ?? 0) > 1)
            return 0;
        return typer.type(v);
    }
    if (v.ColumnRef) {
        const t = typer.type(v);
        return t === oids_1.OID.record ? 0 : t;
    }
    if (v.SubLink?.subLinkType === 'ARRAY_SUBLINK')
        return typer.type(v);
    return 0;
}
/** Whether PostgreSQL assigns a value of `source` to a column of the array type `target`. */
function assignable(source, target) {
    const from = (0, registry_1.elementOidOf)(source);
    const to = (0, registry_1.elementOidOf)(target);
    const toFamily = FAMILIES[to];
    if (from === undefined)
        return FAMILIES[source] === undefined; // a scalar of a known type: no
    const fromFamily = FAMILIES[from];
    // any array is assigned to text[] (each element printed); otherwise within a family only
    return !fromFamily || !toFamily || fromFamily === toFamily || toFamily === 'string';
}
//# sourceMappingURL=array-assignments.js.map