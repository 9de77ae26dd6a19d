import type { PgListenerConfig, Role } from '../config/config';
import { type ScramSecret, scramSecret } from './scram-secret';
import { readSecret } from './secrets';

/** Who may connect to one PostgreSQL listener, and as what. */
export interface PgPrincipal {
  secret: ScramSecret;
  role: Role;
}

/**
 * The users of one PostgreSQL listener: `[[api.pg.users]]` by name, or the listener's single
 * `password` for any user name (role write). `mode` is trust when neither is configured.
 */
export class PgUserStore {
  readonly mode: 'trust' | 'scram';
  readonly #byName = new Map<string, PgPrincipal>();
  readonly #anyUser: PgPrincipal | null;
  /** Answers the exchange for an unknown user, so a wrong name and a wrong password look alike. */
  readonly decoy: ScramSecret;

  private constructor(l: PgListenerConfig, at: string) {
    for (const [i, u] of (l.users ?? []).entries()) {
      this.#byName.set(u.name, {
        secret: scramSecret(readSecret(u.password, `${at}.users[${i}].password`)),
        role: u.role,
      });
    }
    this.#anyUser = l.password === null ? null : { secret: scramSecret(l.password), role: 'write' };
    this.mode = this.#byName.size > 0 || this.#anyUser ? 'scram' : 'trust';
    this.decoy = scramSecret(`decoy:${Math.random()}`);
  }

  static load(l: PgListenerConfig, at: string): PgUserStore {
    return new PgUserStore(l, at);
  }

  /** The keys and role of a user name; null when it may not log in. */
  lookup(user: string): PgPrincipal | null {
    return this.#byName.get(user) ?? this.#anyUser;
  }
}
