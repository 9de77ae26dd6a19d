import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The built CLI, as users run it. */
export const CLI = path.resolve(__dirname, '..', '..', 'src', 'cli', 'main.js');

export interface AgentOptions {
  /** Schema SQL text, written to schema.sql in the agent's folder (default: the example schema). */
  schema?: string;
  /** A TOML config, written to config.toml and passed with -c. */
  config?: string;
  /** Extra command-line flags. */
  args?: string[];
  /** Reuse a folder (a restart keeps its database). */
  dir?: string;
  /** Extra environment variables of the agent process. */
  env?: Record<string, string>;
  /** Flags for node itself, before the CLI (e.g. --cpu-prof for a benchmark). */
  nodeArgs?: string[];
}

/** A real agent process on loopback ports, with its own folder and SQLite file. */
export class AgentProcess {
  readonly dir: string;
  readonly opts: AgentOptions;
  proc!: ChildProcess;
  /** e.g. http://127.0.0.1:41234 */
  http = '';
  /** The PostgreSQL listener, when one was configured. */
  pg: { host: string; port: number } | null = null;
  gossip: string | null = null;
  output = '';

  constructor(opts: AgentOptions = {}) {
    this.opts = opts;
    this.dir = opts.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'patina-test-'));
  }

  get dbPath(): string {
    return path.join(this.dir, 'patina.db');
  }

  /** The arguments the agent is started with. */
  args(): string[] {
    const args = ['agent', '--db-path', this.dbPath, '--api-addr', '127.0.0.1:0'];
    if (this.opts.schema !== undefined) {
      fs.writeFileSync(path.join(this.dir, 'schema.sql'), this.opts.schema);
      args.push('--schema', path.join(this.dir, 'schema.sql'));
    }
    if (this.opts.config !== undefined) {
      fs.writeFileSync(path.join(this.dir, 'config.toml'), this.opts.config);
      args.push('-c', path.join(this.dir, 'config.toml'));
    }
    return [...args, ...(this.opts.args ?? [])];
  }

  /**
   * Starts the process and waits for its ready line; rejects with its output if it exits first. The
   * bound is for a hang, not a speed: on the shared test machine under load a start took 17 s (25 s
   * with a PostgreSQL listener; about 1 s idle), past the 20 s it had.
   */
  start(timeoutMs = 60000): Promise<this> {
    this.output = '';
    this.proc = spawn(process.execPath, [...(this.opts.nodeArgs ?? []), CLI, ...this.args()], {
      cwd: this.dir,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...this.opts.env },
    });
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`agent did not get ready in ${timeoutMs} ms:\n${this.output}`)),
        timeoutMs,
      );
      const onData = (d: Buffer) => {
        this.output += d.toString();
        const m = /agent ready, HTTP API on (https?:\/\/\S+?),? /.exec(this.output);
        if (m) {
          this.http = m[1];
          const pg = /PostgreSQL on ([^\s,]+):(\d+)/.exec(this.output);
          this.pg = pg ? { host: pg[1].replace(/^\[|\]$/g, ''), port: Number(pg[2]) } : null;
          const g = /gossip on ([^\s,]+)/.exec(this.output);
          this.gossip = g ? g[1] : null;
          clearTimeout(timer);
          resolve(this);
        }
      };
      this.proc.stdout!.on('data', onData);
      this.proc.stderr!.on('data', onData);
      this.proc.once('exit', (code, sig) => {
        clearTimeout(timer);
        reject(new Error(`agent exited (${code ?? sig}) before it was ready:\n${this.output}`));
      });
    });
  }

  /** SIGTERM, and wait for the exit code. */
  stop(): Promise<number | null> {
    return this.#signal('SIGTERM');
  }

  /** SIGKILL: no chance to clean up. */
  kill(): Promise<number | null> {
    return this.#signal('SIGKILL');
  }

  #signal(sig: NodeJS.Signals): Promise<number | null> {
    const p = this.proc;
    if (!p || p.exitCode !== null || p.signalCode !== null) return Promise.resolve(p?.exitCode ?? null);
    return new Promise((resolve) => {
      p.once('exit', (code) => resolve(code));
      p.kill(sig);
    });
  }

  /** Stops it and removes its folder. */
  async dispose(): Promise<void> {
    await this.kill();
    if (!this.opts.dir) fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Starts an agent and waits until it is ready. */
export function startAgent(opts: AgentOptions = {}): Promise<AgentProcess> {
  return new AgentProcess(opts).start();
}
