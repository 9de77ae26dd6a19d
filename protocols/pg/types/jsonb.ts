// jsonb's text as PostgreSQL prints it (src/engine/jsonb.ts): the stored text is what the client
// sent; this is how it reads back.
export { jsonbText } from '../../../src/engine/jsonb';
