import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';

/** An agent process a benchmark started, with its folder. */
export interface BenchAgent {
  proc: ChildProcess;
  url: string;
  dir: string;
  /** performance.now() when it was spawned (about when its isolate started). */
  started: number;
}

/** Waits for a started agent's ready line (`ready` captures the HTTP base URL). */
export function whenReady(proc: ChildProcess, dir: string, ready: RegExp): Promise<BenchAgent> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (d) => {
      out += d;
      const m = ready.exec(out);
      if (m) resolve({ proc, url: m[1], dir, started });
    });
    proc.once('exit', (code) => reject(new Error(`bench agent exited (${code})`)));
  });
}

/** SIGTERM, wait for the exit, remove the folder. */
export async function stopAgent(a: BenchAgent): Promise<void> {
  a.proc.removeAllListeners('exit');
  await new Promise<void>((r) => {
    a.proc.once('exit', () => r());
    a.proc.kill('SIGTERM');
  });
  fs.rmSync(a.dir, { recursive: true, force: true });
}
