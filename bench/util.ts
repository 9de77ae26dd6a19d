import { type ChildProcess, spawn } from 'node:child_process';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
/** Helpers shared by the benchmarks: medians, percentiles and the ratio line every figure is printed as. */

export function median(xs: number[]): number {
  return percentile(xs, 50);
}

export function percentile(xs: number[], p: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const i = Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1));
  return s[i];
}

/** Prints a figure beside its anchor, measured in the same run, as a ratio. */
export function report(name: string, value: number, unit: string, anchorName: string, anchor: number): void {
  const ratio = value / anchor;
  process.stdout.write(`${name}: ${fmt(value)} ${unit} | ${anchorName}: ${fmt(anchor)} ${unit} | ratio ${ratio.toFixed(3)}\n`);
}

export function fmt(n: number): string {
  return n >= 100 ? n.toFixed(0) : n >= 1 ? n.toFixed(2) : n.toPrecision(3);
}

/**
 * Requests per second: `connections` keep-alive clients POSTing `body()` to `base + path` back to
 * back for `ms`; any status but 200 fails the bench. `agentOpts` makes it HTTPS (a CA, a token).
 */
export async function postLoop(
  base: string,
  path: string,
  connections: number,
  ms: number,
  body: () => string,
  opts: { https?: https.AgentOptions; headers?: Record<string, string> } = {},
): Promise<number> {
  const secure = base.startsWith('https:');
  const agent = secure ? new https.Agent({ keepAlive: true, maxSockets: connections, ...opts.https }) : new http.Agent({ keepAlive: true, maxSockets: connections });
  const url = new URL(path, base);
  const request = secure ? https.request : http.request;
  const one = () =>
    new Promise<void>((resolve, reject) => {
      const req = request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', ...opts.headers } }, (res) => {
        if (res.statusCode !== 200) reject(new Error(`status ${res.statusCode}`));
        res.resume();
        res.on('end', resolve);
      });
      req.on('error', reject);
      req.end(body());
    });
  let done = 0;
  const end = Date.now() + ms;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (Date.now() < end) {
        await one();
        done++;
      }
    }),
  );
  agent.destroy();
  return done / ((performance.now() - t0) / 1000);
}

/**
 * Starts the Node floor responder (pg-floor.ts) on a SQLite file, in `procs` processes: the
 * point-select floor of the pgbench bench, or with `write` the one-row UPDATE floor of the writes bench.
 */
export function startFloor(dbPath: string, procs: number, mode: 'read' | 'write' | 'write-clock' = 'read'): Promise<{ port: number; proc: ChildProcess }> {
  const proc = spawn(process.execPath, [path.join(__dirname, 'pg-floor.js'), dbPath, String(procs), mode], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /port (\d+)/.exec(out);
      if (m) resolve({ port: Number(m[1]), proc });
    });
    proc.once('exit', (code) => reject(new Error(`the Node floor responder exited (${code})`)));
  });
}
