// COPY: the statement's options, and PostgreSQL's text and CSV formats both ways. COPY FROM STDIN
// rows are parsed as CopyData arrives (records may span messages) and converted to each column's
// type as PostgreSQL would (a bad value is 22P02 naming the line); COPY TO rows are formatted one
// batch at a time.
import { StringDecoder } from 'node:string_decoder';
import type { TableDef } from '../../../src/engine/schema/model';
import type { SqlValue } from '../../../src/engine/values';
import { pgFloat, pgInteger } from '../../../src/engine/pg-functions';
import { type PgToken, identName } from '../sql/lexer';
import { PgError, pgError } from '../sqlstate';
import { TYPE_DISPLAY, oidOfDeclType } from '../types/types';
import { sqlStateError } from '../../../src/errors';

export interface CopyOptions {
  format: 'text' | 'csv';
  delimiter: string;
  null: string;
  quote: string;
  escape: string;
  header: boolean;
}

export interface CopyStatement {
  direction: 'in' | 'out';
  /** The table copied from or to; null for COPY (query) TO. */
  table: string | null;
  /** Columns named in `COPY t (a, b)`; empty for all. */
  columns: string[];
  /** The query of COPY (query) TO STDOUT. */
  query: PgToken[] | null;
  options: CopyOptions;
}

const word = (t: PgToken | undefined) => (t?.type === 'word' ? t.text.toUpperCase() : '');
const stringValue = (t: PgToken | undefined): string | null =>
  t?.type === 'string' ? t.text.slice(1, -1).split("''").join("'") : null;

/**
 * COPY table [(cols)] FROM STDIN | COPY {table [(cols)] | (query)} TO STDOUT, with options in
 * either spelling: `WITH (FORMAT csv, HEADER, DELIMITER ';')` or psql's `csv header delimiter ';'`.
 * `sig` holds the statement's tokens without spaces and comments; `tokens` with them (for the query).
 */
export function parseCopy(sig: PgToken[], tokens: PgToken[]): CopyStatement {
  let i = 1;
  let table: string | null = null;
  let query: PgToken[] | null = null;
  const columns: string[] = [];
  if (sig[i]?.text === '(') {
    let depth = 0;
    let j = i;
    for (; j < sig.length; j++) {
      if (sig[j].text === '(') depth++;
      else if (sig[j].text === ')' && --depth === 0) break;
    }
    query = tokens.slice(tokens.indexOf(sig[i]) + 1, tokens.indexOf(sig[j]));
    i = j + 1;
  } else {
    if (sig[i]?.type !== 'word' && sig[i]?.type !== 'quoted')
      throw pgError(
        '42601',
        `syntax error at or near "${sig[i]?.text ?? 'end of input'}": COPY needs a table or a (query)`,
      );
    table = identName(sig[i]);
    if (table === 'public' && sig[i + 1]?.text === '.' && sig[i + 2]) table = identName(sig[(i += 2)]);
    i++;
    if (sig[i]?.text === '(') {
      for (i++; i < sig.length && sig[i].text !== ')'; i++) if (sig[i].text !== ',') columns.push(identName(sig[i]));
      i++;
    }
  }
  const dir = word(sig[i]);
  if (dir !== 'FROM' && dir !== 'TO')
    throw pgError(
      '42601',
      `syntax error at or near "${sig[i]?.text ?? 'end of input'}": expected FROM STDIN or TO STDOUT`,
    );
  if (dir === 'FROM' && query) throw pgError('42601', 'COPY (query) FROM is not valid: COPY FROM takes a table');
  const target = word(sig[i + 1]);
  if (target !== (dir === 'FROM' ? 'STDIN' : 'STDOUT')) {
    throw pgError(
      '0A000',
      `COPY ${dir} a file or program on the server is not supported by Patina: use COPY ... ${dir} ${dir === 'FROM' ? 'STDIN' : 'STDOUT'} (psql's \\copy does)`,
    );
  }
  const options = parseOptions(sig.slice(i + 2));
  return { direction: dir === 'FROM' ? 'in' : 'out', table, columns, query, options };
}

