import { STATUS } from '../errors';
import { performance } from 'node:perf_hooks';
import type Koa from 'koa';
import { PatinaError } from '../../../src/errors';
import type { Statement, StatementResult } from '../../../src/engine/writer';
import { parseStatement } from '../statements';
import { secondsSince } from '../../../src/engine/elapsed';
import { cellToJson, rowToJson } from '../../../src/engine/values';

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
    if (body.length === 0)
      throw new PatinaError('user', 'body is an empty array; a transaction needs at least one statement');
    const statements = body.map((s, i) => parseStatement(s, `statement ${i + 1}`));
    const t0 = performance.now();
    try {
      const { results, change } = await svc.transaction(statements);
      // The header as Koa's `ctx.type = 'application/json'` writes it, without its MIME lookup.
      ctx.set('content-type', 'application/json; charset=utf-8');
      ctx.body = transactionJson(results, secondsSince(t0), svc.describeChange ? svc.describeChange(change) : {});
    } catch (err) {
      if (!(err instanceof PatinaError) || err.kind === 'internal' || err.kind === 'unavailable') throw err;
      // The status from the error's kind, as every route: a constraint conflict is 409, a bad statement 400.
      ctx.status = STATUS[err.kind];
      ctx.body = { results: [{ error: err.message }], time: secondsSince(t0) };
    }
  };
}

/**
 * The answer's JSON text, `{"results": [{"rows_affected", "time", "columns"?, "rows"?}], "time", ...extra}`,
 * written directly: RETURNING rows cell by cell (cellToJson keeps 64-bit integers exact, which
 * JSON.stringify cannot), the rest as the numbers and strings they are.
 */
export function transactionJson(results: StatementResult[], time: number, extra: Record<string, unknown>): string {
  let s = '{"results":[';
  for (let i = 0; i < results.length; i++) {
    const r = results[i];
    s += `${i ? ',' : ''}{"rows_affected":${cellToJson(r.rowsAffected)},"time":${cellToJson(r.time)}`;
    if (r.rows && r.columns) {
      s += `,"columns":${JSON.stringify(r.columns.map((c) => c.name))},"rows":[`;
      for (let j = 0; j < r.rows.length; j++) s += (j ? ',' : '') + rowToJson(r.rows[j]);
      s += ']';
    }
    s += '}';
  }
  s += `],"time":${cellToJson(time)}`;
  for (const k in extra) s += `,${JSON.stringify(k)}:${cellToJson(extra[k])}`;
  return s + '}';
}
