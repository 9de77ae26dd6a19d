import { PatinaError } from '../../errors';
import { quoteIdentifier } from '../sql-text';
import type { ColumnDef, IndexDef, Schema, TableDef } from './model';
import { sameStringDefault } from './string-defaults';

/** What applying the schema files changes, as DDL statements plus a summary for people. */
export interface SchemaPlan {
  statements: string[];
  createdTables: string[];
  addedColumns: { table: string; column: string }[];
  createdIndexes: string[];
  droppedIndexes: string[];
}

const norm = (s: string | null) => (s ?? '').replace(/\s+/g, ' ').trim().toLowerCase();

function sameColumn(a: ColumnDef, b: ColumnDef): boolean {
  return (
    a.name === b.name &&
    norm(a.type) === norm(b.type) &&
    a.notNull === b.notNull &&
    // (a string column's `DEFAULT true` of a table created before is the `DEFAULT 'true'` stored since)
    sameStringDefault(b.type, a.defaultSql, b.defaultSql) &&
    a.pk === b.pk
  );
}

function describe(c: ColumnDef): string {
  return `${c.type || 'untyped'}${c.notNull ? ' NOT NULL' : ''}${c.defaultSql !== null ? ' DEFAULT ' + c.defaultSql : ''}${c.pk ? ' (primary key)' : ''}`;
}

const explicitIndexes = (t: TableDef) => t.indexes.filter((ix) => ix.origin === 'c');

/**
 * Diffs the schema files against the database. Additive changes (new tables, new nullable or
 * defaulted columns, new or changed indexes) become DDL; anything that would drop or change data
 * already stored is refused with an error that names it, and nothing is applied.
 */
export function planSchema(current: Schema, desired: Schema): SchemaPlan {
  const plan: SchemaPlan = {
    statements: [],
    createdTables: [],
    addedColumns: [],
    createdIndexes: [],
    droppedIndexes: [],
  };
  const refusals: string[] = [];
  for (const name of current.tables.keys()) {
    if (!desired.tables.has(name))
      refusals.push(`table "${name}" is in the database but not in the schema files; dropping a table is not allowed`);
  }
  for (const want of desired.tables.values()) {
    const at = want.file ? `${want.file}:${want.line}: ` : '';
    const have = current.tables.get(want.name);
    if (!have) {
      plan.statements.push(want.sql);
      for (const ix of explicitIndexes(want)) plan.statements.push(ix.sql);
      plan.createdTables.push(want.name);
      continue;
    }
    const wantCols = new Map(want.columns.map((c) => [c.name, c]));
    for (const c of have.columns) {
      const w = wantCols.get(c.name);
      if (!w)
        refusals.push(
          `${at}table "${want.name}": column "${c.name}" is missing from the schema files; dropping a column is not allowed`,
        );
      else if (!sameColumn(c, w)) {
        refusals.push(
          `${at}table "${want.name}": column "${c.name}" would change from ${describe(c)} to ${describe(w)}; changing a column is not allowed`,
        );
      }
    }
    const haveCols = new Set(have.columns.map((c) => c.name));
    for (const c of want.columns) {
      if (haveCols.has(c.name)) continue;
      if (c.pk > 0) {
        refusals.push(
          `${at}table "${want.name}": new column "${c.name}" is part of the primary key; changing the key is not allowed`,
        );
        continue;
      }
      if (c.notNull && c.defaultSql === null) {
        refusals.push(`${at}table "${want.name}": new column "${c.name}" is NOT NULL without a DEFAULT`);
        continue;
      }
      plan.statements.push(`ALTER TABLE ${quoteIdentifier(want.name)} ADD COLUMN ${c.definition}`);
      plan.addedColumns.push({ table: want.name, column: c.name });
    }
    const haveIx = new Map(explicitIndexes(have).map((ix) => [ix.name, ix]));
    const wantIx = new Map(explicitIndexes(want).map((ix) => [ix.name, ix]));
    for (const [name, ix] of haveIx) {
      const w = wantIx.get(name);
      if (!w || norm(w.sql) !== norm(ix.sql)) {
        plan.statements.push(`DROP INDEX ${quoteIdentifier(name)}`);
        plan.droppedIndexes.push(name);
      }
    }
    for (const [name, ix] of wantIx) {
      const h: IndexDef | undefined = haveIx.get(name);
      if (!h || norm(h.sql) !== norm(ix.sql)) {
        plan.statements.push(ix.sql);
        plan.createdIndexes.push(name);
      }
    }
  }
  if (refusals.length > 0) {
    throw new PatinaError('conflict', `schema change refused, nothing was applied: ${refusals.join('; ')}`);
  }
  return plan;
}

/** What a plan changed, as `patina reload` answers it and the log says it. */
export function planSummary(plan: SchemaPlan): Record<string, string[]> {
  return {
    created_tables: plan.createdTables,
    added_columns: plan.addedColumns.map((c) => `${c.table}.${c.column}`),
    created_indexes: plan.createdIndexes,
    dropped_indexes: plan.droppedIndexes,
  };
}
