// array_agg(DISTINCT doc) and jsonb_agg(DISTINCT doc) of jsonb: PostgreSQL drops repeats as jsonb
// equality tells them (`1.50` = `1.5`, `{"a": 1.0}` = `{"a": 1}`) by sorting the values in jsonb's
// order, so they come out in that order, NULL last (first with ORDER BY doc DESC). SQLite's DISTINCT
// went by the stored text and sorted by it. The translation calls __pg_jsonb_distinct_agg(kind, desc,
// doc) (protocols/pg/sql/translate/jsonb-distinct-aggregates.ts); each value is kept as its first row
// wrote it, as a jsonb column's text.
import type Database from 'better-sqlite3';
import { jsonOperand } from './jsonb';
import { jsonbSortKey } from './jsonb-sort-key';
import { arrayText } from './pg-functions';

interface Seen {
  kind: string;
  desc: boolean;
  /** Each distinct value's text by its sort key ('' for NULL, which sorts apart). */
  values: Map<string, string | null>;
}

export function installJsonbDistinctAggregates(db: Database.Database): void {
  db.aggregate('__pg_jsonb_distinct_agg', {
    varargs: true,
    start: () => null as Seen | null,
    step: (acc: Seen | null, ...[kind, desc, v]: unknown[]) => {
      const seen = acc ?? { kind: String(kind), desc: Number(desc) === 1, values: new Map() };
      const text = v === null || v === undefined ? null : String(v);
      const key = text === null ? '' : `k${jsonbSortKey(jsonOperand(text))}`;
      if (!seen.values.has(key)) seen.values.set(key, text);
      return seen;
    },
    result: (acc: Seen | null) => {
      if (acc === null) return null;
      const keys = [...acc.values.keys()].filter((k) => k !== '').sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      if (acc.desc) keys.reverse();
      // (NULLs last ascending, first descending, as PostgreSQL's sort places them)
      if (acc.values.has('')) acc.desc ? keys.unshift('') : keys.push('');
      const texts = keys.map((k) => acc.values.get(k) ?? null);
      return acc.kind === 'array' ? arrayText(texts) : `[${texts.map((t) => t ?? 'null').join(', ')}]`;
    },
  } as never);
}
