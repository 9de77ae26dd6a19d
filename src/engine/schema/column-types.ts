/**
 * The column type names a schema file may use: each maps to a PostgreSQL type the PG front end
 * announces. Anything else is refused, because SQLite takes any words as a type: a missing comma
 * (`body TEXT` then `due DATE`) silently makes one column `body` of type `TEXT due DATE`.
 */
export const ACCEPTED_TYPES: readonly string[] = [
  'INTEGER',
  'INT',
  'SMALLINT',
  'BIGINT',
  'INT2',
  'INT4',
  'INT8',
  'REAL',
  'FLOAT',
  'FLOAT4',
  'FLOAT8',
  'DOUBLE',
  'DOUBLE PRECISION',
  'NUMERIC',
  'DECIMAL',
  'TEXT',
  'VARCHAR',
  'CHARACTER VARYING',
  'CHAR',
  'CHARACTER',
  'BPCHAR',
  'BLOB',
  'BYTEA',
  'BOOLEAN',
  'BOOL',
  'DATE',
  'TIME',
  'TIME WITHOUT TIME ZONE',
  'TIMESTAMP',
  'TIMESTAMP WITHOUT TIME ZONE',
  'DATETIME',
  'TIMESTAMPTZ',
  'TIMESTAMP WITH TIME ZONE',
  'INTERVAL',
  'JSON',
  'JSONB',
  'UUID',
  'NAME',
  'OID',
  'TSVECTOR',
  'TSQUERY',
];

const ACCEPTED = new Set(ACCEPTED_TYPES);

/**
 * Whether a declared type is one of ACCEPTED_TYPES, with an optional size or precision (`VARCHAR(40)`,
 * `NUMERIC(12, 2)`) and an optional `[]` for a one-dimensional array. No type at all is text, as in SQLite.
 */
export function isAcceptedType(declared: string): boolean {
  let t = declared.trim().replace(/\s+/g, ' ').toUpperCase();
  if (t === '') return true;
  if (t.endsWith('[]')) t = t.slice(0, -2).trimEnd();
  const m = /^([A-Z0-9 ]+?)\s*(\(\s*\d+\s*(,\s*-?\d+\s*)?\))?$/.exec(t);
  return m !== null && ACCEPTED.has(m[1]);
}
