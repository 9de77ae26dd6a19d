// What a connection sends: every backend message goes into one ByteWriter, written to the socket
// in one write per turn of reading (or sooner once it grows large, waiting for a slow reader);
// statement errors and command tags are written here, and counted for the metrics.
import type net from 'node:net';
import { sqlstateOf } from '../sqlstate';
import type { PgCounts } from '../statement-counts';
import { ByteWriter, backend } from '../wire/backend';

/** Output past this many bytes is written before the next message is handled. */
export const OUT_HIGH_WATER = 64 * 1024;

export class Output {
  readonly w = new ByteWriter();
  readonly #socket: net.Socket;
  readonly #counts: PgCounts | undefined;
  /** Called when the socket's buffer fills or drains (the connection stops or resumes reading). */
  readonly #onBlocked: () => void;
  readonly #closed: () => boolean;
  #blocked = false;

  constructor(socket: net.Socket, counts: PgCounts | undefined, onBlocked: () => void, closed: () => boolean) {
    this.#socket = socket;
    this.#counts = counts;
    this.#onBlocked = onBlocked;
    this.#closed = closed;
  }

  /** The socket's writes wait for the client to read. */
  get blocked(): boolean {
    return this.#blocked;
  }

  /** Writes what is buffered in one socket write. */
  flush() {
    if (this.w.length === 0 || this.#closed()) return;
    if (this.#socket.write(this.w.take()) || this.#blocked) return;
    this.#blocked = true;
    this.#onBlocked();
    this.#socket.once('drain', () => {
      this.#blocked = false;
      this.#onBlocked();
    });
  }

  /** Flushes and, when the socket's buffer is full, waits for it to drain (a slow reader of a big result). */
  async flushAndWait() {
    this.flush();
    if (!this.#blocked || this.#closed()) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        this.#socket.off('drain', done);
        this.#socket.off('close', done);
        resolve();
      };
      this.#socket.on('drain', done);
      this.#socket.on('close', done);
    });
  }

  /** Writes the output once it is large, waiting for a slow reader to take it. */
  drain(): void | Promise<void> {
    if (this.w.length > OUT_HIGH_WATER) return this.flushAndWait();
  }

  /** CommandComplete, counted. */
  completeTag(tag: string) {
    this.#counts?.completed(tag);
    backend.commandComplete(this.w, tag);
  }

  /**
   * A statement's ErrorResponse, counted; `sql` is the text it came in (Query, Parse), for the
   * error's position, and `statementAt` where the statement starts in it.
   */
  sendError(err: unknown, sql?: string, statementAt = 0) {
    const { code, message, detail, hint, where, object, position: at, positionName, unplaced } = sqlstateOf(err);
    this.#counts?.failed(code);
    const text = message.replace(/^(statement( \d+)?|commit): /, '');
    const position =
      sql === undefined || unplaced
        ? undefined
        : at !== undefined
          ? String([...sql.slice(0, statementAt + at)].length + 1)
          : namePosition(code, text, sql, positionName);
    try {
      backend.error(this.w, {
        severity: 'ERROR',
        severityV: 'ERROR',
        code,
        message: text,
        detail,
        hint,
        ...(position ? { position } : {}),
        where,
        ...object,
      });
    } catch (err) {
      // a character the client's encoding has none for: that error (22P05) instead, as PostgreSQL's
      backend.error(this.w, { severity: 'ERROR', severityV: 'ERROR', ...this.#untranslatable(err) });
    }
  }

  /** A WARNING notice (one the client's encoding cannot hold: its 22P05 as the notice). */
  warn(code: string, message: string) {
    try {
      backend.error(this.w, { severity: 'WARNING', severityV: 'WARNING', code, message }, 'N');
    } catch (err) {
      backend.error(this.w, { severity: 'WARNING', severityV: 'WARNING', ...this.#untranslatable(err) }, 'N');
    }
  }

  /** The 22P05 of a message the client's encoding cannot hold (its words are ASCII). */
  #untranslatable(err: unknown): { code: string; message: string } {
    const { code, message } = sqlstateOf(err);
    if (code !== '22P05') throw err;
    return { code, message };
  }
}

/**
 * Where the name an unknown-relation, unknown-column or ambiguous-column error (or an unknown type's or schema's
 * given as a string) names first stands in the statement's
 * text (1-based characters, as PostgreSQL's position; psql then prints `LINE 1:` with a caret under
 * it); undefined when the error names none or the text does not hold it.
 */
function namePosition(code: string, message: string, sql: string, positionName?: string): string | undefined {
  // a type or schema named by a string ('nope'::regtype, 'nope'::regnamespace): PostgreSQL points at the literal
  const named = /^(?:type|schema) "(.+)" does not exist$/.exec(message)?.[1];
  if ((code === '42704' || code === '3F000') && named !== undefined) {
    const at = sql.indexOf(`'${named.replace(/'/g, "''")}'`);
    return at < 0 ? undefined : String([...sql.slice(0, at)].length + 1);
  }
  if (code !== '42703' && code !== '42P01' && code !== '42702') return undefined;
  const m =
    /^column "(.+?)"(?: of relation "(?:.+)")? does not exist$/.exec(message) ??
    /^column reference "(.+?)" is ambiguous$/.exec(message) ??
    /^column (\S+) does not exist$/.exec(message) ??
    /^relation "(.+)" does not exist$/.exec(message);
  // an ORDER BY or GROUP BY name two items have: the name as a term of that clause
  const clause = /^(ORDER|GROUP) BY "(.+?)" is ambiguous$/.exec(message);
  if (clause) {
    const term = clause[2].replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const masked = sql.replace(/'(?:[^']|'')*'/g, (q) => ' '.repeat(q.length));
    const at = new RegExp(`(?<=\\b${clause[1]}\\s+BY(?:\\s|\\s[^;]*?,)\\s*)"?${term}"?(?![\\w$])`, 'i').exec(masked);
    return at ? String([...sql.slice(0, at.index)].length + 1) : undefined;
  }
  if (!m) return undefined;
  const name = (positionName ?? m[1]).replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\\\./g, '\\s*\\.\\s*');
  // (string literals blanked out, lengths kept: the name is looked for in the SQL around them)
  const masked = sql.replace(/'(?:[^']|'')*'/g, (q) => ' '.repeat(q.length));
  const at =
    new RegExp(`(?<![\\w$"])"?${name}"?(?![\\w$])`, 'i').exec(masked) ??
    // a relation named by a string ('nope'::regclass): PostgreSQL points at the literal
    (code === '42P01' ? new RegExp(`'${name}'`).exec(sql) : null);
  return at ? String([...sql.slice(0, at.index)].length + 1) : undefined;
}
