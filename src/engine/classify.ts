import { PatinaError } from '../errors';
import { INTERNAL_PREFIX } from './schema/model';
import { firstKeyword, significant, tokenize, unquoteIdentifier } from './sql-text';
import { Lru } from '../lru';

// SQLSTATEs of the refusals below, which the PG front end sends.
const INSUFFICIENT_PRIVILEGE = '42501';
const FEATURE_NOT_SUPPORTED = '0A000';

const SCHEMA_WORDS = new Set(['CREATE', 'ALTER', 'DROP']);
const TX_WORDS = new Set(['BEGIN', 'COMMIT', 'END', 'ROLLBACK', 'SAVEPOINT', 'RELEASE']);
const REFUSED_WORDS = new Set(['ATTACH', 'DETACH', 'PRAGMA', 'VACUUM', 'REINDEX', 'ANALYZE']);

/** Statements that reach past the data: other files, the connection's settings. */
const REACH_WORDS = new Set(['ATTACH', 'DETACH', 'PRAGMA']);
/** SQL functions and virtual tables that read or write files or the database's raw pages. */
const REFUSED_FUNCTIONS = new Set([
  'load_extension',
  'readfile',
  'writefile',
  'edit',
  'fts3_tokenizer',
  'sqlite_dbpage',
  'sqlite_dbdata',
  'sqlite_dbptr',
  'zipfile',
  'fsdir',
]);

/**
 * Every word checkReach refuses, lower case, as a substring of the statement's lower-cased text:
 * a name it refuses (unquoted, lower-cased) starts with one of these, and unquoting only drops
 * quotes, so the text holds it too. A text without any needs no tokenizing (most statements).
 */
const REACH_GATE = new RegExp(
  [...REACH_WORDS, INTERNAL_PREFIX, 'pragma_', ...REFUSED_FUNCTIONS]
    .map((w) => w.toLowerCase().replace(/[^a-z0-9_]/g, '\\$&'))
    .join('|'),
);

/**
 * Refuses, in any statement a client sends (read or write, any front end), what reaches past the
 * user's tables: the agent's own `__patina*` tables, other files (ATTACH, load_extension, readfile),
 * and pragmas (the statement and the `pragma_*` table-valued functions).
 */
export function checkReach(sql: string, where: string): void {
  if (!REACH_GATE.test(sql.toLowerCase())) return; // (no word it refuses is written anywhere: nothing to tokenize)
  const tokens = significant(tokenize(sql));
  const first = tokens.find((t) => t.type === 'word')?.text.toUpperCase();
  if (first !== undefined && REACH_WORDS.has(first))
    throw new PatinaError('user', `${where}: ${first} statements are not accepted`, undefined, INSUFFICIENT_PRIVILEGE);
  for (const t of tokens) {
    if (t.type !== 'word' && t.type !== 'quoted') continue;
    const name = unquoteIdentifier(t.text).toLowerCase();
    if (name.startsWith(INTERNAL_PREFIX))
      throw new PatinaError(
        'user',
        `${where}: ${unquoteIdentifier(t.text)} is one of the agent's own tables and is not accepted`,
        undefined,
        INSUFFICIENT_PRIVILEGE,
      );
    if (name.startsWith('pragma_'))
      throw new PatinaError('user', `${where}: ${name} (a pragma) is not accepted`, undefined, INSUFFICIENT_PRIVILEGE);
    if (REFUSED_FUNCTIONS.has(name))
      throw new PatinaError(
        'user',
        `${where}: ${name} (it reaches files or the raw database) is not accepted`,
        undefined,
        INSUFFICIENT_PRIVILEGE,
      );
  }
}

const verdicts = new Lru<string, PatinaError | null>(4096);

/** checkReach for a read, remembered per SQL text (point reads repeat the same few statements). */
export function checkReadReach(sql: string, where: string): void {
  let v = verdicts.get(sql);
  if (v === undefined) {
    try {
      checkReach(sql, where);
      v = null;
    } catch (err) {
      v = err as PatinaError;
    }
    verdicts.set(sql, v);
  }
  if (v) throw v;
}

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
export function checkWriteStatement(
  sql: string,
  where: string,
  opts: { allowTransactionControl?: boolean } = {},
): string {
  const known = ACCEPTED.get(sql);
  if (known !== undefined) return known; // the same text is accepted again (each write of a hot path is checked twice)
  const kw = statementKeyword(sql, where);
  if (SCHEMA_WORDS.has(kw)) {
    throw new PatinaError(
      'user',
      `${where}: schema statements (${kw}) are not accepted; change the schema files (db.schema_paths) and run \`patina reload\``,
      undefined,
      FEATURE_NOT_SUPPORTED,
    );
  }
  if (TX_WORDS.has(kw) && !opts.allowTransactionControl) {
    throw new PatinaError(
      'user',
      `${where}: transaction control (${kw}) is not accepted; the statements of one request already run in one transaction`,
      undefined,
      FEATURE_NOT_SUPPORTED,
    );
  }
  if (REFUSED_WORDS.has(kw))
    throw new PatinaError(
      'user',
      `${where}: ${kw} statements are not accepted`,
      undefined,
      REACH_WORDS.has(kw) ? INSUFFICIENT_PRIVILEGE : FEATURE_NOT_SUPPORTED,
    );
  checkReach(sql, where);
  if (!TX_WORDS.has(kw)) {
    ACCEPTED.set(sql, kw);
  }
  return kw;
}

/** Statement texts checkWriteStatement accepted (without transaction control), with their keyword. */
const ACCEPTED = new Lru<string, string>(1024);
