// One client connection: the protocol state machine. Bytes in → messages (wire/frontend.ts tables)
// → one handler per message in the current phase (startup and SASL: startup.ts; then simple query,
// extended query over portals, COPY) → backend messages out (wire/backend.ts), flushed at Sync,
// Flush, the end of a simple query, or when the output grows large; the socket is not read while
// the client leaves our answers unread or a waiting message has much input behind it.
import crypto from 'node:crypto';
import type net from 'node:net';
import type { SqlValue } from '../../../src/engine/values';
import { type PgToken, lexPg, splitPgStatements } from '../sql/lexer';
import { liftLiterals } from '../sql/literals';
import type { LocalDb } from '../catalog/local-db';
import type { PgUserStore } from '../../../src/auth/pg-users';
import type { ScramExchange } from './scram';
import { CopyParser } from '../copy/format';
import type { Channels, Listener } from '../session/notifications';
import type { CopyIn } from '../copy/copy-in';
import type { Analyzed, ColumnDesc } from '../sql/analyzed';
import type { Outcome, PgEngine } from '../session/engine';
import { Session } from '../session/session';
import { pgError, sqlstateOf } from '../sqlstate';
import type { PgCounts } from '../statement-counts';
import { OID } from '../types/oids';
import { binaryOf, paramValue, textOf } from '../types/values';
import { ByteWriter, type Field, backend } from '../wire/backend';
import { type Frontend, MAX_MESSAGE, MAX_STARTUP, ProtocolError, Reader, frontend } from '../wire/frontend';
import { readSasl, readStartup, startupParameters } from './startup';
import { NO_FORMATS, NO_PARAMS, type Portal, cancelPortal, checkFormats, formatOf, newPortal } from './portal';
import { sendCopyOut } from './copy-out';
import { describedFields, tagOf } from './results';

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

type Phase = 'startup' | 'sasl-initial' | 'sasl-final' | 'ready' | 'closed';

/** COPY FROM STDIN in progress: where the rows go, and what runs after it (the rest of the simple query). */
interface CopyInState {
  target: CopyIn;
  parser: CopyParser;
  /** Ends a COPY whose client stopped sending (it holds the writer). */
  idle: NodeJS.Timeout;
  resume: (err: unknown) => void | Promise<void>;
}

const OUT_HIGH_WATER = 64 * 1024;
/** Notifications a client may leave unread in the socket's buffer before it is cut off. */
const NOTIFY_HIGH_WATER = 16 * 1024 * 1024;
/** Notifications held while the session is inside a transaction. */
const NOTIFY_QUEUE = 100_000;
/** Input read while a message waits (a write, a streamed read) before the socket stops being read. */
const INPUT_HIGH_WATER = 256 * 1024;
const NO_BYTES = Buffer.alloc(0);
let nextPid = 1000 + (process.pid % 1000) * 1000;

