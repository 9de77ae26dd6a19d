"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.KEY_MARK_DDL = exports.KEY_RULE_MARK = void 0;
exports.isRowidAlias = isRowidAlias;
exports.keyRuleMessage = keyRuleMessage;
exports.keyRuleDdl = keyRuleDdl;
const sql_text_1 = require("../engine/sql-text");
/*
 * The key rule: a replicated row's primary key must be chosen by the writer, never filled in by
 * SQLite. SQLite picks max(rowid) + 1 for an omitted or NULL INTEGER PRIMARY KEY, so two agents
 * writing at once pick the same key and the merge makes their two rows one (the second write is
 * lost). Triggers refuse it in every statement form (VALUES, INSERT ... SELECT, upserts, REPLACE,
 * DEFAULT VALUES), on every front end, because the check sits in the table itself. Other key columns
 * cannot be filled in by SQLite: the schema loader requires every key column to be NOT NULL.
 *
 * An INTEGER PRIMARY KEY (a rowid alias) reads as -1 in a BEFORE INSERT trigger both when SQLite
 * will pick it and when -1 was written; the AFTER INSERT trigger tells the two apart (SQLite's pick
 * is never -1 here), so a real key of -1 stays allowed. The BEFORE trigger notes a -1 in the writer's
 * temp table __patina_key_mark (one row per table, cleared by the next row that reads otherwise),
 * so the common case, a key given, reads one tiny table and writes nothing. TEMP triggers of the
 * writer connection, like capture's (clock-sql.ts).
 */
/** Part of every refusal, so front ends can recognise it (PG maps it to 23502). */
exports.KEY_RULE_MARK = 'the key must be chosen by the writer';
/** Whether the table's one key column is SQLite's rowid (declared INTEGER PRIMARY KEY): SQLite fills it in. */
function isRowidAlias(t) {
    return t.primaryKey.length === 1 && !t.indexes.some((ix) => ix.origin === 'pk');
}
/** The refusal for the INTEGER PRIMARY KEY column of a table. */
function keyRuleMessage(table, column) {
    return `table ${table}: primary key column ${column} was not given a value (or was NULL), so SQLite would pick one that another agent can pick too; ${exports.KEY_RULE_MARK}: give it a value, for example patina_id() (a 63-bit integer no other agent makes) or a UUID text`;
}
/** The writer's temp table of the key rule's notes. */
exports.KEY_MARK_DDL = 'CREATE TEMP TABLE IF NOT EXISTS __patina_key_mark (tbl TEXT PRIMARY KEY) WITHOUT ROWID';
/** DDL of the triggers that enforce the key rule on a table with a primary key. */
function keyRuleDdl(t) {
    const table = `main.${(0, sql_text_1.quoteIdentifier)(t.name)}`;
    const triggerName = (kind) => (0, sql_text_1.quoteIdentifier)(`__patina_${kind}_${t.name}`);
    const trig = (kind) => `temp.${triggerName(kind)}`;
    const ddl = ['keymark', 'keyclear', 'keypick'].map((k) => `DROP TRIGGER IF EXISTS ${trig(k)}`);
    if (!isRowidAlias(t))
        return ddl;
    const col = `NEW.${(0, sql_text_1.quoteIdentifier)(t.primaryKey[0])}`;
    const name = (0, sql_text_1.quoteLiteral)(t.name);
    const marked = `EXISTS (SELECT 1 FROM __patina_key_mark WHERE tbl = ${name})`;
    ddl.push(`CREATE TEMP TRIGGER ${triggerName('keymark')} BEFORE INSERT ON ${table} WHEN ${col} = -1 BEGIN INSERT OR IGNORE INTO __patina_key_mark (tbl) VALUES (${name}); END`, `CREATE TEMP TRIGGER ${triggerName('keyclear')} BEFORE INSERT ON ${table} WHEN ${col} <> -1 AND ${marked} BEGIN DELETE FROM __patina_key_mark WHERE tbl = ${name}; END`, `CREATE TEMP TRIGGER ${triggerName('keypick')} AFTER INSERT ON ${table} WHEN ${col} <> -1 AND ${marked} BEGIN` +
        ` SELECT RAISE(ABORT, ${(0, sql_text_1.quoteLiteral)(keyRuleMessage(t.name, t.primaryKey[0]))}); END`);
    return ddl;
}
//# sourceMappingURL=key-rule.js.map