/** A column of a schema table, as SQLite reports it. */
export interface ColumnDef {
  name: string;
  /** Declared type, as the schema file wrote it ('' when none). */
  type: string;
  /**
   * The type SQLite was given, which sets the column's affinity: `type`, but `JSON TEXT` for JSON
   * (and JSONB, NAME) in a table created since they are stored as text (stored-types.ts).
   */
  storedType: string;
  notNull: boolean;
  /** Default expression text, or null. */
  defaultSql: string | null;
  /** Position in the primary key, 1-based; 0 when not part of it. */
  pk: number;
  /** The column's definition text from its CREATE TABLE (for ALTER TABLE ADD COLUMN). */
  definition: string;
}

export interface IndexDef {
  name: string;
  table: string;
  unique: boolean;
  columns: string[];
  /** Which of the columns are descending (`CREATE INDEX ... (a, b DESC)`); absent: none. */
  descending?: boolean[];
  /** 'c' for CREATE INDEX, 'u' for a UNIQUE constraint, 'pk' for the primary key's own index. */
  origin: string;
  sql: string;
}

export interface TableDef {
  name: string;
  columns: ColumnDef[];
  /** Primary-key column names in key order. */
  primaryKey: string[];
  indexes: IndexDef[];
  sql: string;
  /** Where the table was declared, for error messages. */
  file: string;
  line: number;
}

/** The cluster's tables, by name. */
export interface Schema {
  tables: Map<string, TableDef>;
}

/** Internal tables (the agent's own bookkeeping, clocks) start with this and are never schema tables. */
export const INTERNAL_PREFIX = '__patina';

export function isInternalName(name: string): boolean {
  return name.toLowerCase().startsWith(INTERNAL_PREFIX) || name.toLowerCase().startsWith('sqlite_');
}
