import { errorFields, log } from '../../observability/log';
import { type SchemaPlan, planSummary } from './diff';

/** Logs what a schema plan changed under `msg`; a plan that changed nothing is not logged. */
export function logSchemaPlan(msg: string, plan: SchemaPlan): void {
  if (plan.statements.length > 0) log.info(planSummary(plan), msg);
}

/**
 * Re-reads the schema files (POST /v1/admin/reload, `patina reload`), logging what changed or
 * why it was refused; resolves with the plan's summary.
 */
export async function reloadSchemaLogged(engine: {
  reloadSchema(): Promise<SchemaPlan>;
}): Promise<Record<string, unknown>> {
  let plan: SchemaPlan;
  try {
    plan = await engine.reloadSchema();
  } catch (err) {
    log.warn(errorFields(err), 'schema reload refused');
    throw err;
  }
  logSchemaPlan('schema reloaded', plan);
  return planSummary(plan);
}