function parseOptions(opts: PgToken[]): CopyOptions {
  const set: Partial<CopyOptions> = {};
  let binary = false;
  let i = 0;
  if (word(opts[i]) === 'WITH') i++;
  const one = (name: string, t: PgToken | undefined, v: string | null): string => {
    if (v === null) throw pgError('42601', `COPY option ${name} needs a quoted value, got ${t?.text ?? 'nothing'}`);
    return v;
  };
  const apply = (name: string, t: PgToken | undefined): number => {
    // returns how many value tokens the option took
    const v = stringValue(t) ?? (t?.type === 'word' ? t.text.toLowerCase() : null);
    switch (name) {
      case 'FORMAT':
        if (v === 'binary') binary = true;
        else if (v === 'csv' || v === 'text') set.format = v;
        else throw pgError('22023', `COPY format "${v ?? ''}" not recognized`);
        return 1;
      case 'CSV':
        set.format = 'csv';
        return 0;
      case 'BINARY':
        binary = true;
        return 0;
      case 'TEXT':
        set.format = 'text';
        return 0;
      case 'HEADER': {
        if (v === 'match') throw pgError('0A000', 'COPY HEADER MATCH is not supported by Patina');
        const off = v === 'false' || v === 'off' || v === '0';
        const on = v === 'true' || v === 'on' || v === '1';
        set.header = !off;
        return off || on ? 1 : 0;
      }
      case 'DELIMITER':
        set.delimiter = one(name, t, stringValue(t));
        return 1;
      case 'NULL':
        set.null = one(name, t, stringValue(t));
        return 1;
      case 'QUOTE':
        set.quote = one(name, t, stringValue(t));
        return 1;
      case 'ESCAPE':
        set.escape = one(name, t, stringValue(t));
        return 1;
      case 'ENCODING':
        if (!/^utf-?8$/i.test(v ?? '')) throw pgError('0A000', `COPY ENCODING ${v}: Patina reads and writes UTF8 only`);
        return 1;
      case 'FREEZE':
      case 'OIDS':
        return v === 'true' || v === 'false' || v === 'on' || v === 'off' ? 1 : 0;
      default:
        throw pgError('42601', `option "${name.toLowerCase()}" not recognized`);
    }
  };
  if (opts[i]?.text === '(') {
    for (i++; i < opts.length && opts[i].text !== ')'; ) {
      if (opts[i].text === ',') {
        i++;
        continue;
      }
      const name = identName(opts[i]).toUpperCase();
      const next = opts[i + 1];
      i += 1 + (next && next.text !== ',' && next.text !== ')' ? apply(name, next) : apply(name, undefined));
    }
  } else {
    while (i < opts.length) {
      let name = word(opts[i]);
      i++;
      if (name === 'FORCE') throw pgError('0A000', 'COPY FORCE options are not supported by Patina');
      if (word(opts[i]) === 'AS') i++;
      if (name === '') name = opts[i - 1]?.text ?? '';
      i += apply(
        name,
        ['DELIMITER', 'NULL', 'QUOTE', 'ESCAPE', 'ENCODING'].includes(name)
          ? opts[i]
          : word(opts[i]) === 'TRUE' || word(opts[i]) === 'FALSE'
            ? opts[i]
            : undefined,
      );
    }
  }
  if (binary) throw pgError('0A000', 'COPY BINARY is not supported by Patina: use FORMAT text or FORMAT csv');
  const format = set.format ?? 'text';
  const csv = format === 'csv';
  const o: CopyOptions = {
    format,
    delimiter: set.delimiter ?? (csv ? ',' : '\t'),
    null: set.null ?? (csv ? '' : '\\N'),
    quote: set.quote ?? '"',
    escape: set.escape ?? set.quote ?? '"',
    header: set.header ?? false,
  };
  if (o.delimiter.length !== 1) throw pgError('0A000', 'COPY delimiter must be a single one-byte character');
  if (csv && (o.quote.length !== 1 || o.escape.length !== 1))
    throw pgError('0A000', 'COPY quote and escape must be single one-byte characters');
  if (!csv && (set.quote !== undefined || set.escape !== undefined))
    throw pgError('0A000', 'COPY QUOTE and ESCAPE are available only in CSV mode');
  if (o.header && !csv && format !== 'text') throw pgError('0A000', 'COPY HEADER needs text or CSV mode');
  if (o.delimiter === '\n' || o.delimiter === '\r' || (!csv && o.delimiter === '\\'))
    throw pgError('22023', 'COPY delimiter cannot be newline, carriage return or backslash');
  return o;
}

/** One record of COPY FROM data: its fields (null for NULL) and the line it started on. */
export interface CopyRecord {
  fields: (string | null)[];
  line: number;
}

/** Cuts COPY FROM data into records as it arrives; `\.` on a line of its own ends the data. */
export class CopyParser {
  readonly #o: CopyOptions;
  readonly #table: string;
  readonly #decoder = new StringDecoder('utf8');
  #buf = '';
  #line = 0;
  #ended = false;
  #headerPending: boolean;

  constructor(o: CopyOptions, table: string) {
    this.#o = o;
    this.#table = table;
    this.#headerPending = o.header;
  }

  /** The records completed by this chunk. */
  feed(chunk: Buffer): CopyRecord[] {
    if (this.#ended) return [];
    this.#buf += this.#decoder.write(chunk);
    return this.#records(false);
  }

  /** The last record (data need not end with a newline). */
  end(): CopyRecord[] {
    if (this.#ended) return [];
    this.#buf += this.#decoder.end();
    return this.#records(true);
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
      const fields = csv ? csvFields(raw, this.#o, line, this.#table) : textFields(raw, this.#o);
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

function csvFields(raw: string, o: CopyOptions, line: number, table: string): (string | null)[] {
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
      fields.push(!quotedAny && f === o.null ? null : f);
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

const TEXT_ESCAPES: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };

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

/** Converts COPY text to each column's SQLite value as PostgreSQL reads its type; bad text is 22P02. */
export function columnConverters(def: TableDef, columns: string[]): ((s: string) => SqlValue)[] {
  return columns.map((name) => {
    const decl = def.columns.find((c) => c.name === name)?.type ?? '';
    const oid = oidOfDeclType(decl);
    const type = TYPE_DISPLAY[oid] ?? 'text';
    const t = decl.toLowerCase();
    if (/int/.test(t))
      return (s: string) => pgInteger(s, type === 'smallint' || type === 'integer' ? type : 'bigint') as bigint;
    if (/real|floa|doub/.test(t)) return (s: string) => pgFloat(s, type) as number;
    if (/numeric|decimal/.test(t)) return (s: string) => pgFloat(s, 'numeric') as number;
    if (/bool/.test(t)) {
      return (s: string) => {
        const v = s.trim().toLowerCase();
        if (['t', 'true', 'y', 'yes', 'on', '1'].includes(v)) return 1;
        if (['f', 'false', 'n', 'no', 'off', '0'].includes(v)) return 0;
        throw sqlStateError('22P02', `invalid input syntax for type boolean: "${s}"`);
      };
    }
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
export function formatCopyRow(texts: (string | null)[], o: CopyOptions): string {
  let s = '';
  for (let i = 0; i < texts.length; i++) {
    if (i > 0) s += o.delimiter;
    const v = texts[i];
    if (o.format === 'csv') {
      if (v === null) s += o.null;
      else if (
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
