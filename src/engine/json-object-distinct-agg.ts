// json_object_agg(DISTINCT k, v) and jsonb_object_agg(DISTINCT k, v): PostgreSQL drops repeated
// (k, v) pairs and, having sorted them to find the repeats, adds them in that order. SQLite's DISTINCT
// takes one argument only ("DISTINCT aggregates must have exactly one argument"), so the translation
// passes the pair as one JSON array, `__pg_json_object_distinct(DISTINCT json_array(k, v) ORDER BY
// ...)` (protocols/pg/sql/translate/distinct-object-agg.ts), and this aggregate writes the object of
// the pairs as json_group_object would: each value's text as json_array wrote it (a json value or a
// builder's marked text kept), the key a string. A NULL key is PostgreSQL's 22023.
import type Database from 'better-sqlite3';
import { sqlStateError } from '../errors';

/** Where the JSON string that starts at `at` ends (the index after its closing quote). */
function stringEnd(text: string, at: number): number {
  let i = at + 1;
  while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
  return i + 1;
}

/** `"key":value` of one pair's text, `[k,v]` as SQLite's json_array writes it (no spaces). */
function member(pair: string): string {
  const keyEnd = pair[1] === '"' ? stringEnd(pair, 1) : pair.indexOf(',', 1);
  const key = pair.slice(1, keyEnd);
  if (key === 'null') throw sqlStateError('22023', 'field name must not be null');
  // (a number or boolean key is its text, as PostgreSQL makes the key text)
  return `${key.startsWith('"') ? key : JSON.stringify(key)}:${pair.slice(keyEnd + 1, -1)}`;
}

export function installJsonObjectDistinctAgg(db: Database.Database): void {
  db.aggregate('__pg_json_object_distinct', {
    start: () => null as string[] | null,
    step: (acc: string[] | null, pair: unknown) => {
      const members = acc ?? [];
      members.push(member(String(pair)));
      return members;
    },
    result: (acc: string[] | null) => (acc === null ? null : `{${acc.join(',')}}`),
  } as never);
}
