"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.checkReach = checkReach;
exports.checkReadReach = checkReadReach;
exports.statementKeyword = statementKeyword;
exports.checkWriteStatement = checkWriteStatement;
const errors_1 = require("../errors");
const model_1 = require("./schema/model");
const sql_text_1 = require("./sql-text");
const lru_1 = require("../lru");
// SQLSTATEs of the refusals below, which the PG front end sends.
const INSUFFICIENT_PRIVILEGE = '42501';
const FEATURE_NOT_SUPPORTED = '0A000';
const SCHEMA_WORDS = new Set(['CREATE', 'ALTER', 'DROP']);
const TX_WORDS = new Set(['BEGIN', 'COMMIT', 'END', 'ROLLBACK', 'SAVEPOINT', 'RELEASE']);
const REFUSED_WORDS = new Set(['ATTACH', 'DETACH', 'PRAGMA', 'VACUUM', 'REINDEX', 'ANALYZE']);
/** Statements that reach past the data: other files, the connection's settings. */
const REACH_WORDS = new Set(['ATTACH', 'DETACH', 'PRAGMA']);
/** SQL functions and virtual tables that read or write files or the database's raw pages. */
const REFUSED_FUNCTIONS = new Set([
    'load_extension',
    'readfile',
    'writefile',
    'edit',
    'fts3_tokenizer',
    'sqlite_dbpage',
    'sqlite_dbdata',
    'sqlite_dbptr',
    'zipfile',
    'fsdir',
]);
/**
 * Refuses, in any statement a client sends (read or write, any front end), what reaches past the
 * user's tables: the agent's own `__patina*` tables, other files (ATTACH, load_extension, readfile),
 * and pragmas (the statement and the `pragma_*` table-valued functions).
 */
function checkReach(sql, where) {
    const tokens = (0, sql_text_1.significant)((0, sql_text_1.tokenize)(sql));
    const first = tokens.find((t) => t.type === 'word')?.text.toUpperCase();
    if (first !== undefined && REACH_WORDS.has(first))
        throw new errors_1.PatinaError('user', `${where}: ${first} statements are not accepted`, undefined, INSUFFICIENT_PRIVILEGE);
    for (const t of tokens) {
        if (t.type !== 'word' && t.type !== 'quoted')
            continue;
        const name = (0, sql_text_1.unquoteIdentifier)(t.text).toLowerCase();
        if (name.startsWith(model_1.INTERNAL_PREFIX))
            throw new errors_1.PatinaError('user', `${where}: ${(0, sql_text_1.unquoteIdentifier)(t.text)} is one of the agent's own tables and is not accepted`, undefined, INSUFFICIENT_PRIVILEGE);
        if (name.startsWith('pragma_'))
            throw new errors_1.PatinaError('user', `${where}: ${name} (a pragma) is not accepted`, undefined, INSUFFICIENT_PRIVILEGE);
        if (REFUSED_FUNCTIONS.has(name))
            throw new errors_1.PatinaError('user', `${where}: ${name} (it reaches files or the raw database) is not accepted`, undefined, INSUFFICIENT_PRIVILEGE);
    }
}
const verdicts = new lru_1.Lru(4096);
/** checkReach for a read, remembered per SQL text (point reads repeat the same few statements). */
function checkReadReach(sql, where) {
    let v = verdicts.get(sql);
    if (v === undefined) {
        try {
            checkReach(sql, where);
            v = null;
        }
        catch (err) {
            v = err;
        }
        verdicts.set(sql, v);
    }
    if (v)
        throw v;
}
/** The first keyword of a statement, or a user error if it is empty. */
function statementKeyword(sql, where) {
    const kw = (0, sql_text_1.firstKeyword)(sql);
    if (kw === '')
        throw new errors_1.PatinaError('user', `${where}: empty statement`);
    return kw;
}
/**
 * Refuses statements a write request may not carry: schema changes (they belong in the schema
 * files), transaction control (a request is one transaction already), connection-level commands,
 * and anything naming the agent's own tables.
 */
function checkWriteStatement(sql, where, opts = {}) {
    const known = ACCEPTED.get(sql);
    if (known !== undefined)
        return known; // the same text is accepted again (each write of a hot path is checked twice)
    const kw = statementKeyword(sql, where);
    if (SCHEMA_WORDS.has(kw)) {
        throw new errors_1.PatinaError('user', `${where}: schema statements (${kw}) are not accepted; change the schema files (db.schema_paths) and run \`patina reload\``, undefined, FEATURE_NOT_SUPPORTED);
    }
    if (TX_WORDS.has(kw) && !opts.allowTransactionControl) {
        throw new errors_1.PatinaError('user', `${where}: transaction control (${kw}) is not accepted; the statements of one request already run in one transaction`, undefined, FEATURE_NOT_SUPPORTED);
    }
    if (REFUSED_WORDS.has(kw))
        throw new errors_1.PatinaError('user', `${where}: ${kw} statements are not accepted`, undefined, REACH_WORDS.has(kw) ? INSUFFICIENT_PRIVILEGE : FEATURE_NOT_SUPPORTED);
    checkReach(sql, where);
    if (!TX_WORDS.has(kw)) {
        ACCEPTED.set(sql, kw);
    }
    return kw;
}
/** Statement texts checkWriteStatement accepted (without transaction control), with their keyword. */
const ACCEPTED = new lru_1.Lru(1024);
//# sourceMappingURL=classify.js.map