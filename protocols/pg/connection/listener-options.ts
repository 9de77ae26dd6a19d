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
  /** SCRAM channel binding's data (the certificate's tls-server-end-point hash), when TLS has it. */
  binding?: Buffer | null;
}

/** Connections by process id, for CancelRequest. */
export interface CancelRegistry {
  add(pid: number, key: number, conn: Connection): void;
  remove(pid: number): void;
  cancel(pid: number, key: number): void;
}

/** What pg_stat_activity shows of a connection's statements (times in ms since the epoch). */
export interface Activity {
  backendStart: number;
  xactStart: number | null;
  queryStart: number | null;
  stateChange: number;
  state: 'active' | 'idle' | 'idle in transaction' | 'idle in transaction (aborted)';
  /** The last statement's text (the one running when active). */
  query: string;
}

/** A connection's row of pg_stat_activity. */
export interface ActivityRow extends Activity {
  pid: number;
  user: string;
  database: string;
  applicationName: string;
  clientAddr: string | null;
  clientPort: number | null;
  /** What the session waits for (pg_stat_activity's wait_event_type, wait_event): an advisory lock, pg_sleep; null for nothing. */
  waitEvent: [string, string] | null;
}
