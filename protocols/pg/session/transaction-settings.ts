// The settings a transaction changed, settled at its end as PostgreSQL's GUC stack settles them: a
// rollback puts back each one's value from before the transaction, a commit keeps the last value
// set without LOCAL (a SET LOCAL or set_config(..., true) lasts to the end only). An
// extended-protocol pipeline outside a block is PostgreSQL's implicit transaction from its first
// message to its Sync even where no write opened one here (pipeline-transaction.ts): a SET,
// SET LOCAL or set_config in it is kept so too, and its Sync settles them, put back when a message
// of the pipeline failed (a SET before a failing INSERT was kept here).

/** A setting's value before the transaction, and the one its commit keeps (undefined: none). */
export type KeptSetting = { before: string | undefined; after: string | undefined };

/**
 * Setting `name` was just changed in the transaction (from `before`): its value before the
 * transaction is kept at its first change, and a change without LOCAL is what a commit keeps.
 */
export function keepSetting(
  kept: Map<string, KeptSetting>,
  settings: Map<string, string>,
  name: string,
  before: string | undefined,
  local: boolean,
): void {
  let k = kept.get(name);
  if (!k) kept.set(name, (k = { before, after: before }));
  if (!local) k.after = settings.get(name);
}

/**
 * The transaction ends: each kept setting is its committed value, or its value from before (a
 * custom setting, `myapp.tenant`, first set in it stays, empty, as PostgreSQL's placeholder does).
 */
export function settleSettings(
  kept: Map<string, KeptSetting>,
  settings: Map<string, string>,
  committed: boolean,
): void {
  for (const [name, { before, after }] of kept) {
    const v = committed ? after : before;
    if (v !== undefined) settings.set(name, v);
    else if (name.includes('.')) settings.set(name, '');
    else settings.delete(name);
  }
  kept.clear();
}
