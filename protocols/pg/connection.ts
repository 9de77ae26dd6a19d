// One client connection: the protocol state machine. Bytes in → messages (wire.ts tables) → one
// handler per message in the current phase → backend messages out, flushed at Sync, Flush, the end
// of a simple query, or when the output grows large.
import crypto from 'node:crypto';
import type net from 'node:net';
import type { SqlValue } from '../../src/engine/values';
import { type PgToken, lexPg, splitPgStatements } from './lexer';
import { liftLiterals } from './literals';
import type { LocalDb } from './local-db';
import type { PgUserStore } from '../../src/auth/pg-users';
import { ScramExchange } from './scram';
import { type Analyzed, type ColumnDesc, type Outcome, type PgEngine, Session, columnOid } from './session';
import { pgError, sqlstateOf } from './sqlstate';
import { OID, binaryOf, paramValue, textOf, typeSize } from './types';
import {
  ByteWriter, CANCEL_REQUEST, type Field, type Frontend, GSSENC_REQUEST, MAX_MESSAGE, MAX_STARTUP, PROTOCOL_3, ProtocolError, Reader,
  SSL_REQUEST, backend, frontend, parseStartupParams,
} from './wire';

export interface ListenerOptions {
  readonly: boolean;
  /** Who may log in (SCRAM-SHA-256), or trust when none is configured. */
  users: PgUserStore;
  /** Refuse a startup that did not come over TLS. */
  requireTls: boolean;
  queryTimeoutMs: number;
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

interface Portal {
  an: Analyzed;
  params: SqlValue[];
  formats: number[];
  fields: Field[] | null;
  outcome: Outcome | null;
  /** Rows at hand; `at` is the next one to send. */
  pending: unknown[][];
  at: number;
  sent: number;
  done: boolean;
}

type Phase = 'startup' | 'sasl-initial' | 'sasl-final' | 'ready' | 'closed';

const OUT_HIGH_WATER = 64 * 1024;
const QUEUE_HIGH_WATER = 1024;
let nextPid = 1000 + (process.pid % 1000) * 1000;

/** The result format of column i from Bind's result format codes. */
const formatOf = (formats: number[], i: number) => (formats.length === 0 ? 0 : formats.length === 1 ? formats[0] : formats[i] ?? 0);

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
  #input: Buffer = Buffer.alloc(0);
  readonly #queue: { type: string; body: Buffer }[] = [];
  #pumping = false;
  #session: Session | null = null;
  #startup: Record<string, string> = {};
  #scram: ScramExchange | null = null;
  /** The logged-in user's role decides, with the listener, whether writes are refused. */
  #readonly = false;
  readonly #handshake: Handshake;
  #skipping = false;
  readonly #statements = new Map<string, Analyzed>();
  readonly #portals = new Map<string, Portal>();

