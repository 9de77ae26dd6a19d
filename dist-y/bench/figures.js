"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.FIGURES_ENV = void 0;
exports.recordFigure = recordFigure;
exports.readFigures = readFigures;
const node_fs_1 = __importDefault(require("node:fs"));
/** The JSON lines file a bench appends its figures to; bench/run.ts sets it per bench. */
exports.FIGURES_ENV = 'PATINA_BENCH_RESULTS';
/** Appends `figure` to the file named by PATINA_BENCH_RESULTS; does nothing when it is not set. */
function recordFigure(figure) {
    const file = process.env[exports.FIGURES_ENV];
    if (file)
        node_fs_1.default.appendFileSync(file, `${JSON.stringify(figure)}\n`);
}
/**
 * The figures recorded in `file`, in order; none if it does not exist. JSON has no NaN or Infinity
 * (they are written as null), so a number that is not one reads as NaN and is charted as n/a.
 */
function readFigures(file) {
    if (!node_fs_1.default.existsSync(file))
        return [];
    const num = (x) => (typeof x === 'number' ? x : Number.NaN);
    return node_fs_1.default
        .readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => {
        const f = JSON.parse(line);
        return {
            name: String(f.name),
            value: num(f.value),
            unit: String(f.unit),
            anchorName: String(f.anchorName),
            anchor: num(f.anchor),
            goal: goalOf(f.goal),
        };
    });
}
function goalOf(g) {
    if (typeof g !== 'object' || g === null)
        return undefined;
    if ('atMost' in g && typeof g.atMost === 'number')
        return { atMost: g.atMost };
    if ('atLeast' in g && typeof g.atLeast === 'number')
        return { atLeast: g.atLeast };
    return undefined;
}
//# sourceMappingURL=figures.js.map