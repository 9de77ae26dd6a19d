import fs from 'node:fs';

/** A ratio a bench aims for: the figure at most, or at least, this many times its anchor. */
export type Goal = { atMost: number } | { atLeast: number };

/** One figure a bench printed beside its anchor, measured in the same run. */
export interface Figure {
  name: string;
  value: number;
  unit: string;
  anchorName: string;
  anchor: number;
  goal?: Goal;
}

/** The JSON lines file a bench appends its figures to; bench/run.ts sets it per bench. */
export const FIGURES_ENV = 'PATINA_BENCH_RESULTS';

/** Appends `figure` to the file named by PATINA_BENCH_RESULTS; does nothing when it is not set. */
export function recordFigure(figure: Figure): void {
  const file = process.env[FIGURES_ENV];
  if (file) fs.appendFileSync(file, `${JSON.stringify(figure)}\n`);
}

/**
 * The figures recorded in `file`, in order; none if it does not exist. JSON has no NaN or Infinity
 * (they are written as null), so a number that is not one reads as NaN and is charted as n/a.
 */
export function readFigures(file: string): Figure[] {
  if (!fs.existsSync(file)) return [];
  const num = (x: unknown) => (typeof x === 'number' ? x : Number.NaN);
  return fs
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

function goalOf(g: unknown): Goal | undefined {
  if (typeof g !== 'object' || g === null) return undefined;
  if ('atMost' in g && typeof g.atMost === 'number') return { atMost: g.atMost };
  if ('atLeast' in g && typeof g.atLeast === 'number') return { atLeast: g.atLeast };
  return undefined;
}
