/** Statement kinds counted one by one; any other command tag counts as "other". */
const KINDS = new Set(['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'BEGIN', 'COMMIT', 'ROLLBACK', 'SET', 'SHOW', 'SAVEPOINT', 'RELEASE']);

/**
 * What the PG front end did, counted for the metrics (read when scraped): connections accepted and
 * open, statements completed by kind, errors by SQLSTATE class (its first two characters).
 */
export class PgCounts {
  accepted = 0;
  open = 0;
  readonly statements = new Map<string, number>();
  readonly errors = new Map<string, number>();

  /** A statement completed with this command tag. */
  completed(tag: string): void {
    const word = tag.split(' ', 1)[0];
    const kind = KINDS.has(word) ? word.toLowerCase() : word === 'START' ? 'begin' : 'other';
    this.statements.set(kind, (this.statements.get(kind) ?? 0) + 1);
  }

  /** A statement (or message) failed with this SQLSTATE. */
  failed(sqlstate: string): void {
    const cls = /^[0-9A-Z]{2}/.test(sqlstate) ? sqlstate.slice(0, 2) : 'XX';
    this.errors.set(cls, (this.errors.get(cls) ?? 0) + 1);
  }
}
