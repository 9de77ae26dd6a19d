/** Helpers shared by the benchmarks: medians, percentiles and the ratio line every figure is printed as. */

export function median(xs: number[]): number {
  return percentile(xs, 50);
}

export function percentile(xs: number[], p: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const i = Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1));
  return s[i];
}

/** Prints a figure beside its anchor, measured in the same run, as a ratio. */
export function report(name: string, value: number, unit: string, anchorName: string, anchor: number): void {
  const ratio = value / anchor;
  process.stdout.write(`${name}: ${fmt(value)} ${unit} | ${anchorName}: ${fmt(anchor)} ${unit} | ratio ${ratio.toFixed(3)}\n`);
}

export function fmt(n: number): string {
  return n >= 100 ? n.toFixed(0) : n >= 1 ? n.toFixed(2) : n.toPrecision(3);
}
