// Parameters as SQLite takes them: a statement's $n are SQLite's named parameters "n".
import type { SqlValue } from '../../../src/engine/values';

/** Positional parameters as SQLite's named ones ($1 is "1"); undefined when there are none. */
export function paramRecord(list: SqlValue[]): Record<string, SqlValue> | undefined {
  // literals for the common counts: adding indexed properties one by one goes through V8's runtime
  switch (list.length) {
    case 0:
      return undefined;
    case 1:
      return { 1: list[0] };
    case 2:
      return { 1: list[0], 2: list[1] };
    case 3:
      return { 1: list[0], 2: list[1], 3: list[2] };
  }
  const params: Record<string, SqlValue> = {};
  for (let i = 0; i < list.length; i++) params[i + 1] = list[i];
  return params;
}
