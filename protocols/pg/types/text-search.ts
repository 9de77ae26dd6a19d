// tsvector and tsquery as PostgreSQL prints them. A value is stored as text (a column's as the client
// sent it, a function's as its output): printed normalised, as tsvectorout and tsqueryout would
// ('b a' is 'a' 'b'); text that is none is sent as it is. Their binary forms are not built.
import { tsQueryText, tsVectorText } from '../../../src/engine/pg-text-search-functions';
import { BadBinary, type Codec, NotEncodable } from './codec';

function textSearchCodec(oid: number, name: string, print: (s: string) => string): Codec {
  const text = (v: unknown) => {
    const s = Buffer.isBuffer(v) ? v.toString('utf8') : String(v);
    try {
      return print(s);
    } catch {
      return s;
    }
  };
  return {
    oid,
    name,
    text,
    binary: () => {
      throw new NotEncodable(`the binary form of ${name} is not supported: ask for text`);
    },
    textOfBinary: () => {
      throw new BadBinary(`the binary form of ${name} is not supported: send text`, '0A000');
    },
  };
}

export const tsvectorCodec = textSearchCodec(3614, 'tsvector', tsVectorText);
export const tsqueryCodec = textSearchCodec(3615, 'tsquery', tsQueryText);
