// EXPLAIN's text: SQLite's EXPLAIN QUERY PLAN rows as PostgreSQL-style indented lines, and a write
// shown as PostgreSQL shows one (the write on its table, over the plan of what it reads); with
// ANALYZE, the statement run and its rows and time added.
import type { Analyzed } from '../sql/analyzed';
import { targetTable } from './constraint-errors';
import type { Outcome } from './engine';

/** EXPLAIN [ANALYZE]'s lines: the plan, and for ANALYZE the statement run (by `run`), its rows counted and timed. */
export async function explainText(
  plan: unknown[][],
  explain: { inner: Analyzed; run: boolean },
  run: () => Outcome | Promise<Outcome>,
): Promise<string[]> {
  const { inner } = explain;
  const lines = explainLines(plan, inner);
  if (!explain.run) return lines;
  const t0 = performance.now();
  const out = await run();
  let rows = out.all?.length ?? 0;
  if (out.rows) for (let batch = await out.rows.next(); batch; batch = await out.rows.next()) rows += batch.length;
  if (out.affected !== undefined && inner.command !== 'SELECT') rows = out.affected;
  const ms = performance.now() - t0;
  lines[0] += ` (actual rows=${rows} loops=1)`;
  lines.push(`Execution Time: ${ms.toFixed(3)} ms`);
  return lines;
}

/** The plan lines EXPLAIN answers for `inner` from SQLite's plan rows. */
export function explainLines(plan: unknown[][], inner: Analyzed): string[] {
  let lines = planLines(plan);
  // (a SELECT with a data-modifying WITH query runs on the writer, but shows as the read it is)
  if (!inner.readonly && !(inner.feeds && inner.command === 'SELECT')) {
    // as PostgreSQL shows a write: the write on its table, over the plan of what it reads
    const verb =
      inner.command === 'TRUNCATE TABLE' ? 'Delete' : inner.command[0] + inner.command.slice(1).toLowerCase();
    const reads =
      plan.length > 0 ? lines.map((l) => `  ->  ${l.trimStart().replace(/^-> {2}/, '')}`) : ['  ->  Result'];
    lines = [`${verb} on ${targetTable(inner.sql) ?? '?'}`, ...reads];
  }
  return lines;
}

/** SQLite's EXPLAIN QUERY PLAN rows (id, parent, notused, detail) as PostgreSQL-style indented lines. */
function planLines(rows: unknown[][]): string[] {
  const depth = new Map<unknown, number>([[0, -1]]);
  const lines: string[] = [];
  for (const [id, parent, , detail] of rows) {
    const d = (depth.get(parent) ?? -1) + 1;
    depth.set(id, d);
    lines.push(d === 0 ? String(detail) : `${' '.repeat(6 * (d - 1))}  ->  ${detail}`);
  }
  return lines.length > 0 ? lines : ['(no plan)'];
}
