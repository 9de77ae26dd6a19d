// One client connection: the protocol state machine. Bytes in → messages (wire/frontend.ts tables)
// → one handler per message in the current phase (startup and SASL: startup.ts; then a simple query:
// simple-query.ts; the extended protocol's Parse, Bind, Describe and Close: extended-query.ts, and
// Execute, Sync, Flush here; COPY FROM STDIN: copy-from-stdin.ts) → backend messages out
// (output.ts), flushed at Sync, Flush, the end of a simple query, or when the output grows large;
// the socket is not read while the client leaves our answers unread or a waiting message has much
// input behind it. Portals run in run-portal.ts.
import crypto from 'node:crypto';
import type net from 'node:net';
import type { LocalDb } from '../catalog/local-db';
import type { ScramExchange } from './scram';
import type { Channels, Listener } from '../session/notifications';
import type { PgEngine } from '../session/engine';
import { pipelineContinues } from '../session/pipeline-transaction';
import { Session } from '../session/session';
import { applySetting, startupSettings } from '../session/settings';
import { pgError, sqlstateOf } from '../sqlstate';
import { backend } from '../wire/backend';
import { type Frontend, MAX_MESSAGE, MAX_STARTUP, ProtocolError, Reader, decoders } from '../wire/frontend';
import { charsetOf } from '../../../src/engine/encodings/client-encodings';
import type { Activity, ActivityRow, CancelRegistry, Handshake, ListenerOptions } from './listener-options';
import { readSasl, readStartup, startupParameters } from './startup';
import { CopyFromStdin } from './copy-from-stdin';
import { ExtendedQuery } from './extended-query';
import { type Notification, NotificationQueue } from './notification-queue';
import { Output } from './output';
import { PortalRunner } from './run-portal';
import { SimpleQuery } from './simple-query';

type Phase = 'startup' | 'sasl-initial' | 'sasl-final' | 'ready' | 'closed';

/** What a logged-in connection's messages go to; made at login, with its session. */
interface Queries {
  session: Session;
  simple: SimpleQuery;
  extended: ExtendedQuery;
  runner: PortalRunner;
}

/** Input read while a message waits (a write, a streamed read) before the socket stops being read. */
const INPUT_HIGH_WATER = 256 * 1024;
const NO_BYTES = Buffer.alloc(0);
/** #nextMessage's answers besides a type byte. */
const NO_MESSAGE = -1;
const STARTUP_PACKET = 0;
/** The type byte of PasswordMessage (and SASL's responses), 'p'. */
const PASSWORD = 0x70;
let nextPid = 1000 + (process.pid % 1000) * 1000;

