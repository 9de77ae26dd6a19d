import crypto from 'node:crypto';
import { PatinaError } from '../errors';
import { errorFields, log } from './log';

/**
 * An internal error as a client sees it: a short id to quote, never the fault's own message, which
 * may hold another session's SQL, a nonce or a secret. The log line carries the id with the message
 * and stack, so an operator finds it from what the user quotes.
 */
export function internalError(err: unknown, where: string): PatinaError {
  const id = crypto.randomBytes(4).toString('hex');
  log.error({ ...errorFields(err), error_id: id, where }, 'internal error');
  return new InternalError(id);
}

/** The client's side of an internal error: its id and nothing else. */
export class InternalError extends PatinaError {
  readonly errorId: string;
  constructor(id: string) {
    super('internal', `internal error (id ${id}); the agent's log has the details under this id`);
    this.errorId = id;
  }
}

/** The message a client may see for `err`: its own for a user-facing kind, an id for an internal fault. */
export function clientMessage(err: unknown, where: string): string {
  if (err instanceof PatinaError && (err.kind !== 'internal' || err instanceof InternalError)) return err.message;
  return internalError(err, where).message;
}
