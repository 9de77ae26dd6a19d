// patina/client: a client of the agent's HTTP API for Node 20 and browsers (fetch and web streams only).
export { PatinaClient } from './client.js';
export { PatinaError } from './errors.js';
export { QueryResult } from './query.js';
export { Subscription } from './subscription.js';
export { parseExact, toJson } from './json.js';
export { real, Real } from './types.js';
