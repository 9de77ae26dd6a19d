"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.statementCommand = statementCommand;
// The command of a statement that does not begin with its own keyword (`WITH ... UPDATE`, a query in
// parentheses), read off PostgreSQL's parse tree: what CommandComplete's tag and the choice of the
// read or write path follow. The analysis that calls it is cached by statement text.
const libpg_query_1 = require("libpg-query");
const COMMANDS = {
    SelectStmt: 'SELECT',
    InsertStmt: 'INSERT',
    UpdateStmt: 'UPDATE',
    DeleteStmt: 'DELETE',
};
/** SELECT, INSERT, UPDATE or DELETE for a single such statement; null when it is none or does not parse. */
function statementCommand(sql) {
    try {
        const stmts = (0, libpg_query_1.parseSync)(sql).stmts ?? [];
        if (stmts.length !== 1)
            return null;
        const node = stmts[0].stmt;
        return COMMANDS[Object.keys(node ?? {})[0] ?? ''] ?? null;
    }
    catch {
        return null;
    }
}
//# sourceMappingURL=statement-kind.js.map