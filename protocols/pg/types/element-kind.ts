// Which arrays Patina keeps in PostgreSQL's form (src/engine/pg-array-input.ts): by the element's
// type OID, or a column's declared type ('TEXT[]').
import type { ElementKind } from '../../../src/engine/pg-array-input';
import { OID, oidOfDeclType } from './oids';
import { elementOidOf } from './registry';

const KINDS: Record<number, ElementKind> = {
  [OID.int2]: 'smallint',
  [OID.int4]: 'integer',
  [OID.int8]: 'bigint',
  [OID.numeric]: 'numeric',
  [OID.float4]: 'real',
  [OID.float8]: 'double precision',
  [OID.bool]: 'boolean',
  [OID.text]: 'text',
  [OID.varchar]: 'text',
  [OID.bpchar]: 'text',
  [OID.name]: 'text',
  [OID.uuid]: 'uuid',
  [OID.date]: 'date',
  [OID.timestamp]: 'timestamp without time zone',
  [OID.timestamptz]: 'timestamp with time zone',
  [OID.time]: 'time without time zone',
  [OID.json]: 'json',
  [OID.jsonb]: 'jsonb',
  [OID.interval]: 'interval',
  [OID.bytea]: 'bytea',
};

/** How the elements of an array of `elem` are read and printed; undefined for those kept as written (money, inet, ...). */
export const elementKindOf = (elem: number): ElementKind | undefined => KINDS[elem];

/** The element kind of an array column's declared type (`BIGINT[]`); undefined for no array or one kept as written. */
export function declaredElementKind(decl: string | null | undefined): ElementKind | undefined {
  if (!decl || !/\[\s*\]\s*$/.test(decl)) return undefined;
  const elem = elementOidOf(oidOfDeclType(decl));
  return elem === undefined ? undefined : KINDS[elem];
}
