// What a result says besides its rows: RowDescription (column names, type OIDs from the declared
// types or the values at hand, formats), computed once per statement and formats when no type
// depends on the values, and the CommandComplete tag (INSERT 0 n, SELECT n, ...).
import type { Outcome } from '../session/engine';
import type { Analyzed, ColumnDesc } from '../sql/analyzed';
import { columnOid } from '../sql/result-columns';
import { pgError } from '../sqlstate';
import { OID, TIME_TYPES, oidOfDeclType, typeSize, typmodOfDeclType } from '../types/oids';
import { MIN_SCALE_PRECISION } from '../types/numeric';
import { arrayOidOf } from '../types/registry';
import { hasBinary } from '../types/values';
import { ByteWriter, type Field, backend } from '../wire/backend';
import { formatOf } from './portal';

const BPCHAR_ARRAY = arrayOidOf(OID.bpchar);

/**
 * RowDescription fields and their message bytes. When no column's type depends on the values (all
 * declared or known from the expression) they are computed once per statement and result formats.
 */
export function describedFields(
  columns: ColumnDesc[],
  formats: number[],
  sample: unknown[][] | null,
): { fields: Field[]; message: Buffer } {
  if (formats.length > 1 && formats.length !== columns.length)
    throw pgError('08P01', `bind message has ${formats.length} result formats but query has ${columns.length} columns`);
  const key = formats.length === 0 ? '' : formats.length === 1 && formats[0] === 0 ? '0' : formats.join(',');
  // only fixed types are cached: a hit needs no check of the columns
  const hit = FIELD_CACHE.get(columns)?.get(key);
  if (hit) return hit;
  const fixed = columns.every(typeIsKnown);
  const fields = fieldsOf(columns, formats, sample);
  const w = new ByteWriter(256);
  backend.rowDescription(w, fields);
  const d = { fields, message: w.take() };
  if (fixed) {
    let byFormat = FIELD_CACHE.get(columns);
    if (!byFormat) FIELD_CACHE.set(columns, (byFormat = new Map()));
    if (byFormat.size < 8) byFormat.set(key, d);
  }
  return d;
}

/** Writes a described result's RowDescription: its bytes as made, or its names in the client's encoding when that is not UTF-8. */
export function writeRowDescription(w: ByteWriter, d: { fields: Field[]; message: Buffer }): void {
  if (w.charset === null) w.bytes(d.message);
  else backend.rowDescription(w, d.fields);
}

function typeIsKnown(c: ColumnDesc): boolean {
  return Boolean(c.declType || c.oid);
}
const FIELD_CACHE = new WeakMap<ColumnDesc[], Map<string, { fields: Field[]; message: Buffer }>>();

