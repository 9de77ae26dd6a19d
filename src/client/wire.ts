import { PatinaError } from './errors.js';
import { type IntegerMode, parseExact } from './json.js';
import type { Cell, Row } from './types.js';

/** One line of a query or subscription stream, as the API defines it. */
export type WireEvent =
  | { columns: string[] }
  | { row: [number, Row] }
  | { eoq: { time: number; change_id?: number } }
  | { change: ['insert' | 'update' | 'delete', number, Row, number] }
  | { notify: ['update' | 'delete', Cell[]] }
  | { error: string };

/** Parses one NDJSON line; in 'bigint' mode ids (row, change) still come back as numbers. */
export function parseLine(line: string, ints: IntegerMode): WireEvent {
  const ev = parseExact(line, ints) as Record<string, unknown>;
  if (ev === null || typeof ev !== 'object' || Array.isArray(ev))
    throw new PatinaError('protocol', `unexpected line from the agent: ${line.slice(0, 200)}`);
  if (ints === 'bigint') {
    if ('row' in ev) (ev.row as unknown[])[0] = Number((ev.row as unknown[])[0]);
    else if ('change' in ev) {
      const c = ev.change as unknown[];
      c[1] = Number(c[1]);
      c[3] = Number(c[3]);
    } else if ('eoq' in ev) {
      const e = ev.eoq as { time: unknown; change_id?: unknown };
      e.time = Number(e.time);
      if (e.change_id !== undefined) e.change_id = Number(e.change_id);
    }
  }
  return ev as WireEvent;
}
