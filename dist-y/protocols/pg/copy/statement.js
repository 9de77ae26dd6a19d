"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.parseCopy = parseCopy;
// The COPY statement: COPY table [(columns)] FROM STDIN and COPY {table | (query)} TO STDOUT with
// their options (FORMAT text, csv or binary, DELIMITER, NULL, HEADER, QUOTE, ESCAPE), each checked as
// PostgreSQL checks it; other sources and targets (files, programs) are refused.
const lexer_1 = require("../sql/lexer");
const sqlstate_1 = require("../sqlstate");
const word = (t) => (t?.type === 'word' ? t.text.toUpperCase() : '');
const stringValue = (t) => t?.type === 'string' ? t.text.slice(1, -1).split("''").join("'") : null;
/**
 * COPY table [(cols)] FROM STDIN | COPY {table [(cols)] | (query)} TO STDOUT, with options in
 * either spelling: `WITH (FORMAT csv, HEADER, DELIMITER ';')` or psql's `csv header delimiter ';'`.
 * `sig` holds the statement's tokens without spaces and comments; `tokens` with them (for the query).
 */
function parseCopy(sig, tokens) {
    let i = 1;
    let table = null;
    let query = null;
    const columns = [];
    if (sig[i]?.text === '(') {
        let depth = 0;
        let j = i;
        for (; j < sig.length; j++) {
            if (sig[j].text === '(')
                depth++;
            else if (sig[j].text === ')' && --depth === 0)
                break;
        }
        query = tokens.slice(tokens.indexOf(sig[i]) + 1, tokens.indexOf(sig[j]));
        i = j + 1;
    }
    else {
        if (sig[i]?.type !== 'word' && sig[i]?.type !== 'quoted')
            throw (0, sqlstate_1.pgError)('42601', `syntax error at or near "${sig[i]?.text ?? 'end of input'}": COPY needs a table or a (query)`);
        table = (0, lexer_1.identName)(sig[i]);
        if (table === 'public' && sig[i + 1]?.text === '.' && sig[i + 2])
            table = (0, lexer_1.identName)(sig[(i += 2)]);
        i++;
        if (sig[i]?.text === '(') {
            for (i++; i < sig.length && sig[i].text !== ')'; i++)
                if (sig[i].text !== ',')
                    columns.push((0, lexer_1.identName)(sig[i]));
            i++;
        }
    }
    const dir = word(sig[i]);
    if (dir !== 'FROM' && dir !== 'TO')
        throw (0, sqlstate_1.pgError)('42601', `syntax error at or near "${sig[i]?.text ?? 'end of input'}": expected FROM STDIN or TO STDOUT`);
    if (dir === 'FROM' && query)
        throw (0, sqlstate_1.pgError)('42601', 'COPY (query) FROM is not valid: COPY FROM takes a table');
    const target = word(sig[i + 1]);
    if (target !== (dir === 'FROM' ? 'STDIN' : 'STDOUT')) {
        throw (0, sqlstate_1.pgError)('0A000', `COPY ${dir} a file or program on the server is not supported by Patina: use COPY ... ${dir} ${dir === 'FROM' ? 'STDIN' : 'STDOUT'} (psql's \\copy does)`);
    }
    const options = parseOptions(sig.slice(i + 2));
    return { direction: dir === 'FROM' ? 'in' : 'out', table, columns, query, options };
}
function parseOptions(opts) {
    const set = {};
    let binary = false;
    let i = 0;
    if (word(opts[i]) === 'WITH')
        i++;
    const one = (name, t, v) => {
        if (v === null)
            throw (0, sqlstate_1.pgError)('42601', `COPY option ${name} needs a quoted value, got ${t?.text ?? 'nothing'}`);
        return v;
    };
    const apply = (name, t) => {
        // returns how many value tokens the option took
        const v = stringValue(t) ?? (t?.type === 'word' ? t.text.toLowerCase() : null);
        switch (name) {
            case 'FORMAT':
                if (v === 'binary')
                    binary = true;
                else if (v === 'csv' || v === 'text')
                    set.format = v;
                else
                    throw (0, sqlstate_1.pgError)('22023', `COPY format "${v ?? ''}" not recognized`);
                return 1;
            case 'CSV':
                set.format = 'csv';
                return 0;
            case 'BINARY':
                binary = true;
                return 0;
            case 'TEXT':
                set.format = 'text';
                return 0;
            case 'HEADER': {
                if (v === 'match')
                    throw (0, sqlstate_1.pgError)('0A000', 'COPY HEADER MATCH is not supported by Patina');
                const off = v === 'false' || v === 'off' || v === '0';
                const on = v === 'true' || v === 'on' || v === '1';
                set.header = !off;
                return off || on ? 1 : 0;
            }
            case 'DELIMITER':
                set.delimiter = one(name, t, stringValue(t));
                return 1;
            case 'NULL':
                set.null = one(name, t, stringValue(t));
                return 1;
            case 'QUOTE':
                set.quote = one(name, t, stringValue(t));
                return 1;
            case 'ESCAPE':
                set.escape = one(name, t, stringValue(t));
                return 1;
            case 'ENCODING':
                if (!/^utf-?8$/i.test(v ?? ''))
                    throw (0, sqlstate_1.pgError)('0A000', `COPY ENCODING ${v}: Patina reads and writes UTF8 only`);
                return 1;
            case 'FREEZE':
            case 'OIDS':
                return v === 'true' || v === 'false' || v === 'on' || v === 'off' ? 1 : 0;
            default:
                throw (0, sqlstate_1.pgError)('42601', `option "${name.toLowerCase()}" not recognized`);
        }
    };
    if (opts[i]?.text === '(') {
        for (i++; i < opts.length && opts[i].text !== ')';) {
            if (opts[i].text === ',') {
                i++;
                continue;
            }
            const name = (0, lexer_1.identName)(opts[i]).toUpperCase();
            const next = opts[i + 1];
            i += 1 + (next && next.text !== ',' && next.text !== ')' ? apply(name, next) : apply(name, undefined));
        }
    }
    else {
        while (i < opts.length) {
            let name = word(opts[i]);
            i++;
            if (name === 'FORCE')
                throw (0, sqlstate_1.pgError)('0A000', 'COPY FORCE options are not supported by Patina');
            if (word(opts[i]) === 'AS')
                i++;
            if (name === '')
                name = opts[i - 1]?.text ?? '';
            i += apply(name, ['DELIMITER', 'NULL', 'QUOTE', 'ESCAPE', 'ENCODING'].includes(name)
                ? opts[i]
                : word(opts[i]) === 'TRUE' || word(opts[i]) === 'FALSE'
                    ? opts[i]
                    : undefined);
        }
    }
    if (binary) {
        // PostgreSQL's own refusals: the text options mean nothing in binary
        for (const name of ['delimiter', 'null', 'quote', 'escape', 'header'])
            if (set[name] !== undefined && set[name] !== false)
                throw (0, sqlstate_1.pgError)('42601', `cannot specify ${name.toUpperCase()} in BINARY mode`);
        return { format: 'binary', delimiter: '', null: '', quote: '', escape: '', header: false };
    }
    const format = set.format ?? 'text';
    const csv = format === 'csv';
    const o = {
        format,
        delimiter: set.delimiter ?? (csv ? ',' : '\t'),
        null: set.null ?? (csv ? '' : '\\N'),
        quote: set.quote ?? '"',
        escape: set.escape ?? set.quote ?? '"',
        header: set.header ?? false,
    };
    if (o.delimiter.length !== 1)
        throw (0, sqlstate_1.pgError)('0A000', 'COPY delimiter must be a single one-byte character');
    if (csv && (o.quote.length !== 1 || o.escape.length !== 1))
        throw (0, sqlstate_1.pgError)('0A000', 'COPY quote and escape must be single one-byte characters');
    if (!csv && (set.quote !== undefined || set.escape !== undefined))
        throw (0, sqlstate_1.pgError)('0A000', 'COPY QUOTE and ESCAPE are available only in CSV mode');
    if (o.header && !csv && format !== 'text')
        throw (0, sqlstate_1.pgError)('0A000', 'COPY HEADER needs text or CSV mode');
    if (o.delimiter === '\n' || o.delimiter === '\r' || (!csv && o.delimiter === '\\'))
        throw (0, sqlstate_1.pgError)('22023', 'COPY delimiter cannot be newline, carriage return or backslash');
    return o;
}
//# sourceMappingURL=statement.js.map