// Text from clients must be UTF-8, as PostgreSQL's server encoding here: bytes that are not
// (src/engine/utf8.ts finds them) are refused with PostgreSQL's 22021 naming them (they were decoded to U+FFFD and stored so: a LATIN1
// client's é became the replacement character in the table).
import { pgError } from '../sqlstate';

/** PostgreSQL's error for bytes that are no UTF-8. */
export function invalidUtf8(bytes: string): Error {
  return pgError('22021', `invalid byte sequence for encoding "UTF8": ${bytes}`);
}

/**
 * `err` with PostgreSQL's CONTEXT of a Bind parameter (`unnamed portal parameter $1`) when it is an
 * error of the parameter's bytes (22021, 22P05), which PostgreSQL's message does not name.
 */
export function inParameter(err: unknown, portal: string, i: number): unknown {
  const e = err as { sqlstate?: string; where?: string };
  if ((e.sqlstate === '22021' || e.sqlstate === '22P05') && e.where === undefined)
    e.where = portal === '' ? `unnamed portal parameter $${i + 1}` : `portal "${portal}" parameter $${i + 1}`;
  return err;
}
