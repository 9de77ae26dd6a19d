// tsvector and tsquery as PostgreSQL prints them. A value is stored as text (a column's as its input
// function reads it, a function's as its output): printed normalised, as tsvectorout and tsqueryout
// would ('b a' is 'a' 'b'); text that is none is sent as it is. Their binary forms are
// tsvectorsend's and tsquerysend's: a tsvector its lexeme count, then each lexeme's UTF-8 with a
// NUL, its position count and positions (weight in the top two bits); a tsquery its item count,
// then its items in PostgreSQL's order (an operator, its right operand, its left), an operand as
// type 1, its weight bits, its prefix flag and its word with a NUL, an operator as type 2 and its
// code (1 !, 2 &, 3 |, 4 <N> with N as two bytes).
import { readTsQuery, readTsVector, tsQueryText, tsVectorText } from '../../../src/engine/pg-text-search-functions';
import { type QueryNode, type TsQuery, printTsQuery } from '../../../src/engine/text-search/tsquery';
import { type TsVector, normaliseLexemes, printTsVector } from '../../../src/engine/text-search/tsvector';
import { BadBinary, type Codec, NotEncodable, TRAILING_BYTES } from './codec';

const OPERATOR_CODES = { not: 1, and: 2, or: 3, phrase: 4 } as const;

function vectorBinary(v: TsVector): Buffer {
  const parts: Buffer[] = [Buffer.alloc(4)];
  parts[0].writeInt32BE(v.length);
  for (const l of v) {
    const pos = Buffer.alloc(2 + 2 * l.pos.length);
    pos.writeUInt16BE(l.pos.length);
    l.pos.forEach((p, k) => pos.writeUInt16BE(p, 2 + 2 * k));
    parts.push(Buffer.from(l.word, 'utf8'), Buffer.from([0]), pos);
  }
  return Buffer.concat(parts);
}

/** A reader of a binary value that fails as PostgreSQL's pq_getmsg* do (08P01) past its end, and with trailing bytes as its Bind does (22P03). */
class Reader {
  at = 0;
  constructor(readonly raw: Buffer) {}
  need(n: number): void {
    if (this.at + n > this.raw.length) throw new BadBinary('insufficient data left in message', '08P01');
  }
  int32(): number {
    this.need(4);
    this.at += 4;
    return this.raw.readInt32BE(this.at - 4);
  }
  uint16(): number {
    this.need(2);
    this.at += 2;
    return this.raw.readUInt16BE(this.at - 2);
  }
  byte(): number {
    this.need(1);
    return this.raw[this.at++];
  }
  cstring(): string {
    const end = this.raw.indexOf(0, this.at);
    if (end < 0) throw new BadBinary('invalid string in message', '08P01');
    const s = this.raw.toString('utf8', this.at, end);
    this.at = end + 1;
    return s;
  }
  done(): void {
    if (this.at !== this.raw.length) throw new BadBinary(TRAILING_BYTES);
  }
}

function vectorOfBinary(raw: Buffer): string {
  const r = new Reader(raw);
  const n = r.int32();
  // (tsvectorrecv's and tsqueryrecv's own checks are elog's: XX000)
  if (n < 0 || n > raw.length) throw new BadBinary('invalid size of tsvector', 'XX000');
  const lexemes: TsVector = [];
  for (let i = 0; i < n; i++) {
    const word = r.cstring();
    const count = r.uint16();
    const pos: number[] = [];
    for (let k = 0; k < count; k++) {
      const p = r.uint16();
      if (k > 0 && (p & 0x3fff) <= (pos[k - 1] & 0x3fff))
        throw new BadBinary('position information is misordered', 'XX000');
      // (PostgreSQL keeps position 0 from binary input; Patina keeps the value as text, whose input refuses it)
      if ((p & 0x3fff) === 0)
        throw new BadBinary('a tsvector position 0 is not supported: positions start at 1', '0A000');
      pos.push(p);
    }
    lexemes.push({ word, pos });
  }
  r.done();
  return printTsVector(normaliseLexemes(lexemes));
}

function queryBinary(q: TsQuery): Buffer {
  const items: Buffer[] = [];
  const put = (n: QueryNode) => {
    if (n.t === 'val')
      items.push(Buffer.from([1, n.weight, n.prefix ? 1 : 0]), Buffer.from(n.word, 'utf8'), Buffer.from([0]));
    else if (n.t === 'not') {
      items.push(Buffer.from([2, OPERATOR_CODES.not]));
      put(n.arg);
    } else if (n.t !== 'stop') {
      const op = Buffer.from([2, OPERATOR_CODES[n.t], 0, 0]);
      if (n.t === 'phrase') op.writeUInt16BE(n.dist, 2);
      items.push(n.t === 'phrase' ? op : op.subarray(0, 2));
      put(n.r);
      put(n.l);
    }
  };
  let size = 0;
  const count = (n: QueryNode): number =>
    n.t === 'val' || n.t === 'stop' ? 1 : n.t === 'not' ? 1 + count(n.arg) : 1 + count(n.l) + count(n.r);
  if (q) {
    size = count(q);
    put(q);
  }
  const head = Buffer.alloc(4);
  head.writeInt32BE(size);
  return Buffer.concat([head, ...items]);
}

function queryOfBinary(raw: Buffer): string {
  const r = new Reader(raw);
  const size = r.int32();
  if (size < 0 || size > raw.length) throw new BadBinary('invalid size of tsquery', 'XX000');
  let left = size;
  const read = (): QueryNode => {
    if (left-- <= 0) throw new BadBinary('malformed tsquery: operand not found');
    const type = r.byte();
    if (type === 1) {
      const weight = r.byte();
      const prefix = r.byte();
      if (weight > 0xf) throw new BadBinary('invalid tsquery: invalid weight bitmap', 'XX000');
      return { t: 'val', weight, prefix: prefix !== 0, word: r.cstring() };
    }
    if (type !== 2) throw new BadBinary(`unrecognized tsquery node type: ${type}`);
    const op = r.byte();
    if (op === OPERATOR_CODES.not) return { t: 'not', arg: read() };
    if (op === OPERATOR_CODES.phrase) {
      const dist = r.uint16();
      const rr = read();
      return { t: 'phrase', dist, r: rr, l: read() };
    }
    if (op !== OPERATOR_CODES.and && op !== OPERATOR_CODES.or)
      throw new BadBinary(`invalid tsquery: unrecognized operator type ${op}`, 'XX000');
    const rr = read();
    return { t: op === OPERATOR_CODES.and ? 'and' : 'or', r: rr, l: read() };
  };
  const q = size === 0 ? null : read();
  if (left !== 0) throw new BadBinary('malformed tsquery: extra nodes');
  r.done();
  return printTsQuery(q);
}

function textSearchCodec(
  oid: number,
  name: string,
  print: (s: string) => string,
  encode: (v: unknown) => Buffer,
  decode: (raw: Buffer) => string,
): Codec {
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
    binary: (v) => {
      try {
        return encode(v);
      } catch (e) {
        throw new NotEncodable(
          `${JSON.stringify(String(v).slice(0, 40))} is not a value of type ${name}: ${(e as Error).message}`,
        );
      }
    },
    textOfBinary: decode,
  };
}

export const tsvectorCodec = textSearchCodec(
  3614,
  'tsvector',
  tsVectorText,
  (v) => vectorBinary(readTsVector(v)),
  vectorOfBinary,
);
export const tsqueryCodec = textSearchCodec(
  3615,
  'tsquery',
  tsQueryText,
  (v) => queryBinary(readTsQuery(v)),
  queryOfBinary,
);
