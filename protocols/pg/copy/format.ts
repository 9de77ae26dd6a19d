// PostgreSQL's COPY text and CSV formats both ways. COPY FROM STDIN rows are parsed as CopyData
// arrives (records may span messages) and converted to each column's type as PostgreSQL would (a
// bad value is 22P02 naming the line); COPY TO rows are formatted one batch at a time.
import { firstBadUtf8 } from '../../../src/engine/utf8';
import type { Charset } from '../../../src/engine/encodings/client-encodings';
import { dateTimeInput, type InputStyle, withInputStyle } from '../../../src/engine/dates';
import { arrayInput } from '../../../src/engine/pg-array-input';
import { tsQueryText, tsVectorText } from '../../../src/engine/pg-text-search-functions';
import { pgCharacters, pgFloat, pgInteger, pgNumericTypmod } from '../../../src/engine/pg-functions';
import { keptNumeric } from '../../../src/engine/numeric-kept';
import type { TableDef } from '../../../src/engine/schema/model';
import type { SqlValue } from '../../../src/engine/values';
import { sqlStateError } from '../../../src/errors';
import { PgError } from '../sqlstate';
import { arrayElements } from '../types/array';
import { declaredElementKind } from '../types/element-kind';
import { paramValue } from '../types/values';
import { OID, TYPE_DISPLAY, declaredModifier, oidOfDeclType, timePrecisionOf } from '../types/oids';
import { type CopyOptions, forcedColumns } from './statement';
import { lookup } from '../../../src/lookup';

export interface CopyRecord {
  fields: (string | null)[];
  line: number;
}

/** Cuts COPY FROM data into records as it arrives; `\.` on a line of its own ends the data. */
export class CopyParser {
  readonly #o: CopyOptions;
  readonly #table: string;
  /** Strict: bytes that are no UTF-8 are PostgreSQL's 22021, not replacement characters (a split character waits). */
  readonly #decoder = new TextDecoder('utf-8', { fatal: true });
  /** The client's encoding when it is not UTF-8. */
  readonly #charset: Charset | null;
  /** The bytes of a character the last chunk cut off (a multi-byte client encoding's). */
  #cut: Buffer | null = null;
  #buf = '';
  #line = 0;
  #ended = false;
  #headerPending: boolean;

  /** FORCE_NOT_NULL and FORCE_NULL by field (undefined: not given). */
  readonly #notNull: boolean[] | undefined;
  readonly #null: boolean[] | undefined;

  constructor(o: CopyOptions, table: string, columns: string[] = [], charset: Charset | null = null) {
    this.#o = o;
    this.#charset = charset;
    this.#table = table;
    this.#headerPending = o.header;
    this.#notNull = forcedColumns(o.forceNotNull, columns, 'FORCE_NOT_NULL');
    this.#null = forcedColumns(o.forceNull, columns, 'FORCE_NULL');
  }

