// The settings a transaction changed, settled as PostgreSQL's GUC stack settles them: a rollback
// puts back each one's value from before the transaction, a commit keeps the last value set without
// LOCAL (a SET LOCAL or set_config(..., true) lasts to the end only). An extended-protocol pipeline
// outside a block is PostgreSQL's implicit transaction from its first message to its Sync even where
// no write opened one here (pipeline-transaction.ts): a SET, SET LOCAL or set_config in it is kept
// so too, and its Sync settles them, put back when a message of the pipeline failed (a SET before a
// failing INSERT was kept here).
//
// Each SAVEPOINT is a level of its own, as each subtransaction is a GUC nest level: ROLLBACK TO puts
// back what was set since the savepoint, RELEASE hands it to the level below (a SET LOCAL there
// still ends with the transaction). An error in a block puts the settings back at once, as
// PostgreSQL's abort of the (sub)transaction does (its ParameterStatus comes before the error's
// ReadyForQuery): the transaction's, or only the innermost savepoint's; they stayed until ROLLBACK,
// and ROLLBACK TO and RELEASE did not touch them.

import { identName, lexPg } from '../sql/lexer';

/** The savepoint a SAVEPOINT, RELEASE or ROLLBACK TO statement names (its last word, folded as PostgreSQL folds it). */
export function savepointName(sql: string): string {
  const words = lexPg(sql).filter((t) => t.type === 'word' || t.type === 'quoted');
  return words.length > 0 ? identName(words[words.length - 1]) : '';
}

/**
 * A setting's value before the level, the one its commit keeps (undefined: none), and whether it
 * was SET without LOCAL at this level (what a RELEASE hands to the level below).
 */
export type KeptSetting = { before: string | undefined; after: string | undefined; set: boolean };

type Level = { name: string | null; kept: Map<string, KeptSetting> };

export class TransactionSettings {
  /** The transaction's level, then one per savepoint open in it (the innermost last). */
  readonly #levels: Level[] = [{ name: null, kept: new Map() }];

  /** Whether any level holds a setting changed in the transaction. */
  get changed(): boolean {
    return this.#levels.some((l) => l.kept.size > 0);
  }

  /** How many savepoints are open (PostgreSQL's subtransactions). */
  get savepoints(): number {
    return this.#levels.length - 1;
  }

  /**
   * Setting `name` was just changed (from `before`): its value before the innermost level is kept at
   * its first change there, and a change without LOCAL is what a commit keeps.
   */
  keep(settings: Map<string, string>, name: string, before: string | undefined, local: boolean): void {
    const { kept } = this.#levels[this.#levels.length - 1];
    let k = kept.get(name);
    if (!k) kept.set(name, (k = { before, after: before, set: false }));
    if (!local) {
      k.after = settings.get(name);
      k.set = true;
    }
  }

  /** SAVEPOINT name: a new level. */
  savepoint(name: string): void {
    this.#levels.push({ name, kept: new Map() });
  }

  /** RELEASE name: that savepoint's level and those above it merge into the level below it. */
  release(name: string): void {
    const at = this.#find(name);
    if (at >= 1) this.#mergeFrom(at);
  }

  /** The levels from `at` up merge into the one below `at`. */
  #mergeFrom(at: number): void {
    while (this.#levels.length > at) {
      const { kept } = this.#levels.pop()!;
      const below = this.#levels[this.#levels.length - 1].kept;
      for (const [setting, k] of kept) {
        const b = below.get(setting);
        if (!b) below.set(setting, k);
        else if (k.set) {
          b.after = k.after;
          b.set = true;
        }
      }
    }
  }

  /** ROLLBACK TO name: what was set since that savepoint is put back; the savepoint stays. */
  rollbackTo(settings: Map<string, string>, name: string): void {
    const at = this.#find(name);
    if (at < 1) return;
    while (this.#levels.length > at + 1) putBack(settings, this.#levels.pop()!.kept);
    putBack(settings, this.#levels[at].kept);
  }

  /** An error in the block: the innermost level's settings are put back (the transaction's when no savepoint is open). */
  failed(settings: Map<string, string>): void {
    putBack(settings, this.#levels[this.#levels.length - 1].kept);
  }

  /**
   * The transaction ends: each setting is its committed value, or its value from before (a custom
   * setting, `myapp.tenant`, first set in it stays, empty, as PostgreSQL's placeholder does).
   */
  settle(settings: Map<string, string>, committed: boolean): void {
    if (committed) this.#mergeFrom(1);
    while (this.#levels.length > 1) putBack(settings, this.#levels.pop()!.kept);
    const { kept } = this.#levels[0];
    if (!committed) putBack(settings, kept);
    else {
      for (const [name, { after }] of kept) restore(settings, name, after);
      kept.clear();
    }
  }

  /** The innermost level of savepoint `name` (-1: none). */
  #find(name: string): number {
    for (let i = this.#levels.length - 1; i > 0; i--) if (this.#levels[i].name === name) return i;
    return -1;
  }
}

/** Each setting of a level back to its value from before the level, and the level emptied. */
function putBack(settings: Map<string, string>, kept: Map<string, KeptSetting>): void {
  for (const [name, { before }] of kept) restore(settings, name, before);
  kept.clear();
}

function restore(settings: Map<string, string>, name: string, v: string | undefined): void {
  if (v !== undefined) settings.set(name, v);
  else if (name.includes('.')) settings.set(name, '');
  else settings.delete(name);
}
