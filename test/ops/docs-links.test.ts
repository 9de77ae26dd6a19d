// Every relative link of the README and the docs resolves: to a file, and for `#anchor` to a heading
// of that file (GitHub's slugs: lower case, punctuation dropped, spaces to hyphens).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..', '..');

function markdownFiles(): string[] {
  const out = ['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md'].filter((f) => fs.existsSync(path.join(ROOT, f)));
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const rel = path.join(dir, e.name);
      if (e.isDirectory()) walk(rel);
      else if (e.name.endsWith('.md')) out.push(rel);
    }
  };
  walk('docs');
  return out;
}

function slugs(file: string): Set<string> {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8').replace(/```[\s\S]*?```/g, '');
  const out = new Set<string>();
  for (const m of text.matchAll(/^#{1,6}\s+(.+)$/gm)) {
    const slug = m[1]
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    let s = slug;
    for (let n = 1; out.has(s); n++) s = `${slug}-${n}`;
    out.add(s);
  }
  return out;
}

describe('the documentation', () => {
  it('has no relative link that does not resolve, to a file or a heading', () => {
    const broken: string[] = [];
    let checked = 0;
    for (const file of markdownFiles()) {
      const text = fs.readFileSync(path.join(ROOT, file), 'utf8').replace(/```[\s\S]*?```/g, '');
      for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1];
        if (/^[a-z]+:/i.test(target)) continue; // http:, https:, mailto:
        checked++;
        const [p, anchor] = target.split('#');
        const dest = p === '' ? file : path.normalize(path.join(path.dirname(file), p));
        if (!fs.existsSync(path.join(ROOT, dest))) broken.push(`${file}: ${target} (no file ${dest})`);
        else if (anchor && dest.endsWith('.md') && !slugs(dest).has(anchor))
          broken.push(`${file}: ${target} (no heading #${anchor} in ${dest})`);
      }
    }
    assert.ok(checked > 10, `only ${checked} relative links found`);
    assert.deepEqual(broken, []);
  });
});
