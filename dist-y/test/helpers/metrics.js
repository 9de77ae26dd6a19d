"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.scrape = scrape;
exports.value = value;
exports.promtoolCheck = promtoolCheck;
const strict_1 = __importDefault(require("node:assert/strict"));
const node_child_process_1 = require("node:child_process");
const http_1 = require("./http");
async function scrape(base) {
    const r = await (0, http_1.request)(base, 'GET', '/metrics');
    strict_1.default.equal(r.status, 200, r.text);
    strict_1.default.match(String(r.headers['content-type']), /^text\/plain; version=0\.0\.4/);
    const samples = new Map();
    for (const l of r.text.split('\n')) {
        if (l === '' || l.startsWith('#'))
            continue;
        const m = /^(\S+?(?:\{.*\})?) (\S+)$/.exec(l);
        strict_1.default.ok(m, `not a sample line: ${l}`);
        samples.set(m[1], Number(m[2]));
    }
    return { text: r.text, samples };
}
/** A sample's value; fails naming it when it is absent. */
function value(s, key) {
    const v = s.samples.get(key);
    strict_1.default.ok(v !== undefined, `no sample ${key} in:\n${[...s.samples.keys()].filter((k) => k.startsWith(key.split('{')[0])).join('\n')}`);
    return v;
}
/** Runs `promtool check metrics` on a scrape; fails with what promtool said. */
function promtoolCheck(s) {
    const r = (0, node_child_process_1.spawnSync)('promtool', ['check', 'metrics'], { input: s.text, encoding: 'utf8' });
    strict_1.default.equal(r.error, undefined, `promtool could not run (Debian package prometheus): ${r.error?.message}`);
    strict_1.default.equal(r.status, 0, `promtool check metrics: ${r.stdout}${r.stderr}`);
}
//# sourceMappingURL=metrics.js.map