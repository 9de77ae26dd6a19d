// A transaction's modes may change only before its first query, as PostgreSQL's check hooks of
// transaction_isolation, transaction_read_only and transaction_deferrable allow: once a statement
// took the transaction's snapshot (a query, not SET, SHOW, transaction control, LOCK, FETCH,
// LISTEN, NOTIFY), `SET TRANSACTION ISOLATION LEVEL` to another level than the transaction's is
// 25001 `must be called before any query`, `READ WRITE` of a read-only one and `[NOT] DEFERRABLE`
// likewise, and in a savepoint (a subtransaction) they are 25001 too. Patina accepted them all.
// The level is the one asked for (BEGIN's, SET TRANSACTION's, else default_transaction_isolation
// as PostgreSQL's, read committed), though every transaction here is serializable (one writer).
import type { Analyzed } from '../sql/analyzed';
import { pgError } from '../sqlstate';
import { GUC_DEFAULTS, settingOn } from './settings';

/** Whether a statement takes its transaction's snapshot (PostgreSQL's PlannedStmtRequiresSnapshot). */
export function takesSnapshot(an: Analyzed): boolean {
  switch (an.kind) {
    case 'empty':
    case 'begin':
    case 'commit':
    case 'rollback':
    case 'savepoint':
    case 'set':
    case 'show':
    case 'fetch':
    case 'listen':
    case 'unlisten':
      return false;
    case 'notify':
      return an.columns !== null; // (SELECT pg_notify(...); NOTIFY is none)
    case 'noop':
      return !an.command.startsWith('LOCK') && an.command !== 'CHECKPOINT';
    default:
      return true;
  }
}

/** Whether Parse of a statement takes one (PostgreSQL's analyze_requires_snapshot). */
export function parseTakesSnapshot(an: Analyzed): boolean {
  return an.kind === 'sql' || an.kind === 'declare' || an.kind === 'explain';
}

/**
 * The level a new transaction asks for: default_transaction_isolation as the session set it, else
 * PostgreSQL's default (Patina shows serializable, the level every transaction has here).
 */
export function defaultIsolation(settings: ReadonlyMap<string, string>): string {
  const d = settings.get('default_transaction_isolation')?.trim().toLowerCase();
  return d === undefined || d === GUC_DEFAULTS.default_transaction_isolation ? 'read committed' : d;
}

/** Where in its transaction a change of its modes comes. */
export interface ModeChange {
  /** A statement of the transaction took its snapshot. */
  snapshot: boolean;
  /** Savepoints open (PostgreSQL's subtransactions). */
  savepoints: number;
  /** The transaction's isolation level as asked for, and whether it is read-only. */
  isolation: string;
  readOnly: boolean;
}

/** The isolation level a statement asks its transaction for (BEGIN, SET TRANSACTION, SET transaction_isolation); undefined if none. */
export function isolationAsked(s: Analyzed['setting']): string | undefined {
  if (s?.isolation?.name === 'transaction_isolation') return s.isolation.value;
  if (s?.name === 'transaction_isolation' && s.value !== null) return s.value.trim().toLowerCase();
  return undefined;
}

/** A change of the transaction's modes that PostgreSQL's check hooks refuse where `at` says it comes: 25001. */
export function checkModes(s: NonNullable<Analyzed['setting']>, at: ModeChange): void {
  const level = isolationAsked(s);
  // (check_transaction_isolation: to the transaction's own level is no change)
  if (level !== undefined && level !== at.isolation) {
    if (at.snapshot) throw pgError('25001', 'SET TRANSACTION ISOLATION LEVEL must be called before any query');
    if (at.savepoints > 0)
      throw pgError('25001', 'SET TRANSACTION ISOLATION LEVEL must not be called in a subtransaction');
  }
  // (check_transaction_read_only: READ WRITE of a read-only transaction)
  if (s.name === 'transaction_read_only' && s.value !== null && !settingOn(s.value) && at.readOnly) {
    if (at.savepoints > 0)
      throw pgError('25001', 'cannot set transaction read-write mode inside a read-only transaction');
    if (at.snapshot) throw pgError('25001', 'transaction read-write mode must be set before any query');
  }
  // (check_transaction_deferrable)
  if (s.deferrable?.name === 'transaction_deferrable' || (s.name === 'transaction_deferrable' && s.value !== null)) {
    if (at.savepoints > 0)
      throw pgError('25001', 'SET TRANSACTION [NOT] DEFERRABLE cannot be called within a subtransaction');
    if (at.snapshot) throw pgError('25001', 'SET TRANSACTION [NOT] DEFERRABLE must be called before any query');
  }
}
