"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.installReadFunctions = installReadFunctions;
const dates_1 = require("./dates");
const pg_functions_1 = require("./pg-functions");
const errors_1 = require("../errors");
const lru_1 = require("../lru");
/**
 * SQL functions SQLite lacks that users (and the PG dialect's `~`, `~*`) expect, on connections that
 * run reads: `regexp(pattern, value)`, which makes `value REGEXP pattern` work; a pattern starting
 * with `(?i)` matches case-insensitively. Not on the writer: a pathological pattern there would
 * stall every write, while a read worker stuck on one can be killed by its timeout. Also the date
 * functions (dates.ts), which the writer has too.
 */
function installReadFunctions(db) {
    (0, dates_1.installDateFunctions)(db);
    (0, pg_functions_1.installPgFunctions)(db);
    // patina_id() counts on the writer (src/crdt/cluster-ids.ts); a read cannot keep what it hands out.
    db.function('patina_id', { deterministic: false }, () => {
        throw (0, errors_1.sqlStateError)('0A000', 'patina_id() makes a key only in a write, e.g. INSERT INTO t (id, ...) VALUES (patina_id(), ...) RETURNING id');
    });
    const cache = new lru_1.Lru(1000);
    db.function('regexp', { deterministic: true }, (pattern, value) => {
        if (pattern === null || value === null)
            return null;
        const key = String(pattern);
        let re = cache.get(key);
        if (!re) {
            const ci = key.startsWith('(?i)');
            try {
                re = new RegExp(ci ? key.slice(4) : key, ci ? 'i' : '');
            }
            catch (err) {
                // A user error, not a fault of the agent: PostgreSQL's invalid_regular_expression.
                throw (0, errors_1.sqlStateError)('2201B', `REGEXP: ${err.message}`);
            }
            cache.set(key, re);
        }
        return re.test(String(value)) ? 1 : 0;
    });
    // regexp_replace(source, pattern, replacement [, flags]): the first match, every one with 'g';
    // \1..\9 and \& in the replacement as PostgreSQL writes them. JavaScript's regular expressions
    // stand in for PostgreSQL's (the same for the common classes, quantifiers and groups).
    db.function('regexp_replace', { deterministic: true, varargs: true }, (...args) => {
        if (args.length < 3 || args.length > 4)
            throw (0, errors_1.sqlStateError)('42883', 'function regexp_replace takes 3 or 4 arguments (source, pattern, replacement, flags)');
        if (args.some((a) => a === null))
            return null;
        const [source, pattern, replacement, flags = ''] = args.map(String);
        if (/[^gi]/.test(flags))
            throw (0, errors_1.sqlStateError)('22023', `invalid regular expression option: "${flags}"`);
        let re;
        try {
            re = new RegExp(pattern, [...new Set(flags)].join(''));
        }
        catch (err) {
            throw (0, errors_1.sqlStateError)('2201B', `invalid regular expression: ${err.message}`);
        }
        const js = replacement
            .replace(/\$/g, '$$$$')
            .replace(/\\([1-9&\\])/g, (_m, c) => (c === '&' ? '$&' : c === '\\' ? '\\' : `$${c}`));
        return source.replace(re, js);
    });
    const compile = (pattern, flags = '') => {
        const f = String(flags ?? '');
        if (/[^gi]/.test(f))
            throw (0, errors_1.sqlStateError)('22023', `invalid regular expression option: "${f}"`);
        try {
            return new RegExp(String(pattern), [...new Set(f)].join(''));
        }
        catch (err) {
            throw (0, errors_1.sqlStateError)('2201B', `invalid regular expression: ${err.message}`);
        }
    };
    // a match as PostgreSQL's text[]: the groups' texts, or the whole match when the pattern has none
    const matchArray = (m) => (0, pg_functions_1.arrayText)(m.length > 1 ? m.slice(1).map((x) => x ?? null) : [m[0]]);
    // substring(x FROM 'pattern'): the first group's text, else the whole match; NULL for none
    db.function('__pg_substring_regex', { deterministic: true }, (x, p) => {
        if (x === null || p === null)
            return null;
        const m = String(x).match(compile(p));
        return m ? (m.length > 1 ? (m[1] ?? null) : m[0]) : null;
    });
    // regexp_match(s, p [, flags]): the first match as text[], NULL for none
    db.function('regexp_match', { deterministic: true, varargs: true }, (...args) => {
        if (args.length < 2 || args.length > 3)
            throw (0, errors_1.sqlStateError)('42883', 'function regexp_match takes 2 or 3 arguments');
        if (args.some((a) => a === null))
            return null;
        const m = String(args[0]).match(compile(args[1], String(args[2] ?? '').replace('g', '')));
        return m ? matchArray(m) : null;
    });
    // regexp_split_to_array(s, p [, flags]): the texts between matches; a zero-length match at the start,
    // at the end or right after another match splits nothing (as PostgreSQL's)
    const split = (str, p, flags) => {
        const s = String(str);
        const out = [];
        let start = 0;
        let lastEnd = -1;
        for (const m of s.matchAll(compile(p, `${String(flags ?? '').replace('g', '')}g`))) {
            const at = m.index ?? 0;
            if (m[0].length === 0 && (at === 0 || at >= s.length || at === lastEnd))
                continue;
            out.push(s.slice(start, at));
            start = lastEnd = at + m[0].length;
        }
        out.push(s.slice(start));
        return out;
    };
    db.function('regexp_split_to_array', { deterministic: true, varargs: true }, (...args) => {
        if (args.length < 2 || args.length > 3)
            throw (0, errors_1.sqlStateError)('42883', 'function regexp_split_to_array takes 2 or 3 arguments');
        if (args.some((a) => a === null))
            return null;
        return (0, pg_functions_1.arrayText)(split(args[0], args[1], args[2]));
    });
    // regexp_split_to_table(s, p [, flags]): the same texts, one row each
    db.table('regexp_split_to_table', {
        columns: ['value'],
        parameters: ['s', 'p', 'flags'],
        *rows(str, p, flags) {
            if (str === null || p === null || str === undefined || p === undefined)
                return;
            for (const x of split(str, p, flags))
                yield [x];
        },
    });
    // regexp_matches(s, p [, flags]): one row per match ('g': every one), each a text[]
    db.table('__pg_regexp_matches', {
        columns: ['value'],
        parameters: ['s', 'p', 'flags'],
        *rows(str, p, flags) {
            if (str === null || p === null || str === undefined || p === undefined)
                return;
            const f = flags === undefined || flags === null ? '' : String(flags);
            const re = compile(p, f.includes('g') ? f : `${f}g`);
            for (const m of String(str).matchAll(re)) {
                yield [matchArray(m)];
                if (!f.includes('g'))
                    return;
            }
        },
    });
}
//# sourceMappingURL=functions.js.map