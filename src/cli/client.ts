import { PatinaClient } from '../client';

/**
 * The client the CLI's commands use: the library, on the agent's API address. PATINA_TOKEN, when
 * set, is sent as the bearer token.
 */
export function apiClient(addr: string): PatinaClient {
  return new PatinaClient({ url: `http://${addr}`, token: process.env.PATINA_TOKEN || undefined });
}
