"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.maintenance = maintenance;
// ANALYZE and VACUUM: ORMs' migration tools, pg_restore scripts and DBAs' habits send them. Patina
// keeps its SQLite file itself (SQLite's planner needs no statistics for the key and index lookups
// the schema declares, and the file is compacted by the agent, not by a statement), so each is
// accepted with PostgreSQL's command tag and does nothing, once the tables it names are checked:
// a table that does not exist is 42P01, as in PostgreSQL.
const libpg_query_1 = require("libpg-query");
const sqlstate_1 = require("../sqlstate");
/** The command tag of an ANALYZE or VACUUM statement; 42P01 for a table the schema does not have. */
function maintenance(sql, schema) {
    let stmt;
    try {
        stmt = (0, libpg_query_1.parseSync)(sql).stmts?.[0]?.stmt?.VacuumStmt;
    }
    catch (err) {
        const e = err;
        throw e.sqlDetails ? (0, sqlstate_1.pgError)('42601', e.message) : err;
    }
    if (!stmt)
        throw (0, sqlstate_1.pgError)('42601', 'syntax error: expected ANALYZE or VACUUM');
    for (const r of stmt.rels ?? []) {
        const rel = r.VacuumRelation?.relation;
        if (!rel)
            continue;
        const schemaName = rel.schemaname;
        const name = String(rel.relname);
        if ((schemaName && schemaName !== 'public') || !schema.tables.has(name.toLowerCase()))
            throw (0, sqlstate_1.pgError)('42P01', `relation "${schemaName ? `${schemaName}.` : ''}${name}" does not exist`);
    }
    return stmt.is_vacuumcmd ? 'VACUUM' : 'ANALYZE';
}
//# sourceMappingURL=maintenance.js.map