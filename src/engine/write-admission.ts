/**
 * Whether a write may go ahead now; a refusal names why and when to retry. The agent's live
 * subscriptions answer it (src/live/subscriptions.ts): writes are held while the matcher is behind,
 * then refused. Each front end turns a refusal into its own answer (HTTP 503 with Retry-After,
 * PostgreSQL SQLSTATE 53000).
 */
export interface WriteAdmission {
  admitWrite(): Promise<{ retryAfter: number; reason: string } | null>;
}
