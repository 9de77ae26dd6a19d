"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.InternalError = void 0;
exports.internalError = internalError;
exports.clientMessage = clientMessage;
const node_crypto_1 = __importDefault(require("node:crypto"));
const errors_1 = require("../errors");
const log_1 = require("./log");
/**
 * An internal error as a client sees it: a short id to quote, never the fault's own message, which
 * may hold another session's SQL, a nonce or a secret. The log line carries the id with the message
 * and stack, so an operator finds it from what the user quotes.
 */
function internalError(err, where) {
    const id = node_crypto_1.default.randomBytes(4).toString('hex');
    log_1.log.error({ ...(0, log_1.errorFields)(err), error_id: id, where }, 'internal error');
    return new InternalError(id);
}
/** The client's side of an internal error: its id and nothing else. */
class InternalError extends errors_1.PatinaError {
    errorId;
    constructor(id) {
        super('internal', `internal error (id ${id}); the agent's log has the details under this id`);
        this.errorId = id;
    }
}
exports.InternalError = InternalError;
/** The message a client may see for `err`: its own for a user-facing kind, an id for an internal fault. */
function clientMessage(err, where) {
    if (err instanceof errors_1.PatinaError && (err.kind !== 'internal' || err instanceof InternalError))
        return err.message;
    return internalError(err, where).message;
}
//# sourceMappingURL=internal-error.js.map