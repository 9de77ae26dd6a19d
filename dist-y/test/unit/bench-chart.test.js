"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
const strict_1 = __importDefault(require("node:assert/strict"));
const node_fs_1 = __importDefault(require("node:fs"));
const node_os_1 = __importDefault(require("node:os"));
const node_path_1 = __importDefault(require("node:path"));
const chart_1 = require("../../bench/chart");
const run_1 = require("../../bench/run");
const ENTITIES = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
/** A strict parse of the XML the chart writes (elements, attributes, text; no DTD): throws where it is not well-formed. */
function parseXml(xml) {
    const decode = (s) => {
        if (/[<]|&(?!(lt|gt|amp|quot|apos);)/.test(s))
            throw new Error(`unescaped text: ${s}`);
        return s.replace(/&(\w+);/g, (_, e) => ENTITIES[e]);
    };
    const root = { name: '', attrs: {}, children: [], content: [] };
    const open = [root];
    const tag = /<(\/?)([A-Za-z][\w:-]*)((?:\s+[\w:-]+="[^"]*")*)\s*(\/?)>|([^<]+)|(<)/g;
    for (const m of xml.matchAll(tag)) {
        const top = open[open.length - 1];
        if (m[6])
            throw new Error(`a stray < at ${m.index}`);
        if (m[5] !== undefined) {
            if (top === root && m[5].trim() !== '')
                throw new Error('text outside the root element');
            top.content.push(decode(m[5]));
        }
        else if (m[1]) {
            if (top.name !== m[2])
                throw new Error(`</${m[2]}> closes <${top.name}>`);
            open.pop();
        }
        else {
            const attrs = {};
            for (const a of m[3].matchAll(/([\w:-]+)="([^"]*)"/g)) {
                if (a[1] in attrs)
                    throw new Error(`attribute ${a[1]} twice`);
                attrs[a[1]] = decode(a[2]);
            }
            const el = { name: m[2], attrs, children: [], content: [] };
            top.children.push(el);
            top.content.push(el);
            if (!m[4])
                open.push(el);
        }
    }
    if (open.length !== 1)
        throw new Error(`<${open[open.length - 1].name}> is not closed`);
    if (root.children.length !== 1)
        throw new Error(`${root.children.length} root elements`);
    return root.children[0];
}
function all(el, pred) {
    return [...(pred(el) ? [el] : []), ...el.children.flatMap((c) => all(c, pred))];
}
const textOf = (el) => el.content.map((c) => (typeof c === 'string' ? c : textOf(c))).join('');
const bars = (svg) => all(svg, (e) => e.name === 'rect' && e.attrs.class === 'bar');
function figure(name, value, anchor, extra = {}) {
    return { name, value, unit: 'tps', anchorName: 'PostgreSQL', anchor, ...extra };
}
describe('the bench charts (bench/chart.ts, bench/run.ts)', () => {
    it('draw one bar per figure, as long as its ratio, with the anchor line at 1.0', () => {
        const svg = parseXml((0, chart_1.barChart)('pg', [figure('a', 500, 1000), figure('b', 1000, 1000), figure('c', 3000, 1500)]));
        strict_1.default.equal(svg.name, 'svg');
        const [w, h] = [Number(svg.attrs.width), Number(svg.attrs.height)];
        strict_1.default.ok(w > 0 && h > 0);
        strict_1.default.equal(svg.attrs.viewBox, `0 0 ${w} ${h}`);
        const rects = bars(svg);
        strict_1.default.equal(rects.length, 3);
        const widths = rects.map((r) => Number(r.attrs.width));
        strict_1.default.ok(Math.abs(widths[0] / 0.5 - widths[1]) < 0.2 && Math.abs(widths[2] / 2 - widths[1]) < 0.2, `${widths}`);
        const [anchor] = all(svg, (e) => e.name === 'line' && e.attrs.class === 'anchor');
        const end = Number(rects[1].attrs.x) + widths[1];
        strict_1.default.ok(Math.abs(Number(anchor.attrs.x1) - end) < 0.2, 'the 1.0 line ends the ratio-1 bar');
        strict_1.default.equal(anchor.attrs.x1, anchor.attrs.x2);
        const text = textOf(svg);
        strict_1.default.match(text, /0\.500 {2}500 tps \/ PostgreSQL 1,000 tps/);
        strict_1.default.match(text, /2\.00 {2}3,000 tps \/ PostgreSQL 1,500 tps/);
        for (const r of rects)
            strict_1.default.ok(Number(r.attrs.x) + Number(r.attrs.width) <= w, 'bars stay inside');
    });
    it('escape hostile names and units, which read back as written', () => {
        const hostile = `<script>&"'</script>`;
        const xml = (0, chart_1.barChart)(hostile, [figure(hostile, 1, 2, { unit: '<u>&', anchorName: 'a"b' })]);
        strict_1.default.doesNotMatch(xml, /<script/);
        strict_1.default.match(xml, /&lt;script&gt;&amp;&quot;&apos;&lt;\/script&gt;/);
        const svg = parseXml(xml);
        const texts = all(svg, (e) => e.name === 'text').map(textOf);
        strict_1.default.equal(texts.filter((t) => t === hostile).length, 2, 'the title and the figure name');
        strict_1.default.ok(texts.some((t) => t.includes('1.00 <u>& / a"b 2.00 <u>&')));
        strict_1.default.doesNotThrow(() => parseXml((0, chart_1.barChart)('ctl\u0001', [figure('x\u0000', 1, 1)])), 'control characters dropped');
    });
    it('show n/a and draw no bar for NaN, Infinity, a zero anchor or a negative ratio', () => {
        const figures = [
            figure('nan', Number.NaN, 1),
            figure('inf', Number.POSITIVE_INFINITY, 1),
            figure('zero anchor', 5, 0),
            figure('infinite anchor', 5, Number.NEGATIVE_INFINITY),
            figure('negative', -2, 4),
            figure('fine', 2, 4),
        ];
        const xml = (0, chart_1.barChart)('bad', figures);
        strict_1.default.doesNotMatch(xml, /NaN|Infinity/);
        const svg = parseXml(xml);
        strict_1.default.equal(bars(svg).length, 1);
        const rows = all(svg, (e) => e.name === 'g');
        strict_1.default.equal(rows.length, 6);
        for (const row of rows.slice(0, 4))
            strict_1.default.match(textOf(row), /n\/a/);
        strict_1.default.match(textOf(rows[4]), /-0\.500/);
        for (const n of all(svg, () => true)
            .flatMap((e) => Object.values(e.attrs))
            .filter((v) => /^-?[\d.]+$/.test(v)))
            strict_1.default.ok(Number.isFinite(Number(n)));
        strict_1.default.doesNotThrow(() => parseXml((0, chart_1.barChart)('none', [])));
    });
    it('cut a bar past 4 at the end of the scale, with a break mark, so the others keep their length', () => {
        const svg = parseXml((0, chart_1.barChart)('wide', [figure('half', 1, 2), figure('huge', 100, 1), figure('three', 3, 1)]));
        const widths = bars(svg).map((r) => Number(r.attrs.width));
        strict_1.default.ok(Math.abs(widths[1] / 4 - widths[0] / 0.5) < 0.2 && Math.abs(widths[2] / 3 - widths[0] / 0.5) < 0.2, `${widths}`);
        strict_1.default.equal(all(svg, (e) => e.attrs.class === 'break').length, 1);
        strict_1.default.match(textOf(svg), /100 {2}100 tps/);
    });
    it('mark a goal, and colour the bar by whether it is met', () => {
        const svg = parseXml((0, chart_1.barChart)('goals', [
            figure('met', 1, 2, { goal: { atMost: 1 } }),
            figure('unmet', 1, 2, { goal: { atLeast: 1.2 } }),
            figure('none', 1, 2),
        ]));
        const fills = bars(svg).map((r) => r.attrs.fill);
        strict_1.default.equal(new Set(fills).size, 3, 'met, unmet and no goal differ');
        const goals = all(svg, (e) => e.name === 'line' && e.attrs.class === 'goal');
        strict_1.default.equal(goals.length, 2);
        const [anchor] = all(svg, (e) => e.name === 'line' && e.attrs.class === 'anchor');
        strict_1.default.equal(goals[0].attrs.x1, anchor.attrs.x1, 'a goal of 1 sits on the anchor line');
        strict_1.default.match(textOf(svg), /goal ≤ 1.*goal ≥ 1\.2/s);
    });
    it('are checked by a parse that rejects what is not well-formed', () => {
        for (const bad of [
            '<svg><text>a & b</text></svg>',
            '<svg><g></svg>',
            '<svg/><svg/>',
            '<svg a=1/>',
            '<svg>1 < 2</svg>',
        ])
            strict_1.default.throws(() => parseXml(bad), bad);
    });
    it('give the same bytes for the same figures', () => {
        const figures = [figure('a', 1, 3), figure('  b', 7, 3, { goal: { atLeast: 2 } })];
        strict_1.default.equal((0, chart_1.barChart)('t', figures), (0, chart_1.barChart)('t', figures));
    });
    it('chart what a bench process reports, and keep the old chart when a bench fails or reports nothing', function () {
        this.timeout(10_000);
        const dir = node_fs_1.default.mkdtempSync(node_path_1.default.join(node_os_1.default.tmpdir(), 'patina-chart-test-'));
        try {
            const util = JSON.stringify(node_path_1.default.resolve(__dirname, '..', '..', 'bench', 'util.js'));
            const bench = (name, body) => {
                node_fs_1.default.writeFileSync(node_path_1.default.join(dir, `${name}.js`), `const { report } = require(${util});\n${body}\n`);
                return node_path_1.default.join(dir, `${name}.js`);
            };
            const charts = node_path_1.default.join(dir, 'charts');
            const ok = bench('ok', `report('fake <one>', 30, 'ms', 'anchor', 10); report('  two', 5, 'ms', 'anchor', 10);`);
            strict_1.default.equal((0, run_1.runBench)(ok, 'fake', charts), true);
            const chart = node_path_1.default.join(charts, 'fake.svg');
            const svg = parseXml(node_fs_1.default.readFileSync(chart, 'utf8'));
            strict_1.default.equal(bars(svg).length, 2);
            strict_1.default.match(textOf(svg), /fake <one>.*3\.00 {2}30\.00 ms \/ anchor 10\.00 ms/s);
            const before = node_fs_1.default.readFileSync(chart, 'utf8');
            const failing = bench('failing', `report('x', 1, 'ms', 'y', 1); process.exit(1);`);
            strict_1.default.equal((0, run_1.runBench)(failing, 'fake', charts), false);
            strict_1.default.equal((0, run_1.runBench)(bench('silent', ''), 'fake', charts), true);
            strict_1.default.equal(node_fs_1.default.readFileSync(chart, 'utf8'), before);
            strict_1.default.deepEqual(node_fs_1.default.readdirSync(charts), ['fake.svg']);
        }
        finally {
            node_fs_1.default.rmSync(dir, { recursive: true, force: true });
        }
    });
});
//# sourceMappingURL=bench-chart.test.js.map