export class Connection {
  readonly pid = nextPid++;
  readonly key = crypto.randomBytes(4).readInt32BE(0);
  readonly #socket: net.Socket;
  readonly #engine: PgEngine;
  readonly #local: LocalDb;
  readonly #opts: ListenerOptions;
  readonly #registry: CancelRegistry;
  readonly #out: Output;
  #phase: Phase = 'startup';
  /** Bytes read and not yet handled, from #at on. */
  #input: Buffer = NO_BYTES;
  #at = 0;
  /** The body of the message being handled. */
  readonly #reader = new Reader(NO_BYTES);
  /** Handling messages, or waiting for one to finish (the later ones wait in #input). */
  #pumping = false;
  #paused = false;
  #startup: Record<string, string> = {};
  #scram: ScramExchange | null = null;
  /** The logged-in user's role decides, with the listener, whether writes are refused. */
  #readonly = false;
  readonly #handshake: Handshake;
  /** After an error in the extended protocol: messages up to Sync are skipped. */
  #skipping = false;
  #queries: Queries | null = null;
  readonly #copyIn: CopyFromStdin;
  readonly #channels: Channels;
  readonly #notifications: NotificationQueue;
  readonly #listener: Listener = {
    pid: this.pid,
    deliver: (channel, payload, pid) => this.#queueNotification({ channel, payload, pid }),
    channelEnded: (channel, why) =>
      this.#queueNotification({ channel, payload: `LISTEN ${channel} ended: ${why}`, pid: 0, notice: true }),
  };

  constructor(
    socket: net.Socket,
    engine: PgEngine,
    local: LocalDb,
    opts: ListenerOptions,
    registry: CancelRegistry,
    handshake: Handshake,
    channels: Channels,
  ) {
    this.#channels = channels;
    this.#socket = socket;
    this.#engine = engine;
    this.#local = local;
    this.#opts = opts;
    this.#readonly = opts.readonly;
    this.#registry = registry;
    this.#handshake = handshake;
    const closed = () => this.#phase === 'closed';
    this.#out = new Output(socket, opts.counts, () => this.#flow(), closed);
    this.#notifications = new NotificationQueue(this.#out);
    this.#copyIn = new CopyFromStdin(this.#out, opts.queryTimeoutMs, closed, () => {
      this.#socket.end();
      this.#close();
    });
    socket.setNoDelay(true);
    socket.on('data', (d) => this.#onData(d));
    socket.on('error', () => this.#close());
    socket.on('close', () => this.#close());
    if (handshake.rest.length > 0) this.#onData(handshake.rest);
  }

  /** What pg_stat_activity shows of this connection (its last statement, its state, since when). */
  readonly #activity: Activity = {
    backendStart: Date.now(),
    xactStart: null,
    queryStart: null,
    stateChange: Date.now(),
    state: 'idle',
    query: '',
  };
  /** The text of each prepared statement, and the statement of the unnamed and named portals (for #activity). */
  readonly #statementText = new Map<string, string>();
  #unnamedPortalStatement = '';
  readonly #portalStatements = new Map<string, string>();

  /** This connection's row of pg_stat_activity (null before login). */
  activity(): ActivityRow | null {
    const q = this.#queries;
    if (!q) return null;
    const a = this.#activity;
    return {
      pid: this.pid,
      user: this.#startup.user,
      database: q.session.facts.database,
      applicationName: q.session.facts.settings.get('application_name') ?? '',
      // (a Unix-domain socket's client has no address, and port -1, as PostgreSQL shows it)
      clientAddr: this.#handshake.remoteAddress === '[local]' ? null : (this.#socket.remoteAddress ?? null),
      clientPort: this.#handshake.remoteAddress === '[local]' ? -1 : (this.#socket.remotePort ?? null),
      // (an idle session waits for its client, as PostgreSQL shows it)
      waitEvent: q.session.waitEvent ?? (a.state.startsWith('idle') ? ['Client', 'ClientRead'] : null),
      ...a,
    };
  }

  /** pg_terminate_backend: the connection ends, its transaction rolled back, as when the client goes. */
  terminate(): void {
    this.#fatal('57P01', 'terminating connection due to administrator command');
  }

  #active(query: string) {
    const a = this.#activity;
    a.query = query;
    a.state = 'active';
    a.queryStart = a.stateChange = Date.now();
  }

  /** CancelRequest for this connection. */
  cancel(): void {
    this.#queries?.session.cancel();
  }

  #onData(d: Buffer) {
    if (this.#phase === 'closed') return;
    this.#input = this.#at >= this.#input.length ? d : Buffer.concat([this.#input.subarray(this.#at), d]);
    this.#at = 0;
    if (this.#pumping)
      this.#flow(); // a message is waiting: the rest stays read but unhandled
    else this.#pump();
  }

  /**
   * Handles the complete messages of the input in order, where they lie (no copy, no queue),
   * synchronously for as long as each answers synchronously: a pipelined Bind/Describe/Execute/Sync
   * of a point read costs no promise. A message that has to wait (a write, a streamed read) suspends
   * the loop until it is done; nothing is flushed meanwhile, as in PostgreSQL the answers go out
   * together (a write's BindComplete alone is of no use to the client, and costs a send). What one
   * turn of reading produced goes out in one write.
   */
  #pump() {
    if (this.#pumping) return;
    this.#pumping = true;
    while (this.#phase !== 'closed') {
      let r: void | Promise<void>;
      try {
        const type = this.#nextMessage();
        if (type === NO_MESSAGE) break;
        r = this.#handle(type, this.#reader);
      } catch (err) {
        this.#onFatal(err);
        continue;
      }
      if (r) {
        r.catch((err) => this.#onFatal(err)).finally(() => {
          this.#pumping = false;
          this.#pump();
          this.#flow();
        });
        return;
      }
    }
    this.#pumping = false;
    if (this.#at >= this.#input.length) {
      this.#input = NO_BYTES; // let the chunk go
      this.#at = 0;
    }
    this.#out.flush();
  }

  /**
   * The next complete message's type byte (STARTUP_PACKET for the startup packet, which has none),
   * with the reader set on its body; NO_MESSAGE when the input holds no complete message yet.
   */
  #nextMessage(): number {
    const input = this.#input;
    const at = this.#at;
    const left = input.length - at;
    if (this.#phase === 'startup') {
      if (left < 4) return NO_MESSAGE;
      const len = input.readInt32BE(at);
      if (len < 8 || len > MAX_STARTUP) throw new ProtocolError(`invalid length of startup packet (${len} bytes)`);
      if (left < len) return NO_MESSAGE;
      this.#reader.reset(input, at + 4, at + len);
      this.#at = at + len;
      return STARTUP_PACKET;
    }
    if (left < 1) return NO_MESSAGE;
    const type = input[at];
    // PostgreSQL refuses an unknown type byte before reading a body that may never come
    if (this.#phase === 'ready' ? decoders[type] === undefined : type !== PASSWORD)
      throw new ProtocolError(`invalid frontend message type ${type}`);
    if (left < 5) return NO_MESSAGE;
    const len = input.readInt32BE(at + 1);
    if (len < 4 || len > MAX_MESSAGE)
      throw new ProtocolError(`invalid message length ${len} (the limit is ${MAX_MESSAGE} bytes)`);
    if (left < len + 1) return NO_MESSAGE;
    this.#reader.reset(input, at + 5, at + 1 + len);
    this.#at = at + 1 + len;
    return type;
  }

  /**
   * Reads the socket or not: not while the client leaves our answers unread (as PostgreSQL, which
   * blocks in send), nor while a waiting message has more than INPUT_HIGH_WATER bytes behind it.
   */
  #flow() {
    if (this.#phase === 'closed') return;
    const hold = this.#out.blocked || (this.#pumping && this.#input.length - this.#at > INPUT_HIGH_WATER);
    if (hold === this.#paused) return;
    this.#paused = hold;
    if (hold) this.#socket.pause();
    else this.#socket.resume();
  }

  #onFatal(err: unknown) {
    if (err instanceof ProtocolError) this.#fatal('08P01', err.message);
    else {
      const { code, message } = sqlstateOf(err);
      this.#fatal(code, message);
    }
  }

  #fatal(code: string, message: string, detail?: string) {
    if (this.#phase === 'closed') return;
    backend.error(this.#out.w, { severity: 'FATAL', severityV: 'FATAL', code, message, detail });
    this.#out.flush();
    this.#socket.end();
    this.#close();
  }

  #close() {
    if (this.#phase === 'closed') return;
    this.#phase = 'closed';
    this.#input = NO_BYTES;
    this.#at = 0;
    this.#channels.unlistenAll(this.#listener);
    this.#notifications.clear();
    this.#copyIn.abort();
    this.#queries?.extended.dropPortals();
    this.#queries?.session.close();
    this.#registry.remove(this.pid);
    this.#socket.destroySoon?.();
  }

  #handle(type: number, body: Reader): void | Promise<void> {
    switch (this.#phase) {
      case 'startup':
        return this.#onStartup(body);
      case 'sasl-initial':
      case 'sasl-final':
        if (type !== PASSWORD)
          throw new ProtocolError(
            `expected a password message, got message type ${JSON.stringify(String.fromCharCode(type))}`,
          );
        return this.#onSasl(body);
      case 'ready': {
        const decode = decoders[type];
        if (!decode) throw new ProtocolError(`invalid frontend message type ${type}`);
        const msg = decode(body);
        const bad = body.textError;
        if (bad !== null && (msg.type === 'query' || msg.type === 'parse' || msg.type === 'bind') && !this.#skipping) {
          // statement text or a parameter that is no text in the client's encoding: PostgreSQL's 22021
          // (or 22P05: a byte WIN1252 has no character for), as a statement's error; the connection goes on
          if (msg.type === 'query') this.#queries!.simple.fail(msg.sql, bad);
          else this.#onError(bad, msg);
          return this.#out.drain();
        }
        if (this.#copyIn.active) return this.#copyIn.onMessage(msg);
        // CopyData, CopyDone and CopyFail after a COPY ended with an error: the client's rest, ignored
        if (msg.type === 'copyData' || msg.type === 'copyDone' || msg.type === 'copyFail') return;
        if (this.#skipping && msg.type !== 'sync' && msg.type !== 'terminate') return;
        // biome-ignore lint/complexity/noUselessUndefinedInitialization: assigned in try and read after its catch
        let r: void | Promise<void> = undefined;
        try {
          r = this.#onMessage(msg, this.#queries!);
        } catch (err) {
          this.#onError(err, msg);
        }
        if (r)
          return r.then(
            () => this.#out.drain(),
            (err) => (this.#onError(err, msg), this.#out.drain()),
          );
        return this.#out.drain();
      }
    }
  }

  /** A statement's error: sent, and in the extended protocol the rest up to Sync is skipped. */
  #onError(err: unknown, msg: Frontend) {
    if (err instanceof ProtocolError) throw err;
    this.#out.sendError(err, msg.type === 'parse' ? msg.sql : undefined);
    if (msg.type === 'query') return;
    this.#skipping = true;
    // (the pipeline's implicit transaction rolls back at Sync, its settings too: pipeline-transaction.ts)
    this.#queries?.session.messageFailed();
  }

  #onStartup(r: Reader) {
    const step = readStartup(r, this.#opts, this.#handshake);
    switch (step.kind) {
      case 'no-encryption':
        this.#socket.write('N');
        return;
      case 'cancel':
        this.#registry.cancel(step.pid, step.key);
        this.#socket.end();
        this.#close();
        return;
      case 'fatal':
        return this.#fatal(step.code, step.message);
      case 'login':
        this.#startup = step.params;
        this.#readonly = step.readonly;
        if (step.scram) {
          this.#scram = step.scram;
          this.#phase = 'sasl-initial';
          backend.authSasl(this.#out.w, step.scram.mechanisms);
          this.#out.flush();
          return;
        }
        this.#ready();
    }
  }

  #onSasl(r: Reader) {
    const step = readSasl(r, this.#scram!, this.#phase === 'sasl-initial', this.#startup.user);
    switch (step.kind) {
      case 'fatal':
        return this.#fatal(step.code, step.message, step.detail);
      case 'continue':
        this.#phase = 'sasl-final';
        backend.authSaslContinue(this.#out.w, step.data);
        this.#out.flush();
        return;
      case 'final':
        backend.authSaslFinal(this.#out.w, step.data);
        this.#ready();
    }
  }

  /** Logged in: the session and what its messages go to, then the parameters and ReadyForQuery. */
  #ready() {
    this.#opts.onAuthenticated?.();
    const s = this.#startup;
    const out = this.#out;
    const session = new Session(this.#engine, this.#local, {
      readonly: this.#readonly,
      timeoutMs: this.#opts.queryTimeoutMs,
      user: s.user,
      database: s.database || s.user,
      pid: this.pid,
      applicationName: s.application_name ?? '',
    });
    session.facts.settings.set('ssl', this.#handshake.tls ? 'on' : 'off'); // SHOW ssl
    try {
      for (const setting of startupSettings(s)) applySetting(session.facts.settings, setting);
      session.settled();
    } catch (err) {
      // as PostgreSQL: a bad value in the startup packet ends the login with the error (and its DETAIL)
      const { code, message, detail } = sqlstateOf(err);
      this.#fatal(code, message, detail);
      return;
    }
    session.channels = {
      listen: (channel) => this.#channels.listen(this.#listener, channel),
      unlisten: (channel) =>
        channel === null
          ? this.#channels.unlistenAll(this.#listener)
          : this.#channels.unlisten(this.#listener, channel),
      notify: (channel, payload) => this.#channels.notify(channel, payload, this.pid),
      listening: () => this.#channels.channelsOf(this.#listener),
    };
    session.onNotice = (code, message) => out.warn(code, message);
    session.moreBeforeSync = () => pipelineContinues(this.#input, this.#at);
    session.onClientEncoding = (name) => this.#useEncoding(name);
    this.#useEncoding(session.facts.settings.get('client_encoding') ?? 'UTF8');
    const closed = () => this.#phase === 'closed';
    const extended = new ExtendedQuery(session, out.w);
    session.portalCursor = (name) => extended.cursor(name);
    session.closePortal = (name) => extended.closeNamed(name);
    const runner = new PortalRunner(session, out, () => extended.dropPortals(), closed);
    const simple = new SimpleQuery(session, {
      out,
      runner,
      extended,
      copyIn: this.#copyIn,
      closed,
      readyForQuery: () => this.#readyForQuery(session),
    });
    this.#queries = { session, simple, extended, runner };
    backend.authOk(out.w);
    // (the login's values of the reported settings, which a change is compared with: Session.parameterChanges)
    for (const [k, v] of startupParameters(s, this.#readonly, session.facts.settings))
      backend.parameterStatus(out.w, k, v);
    backend.backendKeyData(out.w, this.pid, this.key);
    this.#registry.add(this.pid, this.key, this);
    this.#phase = 'ready';
    this.#readyForQuery(session);
  }

  /** Text to and from the client in encoding `name` from now on (client_encoding's value). */
  #useEncoding(name: string) {
    const charset = charsetOf(name);
    this.#reader.charset = charset;
    this.#out.w.charset = charset;
  }

  /**
   * ReadyForQuery, after the waiting notifications and the ParameterStatus of each reported setting
   * that changed (client_encoding, DateStyle, TimeZone, ...), as PostgreSQL 15 sends them.
   */
  #readyForQuery(session: Session) {
    const tx = session.tx;
    const a = this.#activity;
    a.state = tx === 'idle' ? 'idle' : tx === 'open' ? 'idle in transaction' : 'idle in transaction (aborted)';
    a.stateChange = Date.now();
    a.xactStart = tx === 'idle' ? null : (a.xactStart ?? a.queryStart);
    if (tx === 'idle') this.#writeNotifications();
    for (const [name, value] of session.parameterChanges()) backend.parameterStatus(this.#out.w, name, value);
    backend.readyForQuery(this.#out.w, tx === 'idle' ? 'I' : tx === 'open' ? 'T' : 'E');
  }

  #onMessage(m: Frontend, q: Queries): void | Promise<void> {
    switch (m.type) {
      case 'query':
        this.#active(m.sql);
        return q.simple.run(m.sql);
      case 'parse':
        this.#statementText.set(m.name, m.sql);
        return q.extended.parse(m);
      case 'bind':
        if (m.portal === '') this.#unnamedPortalStatement = m.statement;
        else this.#portalStatements.set(m.portal, m.statement);
        return q.extended.bind(m);
      case 'describe':
        return q.extended.describe(m);
      case 'execute':
        this.#active(
          this.#statementText.get(
            m.portal === '' ? this.#unnamedPortalStatement : (this.#portalStatements.get(m.portal) ?? ''),
          ) ?? '',
        );
        return q.runner.execute(q.extended.portal(m.portal), m.maxRows > 0 ? m.maxRows : Infinity, false);
      case 'close':
        if (m.kind === 'S') this.#statementText.delete(m.name);
        else this.#portalStatements.delete(m.name);
        return q.extended.close(m);
      case 'flush':
        this.#out.flush();
        return;
      case 'sync':
        this.#skipping = false;
        try {
          q.session.pipelineEnded(); // (commits the pipeline's implicit transaction)
        } catch (err) {
          this.#out.sendError(err);
        }
        if (q.session.tx === 'idle') q.extended.dropPortals();
        this.#readyForQuery(q.session);
        return;
      case 'terminate':
        this.#socket.end();
        this.#close();
        return;
      case 'password':
        throw new ProtocolError('unexpected password message');
      case 'unsupported':
        throw pgError('0A000', `${m.what} is not supported by Patina`);
    }
  }

  /**
   * A notification for this client: sent at once when the session is idle between messages, else
   * before its next ReadyForQuery outside a transaction (notification-queue.ts).
   */
  #queueNotification(n: Notification) {
    if (this.#phase !== 'ready') return;
    const refused = this.#notifications.add(n, this.#socket.writableLength);
    if (refused) {
      this.#fatal('53200', refused);
      return;
    }
    if (!this.#pumping && !this.#copyIn.active && this.#queries?.session.tx === 'idle') {
      this.#writeNotifications();
      this.#out.flush();
    }
  }

  /** The waiting notifications; one the client's encoding cannot hold ends the connection (22P05), as in PostgreSQL. */
  #writeNotifications() {
    try {
      this.#notifications.writeAll();
    } catch (err) {
      this.#onFatal(err);
    }
  }
}
