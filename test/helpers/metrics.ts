import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { request } from './http';

/** One scrape of GET /metrics: the raw text and each sample by `name{labels}` as Prometheus prints it. */
export interface Scrape {
  text: string;
  samples: Map<string, number>;
}

export async function scrape(base: string): Promise<Scrape> {
  const r = await request(base, 'GET', '/metrics');
  assert.equal(r.status, 200, r.text);
  assert.match(String(r.headers['content-type']), /^text\/plain; version=0\.0\.4/);
  const samples = new Map<string, number>();
  for (const l of r.text.split('\n')) {
    if (l === '' || l.startsWith('#')) continue;
    const m = /^(\S+?(?:\{.*\})?) (\S+)$/.exec(l);
    assert.ok(m, `not a sample line: ${l}`);
    samples.set(m[1], Number(m[2]));
  }
  return { text: r.text, samples };
}

/** A sample's value; fails naming it when it is absent. */
export function value(s: Scrape, key: string): number {
  const v = s.samples.get(key);
  assert.ok(
    v !== undefined,
    `no sample ${key} in:\n${[...s.samples.keys()].filter((k) => k.startsWith(key.split('{')[0])).join('\n')}`,
  );
  return v;
}

/** Runs `promtool check metrics` on a scrape; fails with what promtool said. */
export function promtoolCheck(s: Scrape): void {
  const r = spawnSync('promtool', ['check', 'metrics'], { input: s.text, encoding: 'utf8' });
  assert.equal(r.error, undefined, `promtool could not run (Debian package prometheus): ${r.error?.message}`);
  assert.equal(r.status, 0, `promtool check metrics: ${r.stdout}${r.stderr}`);
}
