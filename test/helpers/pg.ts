// A raw PostgreSQL wire client for protocol-level tests: pg-protocol (node-postgres's codec) builds
// the frontend messages and parses the backend ones, so the tests check our server against the codec
// real clients use.
import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import net from 'node:net';
import tls from 'node:tls';
import { parse, serialize } from 'pg-protocol';
import type { BackendMessage } from 'pg-protocol/dist/messages';
import type { AgentProcess } from './agent';

export { serialize };

/** Every PostgreSQL listener the agent's ready line names, in order. */
export function pgListeners(agent: AgentProcess): { host: string; port: number }[] {
  return [...agent.output.matchAll(/PostgreSQL on ([^\s,]+):(\d+)/g)].map((m) => ({ host: m[1], port: Number(m[2]) }));
}

/** A socket and the backend messages received on it, waited for by name. */
export class RawPg {
  readonly socket: net.Socket;
  readonly messages: (BackendMessage & Record<string, unknown>)[] = [];
  closed = false;
  #waiters: (() => void)[] = [];

  private constructor(socket: net.Socket) {
    this.socket = socket;
    socket.on('close', () => {
      this.closed = true;
      this.#wake();
    });
    socket.on('error', () => undefined);
  }

  static connect(port: number): Promise<RawPg> {
    return new Promise((resolve, reject) => {
      const s = net.connect(port, '127.0.0.1', () => resolve(new RawPg(s)));
      s.once('error', reject);
    });
  }

  /** Connects, asks for TLS (SSLRequest) and verifies the server's certificate against `ca`. */
  static connectTls(port: number, ca: Buffer): Promise<RawPg & { socket: tls.TLSSocket }> {
    return new Promise((resolve, reject) => {
      const s = net.connect(port, '127.0.0.1', () => s.write(serialize.requestSsl()));
      s.once('error', reject);
      s.once('data', (answer) => {
        if (answer.toString() !== 'S') return reject(new Error(`SSLRequest answered ${answer.toString()}`));
        const secure = tls.connect({ socket: s, ca, servername: 'localhost' }, () =>
          resolve(new RawPg(secure) as RawPg & { socket: tls.TLSSocket }),
        );
        secure.once('error', reject);
      });
    });
  }

  /** Connects and completes a trust startup. */
  static async open(port: number, user = 'tester'): Promise<RawPg> {
    const c = await RawPg.connect(port);
    c.listen();
    c.send(serialize.startup({ user, database: 'db' }));
    await c.until('readyForQuery');
    return c;
  }

  /** Starts parsing backend messages (after any raw-byte exchange such as SSLRequest). */
  listen(): void {
    void parse(this.socket, (m) => {
      this.messages.push(m as BackendMessage & Record<string, unknown>);
      this.#wake();
    });
  }

  #wake() {
    const ws = this.#waiters.splice(0);
    for (const w of ws) w();
  }

  send(b: Buffer): void {
    this.socket.write(b);
  }

  /** Waits for a message named `name` (counting from the start); returns every message up to it and drops them. */
  async until(name: string, timeoutMs = 10000): Promise<(BackendMessage & Record<string, unknown>)[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const i = this.messages.findIndex((m) => m.name === name);
      if (i >= 0) return this.messages.splice(0, i + 1);
      if (this.closed)
        throw new Error(`connection closed before ${name}; got ${this.messages.map((m) => m.name).join(', ')}`);
      if (Date.now() > deadline)
        throw new Error(`no ${name} in ${timeoutMs} ms; got ${this.messages.map((m) => m.name).join(', ')}`);
      await new Promise<void>((r) => {
        this.#waiters.push(r);
        setTimeout(r, 50);
      });
    }
  }

  /** Waits until the server closes the connection. */
  async closedBy(timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.closed) {
      if (Date.now() > deadline) throw new Error('the server did not close the connection');
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  end(): void {
    if (!this.closed) this.socket.end(serialize.end());
  }
}

/** Runs psql against a listener: -X (no psqlrc), -A -t optional, one command per -c. */
export function psql(
  port: number,
  commands: string[],
  extra: string[] = [],
  env: Record<string, string> = {},
): SpawnSyncReturns<string> {
  return spawnSync(
    'psql',
    [
      '-X',
      '-v',
      'ON_ERROR_STOP=1',
      '-h',
      '127.0.0.1',
      '-p',
      String(port),
      '-U',
      'tester',
      '-d',
      'db',
      ...extra,
      ...commands.flatMap((c) => ['-c', c]),
    ],
    {
      encoding: 'utf8',
      env: { ...process.env, PGCONNECT_TIMEOUT: '10', ...env },
      timeout: 30000,
    },
  );
}

/** The part of node-postgres's Client the tests use (the package ships no types). */
export interface PgClient {
  connect(): Promise<void>;
  query(
    sql: string,
    params?: unknown[],
  ): Promise<{
    rows: Record<string, unknown>[];
    rowCount: number;
    /** CommandComplete's command word (SELECT, UPDATE, ...). */
    command: string;
    fields: { name: string; dataTypeID: number }[];
  }>;
  query(q: {
    text: string;
    values?: unknown[];
    rowMode: 'array';
    /** 'extended': Parse/Bind/Execute even with no parameters (node-postgres sends a simple Query then). */
    queryMode?: 'extended';
    /** The values' parsers (node-postgres's); `{ getTypeParser: () => (v) => v }` gives every value's text. */
    types?: { getTypeParser: () => (v: string) => unknown };
  }): Promise<{ rows: unknown[][]; rowCount: number; command: string; fields: { name: string; dataTypeID: number }[] }>;
  end(): Promise<void>;
  on(event: 'error', fn: (err: Error) => void): void;
}

/** A node-postgres client for a listener. */
export function pgClient(port: number, extra: Record<string, unknown> = {}): PgClient {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Client } = require('pg') as { Client: new (o: object) => PgClient };
  return new Client({ host: '127.0.0.1', port, user: 'tester', database: 'db', ...extra });
}
