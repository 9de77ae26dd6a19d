/** What went wrong, so a program can decide what to do without reading the message. */
export type ClientErrorKind =
  | 'request' // the agent refused the request (4xx): bad SQL, bad parameters, unknown table or route
  | 'server' // the agent failed (5xx)
  | 'stream' // the agent sent an {"error": ...} line in the middle of a stream
  | 'network' // the agent could not be reached, or the connection dropped
  | 'gave-up' // a subscription or update stream could not be resumed in the configured time
  | 'aborted' // the caller's AbortSignal fired, or the stream was closed
  | 'protocol'; // the agent's answer was not what the API promises

/** Every error the client library throws: the agent's message, the HTTP status (0 when there was no answer) and a kind. */
export class PatinaError extends Error {
  readonly kind: ClientErrorKind;
  /** The HTTP status of the answer; 0 when no answer came (network, aborted, gave up). */
  readonly status: number;
  /** For a refused transaction: the statement at fault, counted from 1. */
  readonly statement?: number;

  constructor(kind: ClientErrorKind, message: string, status = 0, opts: { statement?: number; cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'PatinaError';
    this.kind = kind;
    this.status = status;
    if (opts.statement !== undefined) this.statement = opts.statement;
  }
}

/** The error of a fetch that threw: the caller's abort, or an agent out of reach. */
export function fetchError(err: unknown, url: string, signal: AbortSignal | undefined): PatinaError {
  if (err instanceof PatinaError) return err;
  if (signal?.aborted) return new PatinaError('aborted', `request to ${url} was aborted`, 0, { cause: signal.reason });
  const e = err as { message?: string; cause?: { message?: string; code?: string } };
  const why = e?.cause?.code ?? e?.cause?.message ?? e?.message ?? String(err);
  return new PatinaError('network', `cannot reach the agent at ${url}: ${why}`, 0, { cause: err });
}
