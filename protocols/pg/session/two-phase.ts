// Two-phase commit as PostgreSQL 15 answers it with max_prepared_transactions = 0, its default: no
// transaction can be prepared, so PREPARE TRANSACTION in a block rolls the block back and fails with
// 55000 (outside one it is ROLLBACK's warning, in a failed block a ROLLBACK), and COMMIT PREPARED /
// ROLLBACK PREPARED name no prepared transaction (42704; 25001 in a block). It was 0A000 `PREPARE
// TRANSACTION is not supported`, and COMMIT PREPARED ran as COMMIT.
import type { PatinaError } from '../../../src/errors';
import type { PgToken } from '../sql/lexer';
import { pgError } from '../sqlstate';

/** The transaction identifier of PREPARE TRANSACTION, COMMIT PREPARED or ROLLBACK PREPARED at sig[at] ('' if none). */
export function preparedGid(sig: readonly PgToken[], at: number): string {
  const t = sig[at];
  return t?.type === 'string' ? t.text.slice(1, -1).split("''").join("'") : '';
}

/** PREPARE TRANSACTION in a block, after it was rolled back. */
export function preparedTransactionsDisabled(): PatinaError {
  const err = pgError('55000', 'prepared transactions are disabled');
  err.hint = 'Set max_prepared_transactions to a nonzero value.';
  return err;
}

/** COMMIT PREPARED or ROLLBACK PREPARED outside a block: no transaction of that identifier. */
export const noPreparedTransaction = (gid: string): PatinaError =>
  pgError('42704', `prepared transaction with identifier "${gid}" does not exist`);
