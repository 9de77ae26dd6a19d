// What the listener (server.ts) gives each connection: its options, what encryption negotiation
// left, and the registry CancelRequest finds connections in.
import type { PgUserStore } from '../../../src/auth/pg-users';
import type { PgCounts } from '../statement-counts';
import type { Connection } from './connection';

export interface ListenerOptions {
  readonly: boolean;
  /** Who may log in (SCRAM-SHA-256), or trust when none is configured. */
  users: PgUserStore;
  /** Refuse a startup that did not come over TLS. */
  requireTls: boolean;
  queryTimeoutMs: number;
  /** Where statements and errors are counted for the metrics. */
  counts?: PgCounts;
  /** The listener is over max_connections: a startup gets 53300 (a cancel request still works). */
  tooMany?: boolean;
  /** Called once the client has logged in (the listener's authentication_timeout stops). */
  onAuthenticated?: () => void;
}

/** What encryption negotiation left: whether the socket is TLS, and bytes already read. */
export interface Handshake {
  tls: boolean;
  rest: Buffer;
  remoteAddress: string;
}

/** Connections by process id, for CancelRequest. */
export interface CancelRegistry {
  add(pid: number, key: number, conn: Connection): void;
  remove(pid: number): void;
  cancel(pid: number, key: number): void;
}
