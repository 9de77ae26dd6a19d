"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.runBench = runBench;
// npm run bench [-- NAME...]: runs every bench/*.bench.ts (built to dist/bench) one after the
// other, each in its own process so that one's memory and threads do not colour the next. The
// figures a bench reports are charted to docs/charts/NAME.svg (PATINA_BENCH_CHARTS overrides the
// folder) when it succeeds; a bench that fails or reports nothing leaves its old chart.
const node_child_process_1 = require("node:child_process");
const node_fs_1 = __importDefault(require("node:fs"));
const node_os_1 = __importDefault(require("node:os"));
const node_path_1 = __importDefault(require("node:path"));
const chart_1 = require("./chart");
const figures_1 = require("./figures");
/** Runs one bench script in its own process and charts what it reported: whether it succeeded. */
function runBench(script, name, chartsDir) {
    const tmp = node_fs_1.default.mkdtempSync(node_path_1.default.join(node_os_1.default.tmpdir(), 'patina-bench-figures-'));
    const figuresFile = node_path_1.default.join(tmp, `${name}.jsonl`);
    try {
        const r = (0, node_child_process_1.spawnSync)(process.execPath, ['--expose-gc', script], {
            stdio: 'inherit',
            env: { ...process.env, [figures_1.FIGURES_ENV]: figuresFile },
        });
        if (r.status !== 0)
            return false;
        const figures = (0, figures_1.readFigures)(figuresFile);
        if (figures.length === 0)
            return true;
        node_fs_1.default.mkdirSync(chartsDir, { recursive: true });
        const chart = node_path_1.default.join(chartsDir, `${name}.svg`);
        node_fs_1.default.writeFileSync(chart, (0, chart_1.barChart)(`${name}: each figure / its anchor, same run`, figures));
        process.stdout.write(`chart: ${chart}\n`);
        return true;
    }
    finally {
        node_fs_1.default.rmSync(tmp, { recursive: true, force: true });
    }
}
function main() {
    const only = process.argv.slice(2);
    const chartsDir = process.env.PATINA_BENCH_CHARTS ?? node_path_1.default.resolve(__dirname, '..', '..', 'docs', 'charts');
    const files = node_fs_1.default
        .readdirSync(__dirname)
        .filter((f) => f.endsWith('.bench.js'))
        .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
        .sort();
    let failed = 0;
    for (const f of files) {
        const name = f.replace(/\.bench\.js$/, '');
        process.stdout.write(`\n== ${name}\n`);
        if (!runBench(node_path_1.default.join(__dirname, f), name, chartsDir))
            failed++;
    }
    process.exit(failed ? 1 : 0);
}
if (require.main === module)
    main();
//# sourceMappingURL=run.js.map