/** RowDescription fields: type from the declared type, else from the first rows' values. */
export function fieldsOf(
  columns: {
    name: string;
    declType: string | null;
    typmod?: number;
    scale?: number;
    scaleIsMinimum?: boolean;
    computed?: boolean;
    pad?: number;
    tableOid?: number;
    attnum?: number;
  }[],
  formats: number[],
  sample: unknown[][] | null,
): Field[] {
  return columns.map((c, i) => {
    // the first value tells, but a column of numbers is float8 if any value at hand has a fraction
    // (SQLite's REAL 4.0 reaches us as the integer 4: sum(amount) would else be int8 and '6.5' in it)
    let v: unknown;
    if (sample) {
      for (const row of sample) {
        const x = row[i];
        if (x === null || x === undefined) continue;
        if (v === undefined) v = x;
        if (typeof x === 'number' && !Number.isInteger(x)) v = x;
        if ((typeof v !== 'number' && typeof v !== 'bigint') || !Number.isInteger(v)) break;
      }
    }
    const format = formatOf(formats, i);
    // a binary column's type is what Describe of the statement announced (asyncpg and pgjdbc decode
    // by it), so never the values' guess; a type without a binary form is announced and sent as text
    let typeOid = columnOid(c, format === 1 ? undefined : v);
    if (format === 1 && !hasBinary(typeOid)) typeOid = OID.text;
    // a table column's numeric(p, s), varchar(n), char(n): announced (pgjdbc's getScale, a BI tool's
    // format) and kept in the values (numeric(10,2) prints 12.50, as PostgreSQL stored it); and
    // `ARRAY[ch]`'s character(4)[] (its elements' modifier, as PostgreSQL's exprTypmod)
    const modded =
      typeOid === OID.numeric ||
      typeOid === OID.varchar ||
      typeOid === OID.bpchar ||
      typeOid === BPCHAR_ARRAY ||
      TIME_TYPES.has(typeOid);
    const typeMod =
      c.typmod !== undefined && modded
        ? c.typmod
        : c.declType && modded && oidOfDeclType(c.declType) === typeOid
          ? typmodOfDeclType(c.declType)
          : -1;
    // sum(amount) of a numeric(10,2) prints 2 digits as PostgreSQL's numeric carries them, with no modifier announced
    // (a minimum scale, `amount + $1`, as the precision MIN_SCALE_PRECISION: the value's own digits beyond it print too)
    // (a computed numeric of no known scale: the double's 15 significant digits, as a minimum scale of 0)
    const valueMod =
      typeMod < 0 && typeOid === OID.numeric && c.scale !== undefined
        ? ((c.scaleIsMinimum ? MIN_SCALE_PRECISION : 1000) << 16) + c.scale + 4
        : typeMod < 0 && typeOid === OID.numeric && c.computed
          ? (MIN_SCALE_PRECISION << 16) + 4
          : // (max(ch) of a char(n) is bpchar of no modifier, its values padded to n as PostgreSQL keeps them)
            typeMod < 0 && typeOid === OID.bpchar && c.pad !== undefined
            ? c.pad + 4
            : undefined;
    return {
      name: c.name,
      tableOid: c.tableOid ?? 0,
      column: c.attnum ?? 0,
      typeOid,
      typeSize: typeSize(typeOid),
      typeMod,
      format,
      ...(valueMod !== undefined ? { valueMod } : {}),
    };
  });
}

/**
 * The command tag; `rows` sent by this Execute, which a write's count is too when `partial` (the
 * portal was suspended, or ran before: PostgreSQL counts the RETURNING rows of that Execute).
 */
export function tagOf(portalAn: Analyzed, outcome: Outcome | null, rows: number, partial = false): string {
  if (outcome?.tag) return outcome.tag;
  const an = outcome?.of ?? portalAn;
  const n = partial ? rows : (outcome?.affected ?? rows);
  switch (an.command) {
    case 'INSERT':
      return countTag(INSERT_TAGS, n);
    case 'UPDATE':
      return countTag(UPDATE_TAGS, n);
    case 'DELETE':
      return countTag(DELETE_TAGS, n);
    case 'SELECT':
    case 'WITH':
      return countTag(SELECT_TAGS, rows);
    case 'START TRANSACTION':
      return 'START TRANSACTION';
    default:
      return an.kind === 'sql' && an.columns ? countTag(SELECT_TAGS, rows) : an.command;
  }
}

/** Tags with small counts are made once: a point select's 'SELECT 1' is no new string, and the statement counts know it. */
const SMALL_COUNTS = 64;
interface Tags {
  prefix: string;
  small: string[];
}
function tags(prefix: string): Tags {
  return { prefix, small: Array.from({ length: SMALL_COUNTS }, (_, i) => `${prefix} ${i}`) };
}
const INSERT_TAGS = tags('INSERT 0');
const UPDATE_TAGS = tags('UPDATE');
const DELETE_TAGS = tags('DELETE');
const SELECT_TAGS = tags('SELECT');
function countTag(tags: Tags, n: number): string {
  return n < SMALL_COUNTS ? tags.small[n] : `${tags.prefix} ${n}`;
}
