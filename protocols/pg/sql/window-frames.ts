// RANGE frames with an offset (`RANGE BETWEEN interval '1 day' PRECEDING AND CURRENT ROW`, the
// rolling windows Grafana and Metabase write; `RANGE BETWEEN 5 PRECEDING AND 5 FOLLOWING`): checked
// as PostgreSQL's in_range support checks them, and an interval offset over a date, timestamp or
// timestamptz key marked to run on SQLite, whose offsets are numbers: the key becomes its
// microseconds since 1970 (__pg_frame_epoch) and the offset its microseconds
// (translate/frame-offsets.ts writes both).
import { parseInterval } from '../../../src/engine/dates';
import { pgError } from '../sqlstate';
import { OID, TYPE_DISPLAY } from '../types/oids';
import type { Typer } from './expression-types';
import { FLOATS, INTS, strings } from './type-signatures';
import { sessionZone } from './session-zone';
import { monthFrameMark } from './month-frames';

// biome-ignore lint/suspicious/noExplicitAny: libpg_query's JSON tree
type Node = any;

const FRAMEOPTION_NONDEFAULT = 0x1;
const FRAMEOPTION_RANGE = 0x2;
const DATES = new Set<number>([OID.date, OID.timestamp, OID.timestamptz]);

/** Mark keys (orderMarkKey of a location) the translation reads: 'frame-epoch' and 'frame-offset:µs'. */
export function markFrameOffsets(
  frame: Node,
  typer: Typer,
  out: Map<number, string>,
  firstLocation: (n: Node) => number,
  orderMarkKey: (at: number) => number,
): void {
  const offsets = [frame.startOffset, frame.endOffset].filter((o) => o);
  if (offsets.length === 0 || !(frame.frameOptions & FRAMEOPTION_RANGE)) return;
  const order: Node[] = frame.orderClause ?? [];
  const isInterval = (o: Node) => typer.type(o) === OID.interval;
  if (order.length === 0 && frame.refname) {
    // (the ORDER BY is a named window's: its key's type is not looked up here)
    if (offsets.some(isInterval))
      throw pgError(
        '0A000',
        'a RANGE frame offset of an interval over a named window is not supported: write its ORDER BY in the OVER clause',
      );
    return;
  }
  if (order.length !== 1)
    throw pgError('42P20', 'RANGE with offset PRECEDING/FOLLOWING requires exactly one ORDER BY column');
  const keyNode = order[0].SortBy?.node;
  const key = typer.type(keyNode);
  // (a key of a type not known here, or a column of no table, is left to SQLite and its own errors)
  if (key === 0) {
    if (offsets.some(isInterval))
      throw pgError(
        '0A000',
        'a RANGE frame offset of an interval over a key of a type not known here is not supported',
      );
    return;
  }
  const name = (oid: number) => TYPE_DISPLAY[oid] ?? 'unknown';
  const refuse = (offset: number | null) =>
    pgError(
      '0A000',
      `RANGE with offset PRECEDING/FOLLOWING is not supported for column type ${name(key)}${offset === null ? '' : ` and offset type ${name(offset)}`}`,
    );
  if (INTS.has(key) || key === OID.numeric || FLOATS.has(key)) {
    for (const o of offsets) {
      const t = typer.type(o);
      // (an integer key takes an integer offset; a numeric or float key any number)
      if (t === OID.interval || (INTS.has(key) && t !== 0 && !INTS.has(t))) throw refuse(t);
      if (negative(o)) throw pgError('22013', 'invalid preceding or following size in window function');
    }
    return;
  }
  if (!DATES.has(key)) throw refuse(key === OID.interval || key === OID.time ? typer.type(offsets[0]) || null : null);
  const texts = new Map<Node, string>();
  let months = false;
  for (const o of offsets) {
    const t = typer.type(o);
    const text = literalText(o);
    if (t !== OID.interval && !(t === 0 || t === OID.text)) throw refuse(t);
    if (text === undefined)
      throw pgError(
        '0A000',
        'a RANGE frame offset of an interval must be a literal here (SQLite computes the frame from a number)',
      );
    const iv = parseInterval(text);
    if (!iv) throw pgError('22007', `invalid input syntax for type interval: "${text}"`);
    if (iv.months < 0 || iv.days < 0 || iv.micros < 0 || (iv.months === 0 && iv.days === 0 && iv.micros < 0))
      throw pgError('22013', 'invalid preceding or following size in window function');
    texts.set(o, text);
    if (iv.months !== 0) months = true;
  }
  // (months have no fixed length: the call becomes a subquery, month-frames.ts)
  if (months) {
    const text = (o: Node) => (o ? (texts.get(o) ?? null) : null);
    const [at, mark] = monthFrameMark(frame, key, text(frame.startOffset), text(frame.endOffset));
    out.set(orderMarkKey(at), mark);
    return;
  }
  for (const o of offsets) {
    const iv = parseInterval(texts.get(o) as string) as NonNullable<ReturnType<typeof parseInterval>>;
    if (iv.days !== 0 && key === OID.timestamptz && sessionZone() !== null)
      throw pgError(
        '0A000',
        'a RANGE frame offset of days over a timestamptz in a time zone other than UTC is not supported (a day there may have 23 or 25 hours): write it in hours',
      );
    out.set(orderMarkKey(firstLocation(o)), `frame-offset:${iv.days * 86_400_000_000 + iv.micros}`);
  }
  out.set(orderMarkKey(firstLocation(keyNode)), 'frame-epoch');
}

