"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.columnDefinitions = columnDefinitions;
exports.introspect = introspect;
const sql_text_1 = require("../sql-text");
const model_1 = require("./model");
const CONSTRAINT_WORDS = new Set(['CONSTRAINT', 'PRIMARY', 'UNIQUE', 'CHECK', 'FOREIGN']);
/**
 * Cuts the column definitions out of a CREATE TABLE statement, keyed by column name, so that a new
 * column can be added with exactly the text the schema file gave it.
 */
function columnDefinitions(createSql) {
    const toks = (0, sql_text_1.tokenize)(createSql);
    const out = new Map();
    let depth = 0;
    let partStart = -1;
    const flush = (end) => {
        if (partStart < 0)
            return;
        const text = createSql.slice(partStart, end).trim();
        const sig = (0, sql_text_1.significant)((0, sql_text_1.tokenize)(text));
        if (sig.length > 0 && !(sig[0].type === 'word' && CONSTRAINT_WORDS.has(sig[0].text.toUpperCase()))) {
            out.set((0, sql_text_1.unquoteIdentifier)(sig[0].text), text);
        }
    };
    for (const t of toks) {
        if (t.type !== 'punct')
            continue;
        if (t.text === '(') {
            depth++;
            if (depth === 1)
                partStart = t.start + 1;
        }
        else if (t.text === ')') {
            if (depth === 1) {
                flush(t.start);
                partStart = -1;
            }
            depth--;
        }
        else if (t.text === ',' && depth === 1) {
            flush(t.start);
            partStart = t.start + 1;
        }
    }
    return out;
}
/** Reads the schema tables of a database (all tables but SQLite's and the agent's own). */
function introspect(db, where = () => ({ file: '', line: 0 })) {
    const tables = new Map();
    const rows = db
        .prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'table' ORDER BY name")
        .safeIntegers(false)
        .all();
    for (const { name, sql } of rows) {
        if ((0, model_1.isInternalName)(name))
            continue;
        const defs = columnDefinitions(sql);
        const info = db.prepare('SELECT * FROM pragma_table_info(?)').safeIntegers(false).all(name);
        const columns = info.map((c) => ({
            name: c.name,
            type: c.type,
            notNull: c.notnull === 1,
            defaultSql: c.dflt_value,
            pk: c.pk,
            definition: defs.get(c.name) ?? `"${c.name}" ${c.type}`,
        }));
        const primaryKey = columns
            .filter((c) => c.pk > 0)
            .sort((a, b) => a.pk - b.pk)
            .map((c) => c.name);
        const indexes = [];
        const list = db.prepare('SELECT * FROM pragma_index_list(?)').safeIntegers(false).all(name);
        for (const ix of list) {
            const cols = db.prepare('SELECT name FROM pragma_index_info(?) ORDER BY seqno').safeIntegers(false).all(ix.name).map((r) => r.name ?? '<expr>');
            const ixSql = db
                .prepare("SELECT sql FROM sqlite_schema WHERE type = 'index' AND name = ?")
                .safeIntegers(false)
                .get(ix.name)?.sql ?? '';
            indexes.push({
                name: ix.name,
                table: name,
                unique: ix.unique === 1,
                columns: cols,
                origin: ix.origin,
                sql: ixSql,
            });
        }
        const w = where(name);
        tables.set(name, { name, columns, primaryKey, indexes, sql, file: w.file, line: w.line });
    }
    return { tables };
}
//# sourceMappingURL=introspect.js.map