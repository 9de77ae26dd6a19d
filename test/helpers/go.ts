// Builds a Go test program with Debian's Go and its packaged libraries (pgx v4, lib/pq), which live
// in GOPATH /usr/share/gocode outside modules. The first build compiles pgx (about 20 s); later
// ones reuse Go's build cache.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

/** Compiles `source` into `dir`; the program's path. */
export function goBuild(source: string, dir: string): string {
  const program = path.join(dir, path.basename(source, '.go'));
  const built = spawnSync('go', ['build', '-o', program, source], {
    encoding: 'utf8',
    timeout: 170_000,
    env: { ...process.env, GOPATH: '/usr/share/gocode', GO111MODULE: 'off', GOFLAGS: '' },
  });
  assert.equal(built.status, 0, `go build: ${built.stderr}${built.stdout}${built.error ?? ''}`);
  return program;
}
