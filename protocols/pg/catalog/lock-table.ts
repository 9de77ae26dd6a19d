// LOCK TABLE: pg_dump takes ACCESS SHARE on every table it dumps, so that no DDL runs under it.
// Patina's schema changes only at a reload, which waits for no reader, and every read sees one
// snapshot of the SQLite file: ACCESS SHARE holds already. Stronger modes would promise to block
// writers, which Patina cannot do from one front end, so they are refused.
import type { PgToken } from '../sql/lexer';
import { pgError } from '../sqlstate';

/** The command tag of a LOCK statement Patina honours; a 0A000 error naming the mode otherwise. */
export function lockTable(sig: PgToken[]): string {
  const words = sig.map((t) => t.text.toUpperCase());
  const inAt = words.indexOf('IN');
  const mode = inAt < 0 ? 'ACCESS EXCLUSIVE' : words.slice(inAt + 1, words.lastIndexOf('MODE')).join(' ');
  if (mode !== 'ACCESS SHARE')
    throw pgError('0A000', `LOCK TABLE ... IN ${mode} MODE is not supported: Patina can only take ACCESS SHARE`);
  return 'LOCK TABLE';
}
