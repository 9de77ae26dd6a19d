// In a transaction block that failed, PostgreSQL refuses every statement but the ones that end the
// block with 25P02 `current transaction is aborted, commands ignored until end of transaction
// block`, checked right after the statement is parsed and before it is analysed (exec_simple_query
// and exec_parse_message: IsAbortedTransactionBlockState, IsTransactionExitStmt). So a syntax error
// is still its 42601, but a statement naming a column or function that does not exist is 25P02.
// Patina analyses first: such a statement answered its 42703 or 42883, a Parse too (JDBC and
// node-postgres Parse every statement), where a client waiting for 25P02 to roll back saw another.
import { PatinaError } from '../../../src/errors';
import type { PgToken } from '../sql/lexer';
import { pgError, sqlstateOf } from '../sqlstate';
import type { TxState } from './transaction';

/** ROLLBACK [TO ...], ABORT, COMMIT, END, PREPARE TRANSACTION, COMMIT/ROLLBACK PREPARED: what ends or mends the block. */
function exitsBlock(tokens: readonly PgToken[]): boolean {
  const words = tokens.filter((t) => t.type !== 'space' && t.type !== 'comment').slice(0, 2);
  const [a, b] = words.map((t) => (t.type === 'word' ? t.text.toUpperCase() : ''));
  return a === 'ROLLBACK' || a === 'ABORT' || a === 'COMMIT' || a === 'END' || (a === 'PREPARE' && b === 'TRANSACTION');
}

const aborted = () =>
  pgError('25P02', 'current transaction is aborted, commands ignored until end of transaction block');

/**
 * `analyse()` for a statement of a session whose block is `tx`: in a failed block, a statement that
 * does not end it is 25P02 once it parses (its syntax error first, as PostgreSQL's parser runs first).
 */
export function analysedInBlock<T>(tx: TxState, tokens: readonly PgToken[], analyse: () => T): T {
  if (tx !== 'failed' || exitsBlock(tokens)) return analyse();
  try {
    analyse();
  } catch (err) {
    if (err instanceof PatinaError && sqlstateOf(err).code === '42601') throw err;
  }
  throw aborted();
}
