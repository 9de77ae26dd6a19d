// A statement as the front end understands it: what Parse (or one statement of a simple query)
// makes of PostgreSQL SQL, cached by its text (sql/analyze.ts), and what Execute runs.
import type { CopyStatement } from '../copy/statement';
import type { Feed } from '../../../src/engine/fed-rows';
import type { FetchDirection } from '../session/cursors';

export interface ColumnDesc {
  name: string;
  declType: string | null;
  /** The type of an expression column when the SQL tells it (a cast, a comparison, a parameter); 0 or absent: from the values. */
  oid?: number;
  /** A cast's type modifier (`x::numeric(10,2)`); absent: the declared type's, if any. */
  typmod?: number;
  /** A numeric's display scale where no modifier is announced (`sum(amount)` of a numeric(10,2)). */
  scale?: number;
  /** The scale is a minimum: values with more digits print them (`amount + $1`). */
  scaleIsMinimum?: boolean;
  /** The parameters (1-based) whose bound text's scale raises the minimum (`$1::numeric` with '1.500' is 1.500). */
  scaleParams?: number[];
  /** What a product adds to each of scaleParams' scales (`$1 * 2.0`: 1); absent: nothing. */
  scaleOffsets?: number[];
  /** A numeric computed as a double, of no known scale: printed at its 15 significant digits. */
  computed?: boolean;
  /** A bpchar of no modifier whose values are a char(n)'s: printed padded to n (`max(ch)`; sql/char-widths.ts). */
  pad?: number;
  /** A column of a user table selected as it is: its table's pg_class oid and its attnum (RowDescription's). */
  tableOid?: number;
  attnum?: number;
}

/** A statement as the session understands it (the result of Parse, or of one simple-query statement). */
export interface Analyzed {
  kind:
    | 'empty'
    | 'begin'
    | 'commit'
    | 'rollback'
    | 'savepoint'
    | 'set'
    | 'show'
    | 'noop'
    | 'sql'
    | 'explain'
    | 'listen'
    | 'unlisten'
    | 'notify'
    | 'copy'
    | 'declare'
    | 'fetch'
    | 'close-cursor'
    | 'prepare'
    | 'execute'
    | 'deallocate';
  /** Tag word: SELECT, INSERT, UPDATE, DELETE, BEGIN, ... */
  command: string;
  sql: string;
  local: boolean;
  readonly: boolean;
  /** Result columns; null when the statement returns none. */
  columns: ColumnDesc[] | null;
  /** Parameter type OIDs; 0 = unknown, inferred from the value. */
  paramTypes: number[];
  /**
   * `sql` with its $1..$n as SQLite's anonymous `?`, when each appears once and in order: bound by
   * position (no object of named parameters, no lookup by name). Only for reads, on the point-read path.
   */
  positional?: string;
  /** The parameters (0-based) whose text's scale a result column prints at (ColumnDesc.scaleParams); absent for none. */
  scaleParams?: number[];
  /** The bpchar parameters (0-based) bound with their trailing spaces (`SELECT $1::bpchar`, sql/bpchar-casts.ts); absent for none. */
  keptParams?: number[];
  /** WARNINGs sent each time the statement runs (ANALYZE or VACUUM of a catalog view: skipped). */
  warnings?: string[];
  /** A catalog query naming something Patina does not model: answered with no rows. */
  empty?: boolean;
  /** A multi-row INSERT ... ON CONFLICT DO UPDATE: each row's key, checked for repeats when it runs (upsert-rows.ts). */
  upsertKeys?: string[][];
  /** A SELECT with a locking clause (FOR UPDATE, FOR SHARE): in a block it takes the writer (translate/locking.ts). */
  locks?: boolean;
  /** The identifier of PREPARE TRANSACTION (kind 'rollback'), COMMIT / ROLLBACK PREPARED (kind 'noop'): session/two-phase.ts. */
  prepares?: string;
  setting?: {
    name: string;
    value: string | null;
    local?: boolean;
    /** [NOT] DEFERRABLE of BEGIN, SET TRANSACTION (transaction_deferrable) or SET SESSION CHARACTERISTICS (default_...). */
    deferrable?: { name: string; value: 'on' | 'off' };
    /** ISOLATION LEVEL of BEGIN, SET TRANSACTION (transaction_isolation) or SET SESSION CHARACTERISTICS (default_...). */
    isolation?: { name: string; value: string };
  };
  /** A data-modifying WITH query's statements, run before `sql` and feeding it their rows (sql/modifying-with.ts). */
  feeds?: Feed[];
  /** A write of several statements run as one (TRUNCATE a, b): every statement, `sql` is the first. */
  batch?: string[];
  /** EXPLAIN: the statement explained, and whether to run it too (EXPLAIN ANALYZE). */
  explain?: { inner: Analyzed; run: boolean };
  /** LISTEN, UNLISTEN (null channel: `*`) and NOTIFY. */
  channel?: { name: string | null; payload: string; params?: (number | null)[] };
  /** COPY: the statement, and for COPY TO the read that gives its rows. */
  copy?: { stmt: CopyStatement; columns: string[]; read: Analyzed | null };
  /** DECLARE (with the query), FETCH/MOVE (count; Infinity for ALL), CLOSE (null name: ALL). */
  cursor?: {
    name: string | null;
    hold?: boolean;
    inner?: Analyzed;
    count?: number;
    move?: boolean;
    /** DECLARE ... SCROLL; FETCH's direction (session/cursors.ts). */
    scroll?: boolean;
    dir?: FetchDirection;
  };
  /**
   * PREPARE (its name, the type names of its list, the statement's text), EXECUTE (the name, each
   * argument as written), DEALLOCATE (null name: ALL): sql/prepare-statements.ts. `at`: where each
   * type or argument starts in the statement's text (an error's position).
   */
  prepared?: {
    name: string | null;
    types?: string[];
    body?: string;
    /** Where PREPARE's statement starts in its text (the body's errors are placed from there). */
    bodyAt?: number;
    args?: string[];
    at?: number[];
  };
}
