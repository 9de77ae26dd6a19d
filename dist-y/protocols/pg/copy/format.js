"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.CopyParser = void 0;
exports.copyError = copyError;
exports.columnConverters = columnConverters;
exports.formatCopyRow = formatCopyRow;
// PostgreSQL's COPY text and CSV formats both ways. COPY FROM STDIN rows are parsed as CopyData
// arrives (records may span messages) and converted to each column's type as PostgreSQL would (a
// bad value is 22P02 naming the line); COPY TO rows are formatted one batch at a time.
const node_string_decoder_1 = require("node:string_decoder");
const dates_1 = require("../../../src/engine/dates");
const pg_array_input_1 = require("../../../src/engine/pg-array-input");
const pg_functions_1 = require("../../../src/engine/pg-functions");
const errors_1 = require("../../../src/errors");
const sqlstate_1 = require("../sqlstate");
const array_1 = require("../types/array");
const element_kind_1 = require("../types/element-kind");
const oids_1 = require("../types/oids");
/** Cuts COPY FROM data into records as it arrives; `\.` on a line of its own ends the data. */
class CopyParser {
    #o;
    #table;
    #decoder = new node_string_decoder_1.StringDecoder('utf8');
    #buf = '';
    #line = 0;
    #ended = false;
    #headerPending;
    constructor(o, table) {
        this.#o = o;
        this.#table = table;
        this.#headerPending = o.header;
    }
    /** The records completed by this chunk. */
    feed(chunk) {
        if (this.#ended)
            return [];
        this.#buf += this.#decoder.write(chunk);
        return this.#records(false);
    }
    /** The last record (data need not end with a newline). */
    end() {
        if (this.#ended)
            return [];
        this.#buf += this.#decoder.end();
        return this.#records(true);
    }
    #records(final) {
        const out = [];
        const csv = this.#o.format === 'csv';
        let start = 0;
        for (;;) {
            if (this.#ended)
                break;
            const end = csv ? csvRecordEnd(this.#buf, start, this.#o) : this.#buf.indexOf('\n', start);
            if (end < 0 && !(final && start < this.#buf.length))
                break;
            const stop = end < 0 ? this.#buf.length : end;
            let raw = this.#buf.slice(start, stop);
            start = end < 0 ? this.#buf.length : end + 1;
            if (raw.endsWith('\r'))
                raw = raw.slice(0, -1);
            const line = ++this.#line;
            if (raw === '\\.') {
                this.#ended = true;
                break;
            }
            if (this.#headerPending) {
                this.#headerPending = false;
                continue;
            }
            const fields = csv ? csvFields(raw, this.#o, line, this.#table) : textFields(raw, this.#o);
            out.push({ fields, line });
            if (csv)
                this.#line += countNewlines(raw);
        }
        this.#buf = this.#buf.slice(start);
        if (final && this.#buf.length > 0 && !this.#ended)
            throw copyError('22P04', 'unterminated CSV quoted field', this.#line + 1, this.#table);
        return out;
    }
}
exports.CopyParser = CopyParser;
function countNewlines(s) {
    let n = 0;
    for (let i = s.indexOf('\n'); i >= 0; i = s.indexOf('\n', i + 1))
        n++;
    return n;
}
/** Where the CSV record starting at `from` ends (its newline outside quotes), or -1 when not yet seen. */
function csvRecordEnd(s, from, o) {
    let quoted = false;
    for (let i = from; i < s.length; i++) {
        const c = s[i];
        if (quoted) {
            if (c === o.escape &&
                (s[i + 1] === o.quote || s[i + 1] === o.escape) &&
                (o.escape !== o.quote || s[i + 1] === o.quote))
                i++;
            else if (c === o.quote)
                quoted = false;
        }
        else if (c === o.quote)
            quoted = true;
        else if (c === '\n')
            return i;
    }
    return -1;
}
function csvFields(raw, o, line, table) {
    const fields = [];
    let f = '';
    let quotedAny = false;
    let quoted = false;
    for (let i = 0; i <= raw.length; i++) {
        const c = raw[i];
        if (quoted) {
            if (c === undefined)
                throw copyError('22P04', 'unterminated CSV quoted field', line, table);
            if (c === o.escape &&
                (raw[i + 1] === o.quote || raw[i + 1] === o.escape) &&
                (o.escape !== o.quote || raw[i + 1] === o.quote)) {
                f += raw[++i];
            }
            else if (c === o.quote)
                quoted = false;
            else
                f += c;
            continue;
        }
        if (c === undefined || c === o.delimiter) {
            fields.push(!quotedAny && f === o.null ? null : f);
            f = '';
            quotedAny = false;
            continue;
        }
        if (c === o.quote) {
            quoted = true;
            quotedAny = true;
        }
        else
            f += c;
    }
    return fields;
}
const TEXT_ESCAPES = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };
function textFields(raw, o) {
    const fields = [];
    let f = '';
    let rawStart = 0;
    for (let i = 0; i <= raw.length; i++) {
        const c = raw[i];
        if (c === undefined || c === o.delimiter) {
            fields.push(raw.slice(rawStart, i) === o.null ? null : f);
            f = '';
            rawStart = i + 1;
            continue;
        }
        if (c !== '\\' || i + 1 >= raw.length) {
            f += c;
            continue;
        }
        const e = raw[++i];
        if (TEXT_ESCAPES[e])
            f += TEXT_ESCAPES[e];
        else if (/[0-7]/.test(e)) {
            const m = /^[0-7]{1,3}/.exec(raw.slice(i))[0];
            f += String.fromCharCode(parseInt(m, 8));
            i += m.length - 1;
        }
        else if (e === 'x' && /[0-9a-fA-F]/.test(raw[i + 1] ?? '')) {
            const m = /^[0-9a-fA-F]{1,2}/.exec(raw.slice(i + 1))[0];
            f += String.fromCharCode(parseInt(m, 16));
            i += m.length;
        }
        else
            f += e;
    }
    return fields;
}
/** A COPY error: PostgreSQL's SQLSTATE and message, with CONTEXT naming the line. */
function copyError(code, message, line, table, column, value) {
    const e = new sqlstate_1.PgError('user', message, code);
    e.where = `COPY ${table}, line ${line}${column !== undefined ? `, column ${column}: ${value === null ? 'null input' : JSON.stringify(value)}` : ''}`;
    return e;
}
const DATED_KINDS = {
    [oids_1.OID.date]: 'date',
    [oids_1.OID.timestamp]: 'timestamp',
    [oids_1.OID.timestamptz]: 'timestamptz',
    [oids_1.OID.time]: 'time',
    [oids_1.OID.interval]: 'interval',
};
/** Converts COPY text to each column's SQLite value as PostgreSQL reads its type; bad text is 22P02. */
function columnConverters(def, columns) {
    return columns.map((name) => {
        const decl = def.columns.find((c) => c.name === name)?.type ?? '';
        const oid = (0, oids_1.oidOfDeclType)(decl);
        const type = oids_1.TYPE_DISPLAY[oid] ?? 'text';
        const t = decl.toLowerCase();
        // dates and times in the form the column keeps (a timestamptz as UTC text), as an INSERT's
        // (before the integers: INTERVAL has "int" in it, and COPY into one was 22P02 for bigint)
        // an array's text as an INSERT stores it ('{1,2}'; BIGINT[] was read as a bigint: 22P02)
        const kind = (0, element_kind_1.declaredElementKind)(decl);
        // in PostgreSQL's form as an INSERT keeps it ('{ a , b }' as '{a,b}'), each element read as its type
        if (kind)
            return (s) => (0, pg_array_input_1.arrayInput)(s, kind);
        if (t.trimEnd().endsWith('[]'))
            return (s) => {
                if (!s.trim().startsWith('{') || (0, array_1.arrayElements)(s) === null)
                    throw (0, errors_1.sqlStateError)('22P02', `malformed array literal: "${s}"`);
                return s;
            };
        const dated = DATED_KINDS[oid];
        // (text that is no value of the type fails the COPY as in PostgreSQL: '2024-02-30' 22008; it was kept)
        if (dated)
            return (s) => (0, dates_1.dateTimeInput)(dated, s);
        if (/int/.test(t))
            return (s) => (0, pg_functions_1.pgInteger)(s, type === 'smallint' || type === 'integer' ? type : 'bigint');
        if (/real|floa|doub/.test(t))
            return (s) => (0, pg_functions_1.pgFloat)(s, type);
        // a type modifier converts as in an INSERT (numeric(p, s) rounded, varchar(n), char(n) checked)
        const mods = (0, oids_1.declaredModifier)(decl);
        if (mods?.type === 'numeric')
            return (s) => (0, pg_functions_1.pgNumericTypmod)(s, mods.precision, mods.scale);
        if (mods)
            return (s) => (0, pg_functions_1.pgCharacters)(s, mods.precision, mods.type === 'char' ? 'character' : 'character varying');
        if (/numeric|decimal/.test(t))
            return (s) => (0, pg_functions_1.pgFloat)(s, 'numeric');
        if (/bool/.test(t)) {
            return (s) => {
                const v = s.trim().toLowerCase();
                if (['t', 'true', 'y', 'yes', 'on', '1'].includes(v))
                    return 1;
                if (['f', 'false', 'n', 'no', 'off', '0'].includes(v))
                    return 0;
                throw (0, errors_1.sqlStateError)('22P02', `invalid input syntax for type boolean: "${s}"`);
            };
        }
        if (/blob|bytea/.test(t)) {
            return (s) => {
                if (!s.startsWith('\\x'))
                    return Buffer.from(s, 'utf8');
                if (!/^[0-9a-fA-F]*$/.test(s.slice(2)) || s.length % 2 !== 0)
                    throw (0, errors_1.sqlStateError)('22P02', 'invalid input syntax for type bytea');
                return Buffer.from(s.slice(2), 'hex');
            };
        }
        return (s) => s;
    });
}
/** One row in COPY TO's text or CSV format, with its newline. `texts` are PostgreSQL's text of each value (null for NULL). */
function formatCopyRow(texts, o) {
    let s = '';
    for (let i = 0; i < texts.length; i++) {
        if (i > 0)
            s += o.delimiter;
        const v = texts[i];
        if (o.format === 'csv') {
            if (v === null)
                s += o.null;
            else if (v === o.null ||
                v.includes(o.delimiter) ||
                v.includes(o.quote) ||
                v.includes('\n') ||
                v.includes('\r') ||
                (o.escape !== o.quote && v.includes(o.escape))) {
                let q = '';
                for (const ch of v)
                    q += ch === o.quote || (ch === o.escape && o.escape !== o.quote) ? o.escape + ch : ch;
                s += o.quote + q + o.quote;
            }
            else
                s += v;
        }
        else if (v === null)
            s += o.null;
        else {
            for (const ch of v) {
                if (ch === '\\')
                    s += '\\\\';
                else if (ch === '\n')
                    s += '\\n';
                else if (ch === '\r')
                    s += '\\r';
                else if (ch === '\t' && o.delimiter !== '\t')
                    s += '\\t';
                else if (ch === o.delimiter)
                    s += '\\' + (ch === '\t' ? 't' : ch);
                else
                    s += ch;
            }
        }
    }
    return s + '\n';
}
//# sourceMappingURL=format.js.map