  /** The records completed by this chunk. */
  feed(chunk: Buffer): CopyRecord[] {
    if (this.#ended) return [];
    this.#buf += this.#decode(chunk, true);
    return this.#records(false);
  }

  /** The last record (data need not end with a newline). */
  end(): CopyRecord[] {
    if (this.#ended) return [];
    this.#buf += this.#decode(new Uint8Array(0), false);
    return this.#records(true);
  }

  #decode(chunk: Uint8Array, stream: boolean): string {
    if (this.#charset !== null) return this.#decodeIn(this.#charset, chunk, stream);
    try {
      return this.#decoder.decode(chunk, { stream });
    } catch {
      // (on the line of the bytes, as PostgreSQL's CONTEXT says: the lines before, in the text held and the chunk)
      const bad = firstBadUtf8(chunk);
      const before = bad ? chunk.subarray(0, bad.at).filter((c) => c === 0x0a).length : 0;
      const message = `invalid byte sequence for encoding "UTF8": ${bad?.bytes ?? 'an incomplete character at the end of the data'}`;
      throw copyError('22021', message, this.#line + 1 + countNewlines(this.#buf) + before, this.#table);
    }
  }

  /**
   * `chunk` in the client's encoding, after the bytes of a character the last one cut off (they wait
   * for the rest, as in PostgreSQL); its 22021 or 22P05 for bytes it cannot read, on their line.
   */
  #decodeIn(charset: Charset, chunk: Uint8Array, stream: boolean): string {
    if (this.#cut !== null) chunk = Buffer.concat([this.#cut, chunk]);
    this.#cut = null;
    try {
      if (!stream) return charset.decode(chunk);
      const [text, rest] = charset.decodeStream(chunk);
      if (rest > 0) this.#cut = Buffer.from(chunk.subarray(chunk.length - rest));
      return text;
    } catch (err) {
      const at = (err as { at: number }).at;
      const before = chunk.subarray(0, at).filter((c) => c === 0x0a).length;
      const { sqlstate } = err as { sqlstate: string };
      throw copyError(
        sqlstate,
        (err as Error).message,
        this.#line + 1 + countNewlines(this.#buf) + before,
        this.#table,
      );
    }
  }

  #records(final: boolean): CopyRecord[] {
    const out: CopyRecord[] = [];
    const csv = this.#o.format === 'csv';
    let start = 0;
    for (;;) {
      if (this.#ended) break;
      const end = csv ? csvRecordEnd(this.#buf, start, this.#o) : this.#buf.indexOf('\n', start);
      if (end < 0 && !(final && start < this.#buf.length)) break;
      const stop = end < 0 ? this.#buf.length : end;
      let raw = this.#buf.slice(start, stop);
      start = end < 0 ? this.#buf.length : end + 1;
      if (raw.endsWith('\r')) raw = raw.slice(0, -1);
      const line = ++this.#line;
      if (raw === '\\.') {
        this.#ended = true;
        break;
      }
      if (this.#headerPending) {
        this.#headerPending = false;
        continue;
      }
      const fields = csv
        ? csvFields(raw, this.#o, line, this.#table, this.#notNull, this.#null)
        : textFields(raw, this.#o);
      out.push({ fields, line });
      if (csv) this.#line += countNewlines(raw);
    }
    this.#buf = this.#buf.slice(start);
    if (final && this.#buf.length > 0 && !this.#ended)
      throw copyError('22P04', 'unterminated CSV quoted field', this.#line + 1, this.#table);
    return out;
  }
}

function countNewlines(s: string): number {
  let n = 0;
  for (let i = s.indexOf('\n'); i >= 0; i = s.indexOf('\n', i + 1)) n++;
  return n;
}

/** Where the CSV record starting at `from` ends (its newline outside quotes), or -1 when not yet seen. */
function csvRecordEnd(s: string, from: number, o: CopyOptions): number {
  let quoted = false;
  for (let i = from; i < s.length; i++) {
    const c = s[i];
    if (quoted) {
      if (
        c === o.escape &&
        (s[i + 1] === o.quote || s[i + 1] === o.escape) &&
        (o.escape !== o.quote || s[i + 1] === o.quote)
      )
        i++;
      else if (c === o.quote) quoted = false;
    } else if (c === o.quote) quoted = true;
    else if (c === '\n') return i;
  }
  return -1;
}

function csvFields(
  raw: string,
  o: CopyOptions,
  line: number,
  table: string,
  notNull?: boolean[],
  forceNull?: boolean[],
): (string | null)[] {
  const fields: (string | null)[] = [];
  let f = '';
  let quotedAny = false;
  let quoted = false;
  for (let i = 0; i <= raw.length; i++) {
    const c = raw[i];
    if (quoted) {
      if (c === undefined) throw copyError('22P04', 'unterminated CSV quoted field', line, table);
      if (
        c === o.escape &&
        (raw[i + 1] === o.quote || raw[i + 1] === o.escape) &&
        (o.escape !== o.quote || raw[i + 1] === o.quote)
      ) {
        f += raw[++i];
      } else if (c === o.quote) quoted = false;
      else f += c;
      continue;
    }
    if (c === undefined || c === o.delimiter) {
      // the null string is NULL unquoted (unless FORCE_NOT_NULL), and quoted too under FORCE_NULL
      const k = fields.length;
      fields.push(f === o.null && (quotedAny ? forceNull?.[k] === true : notNull?.[k] !== true) ? null : f);
      f = '';
      quotedAny = false;
      continue;
    }
    if (c === o.quote) {
      quoted = true;
      quotedAny = true;
    } else f += c;
  }
  return fields;
}

const TEXT_ESCAPES: Record<string, string> = lookup({ b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' });

function textFields(raw: string, o: CopyOptions): (string | null)[] {
  const fields: (string | null)[] = [];
  let f = '';
  let rawStart = 0;
  for (let i = 0; i <= raw.length; i++) {
    const c = raw[i];
    if (c === undefined || c === o.delimiter) {
      fields.push(raw.slice(rawStart, i) === o.null ? null : f);
      f = '';
      rawStart = i + 1;
      continue;
    }
    if (c !== '\\' || i + 1 >= raw.length) {
      f += c;
      continue;
    }
    const e = raw[++i];
    if (TEXT_ESCAPES[e]) f += TEXT_ESCAPES[e];
    else if (/[0-7]/.test(e)) {
      const m = /^[0-7]{1,3}/.exec(raw.slice(i))![0];
      f += String.fromCharCode(parseInt(m, 8));
      i += m.length - 1;
    } else if (e === 'x' && /[0-9a-fA-F]/.test(raw[i + 1] ?? '')) {
      const m = /^[0-9a-fA-F]{1,2}/.exec(raw.slice(i + 1))![0];
      f += String.fromCharCode(parseInt(m, 16));
      i += m.length;
    } else f += e;
  }
  return fields;
}

/** A COPY error: PostgreSQL's SQLSTATE and message, with CONTEXT naming the line. */
export function copyError(
  code: string,
  message: string,
  line: number,
  table: string,
  column?: string,
  value?: string | null,
): PgError {
  const e = new PgError('user', message, code);
  e.where = `COPY ${table}, line ${line}${column !== undefined ? `, column ${column}: ${value === null ? 'null input' : JSON.stringify(value)}` : ''}`;
  return e;
}

const DATED_KINDS: Record<number, string> = {
  [OID.date]: 'date',
  [OID.timestamp]: 'timestamp',
  [OID.timestamptz]: 'timestamptz',
  [OID.time]: 'time',
  [OID.interval]: 'interval',
};

/** Converts COPY text to each column's SQLite value as PostgreSQL reads its type (a date or interval in input style `order`); bad text is 22P02. */
export function columnConverters(
  def: TableDef,
  columns: string[],
  order: InputStyle = 'mdy',
): ((s: string) => SqlValue)[] {
  return columns.map((name) => {
    const decl = def.columns.find((c) => c.name === name)?.type ?? '';
    const oid = oidOfDeclType(decl);
    const type = TYPE_DISPLAY[oid] ?? 'text';
    const t = decl.toLowerCase();
    // dates and times in the form the column keeps (a timestamptz as UTC text), as an INSERT's
    // (before the integers: INTERVAL has "int" in it, and COPY into one was 22P02 for bigint)
    // an array's text as an INSERT stores it ('{1,2}'; BIGINT[] was read as a bigint: 22P02)
    const kind = declaredElementKind(decl);
    // in PostgreSQL's form as an INSERT keeps it ('{ a , b }' as '{a,b}'), each element read as its type
    if (kind) return (s: string) => arrayInput(s, kind);
    if (t.trimEnd().endsWith('[]'))
      return (s: string) => {
        if (!s.trim().startsWith('{') || arrayElements(s) === null)
          throw sqlStateError('22P02', `malformed array literal: "${s}"`);
        return s;
      };
    const dated = DATED_KINDS[oid];
    // (text that is no value of the type fails the COPY as in PostgreSQL: '2024-02-30' 22008; it was kept)
    const digits = timePrecisionOf(decl);
    const rounded = dated && digits !== null && digits < 6 ? `${dated}(${digits})` : dated;
    // (a date in the session's DateStyle order: '01/02/2024' is February 1 in DMY)
    if (rounded)
      return order === 'mdy'
        ? (s: string) => dateTimeInput(rounded, s)
        : (s: string) => withInputStyle(order, () => dateTimeInput(rounded, s));
    if (/int/.test(t))
      return (s: string) => pgInteger(s, type === 'smallint' || type === 'integer' ? type : 'bigint') as bigint;
    if (/real|floa|doub/.test(t)) return (s: string) => pgFloat(s, type) as number;
    // a type modifier converts as in an INSERT (numeric(p, s) rounded, varchar(n), char(n) checked)
    const mods = declaredModifier(decl);
    if (mods?.type === 'numeric') return (s: string) => pgNumericTypmod(s, mods.precision, mods.scale, true) as number;
    if (mods)
      return (s: string) =>
        pgCharacters(s, mods.precision, mods.type === 'char' ? 'character' : 'character varying') as string;
    // (a value with more digits than the column keeps is 22003: src/engine/numeric-kept.ts)
    if (/numeric|decimal/.test(t))
      return (s: string) => {
        const kept = keptNumeric(s);
        return typeof kept === 'string' ? (pgFloat(s, 'numeric') as number) : (kept as number);
      };
    if (/bool/.test(t)) {
      return (s: string) => {
        const v = s.trim().toLowerCase();
        if (['t', 'true', 'y', 'yes', 'on', '1'].includes(v)) return 1;
        if (['f', 'false', 'n', 'no', 'off', '0'].includes(v)) return 0;
        throw sqlStateError('22P02', `invalid input syntax for type boolean: "${s}"`);
      };
    }
    // JSON read as an INSERT reads it: checked (22P02), a jsonb as jsonb's text ('1e2' is 100, keys
    // sorted); it was stored as sent, so `jb = '100'` missed a copied 1e2 and bad JSON was kept
    if (oid === OID.json || oid === OID.jsonb) return (s: string) => paramValue(Buffer.from(s, 'utf8'), oid, 0, 0);
    // a tsvector or tsquery read by its input function, as an INSERT reads it ('b a' kept as 'a' 'b', 'a:x' 42601)
    if (oid === OID.tsvector) return tsVectorText;
    if (oid === OID.tsquery) return tsQueryText;
    if (/blob|bytea/.test(t)) {
      return (s: string) => {
        if (!s.startsWith('\\x')) return Buffer.from(s, 'utf8');
        if (!/^[0-9a-fA-F]*$/.test(s.slice(2)) || s.length % 2 !== 0)
          throw sqlStateError('22P02', 'invalid input syntax for type bytea');
        return Buffer.from(s.slice(2), 'hex');
      };
    }
    return (s: string) => s;
  });
}

/** One row in COPY TO's text or CSV format, with its newline. `texts` are PostgreSQL's text of each value (null for NULL). */
export function formatCopyRow(texts: (string | null)[], o: CopyOptions, forceQuote?: boolean[]): string {
  let s = '';
  for (let i = 0; i < texts.length; i++) {
    if (i > 0) s += o.delimiter;
    const v = texts[i];
    if (o.format === 'csv') {
      if (v === null) s += o.null;
      else if (
        forceQuote?.[i] === true ||
        v === o.null ||
        v.includes(o.delimiter) ||
        v.includes(o.quote) ||
        v.includes('\n') ||
        v.includes('\r') ||
        (o.escape !== o.quote && v.includes(o.escape))
      ) {
        let q = '';
        for (const ch of v) q += ch === o.quote || (ch === o.escape && o.escape !== o.quote) ? o.escape + ch : ch;
        s += o.quote + q + o.quote;
      } else s += v;
    } else if (v === null) s += o.null;
    else {
      for (const ch of v) {
        if (ch === '\\') s += '\\\\';
        else if (ch === '\n') s += '\\n';
        else if (ch === '\r') s += '\\r';
        else if (ch === '\t' && o.delimiter !== '\t') s += '\\t';
        else if (ch === o.delimiter) s += '\\' + (ch === '\t' ? 't' : ch);
        else s += ch;
      }
    }
  }
  return s + '\n';
}
