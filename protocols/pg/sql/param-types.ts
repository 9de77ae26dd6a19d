// The type of each $n of a statement, for ParameterDescription and to decode binary parameters:
// declared at Parse, else from where it stands (compared with or inserted into a column, a cast,
// LIMIT/OFFSET). 0 where nothing tells: the value decides.
import type { Schema } from '../../../src/engine/schema/model';
import { arrayOidOf } from '../types/registry';
import { OID, PG_TYPES, oidOfDeclType } from '../types/oids';
import { type PgToken, identName } from './lexer';

/**
 * Parameter types from where each $n stands: compared with, assigned to or inserted into a column
 * (that column's type), cast (the cast's type), LIMIT/OFFSET (int8). 0 when nothing tells.
 */
export function inferParamTypes(sig: PgToken[], schema: Schema, n: number, declared: number[]): number[] {
  const types = Array.from({ length: n }, (_, i) => declared[i] ?? 0);
  if (types.every((t) => t !== 0)) return types;
  const tables: string[] = [];
  for (let i = 0; i + 1 < sig.length; i++) {
    if (
      ['FROM', 'JOIN', 'INTO', 'UPDATE'].includes(sig[i].text.toUpperCase()) &&
      schema.tables.has(identName(sig[i + 1]))
    )
      tables.push(identName(sig[i + 1]));
  }
  const colType = (name: string): number => {
    for (const t of [...tables, ...schema.tables.keys()]) {
      const c = schema.tables.get(t)!.columns.find((c) => c.name.toLowerCase() === name);
      if (c) return oidOfDeclType(c.type);
    }
    return 0;
  };
  const cmp = new Set(['=', '<>', '!=', '<', '>', '<=', '>=', 'LIKE', 'ILIKE']);
  const set = (t: PgToken, oid: number) => {
    const k = Number(t.text.slice(1)) - 1;
    if (k >= 0 && k < n && types[k] === 0 && oid !== 0) types[k] = oid;
  };
  for (let i = 0; i < sig.length; i++) {
    const t = sig[i];
    if (t.type !== 'param') continue;
    const prev = sig[i - 1];
    const next = sig[i + 1];
    if (next?.text === '::' && sig[i + 2]) {
      const at = identName(sig[i + 2] ?? t) === 'pg_catalog' ? i + 4 : i + 2;
      const name = identName(sig[at] ?? t);
      const oid = PG_TYPES.find((r) => r[1] === name)?.[0] ?? oidOfDeclType(name);
      // `$1::oid[]` (asyncpg's type lookup) is an array of the type
      set(t, sig[at + 1]?.text === '[' && sig[at + 2]?.text === ']' ? (arrayOidOf(oid) ?? OID.text) : oid);
    }
    if (
      prev &&
      cmp.has(prev.text.toUpperCase()) &&
      sig[i - 2] &&
      (sig[i - 2].type === 'word' || sig[i - 2].type === 'quoted')
    )
      set(t, colType(identName(sig[i - 2])));
    if (
      next &&
      cmp.has(next.text.toUpperCase()) &&
      sig[i + 2] &&
      (sig[i + 2].type === 'word' || sig[i + 2].type === 'quoted')
    )
      set(t, colType(identName(sig[i + 2])));
    if (prev && ['LIMIT', 'OFFSET'].includes(prev.text.toUpperCase())) set(t, OID.int8);
  }
  // INSERT INTO t (a, b) VALUES ($1, $2), ($3, $4)
  const into = sig.findIndex((t) => t.text.toUpperCase() === 'INTO');
  if (into >= 0 && sig[into + 2]?.text === '(') {
    const table = schema.tables.get(identName(sig[into + 1]));
    const cols: string[] = [];
    let i = into + 3;
    for (; i < sig.length && sig[i].text !== ')'; i++) if (sig[i].text !== ',') cols.push(identName(sig[i]));
    if (table && sig[i + 1]?.text.toUpperCase() === 'VALUES') {
      let pos = 0;
      let depth = 0;
      for (let k = i + 2; k < sig.length; k++) {
        const t = sig[k];
        if (t.text === '(') {
          depth++;
          if (depth === 1) pos = 0;
        } else if (t.text === ')') depth--;
        else if (t.text === ',' && depth === 1) pos++;
        else if (t.type === 'param' && depth === 1) {
          const c = table.columns.find((c) => c.name.toLowerCase() === cols[pos]);
          if (c) set(t, oidOfDeclType(c.type));
        } else if (depth === 0 && t.type === 'word') break;
      }
    }
  }
  return types;
}
