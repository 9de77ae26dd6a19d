// COPY's binary format (FORMAT binary), what bulk loaders of drivers send: asyncpg's
// copy_records_to_table, psycopg 3's binary copy, pgx's CopyFrom, Npgsql's BeginBinaryImport.
// The signature `PGCOPY\n\377\r\n\0`, a flags word and a header extension, then per row a 16-bit
// field count and each field as a 32-bit length (-1 for NULL) and the type's binary form; a count
// of -1 ends the data. A field in is read through its column type's codec into the text that type
// prints, and converted as COPY's text format converts it (one path for both formats); a cell out
// is its column type's binary form, as in a binary result. Text in either (text, varchar, json...)
// is in the client's encoding, as PostgreSQL's textrecv and textsend convert it.
import { codecOf } from '../types/registry';
import { BadBinary, TRAILING_BYTES } from '../types/codec';
import { OID } from '../types/oids';
import type { Charset } from '../../../src/engine/encodings/client-encodings';
import { binaryFromClient, binaryOf, binaryTextNotUtf8 } from '../types/values';
import { type CopyRecord, copyError } from './format';

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');

/** Cuts binary COPY FROM data into records (fields as their type's text) as it arrives. */
export class BinaryCopyParser {
  readonly #oids: number[];
  readonly #table: string;
  readonly #columns: string[];
  #buf: Buffer = Buffer.alloc(0);
  #header = true;
  #ended = false;
  #row = 0;

  readonly #charset: Charset | null;

  constructor(oids: number[], table: string, columns: string[], charset: Charset | null = null) {
    this.#charset = charset;
    this.#oids = oids;
    this.#table = table;
    this.#columns = columns;
  }

  feed(chunk: Buffer): CopyRecord[] {
    if (this.#ended) return [];
    this.#buf = this.#buf.length === 0 ? chunk : Buffer.concat([this.#buf, chunk]);
    return this.#records();
  }

  /**
   * The data ended: with the trailer, or, as PostgreSQL takes it, where a row would start (pgx's
   * CopyFrom sends no trailer); in a row or the header it is 22P04.
   */
  end(): CopyRecord[] {
    if (!this.#ended && !(this.#header === false && this.#buf.length === 0))
      throw copyError(
        '22P04',
        this.#header ? 'COPY file signature not recognized' : 'unexpected EOF in COPY data',
        this.#row + 1,
        this.#table,
      );
    return [];
  }

  #records(): CopyRecord[] {
    const b = this.#buf;
    let at = 0;
    if (this.#header) {
      if (b.length < SIGNATURE.length + 8) return [];
      if (!b.subarray(0, SIGNATURE.length).equals(SIGNATURE))
        throw copyError('22P04', 'COPY file signature not recognized', 1, this.#table);
      const flags = b.readUInt32BE(SIGNATURE.length);
      if (flags & 0x10000)
        throw copyError('0A000', 'COPY binary data with OIDs is not supported by Patina', 1, this.#table);
      if (flags & 0xfffe0000)
        throw copyError('22P04', 'unrecognized critical flags in COPY file header', 1, this.#table);
      const extension = b.readUInt32BE(SIGNATURE.length + 4);
      if (b.length < SIGNATURE.length + 8 + extension) return [];
      at = SIGNATURE.length + 8 + extension;
      this.#header = false;
    }
    const out: CopyRecord[] = [];
    for (;;) {
      if (b.length - at < 2) break;
      const count = b.readInt16BE(at);
      const line = this.#row + 1;
      if (count === -1) {
        this.#ended = true;
        at += 2;
        break;
      }
      if (count !== this.#oids.length)
        throw copyError('22P04', `row field count is ${count}, expected ${this.#oids.length}`, line, this.#table);
      // the whole row before any of it is read
      let end = at + 2;
      for (let k = 0; k < count; k++) {
        if (b.length - end < 4) {
          end = -1;
          break;
        }
        const n = b.readInt32BE(end);
        if (n < -1) throw copyError('22P04', `invalid field size ${n}`, line, this.#table);
        end += 4 + Math.max(n, 0);
        if (end > b.length) {
          end = -1;
          break;
        }
      }
      if (end < 0) break;
      const fields: (string | null)[] = new Array(count);
      let p = at + 2;
      for (let k = 0; k < count; k++) {
        const n = b.readInt32BE(p);
        p += 4;
        if (n < 0) {
          fields[k] = null;
          continue;
        }
        let raw = b.subarray(p, p + n);
        p += n;
        try {
          raw = binaryFromClient(raw, this.#oids[k], this.#charset);
        } catch (err) {
          const e = err as { message: string; sqlstate: string };
          const bad = copyError(e.sqlstate, e.message, line, this.#table);
          bad.where += `, column ${this.#columns[k]}`; // (no value: PostgreSQL names none it could not read)
          throw bad;
        }
        const codec = codecOf(narrower(this.#oids[k], raw.length)) ?? codecOf(OID.text)!;
        try {
          fields[k] = codec.textOfBinary(raw);
        } catch (err) {
          const notUtf8 =
            err instanceof BadBinary && err.code === '22021' ? binaryTextNotUtf8(raw, this.#oids[k]) : null;
          if (notUtf8 !== null) {
            const bad = copyError('22021', notUtf8.message, line, this.#table);
            bad.where += `, column ${this.#columns[k]}`;
            throw bad;
          }
          const e = err as { message: string; code?: string };
          const code = err instanceof BadBinary ? e.code : '22P03';
          throw copyError(
            code ?? '22P03',
            e.message === TRAILING_BYTES
              ? 'incorrect binary data format'
              : `incorrect binary data format: ${e.message}`,
            line,
            this.#table,
            this.#columns[k],
            null,
          );
        }
      }
      this.#row++;
      out.push({ fields, line });
      at = end;
    }
    this.#buf = b.subarray(at);
    return out;
  }
}

/**
 * The type a field of `n` bytes is read as: an integer column's declared INTEGER is int8 here, so a
 * client that sends the int4 (or int2) its PostgreSQL schema has (psycopg's set_types(['int4'])) is
 * read as that; a float4 into a double likewise. Other types as declared.
 */
function narrower(oid: number, n: number): number {
  if (oid === OID.int8 && n === 4) return OID.int4;
  if ((oid === OID.int8 || oid === OID.int4) && n === 2) return OID.int2;
  if (oid === OID.float8 && n === 4) return OID.float4;
  return oid;
}

/** The binary format's header: signature, no flags, no extension. */
export const binaryCopyHeader = (): Buffer => Buffer.concat([SIGNATURE, Buffer.alloc(8)]);

/** The binary format's trailer: a field count of -1. */
export const binaryCopyTrailer = (): Buffer => Buffer.from([0xff, 0xff]);

/** One row in the binary format: each cell its column type's binary form. */
export function binaryCopyRow(
  row: readonly unknown[],
  fields: readonly { name: string; typeOid: number; typeMod: number; valueMod?: number }[],
  charset: Charset | null = null,
): Buffer {
  const cells: (Buffer | null)[] = new Array(fields.length);
  let size = 2;
  for (let k = 0; k < fields.length; k++) {
    const f = fields[k];
    cells[k] = binaryOf(row[k], f.typeOid, f.name, f.valueMod ?? f.typeMod, charset);
    size += 4 + (cells[k]?.length ?? 0);
  }
  const out = Buffer.allocUnsafe(size);
  out.writeInt16BE(fields.length, 0);
  let p = 2;
  for (const cell of cells) {
    out.writeInt32BE(cell === null ? -1 : cell.length, p);
    p += 4;
    if (cell !== null) p += cell.copy(out, p);
  }
  return out;
}
