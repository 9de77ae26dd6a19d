import { PatinaError } from '../errors';
import { INTERNAL_PREFIX } from './schema/model';
import { firstKeyword, significant, tokenize, unquoteIdentifier } from './sql-text';

const SCHEMA_WORDS = new Set(['CREATE', 'ALTER', 'DROP']);
const TX_WORDS = new Set(['BEGIN', 'COMMIT', 'END', 'ROLLBACK', 'SAVEPOINT', 'RELEASE']);
const REFUSED_WORDS = new Set(['ATTACH', 'DETACH', 'PRAGMA', 'VACUUM', 'REINDEX', 'ANALYZE']);

/** The first keyword of a statement, or a user error if it is empty. */
export function statementKeyword(sql: string, where: string): string {
  const kw = firstKeyword(sql);
  if (kw === '') throw new PatinaError('user', `${where}: empty statement`);
  return kw;
}

/**
 * Refuses statements a write request may not carry: schema changes (they belong in the schema
 * files), transaction control (a request is one transaction already), connection-level commands,
 * and anything naming the agent's own tables.
 */
export function checkWriteStatement(sql: string, where: string, opts: { allowTransactionControl?: boolean } = {}): string {
  const known = ACCEPTED.get(sql);
  if (known !== undefined) return known; // the same text is accepted again (each write of a hot path is checked twice)
  const kw = statementKeyword(sql, where);
  if (SCHEMA_WORDS.has(kw)) {
    throw new PatinaError('user', `${where}: schema statements (${kw}) are not accepted; change the schema files (db.schema_paths) and run \`patina reload\``);
  }
  if (TX_WORDS.has(kw) && !opts.allowTransactionControl) {
    throw new PatinaError('user', `${where}: transaction control (${kw}) is not accepted; the statements of one request already run in one transaction`);
  }
  if (REFUSED_WORDS.has(kw)) throw new PatinaError('user', `${where}: ${kw} statements are not accepted`);
  for (const t of significant(tokenize(sql))) {
    if ((t.type === 'word' || t.type === 'quoted') && unquoteIdentifier(t.text).toLowerCase().startsWith(INTERNAL_PREFIX)) {
      throw new PatinaError('user', `${where}: ${unquoteIdentifier(t.text)} is one of the agent's own tables and cannot be written`);
    }
  }
  if (!TX_WORDS.has(kw)) {
    if (ACCEPTED.size >= ACCEPTED_MAX) ACCEPTED.delete(ACCEPTED.keys().next().value as string);
    ACCEPTED.set(sql, kw);
  }
  return kw;
}

/** Statement texts checkWriteStatement accepted (without transaction control), oldest first. */
const ACCEPTED = new Map<string, string>();
const ACCEPTED_MAX = 1024;
