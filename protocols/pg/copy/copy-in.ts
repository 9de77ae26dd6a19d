// COPY FROM STDIN into a table: each record converted to the columns' types as PostgreSQL would
// and inserted by one prepared INSERT on the writer, all or nothing (one transaction, or the open
// block's lease); a bad value or a constraint error names the line, as PostgreSQL's CONTEXT does.
import type { Schema } from '../../../src/engine/schema/model';
import type { SqlValue } from '../../../src/engine/values';
import type { WriterLease } from '../../../src/engine/writer';
import { fromSqliteError } from '../../../src/errors';
import { pgConstraintError } from '../session/constraint-errors';
import { PgError, sqlstateOf } from '../sqlstate';
import { copyError } from './format';

/** COPY FROM STDIN's rows going into the writer: one transaction (or the open block), all or nothing. */
export interface CopyIn {
  readonly table: string;
  readonly columns: string[];
  /** The columns' type OIDs (what a binary COPY's fields are). */
  readonly oids: number[];
  /** Inserts one record; throws PostgreSQL's error naming the line. */
  insert(fields: (string | null)[], line: number): void;
  /** Commits (outside a block); returns the rows copied. */
  finish(): number;
  /** Rolls back (outside a block) or fails the block. */
  abort(): void;
}

/**
 * Where the records of a COPY go, on a lease already begun (or the open block's, `inBlock`): the
 * INSERT `sql` prepared once, `convert` per column; a failure inside a block calls `failBlock`.
 */
export function copyIntoTable(p: {
  lease: WriterLease<unknown>;
  inBlock: boolean;
  schema: Schema;
  table: string;
  columns: string[];
  oids: number[];
  sql: string;
  convert: ((s: string) => SqlValue)[];
  failBlock: () => void;
}): CopyIn {
  const { lease, inBlock, schema, table, columns, oids, sql, convert, failBlock } = p;
  // prepared once for the whole COPY (lease.run would look it up per row)
  let insert: ReturnType<typeof lease.db.prepare>;
  try {
    insert = lease.db.prepare(sql.replace(/\$\d+/g, '?'));
  } catch (err) {
    if (!inBlock) lease.release();
    throw fromSqliteError(err);
  }
  let count = 0;
  let open = true;
  const end = (commit: boolean) => {
    if (!open) return;
    open = false;
    if (inBlock) {
      if (!commit) failBlock();
      return;
    }
    try {
      if (commit) lease.commit();
      else lease.rollback();
    } finally {
      lease.release();
    }
  };
  return {
    table,
    columns,
    oids,
    insert: (fields, line) => {
      if (fields.length > columns.length)
        throw copyError('22P04', 'extra data after last expected column', line, table);
      if (fields.length < columns.length)
        throw copyError('22P04', `missing data for column "${columns[fields.length]}"`, line, table);
      const values: SqlValue[] = new Array(fields.length);
      for (let k = 0; k < fields.length; k++) {
        const f = fields[k];
        try {
          values[k] = f === null ? null : convert[k](f);
        } catch (err) {
          const e = err as { message: string; sqlstate?: string };
          throw copyError(e.sqlstate ?? '22P02', e.message, line, table, columns[k], f);
        }
      }
      try {
        insert.run(values);
      } catch (err) {
        const params: Record<string, SqlValue> = {};
        values.forEach((v, k) => (params[k + 1] = v));
        const e = pgConstraintError(fromSqliteError(err), {
          schema,
          sql,
          params,
          keyExists: (t, cols, values) =>
            lease.db
              .prepare(`SELECT 1 FROM "${t}" WHERE ${cols.map((c) => `"${c}" = ?`).join(' AND ')}`)
              .get(...values) !== undefined,
        });
        const state = e instanceof PgError ? undefined : sqlstateOf(e);
        const pe = state ? new PgError('user', state.message.replace(/^statement: /, ''), state.code) : (e as PgError);
        pe.where = `COPY ${table}, line ${line}`;
        throw pe;
      }
      count++;
    },
    finish: () => {
      end(true);
      return count;
    },
    abort: () => end(false),
  };
}
