// Relation names by OID for regclass values, which are OIDs that print as names, and the names of
// the tables' row types for regtype's: the catalog (catalog/local-db.ts) says where to look them up
// each time it is filled.
export interface RelationNames {
  /** A relation's name as regclass prints it (qualified outside the search path), or undefined. */
  name(oid: number): string | undefined;
  /** The OID of a relation regclass printed as `name`, or undefined. */
  oid(name: string): number | undefined;
  /** A table's row type (or its array type) as regtype prints it, or undefined. */
  typeName(oid: number): string | undefined;
  /** The OID of a table's row type (`t`) or its array type (`t[]`, `_t`), or undefined. */
  typeOid(name: string): number | undefined;
}

let current: RelationNames = {
  name: () => undefined,
  oid: () => undefined,
  typeName: () => undefined,
  typeOid: () => undefined,
};

export function setRelationNames(names: RelationNames): void {
  current = names;
}

export function relationNames(): RelationNames {
  return current;
}
