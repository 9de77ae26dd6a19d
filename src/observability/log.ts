import pino from 'pino';
import pretty from 'pino-pretty';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
export const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
export type LogFormat = 'text' | 'json';

export interface LogConfig {
  level: LogLevel;
  format: LogFormat;
  /** Reads and writes slower than this are logged at warn. */
  slowQuerySeconds: number;
}

export const DEFAULT_LOG: LogConfig = { level: 'info', format: 'text', slowQuerySeconds: 1 };

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

function build(cfg: LogConfig): pino.Logger {
  const opts: pino.LoggerOptions = {
    level: cfg.level,
    base: { pid: process.pid },
    redact: { paths: REDACT, censor: '[redacted]' },
  };
  // Synchronous writes to stderr: a line logged just before exit is not lost, and stdout stays for the ready line.
  if (cfg.format === 'json') {
    const json = {
      ...opts,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label: string) => ({ level: label }) },
    };
    return pino(json, pino.destination({ fd: 2, sync: true }));
  }
  return pino(
    opts,
    pretty({
      destination: 2,
      sync: true,
      colorize: false,
      singleLine: true,
      translateTime: 'SYS:yyyy-mm-dd HH:MM:ss.l',
      ignore: 'hostname',
    }),
  );
}

/**
 * The agent's logger, the one every module logs through: levels, text or JSON lines on stderr.
 * Replaced by `setupLogging` once the config is read; modules read `log` at each call, so they
 * always use the configured one.
 */
export let log: pino.Logger = build(DEFAULT_LOG);
let slowSeconds = DEFAULT_LOG.slowQuerySeconds;

export function setupLogging(cfg: LogConfig): void {
  log = build(cfg);
  slowSeconds = cfg.slowQuerySeconds;
}

/** Logs a read or write that took longer than the configured threshold (the SQL, never its parameters). */
export function noteQueryTime(kind: 'read' | 'write', sql: string, seconds: number): void {
  if (seconds < slowSeconds) return;
  log.warn(
    { kind, seconds: Math.round(seconds * 1e6) / 1e6, sql: sql.length > 2000 ? `${sql.slice(0, 2000)}...` : sql },
    `slow ${kind}`,
  );
}

/** An error's message and kind for a log line, without its stack unless it is the agent's own fault. */
export function errorFields(err: unknown): Record<string, unknown> {
  const e = err as { message?: string; kind?: string; stack?: string };
  return {
    err: {
      message: e?.message ?? String(err),
      kind: e?.kind,
      ...(e?.kind === undefined || e.kind === 'internal' ? { stack: e?.stack } : {}),
    },
  };
}
