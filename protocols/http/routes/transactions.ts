import { performance } from 'node:perf_hooks';
import type Koa from 'koa';
import { PatinaError } from '../../../src/errors';
import type { Statement, StatementResult } from '../../../src/engine/writer';
import { parseStatement } from '../statements';
import { secondsSince } from '../../../src/engine/elapsed';
import { cellToJson } from '../../../src/engine/values';

/** What POST /v1/transactions needs: one all-or-nothing transaction, and what to report of its change. */
export interface TransactionService {
  transaction(statements: Statement[]): Promise<{ results: StatementResult[]; change: unknown }>;
  /** Extra fields of the response (the version of the change, the actor id) once capture exists. */
  describeChange?(change: unknown): Record<string, unknown>;
}

/** POST /v1/transactions: statements in one transaction; a failure rolls back all and names the statement. */
export function handleTransaction(svc: TransactionService): Koa.Middleware {
  return async (ctx) => {
    const body = ctx.state.body;
    if (!Array.isArray(body)) throw new PatinaError('user', 'body must be a JSON array of statements');
    if (body.length === 0) throw new PatinaError('user', 'body is an empty array; a transaction needs at least one statement');
    const statements = body.map((s, i) => parseStatement(s, `statement ${i + 1}`));
    const t0 = performance.now();
    try {
      const { results, change } = await svc.transaction(statements);
      // cellToJson keeps 64-bit integers in RETURNING rows exact (JSON.stringify cannot write a bigint).
      ctx.type = 'application/json';
      ctx.body = cellToJson({
        results: results.map((r) => ({
          rows_affected: r.rowsAffected,
          time: r.time,
          ...(r.rows && r.columns ? { columns: r.columns.map((c) => c.name), rows: r.rows } : {}),
        })),
        time: secondsSince(t0),
        ...(svc.describeChange ? svc.describeChange(change) : {}),
      });
    } catch (err) {
      if (!(err instanceof PatinaError) || err.kind === 'internal' || err.kind === 'unavailable') throw err;
      ctx.status = 400;
      ctx.body = { results: [{ error: err.message }], time: secondsSince(t0) };
    }
  };
}
