// Runs the JDBC test programs (test/fixtures/catalog-clients/*.java) with Debian's JDK and pgjdbc:
// a command's output, or the test fails with its stderr; and the programs' output split into the
// sections each call prints under a `## name` header.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';

/** Runs `cmd` (javac, java); its stdout, or the test fails with what it printed. */
export function run(cmd: string, args: string[], timeout = 90_000): string {
  const r = spawnSync(cmd, args, { encoding: 'utf8', timeout, maxBuffer: 64 << 20 });
  assert.equal(r.status, 0, `${cmd} ${args.join(' ')}:\n${r.stderr}${r.stdout}`);
  return r.stdout;
}

/** The program's output as sections: call name → lines (the header first). */
export function sections(out: string): Map<string, string[]> {
  const m = new Map<string, string[]>();
  let cur: string[] = [];
  for (const line of out.split('\n')) {
    if (line.startsWith('## ')) m.set(line.slice(3), (cur = []));
    else if (line !== '') cur.push(line);
  }
  return m;
}
