"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.log = exports.DEFAULT_LOG = exports.LOG_LEVELS = void 0;
exports.setupLogging = setupLogging;
exports.noteQueryTime = noteQueryTime;
exports.errorFields = errorFields;
const pino_1 = __importDefault(require("pino"));
const pino_pretty_1 = __importDefault(require("pino-pretty"));
exports.LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
exports.DEFAULT_LOG = { level: 'info', format: 'text', slowQuerySeconds: 1 };
// Whatever a caller passes, these keys never reach the output: the agent's secrets stay out of logs.
const REDACT = [
    'password',
    'token',
    'secret',
    'authorization',
    'params',
    '*.password',
    '*.token',
    '*.secret',
    '*.authorization',
    '*.params',
];
function build(cfg) {
    const opts = {
        level: cfg.level,
        base: { pid: process.pid },
        redact: { paths: REDACT, censor: '[redacted]' },
    };
    // Synchronous writes to stderr: a line logged just before exit is not lost, and stdout stays for the ready line.
    if (cfg.format === 'json') {
        const json = {
            ...opts,
            timestamp: pino_1.default.stdTimeFunctions.isoTime,
            formatters: { level: (label) => ({ level: label }) },
        };
        return (0, pino_1.default)(json, pino_1.default.destination({ fd: 2, sync: true }));
    }
    return (0, pino_1.default)(opts, (0, pino_pretty_1.default)({
        destination: 2,
        sync: true,
        colorize: false,
        singleLine: true,
        translateTime: 'SYS:yyyy-mm-dd HH:MM:ss.l',
        ignore: 'hostname',
    }));
}
/**
 * The agent's logger, the one every module logs through: levels, text or JSON lines on stderr.
 * Replaced by `setupLogging` once the config is read; modules read `log` at each call, so they
 * always use the configured one.
 */
exports.log = build(exports.DEFAULT_LOG);
let slowSeconds = exports.DEFAULT_LOG.slowQuerySeconds;
function setupLogging(cfg) {
    exports.log = build(cfg);
    slowSeconds = cfg.slowQuerySeconds;
}
/** Logs a read or write that took longer than the configured threshold (the SQL, never its parameters). */
function noteQueryTime(kind, sql, seconds) {
    if (seconds < slowSeconds)
        return;
    exports.log.warn({ kind, seconds: Math.round(seconds * 1e6) / 1e6, sql: sql.length > 2000 ? `${sql.slice(0, 2000)}...` : sql }, `slow ${kind}`);
}
/** An error's message and kind for a log line, without its stack unless it is the agent's own fault. */
function errorFields(err) {
    const e = err;
    return {
        err: {
            message: e?.message ?? String(err),
            kind: e?.kind,
            ...(e?.kind === undefined || e.kind === 'internal' ? { stack: e?.stack } : {}),
        },
    };
}
//# sourceMappingURL=log.js.map