// Storage strategy and alignment of each type as PostgreSQL 15 declares them (pg_type.typstorage,
// typalign, from catalog/pg-type-rows.ts). `\d+` prints the storage, pg_dump compares a column's
// with its type's to decide whether to emit ALTER COLUMN SET STORAGE, so they have to agree with
// PostgreSQL's.
import { PG_TYPE_ROWS } from './pg-type-rows';

const ROWS = new Map(PG_TYPE_ROWS.map((r) => [r[0], r]));

/** The type's storage ('p' plain, 'm' main, 'x' extended); for a type PostgreSQL's rows lack, 'p' when fixed-size, else 'x'. */
export function typeStorage(oid: number, size: number): string {
  return ROWS.get(oid)?.[19] ?? (size > 0 ? 'p' : 'x');
}

/** The type's alignment ('c' char, 's' short, 'i' int, 'd' double). */
export function typeAlign(oid: number): string {
  return ROWS.get(oid)?.[18] ?? 'i';
}
