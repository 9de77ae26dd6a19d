"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.settingOn = exports.GUC_DEFAULTS = exports.VERSION_TEXT = exports.SERVER_VERSION = void 0;
exports.parseSet = parseSet;
exports.readMode = readMode;
exports.applySetting = applySetting;
exports.showRows = showRows;
// The session's settings (GUCs): their defaults as PostgreSQL 15 reports them, and SET / RESET
// parsed into a name and a value (SHOW reads them back; the connection sends some at startup).
const lexer_1 = require("../sql/lexer");
const sqlstate_1 = require("../sqlstate");
exports.SERVER_VERSION = '15.0';
exports.VERSION_TEXT = `PostgreSQL ${exports.SERVER_VERSION} (Patina) on x86_64-pc-linux-gnu, 64-bit`;
exports.GUC_DEFAULTS = {
    server_version: exports.SERVER_VERSION,
    server_version_num: '150000',
    server_encoding: 'UTF8',
    client_encoding: 'UTF8',
    datestyle: 'ISO, MDY',
    timezone: 'UTC',
    standard_conforming_strings: 'on',
    integer_datetimes: 'on',
    intervalstyle: 'postgres',
    is_superuser: 'on',
    transaction_isolation: 'serializable',
    default_transaction_isolation: 'serializable',
    transaction_read_only: 'off',
    default_transaction_read_only: 'off',
    max_identifier_length: '63',
    search_path: '"$user", public',
    application_name: '',
    lc_collate: 'C.UTF-8',
    lc_ctype: 'C.UTF-8',
    lc_messages: 'C.UTF-8',
    max_connections: '1000',
    statement_timeout: '0',
    extra_float_digits: '1',
    bytea_output: 'hex',
    client_min_messages: 'notice',
    block_size: '4096',
    ssl: 'off',
    default_text_search_config: 'pg_catalog.english',
};
/** SET name TO value / SET name = value / SET TIME ZONE v / RESET name. */
function parseSet(sig) {
    let i = 1;
    const up = (k) => sig[k]?.text.toUpperCase();
    if (up(i) === 'SESSION' || up(i) === 'LOCAL')
        i++;
    if (up(0) === 'RESET')
        return { name: sig[i] ? (0, lexer_1.identName)(sig[i]) : '', value: null };
    if (up(i) === 'TIME' && up(i + 1) === 'ZONE')
        return {
            name: 'timezone',
            value: sig
                .slice(i + 2)
                .map((t) => unquote(t))
                .join(' '),
        };
    // SET TRANSACTION ... READ ONLY (this transaction), SET SESSION CHARACTERISTICS AS TRANSACTION ...
    // READ ONLY (the session's default); their isolation levels are all SERIALIZABLE here
    if (up(i) === 'TRANSACTION' || up(i) === 'CHARACTERISTICS' || up(i) === 'SESSION') {
        const mode = readMode(sig, i);
        if (mode === null)
            return { name: '', value: null };
        return { name: up(i) === 'TRANSACTION' ? 'transaction_read_only' : 'default_transaction_read_only', value: mode };
    }
    const name = sig[i] ? (0, lexer_1.identName)(sig[i]) : '';
    let j = i + 1;
    if (sig[j] && (sig[j].text === '=' || up(j) === 'TO'))
        j++;
    return {
        name,
        value: sig
            .slice(j)
            .map((t) => unquote(t))
            .join(' ')
            .replace(/ , /g, ', '),
    };
}
/** 'on' for READ ONLY, 'off' for READ WRITE among a transaction's modes (BEGIN, SET TRANSACTION), else null. */
function readMode(sig, from = 1) {
    for (let k = from; k < sig.length - 1; k++)
        if (sig[k].text.toUpperCase() === 'READ') {
            const w = sig[k + 1].text.toUpperCase();
            if (w === 'ONLY')
                return 'on';
            if (w === 'WRITE')
                return 'off';
        }
    return null;
}
/** Whether a boolean setting's text is true (on, true, yes, 1, as PostgreSQL reads it). */
const settingOn = (v) => /^\s*(on|true|yes|1|t|y)\s*$/i.test(v ?? '');
exports.settingOn = settingOn;
function unquote(t) {
    if (t.type === 'string')
        return t.text.slice(1, -1).split("''").join("'");
    if (t.type === 'quoted')
        return (0, lexer_1.identName)(t);
    return t.text;
}
/** SET (a value) or RESET (null: the default) of one setting; a nameless one (SET TRANSACTION ...) is ignored. */
function applySetting(settings, s) {
    if (s?.name) {
        if (s.value === null)
            settings.set(s.name, exports.GUC_DEFAULTS[s.name] ?? '');
        else
            settings.set(s.name, s.value);
    }
}
/** SHOW name's rows (SHOW ALL: name, setting, description of each, sorted); 42704 for an unknown name. */
function showRows(settings, name) {
    if (name === 'all')
        return [...settings].sort().map(([k, v]) => [k, v, '']);
    const v = settings.get(name);
    if (v === undefined)
        throw (0, sqlstate_1.pgError)('42704', `unrecognized configuration parameter "${name}"`);
    return [[v]];
}
//# sourceMappingURL=settings.js.map