export class Connection {
  readonly pid = nextPid++;
  readonly key = crypto.randomBytes(4).readInt32BE(0);
  readonly #socket: net.Socket;
  readonly #engine: PgEngine;
  readonly #local: LocalDb;
  readonly #opts: ListenerOptions;
  readonly #registry: CancelRegistry;
  readonly #w = new ByteWriter();
  #phase: Phase = 'startup';
  /** Bytes read and not yet handled, from #at on. */
  #input: Buffer = NO_BYTES;
  #at = 0;
  /** The body of the message being handled. */
  readonly #reader = new Reader(NO_BYTES);
  /** Handling messages, or waiting for one to finish (the later ones wait in #input). */
  #pumping = false;
  /** The socket's writes wait for the client to read; reading is paused until they drain. */
  #outputBlocked = false;
  #paused = false;
  #session: Session | null = null;
  #startup: Record<string, string> = {};
  #scram: ScramExchange | null = null;
  /** The logged-in user's role decides, with the listener, whether writes are refused. */
  #readonly = false;
  readonly #handshake: Handshake;
  #skipping = false;
  readonly #statements = new Map<string, Analyzed>();
  /** The unnamed portal (the one nearly every client uses), apart from the named ones: no Map work per query. */
  #unnamed: Portal | null = null;
  readonly #portals = new Map<string, Portal>();
  readonly #channels: Channels;
  /** NotificationResponses (and notices of ended channels) waiting for the session to be between transactions. */
  readonly #notifications: { channel: string; payload: string; pid: number; notice?: boolean }[] = [];
  readonly #listener: Listener = {
    pid: this.pid,
    deliver: (channel, payload, pid) => this.#queueNotification({ channel, payload, pid }),
    channelEnded: (channel, why) =>
      this.#queueNotification({ channel, payload: `LISTEN ${channel} ended: ${why}`, pid: 0, notice: true }),
  };
  #copyIn: CopyInState | null = null;

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
    socket.setNoDelay(true);
    socket.on('data', (d) => this.#onData(d));
    socket.on('error', () => this.#close());
    socket.on('close', () => this.#close());
    if (handshake.rest.length > 0) this.#onData(handshake.rest);
  }

  /** CancelRequest for this connection. */
  cancel(): void {
    this.#session?.cancel();
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
        if (type === null) break;
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
    this.#flush();
  }

  /**
   * The next complete message's type ('' for the startup packet, which has none), with the reader
   * set on its body; null when the input holds no complete message yet.
   */
  #nextMessage(): string | null {
    const input = this.#input;
    const at = this.#at;
    const left = input.length - at;
    if (this.#phase === 'startup') {
      if (left < 4) return null;
      const len = input.readInt32BE(at);
      if (len < 8 || len > MAX_STARTUP) throw new ProtocolError(`invalid length of startup packet (${len} bytes)`);
      if (left < len) return null;
      this.#reader.reset(input, at + 4, at + len);
      this.#at = at + len;
      return '';
    }
    if (left < 1) return null;
    const type = String.fromCharCode(input[at]);
    // PostgreSQL refuses an unknown type byte before reading a body that may never come
    if (this.#phase === 'ready' ? !frontend[type] : type !== 'p')
      throw new ProtocolError(`invalid frontend message type ${input[at]}`);
    if (left < 5) return null;
    const len = input.readInt32BE(at + 1);
    if (len < 4 || len > MAX_MESSAGE)
      throw new ProtocolError(`invalid message length ${len} (the limit is ${MAX_MESSAGE} bytes)`);
    if (left < len + 1) return null;
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
    const hold = this.#outputBlocked || (this.#pumping && this.#input.length - this.#at > INPUT_HIGH_WATER);
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

  #flush() {
    if (this.#w.length === 0 || this.#phase === 'closed') return;
    if (this.#socket.write(this.#w.take()) || this.#outputBlocked) return;
    this.#outputBlocked = true;
    this.#flow();
    this.#socket.once('drain', () => {
      this.#outputBlocked = false;
      this.#flow();
    });
  }

  /** Flushes and, when the socket's buffer is full, waits for it to drain (a slow reader of a big result). */
  async #flushAndWait() {
    this.#flush();
    if (!this.#outputBlocked || this.#phase === 'closed') return;
    await new Promise<void>((resolve) => {
      const done = () => {
        this.#socket.off('drain', done);
        this.#socket.off('close', done);
        resolve();
      };
      this.#socket.on('drain', done);
      this.#socket.on('close', done);
    });
  }

  #fatal(code: string, message: string) {
    if (this.#phase === 'closed') return;
    backend.error(this.#w, { severity: 'FATAL', severityV: 'FATAL', code, message });
    this.#flush();
    this.#socket.end();
    this.#close();
  }

  #close() {
    if (this.#phase === 'closed') return;
    this.#phase = 'closed';
    this.#input = NO_BYTES;
    this.#at = 0;
    this.#channels.unlistenAll(this.#listener);
    this.#notifications.length = 0;
    if (this.#copyIn) {
      clearTimeout(this.#copyIn.idle);
      this.#copyIn.target.abort();
    }
    this.#copyIn = null;
    this.#dropPortals();
    this.#session?.close();
    this.#registry.remove(this.pid);
    this.#socket.destroySoon?.();
  }

  #handle(type: string, body: Reader): void | Promise<void> {
    switch (this.#phase) {
      case 'startup':
        return this.#onStartup(body);
      case 'sasl-initial':
      case 'sasl-final':
        if (type !== 'p')
          throw new ProtocolError(`expected a password message, got message type ${JSON.stringify(type)}`);
        return this.#onSasl(body);
      case 'ready': {
        const decode = frontend[type];
        if (!decode) throw new ProtocolError(`invalid frontend message type ${type.charCodeAt(0)}`);
        const msg = decode(body);
        if (this.#copyIn) return this.#onCopyMessage(msg);
        // CopyData, CopyDone and CopyFail after a COPY ended with an error: the client's rest, ignored
        if (msg.type === 'copyData' || msg.type === 'copyDone' || msg.type === 'copyFail') return;
        if (this.#skipping && msg.type !== 'sync' && msg.type !== 'terminate') return;
        // biome-ignore lint/complexity/noUselessUndefinedInitialization: assigned in try and read after its catch
        let r: void | Promise<void> = undefined;
        try {
          r = this.#onMessage(msg);
        } catch (err) {
          this.#onError(err, msg);
        }
        if (r)
          return r.then(
            () => this.#drainOutput(),
            (err) => (this.#onError(err, msg), this.#drainOutput()),
          );
        return this.#drainOutput();
      }
    }
  }

  /** A statement's error: sent, and in the extended protocol the rest up to Sync is skipped. */
  #onError(err: unknown, msg: Frontend) {
    if (err instanceof ProtocolError) throw err;
    this.#sendError(err);
    if (msg.type !== 'query') this.#skipping = true;
  }

  /** Writes the output once it is large, waiting for a slow reader to take it. */
  #drainOutput(): void | Promise<void> {
    if (this.#w.length > OUT_HIGH_WATER) return this.#flushAndWait();
  }

  #completeTag(tag: string) {
    this.#opts.counts?.completed(tag);
    backend.commandComplete(this.#w, tag);
  }

  #sendError(err: unknown) {
    const { code, message, detail, where } = sqlstateOf(err);
    this.#opts.counts?.failed(code);
    backend.error(this.#w, {
      severity: 'ERROR',
      severityV: 'ERROR',
      code,
      message: message.replace(/^(statement( \d+)?|commit): /, ''),
      detail,
      where,
    });
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
          backend.authSasl(this.#w, ['SCRAM-SHA-256']);
          this.#flush();
          return;
        }
        this.#ready();
    }
  }

  #onSasl(r: Reader) {
    const step = readSasl(r, this.#scram!, this.#phase === 'sasl-initial', this.#startup.user);
    switch (step.kind) {
      case 'fatal':
        return this.#fatal(step.code, step.message);
      case 'continue':
        this.#phase = 'sasl-final';
        backend.authSaslContinue(this.#w, step.data);
        this.#flush();
        return;
      case 'final':
        backend.authSaslFinal(this.#w, step.data);
        this.#ready();
    }
  }

  #ready() {
    this.#opts.onAuthenticated?.();
    const s = this.#startup;
    this.#session = new Session(this.#engine, this.#local, {
      readonly: this.#readonly,
      timeoutMs: this.#opts.queryTimeoutMs,
      user: s.user,
      database: s.database || s.user,
      pid: this.pid,
      applicationName: s.application_name ?? '',
    });
    this.#session.facts.settings.set('ssl', this.#handshake.tls ? 'on' : 'off'); // SHOW ssl
    this.#session.channels = {
      listen: (channel) => this.#channels.listen(this.#listener, channel),
      unlisten: (channel) =>
        channel === null
          ? this.#channels.unlistenAll(this.#listener)
          : this.#channels.unlisten(this.#listener, channel),
      notify: (channel, payload) => this.#channels.notify(channel, payload, this.pid),
    };
    this.#session.onNotice = (code, message) =>
      backend.error(this.#w, { severity: 'WARNING', severityV: 'WARNING', code, message }, 'N');
    backend.authOk(this.#w);
    for (const [k, v] of startupParameters(s, this.#readonly)) backend.parameterStatus(this.#w, k, v);
    backend.backendKeyData(this.#w, this.pid, this.key);
    this.#registry.add(this.pid, this.key, this);
    this.#phase = 'ready';
    this.#readyForQuery();
  }

  #readyForQuery() {
    const tx = this.#session!.tx;
    if (tx === 'idle') this.#writeNotifications();
    backend.readyForQuery(this.#w, tx === 'idle' ? 'I' : tx === 'open' ? 'T' : 'E');
  }

  #onMessage(m: Frontend): void | Promise<void> {
    const session = this.#session!;
    switch (m.type) {
      case 'query':
        return this.#simpleQuery(m.sql);
      case 'parse': {
        if (m.name !== '' && this.#statements.has(m.name))
          throw pgError('42P05', `prepared statement "${m.name}" already exists`);
        const an = session.analyzer.cached(
          `P${m.paramTypes.join(',')}\0${m.sql}`,
          () => {
            const stmts = splitPgStatements(m.sql);
            if (stmts.length > 1) throw pgError('42601', 'cannot insert multiple commands into a prepared statement');
            return stmts[0] ?? lexPg('');
          },
          m.paramTypes,
        );
        this.#statements.set(m.name, an);
        backend.parseComplete(this.#w);
        return;
      }
      case 'bind': {
        const an = this.#statements.get(m.statement);
        if (!an) throw pgError('26000', `prepared statement "${m.statement}" does not exist`);
        if (m.portal !== '' && this.#portals.has(m.portal))
          throw pgError('42P03', `cursor "${m.portal}" already exists`);
        if (m.params.length !== an.paramTypes.length) {
          throw pgError(
            '08P01',
            `bind message supplies ${m.params.length} parameters, but prepared statement "${m.statement}" requires ${an.paramTypes.length}`,
          );
        }
        checkFormats(m.paramFormats, m.params.length);
        for (const code of m.resultFormats)
          if (code !== 0 && code !== 1) throw pgError('22023', `unsupported format code: ${code}`);
        const params: SqlValue[] = new Array(m.params.length);
        for (let i = 0; i < params.length; i++)
          params[i] = paramValue(m.params[i], an.paramTypes[i], formatOf(m.paramFormats, i), i);
        const portal = newPortal(an, params, m.resultFormats);
        if (m.portal === '') {
          if (this.#unnamed) cancelPortal(this.#unnamed);
          this.#unnamed = portal;
        } else this.#portals.set(m.portal, portal);
        backend.bindComplete(this.#w);
        return;
      }
      case 'describe': {
        if (m.kind === 'S') {
          const an = this.#statements.get(m.name);
          if (!an) throw pgError('26000', `prepared statement "${m.name}" does not exist`);
          backend.parameterDescription(
            this.#w,
            an.paramTypes.map((t) => t || OID.text),
          );
          const columns = session.resultColumns(an);
          if (columns) this.#w.bytes(describedFields(columns, NO_FORMATS, null).message);
          else backend.noData(this.#w);
          return;
        }
        const p = this.#portal(m.name);
        const columns = session.resultColumns(p.an);
        if (columns) {
          const d = describedFields(columns, p.formats, null);
          p.fields = d.fields;
          this.#w.bytes(d.message);
        } else backend.noData(this.#w);
        return;
      }
      case 'execute': {
        return this.#execute(this.#portal(m.portal), m.maxRows > 0 ? m.maxRows : Infinity, false);
      }
      case 'close': {
        if (m.kind === 'S') this.#statements.delete(m.name);
        else if (m.name === '') {
          if (this.#unnamed) cancelPortal(this.#unnamed);
          this.#unnamed = null;
        } else {
          this.#portals.get(m.name)?.outcome?.rows?.cancel();
          this.#portals.delete(m.name);
        }
        backend.closeComplete(this.#w);
        return;
      }
      case 'flush':
        this.#flush();
        return;
      case 'sync':
        this.#skipping = false;
        if (session.tx === 'idle') this.#dropPortals();
        this.#readyForQuery();
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
   * before its next ReadyForQuery outside a transaction (PostgreSQL never interrupts a transaction).
   */
  #queueNotification(n: { channel: string; payload: string; pid: number; notice?: boolean }) {
    if (this.#phase !== 'ready') return;
    if (this.#socket.writableLength > NOTIFY_HIGH_WATER) {
      this.#fatal('53200', `the client left more than ${NOTIFY_HIGH_WATER} bytes of notifications unread`);
      return;
    }
    if (this.#notifications.length >= NOTIFY_QUEUE) {
      // a session that stays inside a transaction while its channels are busy
      this.#fatal('53200', `more than ${NOTIFY_QUEUE} notifications waited for the session's transaction to end`);
      return;
    }
    this.#notifications.push(n);
    if (!this.#pumping && !this.#copyIn && this.#session?.tx === 'idle') {
      this.#writeNotifications();
      this.#flush();
    }
  }

  #writeNotifications() {
    if (this.#notifications.length === 0) return;
    for (const n of this.#notifications.splice(0)) {
      if (n.notice)
        backend.error(this.#w, { severity: 'WARNING', severityV: 'WARNING', code: '01000', message: n.payload }, 'N');
      else backend.notification(this.#w, n.pid, n.channel, n.payload);
    }
  }

  /** A message while COPY FROM STDIN runs: data, its end, or its failure; anything else ends the COPY. */
  #onCopyMessage(msg: Frontend): void | Promise<void> {
    const copy = this.#copyIn!;
    copy.idle.refresh();
    const fail = (err: unknown) => {
      this.#copyIn = null;
      clearTimeout(copy.idle);
      copy.target.abort();
      return copy.resume(err);
    };
    try {
      switch (msg.type) {
        case 'copyData':
          for (const r of copy.parser.feed(msg.data)) copy.target.insert(r.fields, r.line);
          return;
        case 'copyDone': {
          for (const r of copy.parser.end()) copy.target.insert(r.fields, r.line);
          this.#copyIn = null;
          clearTimeout(copy.idle);
          const n = copy.target.finish();
          this.#completeTag(`COPY ${n}`);
          return copy.resume(null);
        }
        case 'copyFail':
          return fail(pgError('57014', `COPY from stdin failed: ${msg.message}`));
        case 'flush':
        case 'sync':
          return; // ignored during COPY, as the protocol says
        case 'terminate':
          fail(pgError('08P01', 'the client terminated during COPY from stdin'));
          this.#socket.end();
          this.#close();
          return;
        default:
          return fail(pgError('08P01', `unexpected message type during COPY from stdin (${msg.type})`));
      }
    } catch (err) {
      return fail(err);
    }
  }

  /** COPY FROM STDIN: takes the writer, answers CopyInResponse; the rows come as CopyData. */
  #startCopyIn(an: Analyzed, stmts: PgToken[][], i: number): Promise<void> {
    return this.#session!.copyIn(an).then(
      (target) => {
        if (this.#phase === 'closed') {
          target.abort();
          return;
        }
        const timeoutMs = this.#opts.queryTimeoutMs;
        const idle = setTimeout(() => {
          if (this.#copyIn !== state || this.#phase === 'closed') return;
          this.#copyIn = null;
          target.abort();
          void state.resume(
            pgError(
              '57014',
              `COPY from stdin received no data for ${timeoutMs / 1000} s (api.query_timeout) and was rolled back: it held the writer`,
            ),
          );
          this.#flush();
        }, timeoutMs);
        idle.unref();
        const state: CopyInState = {
          target,
          parser: new CopyParser(an.copy!.stmt.options, target.table),
          idle,
          resume: (err) => (err === null ? this.#runSimple(stmts, i + 1) : this.#simpleDone(err)),
        };
        this.#copyIn = state;
        backend.copyResponse(this.#w, 'G', target.columns.length);
      },
      (err) => this.#simpleDone(err),
    );
  }

  /** COPY TO STDOUT: CopyOutResponse, a CopyData per row as the read yields them (waiting for a slow client), CopyDone. */
  #copyOut(an: Analyzed): void | Promise<void> {
    const out = this.#session!.copyOut(an);
    if (out instanceof Promise) return out.then((o) => this.#sendCopyOut(an, o));
    return this.#sendCopyOut(an, out);
  }

  #sendCopyOut(an: Analyzed, out: Outcome): Promise<void> {
    return sendCopyOut(this.#w, an, out, {
      drain: () => this.#drainOutput(),
      closed: () => this.#phase === 'closed',
      complete: (tag) => this.#completeTag(tag),
    });
  }

  /** The portal named so, or 34000. */
  #portal(name: string): Portal {
    const p = name === '' ? this.#unnamed : this.#portals.get(name);
    if (!p) throw pgError('34000', `portal "${name}" does not exist`);
    return p;
  }

  #dropPortals() {
    if (this.#unnamed) {
      cancelPortal(this.#unnamed);
      this.#unnamed = null;
    }
    if (this.#portals.size === 0) return;
    this.#portals.forEach(cancelPortal);
    this.#portals.clear();
  }

  /**
   * A simple Query: its statements in order. Statements of a message of several that run outside a
   * BEGIN block form one implicit transaction, as in PostgreSQL: a failure rolls back the earlier
   * writes of that run; COMMIT or ROLLBACK ends the run, BEGIN turns it into an explicit block.
   */
  #simpleQuery(sql: string): void | Promise<void> {
    const stmts = splitPgStatements(sql);
    if (stmts.length === 0) backend.emptyQuery(this.#w);
    return this.#runSimple(stmts, 0);
  }

  #runSimple(stmts: PgToken[][], from: number): void | Promise<void> {
    const session = this.#session!;
    try {
      for (let i = from; i < stmts.length; i++) {
        const tokens = stmts[i];
        if (stmts.length > 1 && session.tx === 'idle' && !controlsTransaction(tokens)) session.beginImplicit();
        const param = tokens.find((t) => t.type === 'param');
        if (param) throw pgError('42P02', `there is no parameter ${param.text}`); // a simple query has none
        const lifted = liftLiterals(tokens);
        const an = lifted
          ? session.analyzer.cached(`S${lifted.key}`, () => lifted.tokens)
          : session.analyzer.analyze(tokens);
        if (an.kind === 'noop' && an.command === 'DEALLOCATE') this.#deallocate(an);
        if (an.kind === 'copy') {
          if (an.copy!.stmt.direction === 'in') return this.#startCopyIn(an, stmts, i);
          const r = this.#copyOut(an);
          if (r)
            return r.then(
              () => this.#runSimple(stmts, i + 1),
              (err) => this.#simpleDone(err),
            );
          continue;
        }
        const r = this.#execute(newPortal(an, lifted ? lifted.values : NO_PARAMS, NO_FORMATS), Infinity, true);
        if (r)
          return r.then(
            () => this.#runSimple(stmts, i + 1),
            (err) => this.#simpleDone(err),
          );
      }
    } catch (err) {
      return this.#simpleDone(err);
    }
    return this.#simpleDone(null);
  }

  #simpleDone(err: unknown) {
    const session = this.#session!;
    if (err !== null) {
      if (session.tx === 'open') session.tx = 'failed';
      this.#sendError(err);
    }
    if (session.implicit) {
      try {
        session.endImplicit(err === null);
      } catch (e) {
        this.#sendError(e);
      }
    }
    if (session.tx === 'idle') this.#dropPortals();
    this.#readyForQuery();
  }

  #deallocate(an: Analyzed) {
    const name = an.setting?.name ?? '';
    if (name === 'all' || name === 'deallocate') this.#statements.clear();
    else this.#statements.delete(name);
  }

  /** Runs (or continues) a portal: up to maxRows rows, then PortalSuspended or CommandComplete. */
  #execute(p: Portal, maxRows: number, simple: boolean): void | Promise<void> {
    if (p.done) {
      this.#completeTag(tagOf(p.an, p.outcome, 0));
      return;
    }
    if (p.an.kind === 'empty') {
      backend.emptyQuery(this.#w);
      p.done = true;
      return;
    }
    if (p.outcome) return this.#emit(p, maxRows);
    if (p.an.kind === 'begin' || p.an.kind === 'commit' || p.an.kind === 'rollback') this.#dropPortals();
    const out = this.#session!.execute(p.an, p.params);
    if (out instanceof Promise) return out.then((o) => this.#started(p, o, maxRows, simple));
    return this.#started(p, out, maxRows, simple);
  }

  #started(p: Portal, out: Outcome, maxRows: number, simple: boolean): void | Promise<void> {
    p.outcome = out;
    if (out.all) p.pending = out.all;
    if (out.columns && !p.fields) {
      if (!out.all) {
        return out.rows!.next().then((first) => {
          p.pending = first ?? [];
          this.#describeResult(p, out.columns!, simple);
          return this.#emit(p, maxRows);
        });
      }
      this.#describeResult(p, out.columns, simple);
    }
    return this.#emit(p, maxRows);
  }

  #describeResult(p: Portal, columns: ColumnDesc[], simple: boolean) {
    const d = describedFields(columns, p.formats, p.pending);
    p.fields = d.fields;
    if (simple) this.#w.bytes(d.message);
  }

  /** Sends the rows at hand, then streams the rest (reads on a worker) or completes. */
  #emit(p: Portal, maxRows: number): void | Promise<void> {
    const rows = p.pending;
    const from = p.at;
    const to = Math.min(rows.length, from + maxRows);
    const fields = p.fields!;
    for (let i = from; i < to; i++) this.#dataRow(rows[i], fields);
    p.at = to;
    const count = to - from;
    if (to < rows.length) {
      p.sent += count;
      backend.portalSuspended(this.#w);
      return;
    }
    if (p.outcome!.rows && p.outcome!.columns) return this.#stream(p, maxRows, count);
    this.#complete(p, count);
  }

  async #stream(p: Portal, maxRows: number, count: number) {
    const source = p.outcome!.rows!;
    for (;;) {
      if (this.#w.length > OUT_HIGH_WATER) await this.#flushAndWait();
      if (this.#phase === 'closed') return;
      const next = await source.next();
      if (next === null) break;
      p.pending = next;
      p.at = 0;
      if (next.length === 0) continue;
      const take = Math.min(next.length, maxRows - count);
      for (let i = 0; i < take; i++) this.#dataRow(next[i], p.fields!);
      p.at = take;
      count += take;
      if (take < next.length) {
        p.sent += count;
        backend.portalSuspended(this.#w);
        return;
      }
    }
    this.#complete(p, count);
  }

  #complete(p: Portal, count: number) {
    p.sent += count;
    p.done = true;
    this.#completeTag(tagOf(p.an, p.outcome, p.sent));
  }

  #dataRow(row: unknown[], fields: Field[]) {
    const w = this.#w;
    w.begin('D').i16(row.length);
    try {
      for (let i = 0; i < row.length; i++) {
        const f = fields[i];
        w.value(
          f === undefined
            ? textOf(row[i], OID.text)
            : f.format === 1
              ? binaryOf(row[i], f.typeOid, f.name)
              : textOf(row[i], f.typeOid),
        );
      }
    } catch (err) {
      w.abandon(); // no half row: the error follows the rows sent before it
      throw err;
    }
    w.end();
  }
}

const TX_WORDS = new Set(['BEGIN', 'START', 'COMMIT', 'END', 'ROLLBACK', 'ABORT', 'SAVEPOINT', 'RELEASE', 'PREPARE']);

/** Whether a statement is transaction control (which turns off the implicit transaction of a simple query). */
function controlsTransaction(tokens: PgToken[]): boolean {
  const first = tokens.find((t) => t.type !== 'space' && t.type !== 'comment');
  return first !== undefined && first.type === 'word' && TX_WORDS.has(first.text.toUpperCase());
}
