"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.rewriteTypeof = rewriteTypeof;
// pg_typeof(x): PostgreSQL's name of the type the SQL gives x (a literal, a cast, a schema column)
// as a string literal; where the SQL does not tell, __pg_typeof names the type of the value SQLite
// holds when the statement runs.
const oids_1 = require("../../types/oids");
const lexer_1 = require("../lexer");
const tokens_1 = require("../tokens");
/** PostgreSQL's display names of types as a cast spells them (what pg_typeof answers). */
const TYPEOF_NAMES = {
    int: 'integer',
    int4: 'integer',
    integer: 'integer',
    serial: 'integer',
    int2: 'smallint',
    smallint: 'smallint',
    int8: 'bigint',
    bigint: 'bigint',
    bigserial: 'bigint',
    float4: 'real',
    real: 'real',
    float8: 'double precision',
    float: 'double precision',
    'double precision': 'double precision',
    numeric: 'numeric',
    decimal: 'numeric',
    bool: 'boolean',
    boolean: 'boolean',
    text: 'text',
    varchar: 'character varying',
    'character varying': 'character varying',
    char: 'character',
    character: 'character',
    bpchar: 'character',
    name: 'name',
    date: 'date',
    time: 'time without time zone',
    timestamp: 'timestamp without time zone',
    timestamptz: 'timestamp with time zone',
    timetz: 'time with time zone',
    interval: 'interval',
    json: 'json',
    jsonb: 'jsonb',
    uuid: 'uuid',
    bytea: 'bytea',
    oid: 'oid',
    regclass: 'regclass',
};
/**
 * pg_typeof(x): the type the SQL gives x (a literal, a cast, a schema column) as a string; otherwise
 * __pg_typeof, which names the type of the value SQLite holds.
 */
function rewriteTypeof(toks, ctx) {
    for (let i = toks.length - 2; i >= 0; i--) {
        if (!(0, tokens_1.isWord)(toks[i], 'PG_TYPEOF') || !(0, tokens_1.isPunct)(toks[i + 1], '(') || (0, tokens_1.isPunct)(toks[i - 1], '.'))
            continue;
        const close = (0, tokens_1.closerAfter)(toks, i + 1);
        const arg = toks.slice(i + 2, close);
        // the type the parse tree gives the argument (sql/typed-operators.ts marked it), else the tokens'
        const mark = toks[i].arith;
        const marked = mark?.startsWith('typeof:') ? mark.slice(7) : undefined;
        const known = marked ?? staticType(arg, ctx);
        if (known)
            toks.splice(i, close - i + 1, { type: 'string', text: (0, lexer_1.quoteString)(known) });
        else
            toks[i] = { type: 'word', text: '__pg_typeof' };
    }
    return toks;
}
function staticType(arg, ctx) {
    if (arg.length === 0)
        return null;
    const lit = arg.length === 2 && ((0, tokens_1.isOp)(arg[0], '-') || (0, tokens_1.isOp)(arg[0], '+')) ? arg[1] : arg.length === 1 ? arg[0] : null;
    if (lit?.type === 'number') {
        if (!/^\d+$/.test(lit.text))
            return 'numeric';
        const n = BigInt(lit.text);
        return n <= 2147483647n ? 'integer' : n <= 9223372036854775807n ? 'bigint' : 'numeric';
    }
    if (lit?.type === 'string')
        return 'unknown';
    if (lit && ((0, tokens_1.isWord)(lit, 'TRUE') || (0, tokens_1.isWord)(lit, 'FALSE')))
        return 'boolean';
    let depth = 0;
    let cast = -1;
    for (let k = 0; k < arg.length; k++) {
        if ((0, tokens_1.isPunct)(arg[k], '('))
            depth++;
        else if ((0, tokens_1.isPunct)(arg[k], ')'))
            depth--;
        else if (depth === 0 && (0, tokens_1.isOp)(arg[k], '::'))
            cast = k;
    }
    if (cast > 0) {
        const { name, isArray, end } = (0, tokens_1.readType)(arg, cast + 1);
        if (end === arg.length && TYPEOF_NAMES[name])
            return TYPEOF_NAMES[name] + (isArray ? '[]' : '');
        return null;
    }
    const ident = (t) => t !== undefined && (t.type === 'word' || t.type === 'quoted');
    if (ctx.columnType &&
        (arg.length === 1 || (arg.length === 3 && (0, tokens_1.isPunct)(arg[1], '.'))) &&
        arg.every((t, k) => (k % 2 === 0 ? ident(t) : true))) {
        const column = (0, lexer_1.identName)(arg[arg.length - 1]);
        const decl = ctx.columnType(arg.length === 3 ? (0, lexer_1.identName)(arg[0]) : null, column);
        if (decl !== null) {
            const oid = (0, oids_1.oidOfDeclType)(decl);
            return oids_1.TYPE_DISPLAY[oid] ?? 'text'; // as RowDescription types the column
        }
    }
    return null;
}
//# sourceMappingURL=typeof.js.map