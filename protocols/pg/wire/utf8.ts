// Text from clients must be UTF-8, as PostgreSQL's server encoding here: bytes that are not
// (src/engine/utf8.ts finds them) are refused with PostgreSQL's 22021 naming them (they were decoded to U+FFFD and stored so: a LATIN1
// client's é became the replacement character in the table).
import { pgError } from '../sqlstate';

/** PostgreSQL's error for bytes that are no UTF-8. */
export function invalidUtf8(bytes: string): Error {
  return pgError('22021', `invalid byte sequence for encoding "UTF8": ${bytes}`);
}