/** A literal's text: `interval '1 day'`, `'1 day'::interval`, `'1 day'`; else undefined. */
function literalText(o: Node): string | undefined {
  const c = o.TypeCast && strings(o.TypeCast.typeName?.names).pop()?.toLowerCase() === 'interval' ? o.TypeCast.arg : o;
  if (o.TypeCast && c === o) return undefined;
  if (o.TypeCast && (o.TypeCast.typeName?.typmods?.length ?? 0) > 0) return undefined;
  const s = c?.A_Const?.sval?.sval;
  return typeof s === 'string' ? s : undefined;
}

/** Whether a number literal is below zero (`-1 PRECEDING`). */
function negative(o: Node): boolean {
  const c = o.A_Const;
  const v = c?.ival?.ival ?? (c?.fval?.fval !== undefined ? Number(c.fval.fval) : undefined);
  return typeof v === 'number' && v < 0;
}

/**
 * A window built on a named one (`OVER (w ORDER BY x)`, `WINDOW w2 AS (w1 ORDER BY x)`) may add
 * what the named one lacks, as PostgreSQL's transformWindowDefinitions allows: overriding its
 * PARTITION BY or ORDER BY, or copying one with a frame, is 42P20 as there (SQLite's errors were
 * 42000 with its own words).
 */
export function checkWindowRefs(select: Node): void {
  const named = new Map<string, Node>();
  for (const w of select.windowClause ?? []) if (w.WindowDef?.name) named.set(w.WindowDef.name, w.WindowDef);
  const check = (w: Node, over: boolean) => {
    // (`OVER w` names a window as a whole, `OVER (w ...)` builds on it)
    const ref = w.refname ?? (over ? w.name : undefined);
    if (ref === undefined) return;
    const r = named.get(ref);
    if (!r) throw pgError('42704', `window "${ref}" does not exist`);
    if (!w.refname) return;
    if (w.partitionClause?.length)
      throw pgError('42P20', `cannot override PARTITION BY clause of window "${w.refname}"`);
    if (w.orderClause?.length && r.orderClause?.length)
      throw pgError('42P20', `cannot override ORDER BY clause of window "${w.refname}"`);
    if (r.frameOptions & FRAMEOPTION_NONDEFAULT) {
      const e = pgError('42P20', `cannot copy window "${w.refname}" because it has a frame clause`);
      if (over && !w.orderClause?.length && !(w.frameOptions & FRAMEOPTION_NONDEFAULT))
        e.hint = 'Omit the parentheses in this OVER clause.';
      throw e;
    }
  };
  for (const w of named.values()) check(w, false);
  // the OVER clauses of this query's own expressions (a subquery's are its own)
  const visit = (n: Node): void => {
    if (n === null || typeof n !== 'object') return;
    if (Array.isArray(n)) {
      for (const x of n) visit(x);
      return;
    }
    if (n.SelectStmt) return;
    if (n.FuncCall?.over) check(n.FuncCall.over, true);
    for (const k in n) visit(n[k]);
  };
  visit([select.targetList, select.sortClause, select.havingClause]);
}
