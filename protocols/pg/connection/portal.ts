// Portals of the extended query protocol: a statement bound to its parameters with the result
// formats asked for, and the rows at hand while Execute sends them (a simple query runs through an
// unnamed portal too); Bind's format codes read and checked.
import type { SqlValue } from '../../../src/engine/values';
import type { Outcome } from '../session/engine';
import type { Analyzed } from '../sql/analyzed';
import { pgError } from '../sqlstate';
import type { Field } from '../wire/backend';

export interface Portal {
  an: Analyzed;
  params: SqlValue[];
  formats: number[];
  fields: Field[] | null;
  outcome: Outcome | null;
  /** Rows at hand; `at` is the next one to send. */
  pending: unknown[][];
  at: number;
  sent: number;
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

export function newPortal(an: Analyzed, params: SqlValue[], formats: number[]): Portal {
  return { an, params, formats, fields: null, outcome: null, pending: NO_ROWS, at: 0, sent: 0, done: false };
}
const NO_ROWS: unknown[][] = [];
