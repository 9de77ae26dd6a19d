"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// Every relative link of the README and the docs resolves: to a file, and for `#anchor` to a heading
// of that file (GitHub's slugs: lower case, punctuation dropped, spaces to hyphens).
const strict_1 = __importDefault(require("node:assert/strict"));
const node_fs_1 = __importDefault(require("node:fs"));
const node_path_1 = __importDefault(require("node:path"));
const ROOT = node_path_1.default.resolve(__dirname, '..', '..', '..');
function markdownFiles() {
    const out = ['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md'].filter((f) => node_fs_1.default.existsSync(node_path_1.default.join(ROOT, f)));
    const walk = (dir) => {
        for (const e of node_fs_1.default.readdirSync(node_path_1.default.join(ROOT, dir), { withFileTypes: true })) {
            const rel = node_path_1.default.join(dir, e.name);
            if (e.isDirectory())
                walk(rel);
            else if (e.name.endsWith('.md'))
                out.push(rel);
        }
    };
    walk('docs');
    return out;
}
function slugs(file) {
    const text = node_fs_1.default.readFileSync(node_path_1.default.join(ROOT, file), 'utf8').replace(/```[\s\S]*?```/g, '');
    const out = new Set();
    for (const m of text.matchAll(/^#{1,6}\s+(.+)$/gm)) {
        const slug = m[1]
            .trim()
            .toLowerCase()
            .replace(/[^\p{L}\p{N}\s_-]/gu, '')
            .replace(/\s/g, '-');
        let s = slug;
        for (let n = 1; out.has(s); n++)
            s = `${slug}-${n}`;
        out.add(s);
    }
    return out;
}
describe('the documentation', () => {
    it('has no relative link that does not resolve, to a file or a heading', () => {
        const broken = [];
        let checked = 0;
        for (const file of markdownFiles()) {
            const text = node_fs_1.default.readFileSync(node_path_1.default.join(ROOT, file), 'utf8').replace(/```[\s\S]*?```/g, '');
            for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
                const target = m[1];
                if (/^[a-z]+:/i.test(target))
                    continue; // http:, https:, mailto:
                checked++;
                const [p, anchor] = target.split('#');
                const dest = p === '' ? file : node_path_1.default.normalize(node_path_1.default.join(node_path_1.default.dirname(file), p));
                if (!node_fs_1.default.existsSync(node_path_1.default.join(ROOT, dest)))
                    broken.push(`${file}: ${target} (no file ${dest})`);
                else if (anchor && dest.endsWith('.md') && !slugs(dest).has(anchor))
                    broken.push(`${file}: ${target} (no heading #${anchor} in ${dest})`);
            }
        }
        strict_1.default.ok(checked > 10, `only ${checked} relative links found`);
        strict_1.default.deepEqual(broken, []);
    });
});
//# sourceMappingURL=docs-links.test.js.map