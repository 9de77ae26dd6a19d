// The client workload tests (test/pg/*-workload.test.ts): one program of a real client runs against
// PostgreSQL 15 and against Patina, prints one JSON array of steps (`[name, ...what it saw]`), and
// Patina's steps must be PostgreSQL's.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

export type Step = [string, ...unknown[]];

/** A fixture's path: test/fixtures/<parts> in the source tree (the tests run from dist). */
export const fixture = (...parts: string[]): string =>
  path.resolve(__dirname, '..', '..', '..', 'test', 'fixtures', ...parts);

/** What a Python client script printed for the server on `port` (Debian's python3, which has the drivers). */
export function pythonSteps(script: string, port: number): Step[] {
  const r = spawnSync('/usr/bin/python3', [script, String(port)], { encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.status, 0, `${script} on ${port}:\n${r.stderr}${r.stdout}`);
  return JSON.parse(r.stdout);
}

/** Every step as on PostgreSQL: the same steps in the same order, then each one's values. */
export function sameSteps(patina: Step[], postgres: Step[]): void {
  assert.deepEqual(
    patina.map((s) => s[0]),
    postgres.map((s) => s[0]),
  );
  for (let k = 0; k < postgres.length; k++) assert.deepEqual(patina[k], postgres[k], postgres[k][0]);
}
