// What a codec of one PostgreSQL type does: a stored SQLite value to the type's text and binary
// forms, and a binary parameter back to the text PostgreSQL would print for it.
export interface Codec {
  readonly oid: number;
  /** The type's name in errors (PostgreSQL's typname). */
  readonly name: string;
  /** The stored value as PostgreSQL prints the type (its text output). */
  text(v: unknown): string;
  /** The stored value in the type's binary form; throws NotEncodable when it is no value of the type. */
  binary(v: unknown): Buffer;
  /** A binary value as the type's text (what a text-format client would have sent); throws BadBinary. */
  textOfBinary(raw: Buffer): string;
  /**
   * A binary parameter as the value a text-format parameter of the type is stored as, when that is
   * no string (a number, a blob); absent: the text from textOfBinary goes through the text path.
   */
  fromBinary?(raw: Buffer): unknown;
}

/** A binary value that is no value of its type (wrong length, bad digits): SQLSTATE 22P03 unless `code` says otherwise. */
/** A BadBinary's message for a value with bytes its receive function left unread: PostgreSQL's Bind words it. */
export const TRAILING_BYTES = 'trailing bytes';

export class BadBinary extends Error {
  constructor(
    message: string,
    readonly code = '22P03',
  ) {
    super(message);
  }
}

/** A stored value that has no binary form in the column's type (text in a date column, say). */
export class NotEncodable extends Error {}

/** Fails unless `raw` is `n` bytes long. */
export function expectLength(raw: Buffer, n: number, type: string): void {
  if (raw.length !== n) throw new BadBinary(`${type} takes ${n} bytes, got ${raw.length}`);
}

/** A buffer of `n` bytes from the shared pool (small values are the rule). */
export const bytes = (n: number): Buffer => Buffer.allocUnsafe(n);

/** Fails for a value the type cannot encode, naming the value (clipped) and the type. */
export function notA(type: string, v: unknown): never {
  const shown = v instanceof Uint8Array ? `a ${v.length}-byte blob` : JSON.stringify(String(v).slice(0, 40));
  throw new NotEncodable(`${shown} is not a value of type ${type}`);
}
