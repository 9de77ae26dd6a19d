// The COPY statement: COPY table [(columns)] FROM STDIN and COPY {table | (query)} TO STDOUT with
// their options (FORMAT text, csv or binary, DELIMITER, NULL, HEADER, QUOTE, ESCAPE), each checked as
// PostgreSQL checks it; other sources and targets (files, programs) are refused.
import { type PgToken, identName } from '../sql/lexer';
import { pgError } from '../sqlstate';
import { lookup } from '../../../src/lookup';

export interface CopyOptions {
  format: 'text' | 'csv' | 'binary';
  delimiter: string;
  null: string;
  quote: string;
  escape: string;
  header: boolean;
  /** CSV, COPY TO: columns whose values are always quoted (`*`: every column). */
  forceQuote?: '*' | string[];
  /** CSV, COPY FROM: columns whose unquoted null string is a value, not NULL. */
  forceNotNull?: string[];
  /** CSV, COPY FROM: columns whose quoted null string is NULL too. */
  forceNull?: string[];
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
  // PostgreSQL's grammar takes either word either way (PHP's PDO::pgsqlCopyToArray sends TO STDIN)
  if (target !== 'STDIN' && target !== 'STDOUT') {
    throw pgError(
      '0A000',
      `COPY ${dir} a file or program on the server is not supported by Patina: use COPY ... ${dir} ${dir === 'FROM' ? 'STDIN' : 'STDOUT'} (psql's \\copy does)`,
    );
  }
  const options = parseOptions(sig.slice(i + 2));
  // PostgreSQL's refusals: each FORCE option goes one way
  if (options.forceQuote && dir === 'FROM') throw pgError('0A000', 'COPY force quote only available using COPY TO');
  if (options.forceNotNull && dir === 'TO')
    throw pgError('0A000', 'COPY force not null only available using COPY FROM');
  if (options.forceNull && dir === 'TO') throw pgError('0A000', 'COPY force null only available using COPY FROM');
  return { direction: dir === 'FROM' ? 'in' : 'out', table, columns, query, options };
}

/** The FORCE options by their names in the option list, and the CopyOptions field each sets. */
const FORCE_OPTIONS: Record<string, 'forceQuote' | 'forceNotNull' | 'forceNull'> = lookup({
  FORCE_QUOTE: 'forceQuote',
  FORCE_NOT_NULL: 'forceNotNull',
  FORCE_NULL: 'forceNull',
});

/**
 * A FORCE option's columns from opts[i]: `*` (FORCE_QUOTE only, as in PostgreSQL 15), `(a, b)`, or
 * in the old syntax (`paren` false) `a, b` up to the next option; returns the index after them.
 */
function forceColumns(
  opts: PgToken[],
  i: number,
  name: string,
  force: Pick<CopyOptions, 'forceQuote' | 'forceNotNull' | 'forceNull'>,
  paren: boolean,
): number {
  const field = FORCE_OPTIONS[name];
  const label = name.toLowerCase().replace(/_/g, ' ');
  if (force[field] !== undefined) throw pgError('42601', 'conflicting or redundant options');
  if (opts[i]?.text === '*') {
    if (field !== 'forceQuote')
      throw pgError('42601', `${label} needs a column list: Patina takes * for FORCE_QUOTE only, as PostgreSQL 15`);
    force.forceQuote = '*';
    return i + 1;
  }
  const names: string[] = [];
  if (paren) {
    if (opts[i]?.text !== '(')
      throw pgError('42601', `argument to option "${name.toLowerCase()}" must be a list of column names`);
    for (i++; i < opts.length && opts[i].text !== ')'; i++) if (opts[i].text !== ',') names.push(identName(opts[i]));
    if (opts[i]?.text !== ')')
      throw pgError('42601', `argument to option "${name.toLowerCase()}" must be a list of column names`);
    i++;
  } else {
    for (; i < opts.length; i++) {
      names.push(identName(opts[i]));
      if (opts[i + 1]?.text !== ',') return ((force[field] = names), i + 1);
      i++;
    }
  }
  if (names.length === 0)
    throw pgError('42601', `argument to option "${name.toLowerCase()}" must be a list of column names`);
  force[field] = names;
  return i;
}

function parseOptions(opts: PgToken[]): CopyOptions {
  const set: Partial<CopyOptions> = {};
  const force: Pick<CopyOptions, 'forceQuote' | 'forceNotNull' | 'forceNull'> = {};
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
      if (FORCE_OPTIONS[name]) {
        i = forceColumns(opts, i + 1, name, force, true);
        continue;
      }
      const next = opts[i + 1];
      i += 1 + (next && next.text !== ',' && next.text !== ')' ? apply(name, next) : apply(name, undefined));
    }
  } else {
    while (i < opts.length) {
      let name = word(opts[i]);
      i++;
      if (name === 'FORCE') {
        // the old syntax: FORCE QUOTE * | FORCE QUOTE a, b | FORCE NOT NULL a, b | FORCE NULL a, b
        const what = word(opts[i]) === 'NOT' ? 'FORCE_NOT_NULL' : `FORCE_${word(opts[i])}`;
        if (!FORCE_OPTIONS[what])
          throw pgError('42601', `syntax error at or near "${opts[i]?.text ?? 'end of input'}"`);
        i = forceColumns(opts, i + (what === 'FORCE_NOT_NULL' ? 2 : 1), what, force, false);
        continue;
      }
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
  if (binary) {
    // PostgreSQL's own refusals: the text options mean nothing in binary
    for (const name of ['delimiter', 'null', 'quote', 'escape', 'header'] as const)
      if (set[name] !== undefined && set[name] !== false)
        throw pgError('42601', `cannot specify ${name.toUpperCase()} in BINARY mode`);
    if (force.forceQuote || force.forceNotNull || force.forceNull)
      throw pgError('0A000', 'COPY FORCE options are available only in CSV mode');
    return { format: 'binary', delimiter: '', null: '', quote: '', escape: '', header: false };
  }
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
  // PostgreSQL's words: the FORCE options are CSV's
  if (!csv && force.forceQuote) throw pgError('0A000', 'COPY force quote available only in CSV mode');
  if (!csv && force.forceNotNull) throw pgError('0A000', 'COPY force not null available only in CSV mode');
  if (!csv && force.forceNull) throw pgError('0A000', 'COPY force null available only in CSV mode');
  return { ...o, ...force };
}

/**
 * Which of `columns` (the COPY's, in order) a FORCE option names; 42P10 for a name not among them,
 * as PostgreSQL says it. Undefined when the option is not given.
 */
export function forcedColumns(
  list: '*' | string[] | undefined,
  columns: string[],
  option: string,
): boolean[] | undefined {
  if (list === undefined) return undefined;
  if (list === '*') return columns.map(() => true);
  const lower = columns.map((c) => c.toLowerCase());
  for (const name of list)
    if (!columns.includes(name) && !lower.includes(name.toLowerCase()))
      throw pgError('42P10', `${option} column "${name}" not referenced by COPY`);
  return columns.map((c) => list.includes(c) || list.some((n) => n.toLowerCase() === c.toLowerCase()));
}
