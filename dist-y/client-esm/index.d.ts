export { PatinaClient, type ClientOptions, type QueryOptions, type Member, type SyncStatus } from './client.js';
export { PatinaError, type ClientErrorKind } from './errors.js';
export { QueryResult } from './query.js';
export { Subscription, type SubscriptionEvent, type SubscribeOptions } from './subscription.js';
export type { UpdateEvent, UpdatesOptions } from './updates.js';
export { parseExact, toJson, type IntegerMode } from './json.js';
export { real, Real } from './types.js';
export type { Cell, Row, Params, ParamValue, Statement, CallOptions, RetryOptions, TransactionResult, } from './types.js';
