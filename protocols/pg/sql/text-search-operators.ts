// Text search's operators by their operands' types, as PostgreSQL resolves them: @@ of a tsvector
// and a tsquery (either way round), of text and a tsquery (the text's to_tsvector), of text and
// text (to_tsvector @@ plainto_tsquery: `body @@ 'cats'`); tsquery's && and || and tsvector's ||.
// A string literal or an untyped parameter takes the other side's type (two of them are text @@
// text). The marks are rewritten by translate/jsonb-ops.ts (@@, &&) and translate/typed-arithmetic.ts
// (||); the values are src/engine/pg-text-search-functions.ts's.
import { OID } from '../types/oids';
import type { PgToken } from './lexer';

const TEXTS = new Set<number>([OID.text, OID.varchar, OID.bpchar]);

/** An operand's side: tsvector, tsquery, text, untyped, of a type the analysis does not know, or anything else. */
type Side = 'v' | 'q' | 't' | 'u' | '?' | 'x';
const side = (type: number, untyped: boolean): Side =>
  untyped
    ? 'u'
    : type === OID.tsvector
      ? 'v'
      : type === OID.tsquery
        ? 'q'
        : TEXTS.has(type)
          ? 't'
          : type === 0
            ? '?'
            : 'x';

/**
 * The mark of a text search operator (`ts@@vq`, `ts@@qv`, `ts@@tq`, `ts@@tt`, `tsq&&`, `tsq||`,
 * `tsv||`); 'none' where a tsvector or tsquery meets a type no such operator takes (42883); null
 * where the operator is not text search's (jsonb's @@ and &&, arrays', text's ||).
 */
export function textSearchMark(
  op: string,
  l: number,
  lUntyped: boolean,
  r: number,
  rUntyped: boolean,
): string | null | 'none' {
  let a = side(l, lUntyped);
  let b = side(r, rUntyped);
  const ts = a === 'v' || a === 'q' || b === 'v' || b === 'q';
  // (a side the analysis cannot type, a FROM function's alias `q`, is taken as the other side's partner)
  if (a === '?' && (ts || b === 't')) a = 'u';
  if (b === '?' && (ts || a === 't')) b = 'u';
  if (op === '@@') {
    const pair = `${a}${b}`;
    if (pair === 'vq' || pair === 'vu') return 'ts@@vq';
    if (pair === 'qv' || pair === 'qu' || pair === 'uv') return 'ts@@qv';
    // (a string literal beside a tsquery is text, as PostgreSQL prefers: 'the cats' @@ q is its to_tsvector)
    if (pair === 'tq' || pair === 'uq') return 'ts@@tq';
    if (pair === 'tt' || pair === 'tu' || pair === 'ut' || pair === 'uu') return 'ts@@tt';
    return ts ? 'none' : null;
  }
  if (op === '&&' || op === '||') {
    const q = (s: Side) => s === 'q' || s === 'u';
    const v = (s: Side) => s === 'v' || s === 'u';
    if ((a === 'q' || b === 'q') && q(a) && q(b)) return op === '&&' ? 'tsq&&' : 'tsq||';
    if (op === '||' && (a === 'v' || b === 'v') && v(a) && v(b)) return 'tsv||';
    return ts ? 'none' : null;
  }
  return null;
}

/** The type PostgreSQL gives an unknown operand (a parameter) beside a tsvector or tsquery: its partner for @@, its own for &&, ||, <->, @> and <@; 0 when none. */
export function textSearchOperandType(op: string, known: number): number {
  if (op === '@@') return known === OID.tsvector ? OID.tsquery : known === OID.tsquery ? OID.tsvector : 0;
  if (op === '&&' || op === '||') return known === OID.tsquery || (op === '||' && known === OID.tsvector) ? known : 0;
  if (op === '@>' || op === '<@' || op === '<->') return known === OID.tsquery ? known : 0;
  return 0;
}

/** The type of a text search operator's value (0 when it is none): tsquery's &&, ||, <->, !!; tsvector's ||. */
export function textSearchResult(op: string, l: number | undefined, r: number): number {
  if (op === '!!' && l === undefined) return OID.tsquery;
  if ((op === '&&' || op === '||' || op === '<->') && (l === OID.tsquery || r === OID.tsquery)) return OID.tsquery;
  if (op === '||' && (l === OID.tsvector || r === OID.tsvector)) return OID.tsvector;
  return 0;
}

const SEARCH_WORDS = new Set([
  'tsvector',
  'tsquery',
  'to_tsvector',
  'to_tsquery',
  'plainto_tsquery',
  'phraseto_tsquery',
  'websearch_to_tsquery',
  'ts_headline',
  'ts_delete',
]);

/** Whether the statement may hold text search (sql/typed-operators-hint.ts): @@, !!, its types or functions, or &&, ||, length or unnest beside a tsvector or tsquery column. */
export function mayHoldTextSearch(sig: PgToken[], columnType: (column: string) => string | null): boolean {
  let words = false;
  let ops = false;
  for (const t of sig) {
    // (<-> is tsquery's or no operator Patina has: SQLite reads `<` `->`, always analysed)
    if (t.type === 'op' && (t.text === '@@' || t.text === '!!' || t.text === '<->')) return true;
    if (t.type === 'op' && (t.text === '&&' || t.text === '||')) ops = true;
    // (length of a tsvector: its lexemes; unnest of one: 0A000)
    if (t.type === 'word' && /^(length|unnest)$/i.test(t.text)) ops = true;
    if (SEARCH_WORDS.has(t.type === 'word' ? t.text.toLowerCase() : '')) return true;
    if (t.type === 'word' && columnType(t.text.toLowerCase()) === 'search') words = true;
  }
  return words && ops;
}
