"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.inferParamTypes = inferParamTypes;
const registry_1 = require("../types/registry");
const oids_1 = require("../types/oids");
const lexer_1 = require("./lexer");
/**
 * Parameter types from where each $n stands: compared with, assigned to or inserted into a column
 * (that column's type), cast (the cast's type), LIMIT/OFFSET (int8). 0 when nothing tells.
 */
function inferParamTypes(sig, schema, n, declared) {
    const types = Array.from({ length: n }, (_, i) => declared[i] ?? 0);
    if (types.every((t) => t !== 0))
        return types;
    const tables = [];
    for (let i = 0; i + 1 < sig.length; i++) {
        if (['FROM', 'JOIN', 'INTO', 'UPDATE'].includes(sig[i].text.toUpperCase()) &&
            schema.tables.has((0, lexer_1.identName)(sig[i + 1])))
            tables.push((0, lexer_1.identName)(sig[i + 1]));
    }
    const colType = (name) => {
        for (const t of [...tables, ...schema.tables.keys()]) {
            const c = schema.tables.get(t).columns.find((c) => c.name.toLowerCase() === name);
            if (c)
                return (0, oids_1.oidOfDeclType)(c.type);
        }
        return 0;
    };
    const cmp = new Set(['=', '<>', '!=', '<', '>', '<=', '>=', 'LIKE', 'ILIKE']);
    const set = (t, oid) => {
        const k = Number(t.text.slice(1)) - 1;
        if (k >= 0 && k < n && types[k] === 0 && oid !== 0)
            types[k] = oid;
    };
    for (let i = 0; i < sig.length; i++) {
        const t = sig[i];
        if (t.type !== 'param')
            continue;
        const prev = sig[i - 1];
        const next = sig[i + 1];
        if (next?.text === '::' && sig[i + 2]) {
            const at = (0, lexer_1.identName)(sig[i + 2] ?? t) === 'pg_catalog' ? i + 4 : i + 2;
            const name = (0, lexer_1.identName)(sig[at] ?? t);
            const oid = oids_1.PG_TYPES.find((r) => r[1] === name)?.[0] ?? (0, oids_1.oidOfDeclType)(name);
            // `$1::oid[]` (asyncpg's type lookup) is an array of the type
            set(t, sig[at + 1]?.text === '[' && sig[at + 2]?.text === ']' ? ((0, registry_1.arrayOidOf)(oid) ?? oids_1.OID.text) : oid);
        }
        if (prev &&
            cmp.has(prev.text.toUpperCase()) &&
            sig[i - 2] &&
            (sig[i - 2].type === 'word' || sig[i - 2].type === 'quoted'))
            set(t, colType((0, lexer_1.identName)(sig[i - 2])));
        if (next &&
            cmp.has(next.text.toUpperCase()) &&
            sig[i + 2] &&
            (sig[i + 2].type === 'word' || sig[i + 2].type === 'quoted'))
            set(t, colType((0, lexer_1.identName)(sig[i + 2])));
        if (prev && ['LIMIT', 'OFFSET'].includes(prev.text.toUpperCase()))
            set(t, oids_1.OID.int8);
    }
    // INSERT INTO t (a, b) VALUES ($1, $2), ($3, $4)
    const into = sig.findIndex((t) => t.text.toUpperCase() === 'INTO');
    if (into >= 0 && sig[into + 2]?.text === '(') {
        const table = schema.tables.get((0, lexer_1.identName)(sig[into + 1]));
        const cols = [];
        let i = into + 3;
        for (; i < sig.length && sig[i].text !== ')'; i++)
            if (sig[i].text !== ',')
                cols.push((0, lexer_1.identName)(sig[i]));
        if (table && sig[i + 1]?.text.toUpperCase() === 'VALUES') {
            let pos = 0;
            let depth = 0;
            for (let k = i + 2; k < sig.length; k++) {
                const t = sig[k];
                if (t.text === '(') {
                    depth++;
                    if (depth === 1)
                        pos = 0;
                }
                else if (t.text === ')')
                    depth--;
                else if (t.text === ',' && depth === 1)
                    pos++;
                else if (t.type === 'param' && depth === 1) {
                    const c = table.columns.find((c) => c.name.toLowerCase() === cols[pos]);
                    if (c)
                        set(t, (0, oids_1.oidOfDeclType)(c.type));
                }
                else if (depth === 0 && t.type === 'word')
                    break;
            }
        }
    }
    return types;
}
//# sourceMappingURL=param-types.js.map