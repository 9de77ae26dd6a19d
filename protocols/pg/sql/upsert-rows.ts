// INSERT ... VALUES (...), (...) ON CONFLICT ... DO UPDATE whose rows propose the same key twice:
// PostgreSQL refuses it with 21000 (the second row would update the row the first inserted), where
// SQLite updates it again and the last row wins, silently. The analysis reads each row's key
// (literals and parameters) off the parse tree; the session checks them with the bound values
// before the write runs (session.ts).
import { parseTree } from './parse';
import type { Schema } from '../../../src/engine/schema/model';
import { pgError } from '../sqlstate';
import { strings } from './type-signatures';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

/** A key part: `c:` and a literal's text, or `p:` and a parameter's number. */
export type KeyPart = string;

/**
 * The conflict key of each proposed row, or null when the statement is no multi-row upsert or a key
 * is neither a literal nor a parameter (then it is not checked).
 */
export function upsertKeys(sql: string, schema: Schema): KeyPart[][] | null {
  let tree: Node;
  try {
    tree = parseTree(sql);
  } catch {
    return null;
  }
  const ins = tree.stmts?.length === 1 ? tree.stmts[0].stmt?.InsertStmt : undefined;
  const conflict = ins?.onConflictClause;
  const rows: Node[] | undefined = ins?.selectStmt?.SelectStmt?.valuesLists;
  if (conflict?.action !== 'ONCONFLICT_UPDATE' || !rows || rows.length < 2) return null;
  const table = schema.tables.get(String(ins.relation?.relname ?? '').toLowerCase());
  if (!table) return null;
  // the key's columns: ON CONFLICT (a, b), or ON CONSTRAINT t_pkey (the primary key)
  const key: string[] = conflict.infer?.indexElems
    ? conflict.infer.indexElems.map((e: Node) => String(e.IndexElem?.name ?? '').toLowerCase())
    : table.primaryKey.map((c) => c.toLowerCase());
  const cols: string[] = ins.cols?.length
    ? ins.cols.map((c: Node) => String(c.ResTarget?.name ?? '').toLowerCase())
    : table.columns.map((c) => c.name.toLowerCase());
  const at = key.map((k) => cols.indexOf(k));
  if (at.some((i) => i < 0)) return null;
  const out: KeyPart[][] = [];
  for (const r of rows) {
    const items: Node[] = r.List?.items ?? [];
    const parts: KeyPart[] = [];
    for (const i of at) {
      let e = items[i];
      while (e?.TypeCast) e = e.TypeCast.arg;
      if (e?.ParamRef) parts.push(`p:${e.ParamRef.number}`);
      else if (e?.A_Const && !e.A_Const.isnull) parts.push(`c:${constText(e.A_Const)}`);
      else return null;
    }
    out.push(parts);
  }
  return out;
}

function constText(c: Node): string {
  if (c.ival) return String(c.ival.ival ?? 0);
  if (c.fval) return String(c.fval.fval);
  if (c.sval) return String(c.sval.sval ?? '');
  if (c.boolval) return String(c.boolval.boolval ?? false);
  return strings([c]).join('');
}

/** 21000 when two rows propose the same key, given the statement's bound parameters. */
export function checkUpsertKeys(keys: KeyPart[][], params: Record<string, unknown> | undefined): void {
  const seen = new Set<string>();
  for (const row of keys) {
    const values = row.map((p) => (p.startsWith('p:') ? params?.[p.slice(2)] : p.slice(2)));
    if (values.some((v) => v === null || v === undefined)) continue; // NULL keys never conflict
    const k = JSON.stringify(values.map((v) => (Buffer.isBuffer(v) ? v.toString('hex') : String(v))));
    if (seen.has(k))
      throw pgError(
        '21000',
        'ON CONFLICT DO UPDATE command cannot affect row a second time',
        'user',
        `Two rows proposed for insertion have the same key (${JSON.parse(k).join(', ')}); PostgreSQL's hint: ensure that no rows proposed for insertion within the same command have duplicate constrained values.`,
      );
    seen.add(k);
  }
}
