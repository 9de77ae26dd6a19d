import type { Config } from './config';

/**
 * What a reload takes from a freshly read config file: the tokens, PostgreSQL users and passwords,
 * and the certificates of a TLS that is already on (HTTPS, each PG listener, gossip). Everything else
 * keeps its running value and needs a restart (docs/configuration.md, "What a reload changes").
 */
export function reloadable(current: Config, fresh: Config): Pick<Config, 'api' | 'gossip'> {
  const api = {
    ...current.api,
    auth: fresh.api.auth,
    tls: current.api.tls && fresh.api.tls ? fresh.api.tls : current.api.tls,
  };
  api.pg = current.api.pg.map((l, i) => {
    const f = fresh.api.pg[i];
    return f ? { ...l, users: f.users, password: f.password, tls: l.tls && f.tls ? f.tls : l.tls } : l;
  });
  const gossip = current.gossip && {
    ...current.gossip,
    tls: current.gossip.tls && fresh.gossip?.tls ? fresh.gossip.tls : current.gossip.tls,
  };
  return { api, gossip };
}
