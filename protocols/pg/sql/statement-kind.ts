// The command of a statement that does not begin with its own keyword (`WITH ... UPDATE`, a query in
// parentheses), read off PostgreSQL's parse tree: what CommandComplete's tag and the choice of the
// read or write path follow. The analysis that calls it is cached by statement text.
import { parseTree } from './parse';
import { lookup } from '../../../src/lookup';

const COMMANDS: Record<string, string> = lookup({
  SelectStmt: 'SELECT',
  InsertStmt: 'INSERT',
  UpdateStmt: 'UPDATE',
  DeleteStmt: 'DELETE',
});

/** SELECT, INSERT, UPDATE or DELETE for a single such statement; null when it is none or does not parse. */
export function statementCommand(sql: string): string | null {
  try {
    const stmts = parseTree(sql).stmts ?? [];
    if (stmts.length !== 1) return null;
    const node = stmts[0].stmt as Record<string, unknown> | undefined;
    return COMMANDS[Object.keys(node ?? {})[0] ?? ''] ?? null;
  } catch {
    return null;
  }
}
