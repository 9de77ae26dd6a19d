"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.admittedEngine = admittedEngine;
const sqlstate_1 = require("../sqlstate");
/**
 * Backpressure for PostgreSQL writes, as admitWrites is for HTTP: every way a session takes the
 * writer (an autocommit write, a block's statement tried out or its COMMIT, a lease for COPY or a
 * block that holds the writer) first asks the admission. While live subscriptions are behind, the
 * session waits (the client's statement simply takes longer); when that lasts, the statement fails
 * with SQLSTATE 53000 (insufficient_resources) and the session goes on: nothing was written, the
 * connection stays open, and the client may retry.
 */
function admittedEngine(engine, admission) {
    const admit = async () => {
        const refusal = await admission.admitWrite();
        if (refusal)
            throw (0, sqlstate_1.pgError)('53000', refusal.reason, 'unavailable');
    };
    return {
        get schema() {
            return engine.schema;
        },
        writer: engine.writer,
        read: (req) => engine.read(req),
        pointRead: (sql, params) => engine.pointRead(sql, params),
        lease: async () => {
            await admit();
            return engine.lease();
        },
        hold: async (preempted, join) => {
            await admit();
            return engine.hold(preempted, join);
        },
        group: async (run) => {
            await admit();
            return engine.group(run);
        },
        tryOut: async (run, inHold) => {
            await admit();
            return engine.tryOut(run, inHold);
        },
        transaction: async (statements) => {
            await admit();
            return engine.transaction(statements);
        },
    };
}
//# sourceMappingURL=admission.js.map