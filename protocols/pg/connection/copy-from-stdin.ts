// COPY FROM STDIN on the wire: the session takes the writer and says where the rows go, the
// connection answers CopyInResponse, and then every message is CopyData (parsed into rows as it
// comes), CopyDone, CopyFail, or something that ends the COPY; a client that stops sending is cut
// off after api.query_timeout, since it holds the writer.
import { BinaryCopyParser } from '../copy/binary';
import { CopyParser } from '../copy/format';
import type { CopyIn } from '../copy/copy-in';
import type { Session } from '../session/session';
import type { Analyzed } from '../sql/analyzed';
import { pgError } from '../sqlstate';
import { backend } from '../wire/backend';
import type { Frontend } from '../wire/frontend';
import type { Output } from './output';

/** What runs once the COPY ends: the rest of the simple query (err null), or its end with the error. */
export type AfterCopy = (err: unknown) => void | Promise<void>;

/** COPY FROM STDIN in progress: where the rows go, and what runs after it. */
interface CopyInState {
  target: CopyIn;
  parser: CopyParser | BinaryCopyParser;
  /** Ends a COPY whose client stopped sending (it holds the writer). */
  idle: NodeJS.Timeout;
  resume: AfterCopy;
}

export class CopyFromStdin {
  readonly #out: Output;
  readonly #timeoutMs: number;
  readonly #closed: () => boolean;
  /** Terminate during COPY: the connection ends. */
  readonly #terminate: () => void;
  #state: CopyInState | null = null;

  constructor(out: Output, timeoutMs: number, closed: () => boolean, terminate: () => void) {
    this.#out = out;
    this.#timeoutMs = timeoutMs;
    this.#closed = closed;
    this.#terminate = terminate;
  }

  /** A COPY FROM STDIN is running: every message is the COPY's. */
  get active(): boolean {
    return this.#state !== null;
  }

  /** Takes the writer, answers CopyInResponse; the rows come as CopyData. */
  start(session: Session, an: Analyzed, resume: AfterCopy): Promise<void> {
    return session.copyIn(an).then((target) => {
      if (this.#closed()) {
        target.abort();
        return;
      }
      const timeoutMs = this.#timeoutMs;
      const idle = setTimeout(() => {
        if (this.#state !== state || this.#closed()) return;
        this.#state = null;
        target.abort();
        void state.resume(
          pgError(
            '57014',
            `COPY from stdin received no data for ${timeoutMs / 1000} s (api.query_timeout) and was rolled back: it held the writer`,
          ),
        );
        this.#out.flush();
      }, timeoutMs);
      idle.unref();
      let parser: CopyInState['parser'];
      try {
        parser =
          an.copy!.stmt.options.format === 'binary'
            ? new BinaryCopyParser(target.oids, target.table, target.columns, this.#out.w.charset)
            : new CopyParser(an.copy!.stmt.options, target.table, target.columns, this.#out.w.charset);
      } catch (err) {
        // a FORCE option naming a column the COPY does not have (42P10): nothing was read yet
        clearTimeout(idle);
        target.abort();
        return resume(err);
      }
      const state: CopyInState = {
        target,
        parser,
        idle,
        resume,
      };
      this.#state = state;
      backend.copyResponse(this.#out.w, 'G', target.columns.length, an.copy!.stmt.options.format === 'binary');
    }, resume);
  }

  /** A message while COPY FROM STDIN runs: data, its end, or its failure; anything else ends the COPY. */
  onMessage(msg: Frontend): void | Promise<void> {
    const copy = this.#state!;
    copy.idle.refresh();
    const fail = (err: unknown) => {
      this.#state = null;
      clearTimeout(copy.idle);
      copy.target.abort();
      return copy.resume(err);
    };
    try {
      switch (msg.type) {
        case 'copyData':
          for (const r of copy.parser.feed(msg.data)) copy.target.insert(r.fields, r.line);
          return;
        case 'copyDone': {
          for (const r of copy.parser.end()) copy.target.insert(r.fields, r.line);
          this.#state = null;
          clearTimeout(copy.idle);
          const n = copy.target.finish();
          this.#out.completeTag(`COPY ${n}`);
          return copy.resume(null);
        }
        case 'copyFail':
          return fail(pgError('57014', `COPY from stdin failed: ${msg.message}`));
        case 'flush':
        case 'sync':
          return; // ignored during COPY, as the protocol says
        case 'terminate':
          fail(pgError('08P01', 'the client terminated during COPY from stdin'));
          this.#terminate();
          return;
        default:
          return fail(pgError('08P01', `unexpected message type during COPY from stdin (${msg.type})`));
      }
    } catch (err) {
      return fail(err);
    }
  }

  /** The connection closed: the COPY's rows are rolled back. */
  abort() {
    const copy = this.#state;
    this.#state = null;
    if (!copy) return;
    clearTimeout(copy.idle);
    copy.target.abort();
  }
}
