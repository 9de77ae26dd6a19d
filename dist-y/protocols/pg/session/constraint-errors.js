"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.pgConstraintError = pgConstraintError;
exports.targetTable = targetTable;
const errors_1 = require("../../../src/errors");
const lexer_1 = require("../sql/lexer");
const sqlstate_1 = require("../sqlstate");
/** The PostgreSQL form of a constraint error, or the error itself when it is not one. */
function pgConstraintError(err, ctx) {
    if (!(err instanceof errors_1.PatinaError) || !err.sqliteCode?.startsWith('SQLITE_CONSTRAINT'))
        return err;
    const text = err.message.replace(/^(statement( \d+)?|commit): /, '');
    let m = /^(?:UNIQUE|PRIMARY KEY) constraint failed: (.+)$/.exec(text);
    if (m) {
        const cols = m[1].split(', ').map((c) => c.split('.'));
        const table = cols[0][0];
        const columns = cols.map((c) => c[1]);
        const def = ctx.schema.tables.get(table);
        const isPk = def !== undefined && def.primaryKey.length === columns.length && def.primaryKey.every((c, i) => c === columns[i]);
        const name = isPk
            ? `${table}_pkey`
            : (def?.indexes.find((ix) => ix.unique && ix.columns.join() === columns.join())?.name ??
                `${table}_${columns.join('_')}_key`);
        const key = conflictingKey(ctx, table, columns);
        const detail = key ? `Key (${columns.join(', ')})=(${key.map(keyText).join(', ')}) already exists.` : undefined;
        return new sqlstate_1.PgError('conflict', `duplicate key value violates unique constraint "${name}"`, '23505', detail);
    }
    m = /^NOT NULL constraint failed: (\w+)\.(\w+)$/.exec(text);
    if (m)
        return new sqlstate_1.PgError('conflict', `null value in column "${m[2]}" of relation "${m[1]}" violates not-null constraint`, '23502');
    m = /^CHECK constraint failed: (.+)$/.exec(text);
    if (m) {
        const table = targetTable(ctx.sql) ?? 'unknown';
        const def = ctx.schema.tables.get(table);
        let name = m[1];
        if (!/^\w+$/.test(name) || def?.columns.some((c) => c.name === name)) {
            const used = def
                ? def.columns.filter((c) => new RegExp(`\\b${c.name}\\b`, 'i').test(m[1])).map((c) => c.name)
                : [];
            name = used.length === 1 ? `${table}_${used[0]}_check` : `${table}_check`;
        }
        return new sqlstate_1.PgError('conflict', `new row for relation "${table}" violates check constraint "${name}"`, '23514');
    }
    if (/FOREIGN KEY constraint failed/.test(text)) {
        return new sqlstate_1.PgError('conflict', `insert or update on table "${targetTable(ctx.sql) ?? 'unknown'}" violates foreign key constraint`, '23503');
    }
    return err;
}
const keyText = (v) => v === null ? 'null' : v instanceof Uint8Array ? `\\x${Buffer.from(v).toString('hex')}` : String(v);
/** The table an INSERT, UPDATE or DELETE writes to. */
function targetTable(sql) {
    const sig = (0, lexer_1.lexPg)(sql).filter((t) => t.type !== 'space' && t.type !== 'comment');
    for (let i = 0; i + 1 < sig.length; i++) {
        const w = sig[i].type === 'word' ? sig[i].text.toUpperCase() : '';
        if ((w === 'INTO' || w === 'UPDATE' || (w === 'FROM' && i > 0 && sig[i - 1].text.toUpperCase() === 'DELETE')) &&
            (sig[i + 1].type === 'word' || sig[i + 1].type === 'quoted')) {
            return (0, lexer_1.identName)(sig[i + 1]);
        }
    }
    return null;
}
/**
 * The key of an `INSERT ... VALUES` row that conflicts: the only row's, or the first row whose key
 * already exists or repeats an earlier row's. Null when the statement is of another form or a key is an expression.
 */
function conflictingKey(ctx, table, columns) {
    const sig = (0, lexer_1.lexPg)(ctx.sql).filter((t) => t.type !== 'space' && t.type !== 'comment');
    const into = sig.findIndex((t) => t.type === 'word' && t.text.toUpperCase() === 'INTO');
    if (into < 0 || (0, lexer_1.identName)(sig[into + 1] ?? sig[into]) !== table)
        return null;
    let i = into + 2;
    let names;
    if (sig[i]?.text === '(') {
        names = [];
        for (i++; i < sig.length && sig[i].text !== ')'; i++)
            if (sig[i].text !== ',')
                names.push((0, lexer_1.identName)(sig[i]));
        i++;
    }
    else
        names = ctx.schema.tables.get(table)?.columns.map((c) => c.name.toLowerCase()) ?? [];
    if (sig[i]?.type !== 'word' || sig[i].text.toUpperCase() !== 'VALUES')
        return null;
    const at = columns.map((c) => names.indexOf(c.toLowerCase()));
    if (at.some((k) => k < 0))
        return null;
    const rows = [];
    for (i++; sig[i]?.text === '('; i++) {
        const row = [];
        let item = [];
        let depth = 0;
        for (i++; i < sig.length; i++) {
            const t = sig[i];
            if (depth === 0 && (t.text === ',' || t.text === ')')) {
                row.push(literalValueOf(item, ctx.params));
                item = [];
                if (t.text === ')')
                    break;
                continue;
            }
            if (t.text === '(')
                depth++;
            if (t.text === ')')
                depth--;
            item.push(t);
        }
        const key = at.map((k) => row[k]);
        if (key.some((v) => v === undefined))
            return null;
        rows.push(key);
        if (sig[i + 1]?.text !== ',')
            break;
        i++;
    }
    // one row failing on these columns: its key is the one that exists (in whatever this session sees)
    if (rows.length === 1)
        return rows[0];
    const seen = new Set();
    for (const key of rows) {
        const id = JSON.stringify(key.map(keyText));
        if (seen.has(id) || ctx.keyExists(table, columns, key))
            return key;
        seen.add(id);
    }
    return null;
}
/** The value of a VALUES item that is a literal or a parameter; undefined for an expression. */
function literalValueOf(item, params) {
    const neg = item.length === 2 && item[0].text === '-';
    const t = item.length === 1 ? item[0] : neg ? item[1] : null;
    if (!t)
        return undefined;
    if (t.type === 'number')
        return /^\d+$/.test(t.text) ? (neg ? -BigInt(t.text) : BigInt(t.text)) : Number((neg ? '-' : '') + t.text);
    if (neg)
        return undefined;
    if (t.type === 'string')
        return t.text.slice(1, -1).split("''").join("'");
    if (t.type === 'param')
        return params?.[t.text.slice(1)];
    if (t.type === 'word' && t.text.toUpperCase() === 'NULL')
        return null;
    return undefined;
}
//# sourceMappingURL=constraint-errors.js.map