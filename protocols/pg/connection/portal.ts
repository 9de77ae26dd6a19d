// Portals of the extended query protocol: a statement bound to its parameters with the result
// formats asked for, and the rows at hand while Execute sends them (a simple query runs through an
// unnamed portal too); Bind's format codes read and checked.
import type { SqlValue } from '../../../src/engine/values';
import type { Outcome } from '../session/engine';
import type { Analyzed, ColumnDesc } from '../sql/analyzed';
import { pgError } from '../sqlstate';
import type { Field } from '../wire/backend';

export interface Portal {
  an: Analyzed;
  params: SqlValue[];
  /** The scale of each parameter's text that a result column prints at (Analyzed.scaleParams); absent for none. */
  paramScales?: number[];
  formats: number[];
  fields: Field[] | null;
  outcome: Outcome | null;
  /** Rows at hand; `at` is the next one to send. */
  pending: unknown[][];
  at: number;
  /** An Execute was suspended (PortalSuspended): the tag of the last counts its own rows only. */
  partial: boolean;
  done: boolean;
}

/** The result format of column i from Bind's result format codes. */
export const formatOf = (formats: number[], i: number) =>
  formats.length === 0 ? 0 : formats.length === 1 ? formats[0] : (formats[i] ?? 0);

/** Bind's parameter format codes: none (all text), one for all, or one per parameter. */
export function checkFormats(formats: number[], params: number) {
  if (formats.length > 1 && formats.length !== params)
    throw pgError('08P01', `bind message has ${formats.length} parameter formats but ${params} parameters`);
}

export const NO_PARAMS: SqlValue[] = [];
export const NO_FORMATS: number[] = [];

/** Ends a portal's streamed read, if it has one. */
export function cancelPortal(p: Portal) {
  p.outcome?.rows?.cancel();
}

/**
 * The scale of a numeric parameter as sent: its text's digits after the point (less an exponent's),
 * or the display scale of its binary form; 0 for anything else.
 */
export function sentScale(raw: Buffer | null, format: number): number {
  if (raw === null) return 0;
  if (format === 1) return raw.length >= 8 ? Math.max(0, raw.readInt16BE(6)) : 0;
  // (numeric's input: the fraction's digits less the exponent, '15e-1' is 1.5)
  const m = /^\s*[+-]?(?:\d+\.?|\d*\.(\d+))(?:[eE]([+-]?\d+))?\s*$/.exec(raw.toString('latin1'));
  return m ? Math.max(0, (m[1]?.length ?? 0) - Number(m[2] ?? 0)) : 0;
}

/**
 * The result columns as a portal prints them: a numeric whose scale is at least its parameters'
 * (`$1::numeric`, `amount + $1`) at the larger of its own and theirs as bound, as PostgreSQL's
 * numeric keeps the digits sent ('1.500' is 1.500; the value reaches SQLite as the double 1.5).
 */
export function portalColumns(p: Portal, columns: ColumnDesc[]): ColumnDesc[] {
  const sent = p.paramScales;
  if (!sent) return columns;
  let out: ColumnDesc[] | undefined;
  columns.forEach((c, i) => {
    if (!c.scaleParams) return;
    const scale = Math.max(
      c.scale ?? 0,
      ...c.scaleParams.map((k, j) => (sent[k - 1] ?? 0) + (c.scaleOffsets?.[j] ?? 0)),
    );
    if (scale === c.scale) return;
    out ??= columns.slice();
    out[i] = { ...c, scale };
  });
  return out ?? columns;
}

export function newPortal(an: Analyzed, params: SqlValue[], formats: number[]): Portal {
  return { an, params, formats, fields: null, outcome: null, pending: NO_ROWS, at: 0, partial: false, done: false };
}
const NO_ROWS: unknown[][] = [];
