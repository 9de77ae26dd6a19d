import crypto from 'node:crypto';
import type { ApiTokenConfig, Role } from '../config/config';
import { readSecret } from './secrets';

const digest = (s: string) => crypto.createHash('sha256').update(s, 'utf8').digest();

/**
 * The HTTP API's bearer tokens with their roles. Only digests are kept; a presented token is
 * compared with every one in constant time, so neither timing nor order tells how close it was.
 */
export class TokenStore {
  #entries: { digest: Buffer; role: Role }[] = [];

  /** Reads every token (inline, file or environment variable); throws naming the first it cannot read. */
  static load(tokens: ApiTokenConfig[]): TokenStore {
    const s = new TokenStore();
    s.#entries = tokens.map((t, i) => ({
      digest: digest(readSecret(t.source, `api.auth.tokens[${i}]`)),
      role: t.role,
    }));
    return s;
  }

  get size(): number {
    return this.#entries.length;
  }

  /** The role of a presented token, or null when it is none of ours. */
  roleOf(token: string): Role | null {
    const d = digest(token);
    let found: Role | null = null;
    for (const e of this.#entries) if (crypto.timingSafeEqual(d, e.digest) && found === null) found = e.role;
    return found;
  }
}
