// Startup and authentication, before any query: the startup packet read into what the connection
// does next (refuse a second encryption request, pass a CancelRequest on, refuse the client, or
// log it in by trust or SCRAM-SHA-256), the SASL messages of the SCRAM exchange, and the
// ParameterStatus values a client receives once it is in. Each step is a value the connection acts
// on, so the wording of every refusal is here, in PostgreSQL's words.
import { ScramExchange } from './scram';
import {
  CANCEL_REQUEST,
  GSSENC_REQUEST,
  PROTOCOL_3,
  type Reader,
  SSL_REQUEST,
  parseStartupParams,
} from '../wire/frontend';
import type { Handshake, ListenerOptions } from './listener-options';
import { reportedValue } from '../session/settings';

/** What the connection does with a startup packet. */
export type StartupStep =
  /** SSLRequest or GSSENCRequest once encryption was negotiated: answered N. */
  | { kind: 'no-encryption' }
  | { kind: 'cancel'; pid: number; key: number }
  | { kind: 'fatal'; code: string; message: string }
  /** Logged in (trust) or to log in by SCRAM (`scram` set; `readonly` for a user of the read role). */
  | { kind: 'login'; params: Record<string, string>; scram: ScramExchange | null; readonly: boolean };

/** Reads the startup packet (the body after its length). */
export function readStartup(r: Reader, opts: ListenerOptions, handshake: Handshake): StartupStep {
  const code = r.i32();
  if (code === SSL_REQUEST || code === GSSENC_REQUEST) return { kind: 'no-encryption' };
  if (code === CANCEL_REQUEST) {
    const pid = r.i32();
    const key = r.i32();
    return { kind: 'cancel', pid, key };
  }
  if (code >> 16 !== 3)
    return fatal('0A000', `unsupported frontend protocol ${code >> 16}.${code & 0xffff}: server supports 3.0`);
  if (opts.tooMany) {
    if (opts.counts) opts.counts.tooMany++;
    return fatal('53300', 'sorry, too many clients already');
  }
  void PROTOCOL_3;
  const params = parseStartupParams(r);
  const user = params.user;
  if (!user) return fatal('28000', 'no PostgreSQL user name specified in startup packet');
  if (opts.requireTls && !handshake.tls) {
    // PostgreSQL's answer when pg_hba.conf has only hostssl lines
    const db = params.database || user;
    return fatal(
      '28000',
      `no pg_hba.conf entry for host "${handshake.remoteAddress.replace(/^::ffff:/, '')}", user "${user}", database "${db}", no encryption`,
    );
  }
  if (opts.users.mode === 'scram') {
    const principal = opts.users.lookup(user);
    // an unknown user goes through the same exchange and fails as a wrong password would
    const scram = new ScramExchange(principal?.secret ?? opts.users.decoy, principal !== null, handshake.binding);
    return { kind: 'login', params, scram, readonly: opts.readonly || principal?.role === 'read' };
  }
  return { kind: 'login', params, scram: null, readonly: opts.readonly };
}

/** What the connection does with a SASL message: send the server's message, or refuse. */
export type SaslStep =
  | { kind: 'fatal'; code: string; message: string; detail?: string }
  | { kind: 'continue'; data: string }
  | { kind: 'final'; data: string };

/** Reads SASLInitialResponse (`initial`) or SASLResponse of the SCRAM exchange for `user`. */
export function readSasl(r: Reader, scram: ScramExchange, initial: boolean, user: string): SaslStep {
  const denied = () => fatal('28P01', `password authentication failed for user "${user}"`);
  if (initial) {
    const mechanism = r.cstr();
    const len = r.i32();
    const first = scram.first(mechanism, r.bytes(len).toString('utf8'));
    if (first === null) return denied();
    if (typeof first !== 'string') return { kind: 'fatal', ...first };
    return { kind: 'continue', data: first };
  }
  const final = scram.final(r.rest().toString('utf8'));
  if (final === null) return denied();
  if (typeof final !== 'string') return { kind: 'fatal', ...final };
  return { kind: 'final', data: final };
}

/**
 * The ParameterStatus values sent after AuthenticationOk, as PostgreSQL 15 sends them (`settings`:
 * the session's, its login's applied: PGCLIENTENCODING, PGDATESTYLE, a TimeZone parameter, PGOPTIONS'
 * -c). The reported settings' values are the ones the session compares with for later changes.
 */
export function startupParameters(
  params: Record<string, string>,
  readonly: boolean,
  settings: ReadonlyMap<string, string> = new Map(),
): [string, string][] {
  return [
    ['server_version', '15.0'],
    ['server_encoding', 'UTF8'],
    ['client_encoding', reportedValue(settings, 'client_encoding')],
    ['DateStyle', reportedValue(settings, 'datestyle')],
    ['integer_datetimes', 'on'],
    ['standard_conforming_strings', 'on'],
    ['TimeZone', reportedValue(settings, 'timezone')],
    ['IntervalStyle', reportedValue(settings, 'intervalstyle')],
    ['application_name', settings.get('application_name') ?? params.application_name ?? ''],
    ['is_superuser', 'on'],
    ['session_authorization', params.user],
    ['default_transaction_read_only', readonly ? 'on' : reportedValue(settings, 'default_transaction_read_only')],
    ['in_hot_standby', 'off'],
  ];
}

function fatal(code: string, message: string): { kind: 'fatal'; code: string; message: string } {
  return { kind: 'fatal', code, message };
}
