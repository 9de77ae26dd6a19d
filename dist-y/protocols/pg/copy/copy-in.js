"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.copyIntoTable = copyIntoTable;
const errors_1 = require("../../../src/errors");
const constraint_errors_1 = require("../session/constraint-errors");
const sqlstate_1 = require("../sqlstate");
const format_1 = require("./format");
/**
 * Where the records of a COPY go, on a lease already begun (or the open block's, `inBlock`): the
 * INSERT `sql` prepared once, `convert` per column; a failure inside a block calls `failBlock`.
 */
function copyIntoTable(p) {
    const { lease, inBlock, schema, table, columns, oids, sql, convert, failBlock } = p;
    // prepared once for the whole COPY (lease.run would look it up per row)
    let insert;
    try {
        insert = lease.db.prepare(sql.replace(/\$\d+/g, '?'));
    }
    catch (err) {
        if (!inBlock)
            lease.release();
        throw (0, errors_1.fromSqliteError)(err);
    }
    let count = 0;
    let open = true;
    const end = (commit) => {
        if (!open)
            return;
        open = false;
        if (inBlock) {
            if (!commit)
                failBlock();
            return;
        }
        try {
            if (commit)
                lease.commit();
            else
                lease.rollback();
        }
        finally {
            lease.release();
        }
    };
    return {
        table,
        columns,
        oids,
        insert: (fields, line) => {
            if (fields.length > columns.length)
                throw (0, format_1.copyError)('22P04', 'extra data after last expected column', line, table);
            if (fields.length < columns.length)
                throw (0, format_1.copyError)('22P04', `missing data for column "${columns[fields.length]}"`, line, table);
            const values = new Array(fields.length);
            for (let k = 0; k < fields.length; k++) {
                const f = fields[k];
                try {
                    values[k] = f === null ? null : convert[k](f);
                }
                catch (err) {
                    const e = err;
                    throw (0, format_1.copyError)(e.sqlstate ?? '22P02', e.message, line, table, columns[k], f);
                }
            }
            try {
                insert.run(values);
            }
            catch (err) {
                const params = {};
                values.forEach((v, k) => (params[k + 1] = v));
                const e = (0, constraint_errors_1.pgConstraintError)((0, errors_1.fromSqliteError)(err), {
                    schema,
                    sql,
                    params,
                    keyExists: (t, cols, values) => lease.db
                        .prepare(`SELECT 1 FROM "${t}" WHERE ${cols.map((c) => `"${c}" = ?`).join(' AND ')}`)
                        .get(...values) !== undefined,
                });
                const state = e instanceof sqlstate_1.PgError ? undefined : (0, sqlstate_1.sqlstateOf)(e);
                const pe = state ? new sqlstate_1.PgError('user', state.message.replace(/^statement: /, ''), state.code) : e;
                pe.where = `COPY ${table}, line ${line}`;
                throw pe;
            }
            count++;
        },
        finish: () => {
            end(true);
            return count;
        },
        abort: () => end(false),
    };
}
//# sourceMappingURL=copy-in.js.map