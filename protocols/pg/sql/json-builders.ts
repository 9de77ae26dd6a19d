// PostgreSQL's JSON builders and which of their arguments are values put in the document (the
// others are keys): the analysis types those values (bytea-values.ts), the translation makes them
// JSON values (translate/json-values.ts).

/** Function → which arguments are values: 'all', 'odd' (json_build_object's), or an index. */
export const BUILDER_VALUES: Readonly<Record<string, 'all' | 'odd' | number>> = Object.freeze({
  json_build_object: 'odd',
  jsonb_build_object: 'odd',
  json_build_array: 'all',
  jsonb_build_array: 'all',
  json_agg: 0,
  jsonb_agg: 0,
  to_json: 0,
  to_jsonb: 0,
  row_to_json: 0,
  json_object_agg: 1,
  jsonb_object_agg: 1,
});

/** Whether argument `k` of a builder is a value. */
export function isBuilderValue(which: 'all' | 'odd' | number, k: number): boolean {
  return which === 'all' || (which === 'odd' && k % 2 === 1) || which === k;
}
