import tls from 'node:tls';
import type { Config, PgListenerConfig, Role } from '../config/config';
import { PatinaError } from '../errors';
import { PgUserStore } from './pg-users';
import { type TlsMaterial, loadTls } from './tls-material';
import { TokenStore } from './tokens';

/** What one PostgreSQL listener asks about its clients. */
export interface PgListenerSecurity {
  users: PgUserStore;
  /** For upgrading after SSLRequest; null: answer N. */
  tls: tls.SecureContext | null;
  requireTls: boolean;
}

interface Material {
  tokens: TokenStore | null;
  openRoutes: Set<string>;
  apiTls: TlsMaterial | null;
  pg: PgListenerSecurity[];
  gossipTls: TlsMaterial | null;
}

function pgSecurity(l: PgListenerConfig, at: string): PgListenerSecurity {
  return {
    users: PgUserStore.load(l, at),
    tls: l.tls ? tls.createSecureContext(loadTls(l.tls, `${at}.tls`)) : null,
    requireTls: l.requireTls ?? false,
  };
}

function load(cfg: Config): Material {
  const auth = cfg.api.auth ?? null;
  const pgAt = (i: number) => (cfg.api.pg.length === 1 ? 'api.pg' : `api.pg[${i}]`);
  return {
    tokens: auth ? TokenStore.load(auth.tokens) : null,
    openRoutes: new Set(auth?.openRoutes ?? []),
    apiTls: cfg.api.tls ? loadTls(cfg.api.tls, 'api.tls') : null,
    pg: cfg.api.pg.map((l, i) => pgSecurity(l, pgAt(i))),
    gossipTls: cfg.gossip?.tls ? loadTls(cfg.gossip.tls, 'gossip.tls') : null,
  };
}

/**
 * The one home of the agent's secrets: API tokens, PostgreSQL users, TLS material. Front ends ask
 * it who a client is; none of them reads a secret or a certificate itself. `reload` re-reads
 * everything (files, environment variables) and swaps it in whole, or changes nothing.
 */
export class Security {
  #m: Material;
  readonly #listeners: ((s: Security) => void)[] = [];

  private constructor(m: Material) {
    this.#m = m;
  }

  static load(cfg: Config): Security {
    return new Security(load(cfg));
  }

  /** Re-reads tokens, passwords and certificates from a (re-read) config. */
  reload(cfg: Config): void {
    const next = load(cfg);
    const old = this.#m;
    if (!!next.apiTls !== !!old.apiTls)
      throw new PatinaError('user', 'reload: [api.tls] cannot be added or removed while the agent runs; restart it');
    if (!!next.gossipTls !== !!old.gossipTls)
      throw new PatinaError('user', 'reload: [gossip.tls] cannot be added or removed while the agent runs; restart it');
    if (next.pg.length !== old.pg.length)
      throw new PatinaError(
        'user',
        'reload: PostgreSQL listeners cannot be added or removed while the agent runs; restart it',
      );
    this.#m = next;
    for (const fn of this.#listeners) fn(this);
  }

  /** Called after each successful reload (servers swap their certificates). */
  onReload(fn: (s: Security) => void): void {
    this.#listeners.push(fn);
  }

  /** Whether the HTTP API asks for bearer tokens. */
  get apiAuthEnabled(): boolean {
    return this.#m.tokens !== null;
  }

  /** The role of an HTTP bearer token, or null. */
  tokenRole(token: string): Role | null {
    return this.#m.tokens?.roleOf(token) ?? null;
  }

  /** Whether a route needs no token even when auth is on (health, metrics by default). */
  isOpenRoute(path: string): boolean {
    return this.#m.openRoutes.has(path);
  }

  get apiTls(): TlsMaterial | null {
    return this.#m.apiTls;
  }

  pgListener(i: number): PgListenerSecurity {
    return this.#m.pg[i];
  }

  get gossipTls(): TlsMaterial | null {
    return this.#m.gossipTls;
  }

  /** What health shows: counts and switches, never a secret. */
  describe(): Record<string, unknown> {
    return {
      api_auth: this.apiAuthEnabled,
      api_tokens: this.#m.tokens?.size ?? 0,
      api_tls: !!this.#m.apiTls,
      gossip_tls: !!this.#m.gossipTls,
    };
  }
}