  constructor(socket: net.Socket, engine: PgEngine, local: LocalDb, opts: ListenerOptions, registry: CancelRegistry, handshake: Handshake) {
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
    this.#input = this.#input.length === 0 ? d : Buffer.concat([this.#input, d]);
    try {
      this.#split();
    } catch (err) {
      this.#fatal('08P01', (err as Error).message);
      return;
    }
    if (this.#queue.length > QUEUE_HIGH_WATER) this.#socket.pause();
    this.#pump();
  }

  /** Cuts complete messages off the input; the startup packet has no type byte. */
  #split() {
    for (;;) {
      if (this.#phase === 'closed') return;
      if (this.#phase === 'startup' && this.#queue.length === 0) {
        if (this.#input.length < 4) return;
        const len = this.#input.readInt32BE(0);
        if (len < 8 || len > MAX_STARTUP) throw new ProtocolError(`invalid length of startup packet (${len} bytes)`);
        if (this.#input.length < len) return;
        this.#queue.push({ type: '', body: this.#input.subarray(4, len) });
        this.#input = this.#input.subarray(len);
        return; // the next packet's framing depends on this one's answer
      }
      if (this.#phase === 'startup') return;
      if (this.#input.length < 1) return;
      const type = String.fromCharCode(this.#input[0]);
      // PostgreSQL refuses an unknown type byte before reading a body that may never come
      if (this.#phase === 'ready' ? !frontend[type] : type !== 'p') throw new ProtocolError(`invalid frontend message type ${type.charCodeAt(0)}`);
      if (this.#input.length < 5) return;
      const len = this.#input.readInt32BE(1);
      if (len < 4 || len > MAX_MESSAGE) throw new ProtocolError(`invalid message length ${len} (the limit is ${MAX_MESSAGE} bytes)`);
      if (this.#input.length < len + 1) return;
      this.#queue.push({ type, body: this.#input.subarray(5, len + 1) });
      this.#input = this.#input.subarray(len + 1);
    }
  }

  /**
   * Handles queued messages in order, synchronously for as long as each answers synchronously (a
   * pipelined Bind/Execute/Sync of a point read costs no promise); a message that has to wait (a
   * write, a streamed read) suspends the loop until it is done. Output is written once the queue is
   * empty, so a batch of messages read together is answered with one write.
   */
  #pump() {
    if (this.#pumping) return;
    this.#pumping = true;
    while (this.#queue.length > 0 && this.#phase !== 'closed') {
      const m = this.#queue.shift()!;
      let r: void | Promise<void>;
      try {
        r = this.#handle(m.type, m.body);
      } catch (err) {
        this.#onFatal(err);
        continue;
      }
      if (r) {
        // Nothing is flushed while this one waits: as PostgreSQL, the answers go out together
        // (a write's BindComplete alone is of no use to the client, and costs a send).
        r.catch((err) => this.#onFatal(err)).finally(() => {
          this.#pumping = false;
          this.#afterMessage();
          this.#pump();
        });
        return;
      }
      this.#afterMessage();
    }
    this.#pumping = false;
    if (this.#queue.length === 0) this.#flush();
  }

  #afterMessage() {
    if (this.#phase === 'startup') {
      try {
        this.#split();
      } catch (err) {
        this.#onFatal(err);
      }
    }
    if (this.#queue.length < QUEUE_HIGH_WATER / 2 && this.#socket.isPaused()) this.#socket.resume();
  }

  #onFatal(err: unknown) {
    if (err instanceof ProtocolError) this.#fatal('08P01', err.message);
    else this.#fatal(sqlstateOf(err).code, sqlstateOf(err).message);
  }

  #flush() {
    if (this.#w.length === 0 || this.#phase === 'closed') return;
    this.#socket.write(this.#w.take());
  }

  /** Flushes and, when the socket's buffer is full, waits for it to drain (a slow reader of a big result). */
  async #flushAndWait() {
    if (this.#w.length === 0 || this.#phase === 'closed') return;
    if (!this.#socket.write(this.#w.take())) {
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
    this.#queue.length = 0;
    for (const p of this.#portals.values()) p.outcome?.rows?.cancel();
    this.#portals.clear();
    this.#session?.close();
    this.#registry.remove(this.pid);
    this.#socket.destroySoon?.();
  }

  #handle(type: string, body: Buffer): void | Promise<void> {
    switch (this.#phase) {
      case 'startup':
        return this.#onStartup(new Reader(body));
      case 'sasl-initial':
      case 'sasl-final':
        if (type !== 'p') throw new ProtocolError(`expected a password message, got message type ${JSON.stringify(type)}`);
        return this.#onSasl(new Reader(body));
      case 'ready': {
        const decode = frontend[type];
        if (!decode) throw new ProtocolError(`invalid frontend message type ${type.charCodeAt(0)}`);
        const msg = decode(new Reader(body));
        if (this.#skipping && msg.type !== 'sync' && msg.type !== 'terminate') return;
        let r: void | Promise<void> = undefined;
        try {
          r = this.#onMessage(msg);
        } catch (err) {
          this.#onError(err, msg);
        }
        if (r) return r.then(() => this.#drainOutput(), (err) => (this.#onError(err, msg), this.#drainOutput()));
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

  #sendError(err: unknown) {
    const { code, message } = sqlstateOf(err);
    backend.error(this.#w, { severity: 'ERROR', severityV: 'ERROR', code, message: message.replace(/^(statement( \d+)?|commit): /, '') });
  }

  #onStartup(r: Reader) {
    const code = r.i32();
    if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
      this.#socket.write('N');
      return;
    }
    if (code === CANCEL_REQUEST) {
      const pid = r.i32();
      const key = r.i32();
      this.#registry.cancel(pid, key);
      this.#socket.end();
      this.#close();
      return;
    }
    if (code >> 16 !== 3) return this.#fatal('0A000', `unsupported frontend protocol ${code >> 16}.${code & 0xffff}: server supports 3.0`);
    void PROTOCOL_3;
    this.#startup = parseStartupParams(r);
    const user = this.#startup.user;
    if (!user) return this.#fatal('28000', 'no PostgreSQL user name specified in startup packet');
    if (this.#opts.requireTls && !this.#handshake.tls) {
      // PostgreSQL's answer when pg_hba.conf has only hostssl lines
      const db = this.#startup.database || user;
      return this.#fatal('28000', `no pg_hba.conf entry for host "${this.#handshake.remoteAddress.replace(/^::ffff:/, '')}", user "${user}", database "${db}", no encryption`);
    }
    if (this.#opts.users.mode === 'scram') {
      const principal = this.#opts.users.lookup(user);
      // an unknown user goes through the same exchange and fails as a wrong password would
      this.#scram = new ScramExchange(principal?.secret ?? this.#opts.users.decoy, principal !== null);
      if (principal?.role === 'read') this.#readonly = true;
      this.#phase = 'sasl-initial';
      backend.authSasl(this.#w, ['SCRAM-SHA-256']);
      this.#flush();
      return;
    }
    this.#ready();
  }

  #onSasl(r: Reader) {
    const user = this.#startup.user;
    const denied = () => this.#fatal('28P01', `password authentication failed for user "${user}"`);
    if (this.#phase === 'sasl-initial') {
      const mechanism = r.cstr();
      if (mechanism !== 'SCRAM-SHA-256') return this.#fatal('28000', `SASL authentication mechanism ${mechanism} is not supported; use SCRAM-SHA-256`);
      const len = r.i32();
      const first = this.#scram!.first(r.bytes(len).toString('utf8'));
      if (first === null) return denied();
      this.#phase = 'sasl-final';
      backend.authSaslContinue(this.#w, first);
      this.#flush();
      return;
    }
    const final = this.#scram!.final(r.rest().toString('utf8'));
    if (final === null) return denied();
    backend.authSaslFinal(this.#w, final);
    this.#ready();
  }

  #ready() {
    const s = this.#startup;
    this.#session = new Session(this.#engine, this.#local, {
      readonly: this.#readonly, timeoutMs: this.#opts.queryTimeoutMs, user: s.user, database: s.database || s.user, pid: this.pid, applicationName: s.application_name ?? '',
    });
    this.#session.facts.settings.set('ssl', this.#handshake.tls ? 'on' : 'off'); // SHOW ssl
    this.#session.onNotice = (code, message) => backend.error(this.#w, { severity: 'WARNING', severityV: 'WARNING', code, message }, 'N');
    backend.authOk(this.#w);
    const params: [string, string][] = [
      ['server_version', '15.0'], ['server_encoding', 'UTF8'], ['client_encoding', 'UTF8'], ['DateStyle', 'ISO, MDY'], ['integer_datetimes', 'on'],
      ['standard_conforming_strings', 'on'], ['TimeZone', 'UTC'], ['IntervalStyle', 'postgres'], ['application_name', s.application_name ?? ''],
      ['is_superuser', 'on'], ['session_authorization', s.user], ['default_transaction_read_only', this.#readonly ? 'on' : 'off'], ['in_hot_standby', 'off'],
    ];
    for (const [k, v] of params) backend.parameterStatus(this.#w, k, v);
    backend.backendKeyData(this.#w, this.pid, this.key);
    this.#registry.add(this.pid, this.key, this);
    this.#phase = 'ready';
    this.#readyForQuery();
  }

  #readyForQuery() {
    const tx = this.#session!.tx;
    backend.readyForQuery(this.#w, tx === 'idle' ? 'I' : tx === 'open' ? 'T' : 'E');
  }

  #onMessage(m: Frontend): void | Promise<void> {
    const session = this.#session!;
    switch (m.type) {
      case 'query':
        return this.#simpleQuery(m.sql);
      case 'parse': {
        if (m.name !== '' && this.#statements.has(m.name)) throw pgError('42P05', `prepared statement "${m.name}" already exists`);
        const an = session.analyzeCached(`P${m.paramTypes.join(',')}\0${m.sql}`, () => {
          const stmts = splitPgStatements(m.sql);
          if (stmts.length > 1) throw pgError('42601', 'cannot insert multiple commands into a prepared statement');
          return stmts[0] ?? lexPg('');
        }, m.paramTypes);
        this.#statements.set(m.name, an);
        backend.parseComplete(this.#w);
        return;
      }
      case 'bind': {
        const an = this.#statements.get(m.statement);
        if (!an) throw pgError('26000', `prepared statement "${m.statement}" does not exist`);
        if (m.portal !== '' && this.#portals.has(m.portal)) throw pgError('42P03', `cursor "${m.portal}" already exists`);
        if (m.params.length !== an.paramTypes.length) {
          throw pgError('08P01', `bind message supplies ${m.params.length} parameters, but prepared statement "${m.statement}" requires ${an.paramTypes.length}`);
        }
        const params: SqlValue[] = new Array(m.params.length);
        for (let i = 0; i < params.length; i++) params[i] = paramValue(m.params[i], an.paramTypes[i], formatOf(m.paramFormats, i), `parameter $${i + 1}`);
        this.#portals.get(m.portal)?.outcome?.rows?.cancel();
        this.#portals.set(m.portal, newPortal(an, params, m.resultFormats));
        backend.bindComplete(this.#w);
        return;
      }
      case 'describe': {
        if (m.kind === 'S') {
          const an = this.#statements.get(m.name);
          if (!an) throw pgError('26000', `prepared statement "${m.name}" does not exist`);
          backend.parameterDescription(this.#w, an.paramTypes.map((t) => t || OID.text));
          if (an.columns) this.#w.bytes(describedFields(an.columns, NO_FORMATS, null).message);
          else backend.noData(this.#w);
          return;
        }
        const p = this.#portals.get(m.name);
        if (!p) throw pgError('34000', `portal "${m.name}" does not exist`);
        if (p.an.columns) {
          const d = describedFields(p.an.columns, p.formats, null);
          p.fields = d.fields;
          this.#w.bytes(d.message);
        } else backend.noData(this.#w);
        return;
      }
      case 'execute': {
        const p = this.#portals.get(m.portal);
        if (!p) throw pgError('34000', `portal "${m.portal}" does not exist`);
        return this.#execute(p, m.maxRows > 0 ? m.maxRows : Infinity, false);
      }
      case 'close': {
        if (m.kind === 'S') this.#statements.delete(m.name);
        else {
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

  #dropPortals() {
    if (this.#portals.size === 0) return;
    for (const p of this.#portals.values()) p.outcome?.rows?.cancel();
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
        const lifted = liftLiterals(tokens);
        const an = lifted ? session.analyzeCached(`S${lifted.key}`, () => lifted.tokens) : session.analyze(tokens);
        if (an.kind === 'noop' && an.command === 'DEALLOCATE') this.#deallocate(an);
        const r = this.#execute(newPortal(an, lifted ? lifted.values : NO_PARAMS, NO_FORMATS), Infinity, true);
        if (r) return r.then(() => this.#runSimple(stmts, i + 1), (err) => this.#simpleDone(err));
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
      backend.commandComplete(this.#w, tagOf(p.an, p.outcome, 0));
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
    backend.commandComplete(this.#w, tagOf(p.an, p.outcome, p.sent));
  }

  #dataRow(row: unknown[], fields: Field[]) {
    const w = this.#w;
    w.begin('D').i16(row.length);
    for (let i = 0; i < row.length; i++) {
      const f = fields[i];
      w.value(f === undefined ? textOf(row[i], OID.text) : f.format === 1 ? binaryOf(row[i], f.typeOid) : textOf(row[i], f.typeOid));
    }
    w.end();
  }
}

const NO_PARAMS: SqlValue[] = [];
const NO_FORMATS: number[] = [];

function newPortal(an: Analyzed, params: SqlValue[], formats: number[]): Portal {
  return { an, params, formats, fields: null, outcome: null, pending: NO_ROWS, at: 0, sent: 0, done: false };
}
const NO_ROWS: unknown[][] = [];

const TX_WORDS = new Set(['BEGIN', 'START', 'COMMIT', 'END', 'ROLLBACK', 'ABORT', 'SAVEPOINT', 'RELEASE', 'PREPARE']);

/** Whether a statement is transaction control (which turns off the implicit transaction of a simple query). */
function controlsTransaction(tokens: PgToken[]): boolean {
  const first = tokens.find((t) => t.type !== 'space' && t.type !== 'comment');
  return first !== undefined && first.type === 'word' && TX_WORDS.has(first.text.toUpperCase());
}

/**
 * RowDescription fields and their message bytes. When no column's type depends on the values (all
 * declared or known from the expression) they are computed once per statement and result formats.
 */
function describedFields(columns: ColumnDesc[], formats: number[], sample: unknown[][] | null): { fields: Field[]; message: Buffer } {
  const fixed = columns.every((c) => c.declType || c.oid);
  const key = formats.join(',');
  if (fixed) {
    const hit = FIELD_CACHE.get(columns)?.get(key);
    if (hit) return hit;
  }
  const fields = fieldsOf(columns, formats, sample);
  const w = new ByteWriter(256);
  backend.rowDescription(w, fields);
  const d = { fields, message: w.take() };
  if (fixed) {
    let byFormat = FIELD_CACHE.get(columns);
    if (!byFormat) FIELD_CACHE.set(columns, (byFormat = new Map()));
    if (byFormat.size < 8) byFormat.set(key, d);
  }
  return d;
}
const FIELD_CACHE = new WeakMap<ColumnDesc[], Map<string, { fields: Field[]; message: Buffer }>>();

/** RowDescription fields: type from the declared type, else from the first rows' values. */
function fieldsOf(columns: { name: string; declType: string | null }[], formats: number[], sample: unknown[][] | null): Field[] {
  return columns.map((c, i) => {
    // the first value tells, but a column of numbers is float8 if any value at hand has a fraction
    // (SQLite's REAL 4.0 reaches us as the integer 4: sum(amount) would else be int8 and '6.5' in it)
    let v: unknown;
    if (sample) {
      for (const row of sample) {
        const x = row[i];
        if (x === null || x === undefined) continue;
        if (v === undefined) v = x;
        if (typeof x === 'number' && !Number.isInteger(x)) v = x;
        if ((typeof v !== 'number' && typeof v !== 'bigint') || !Number.isInteger(v)) break;
      }
    }
    const typeOid = columnOid(c, v);
    return { name: c.name, tableOid: 0, column: 0, typeOid, typeSize: typeSize(typeOid), typeMod: -1, format: formatOf(formats, i) };
  });
}

function tagOf(an: Analyzed, outcome: Outcome | null, rows: number): string {
  if (outcome?.tag) return outcome.tag;
  const n = outcome?.affected ?? rows;
  switch (an.command) {
    case 'INSERT': return `INSERT 0 ${n}`;
    case 'UPDATE': case 'DELETE': return `${an.command} ${n}`;
    case 'SELECT': case 'WITH': return `SELECT ${rows}`;
    case 'START TRANSACTION': return 'START TRANSACTION';
    default: return an.kind === 'sql' && an.columns ? `SELECT ${rows}` : an.command;
  }
}
