// Running a portal and writing its result: the session runs the statement (synchronously when
// nothing has to wait), then RowDescription (a simple query's; the extended protocol's comes from
// Describe), a DataRow per row up to Execute's limit (PortalSuspended) or all of them, streamed from
// a worker's read batch by batch, and CommandComplete. As PostgreSQL's PortalRunSelect, an Execute
// whose limit it reaches is suspended even when no row is left (it does not look ahead): the next
// Execute completes with none; the tag counts the rows of its own Execute (`SELECT 1` after 2 and 1).
import type { Outcome } from '../session/engine';
import type { Session } from '../session/session';
import type { ColumnDesc } from '../sql/analyzed';
import { OID } from '../types/oids';
import type { OutputStyles } from '../types/output-styles';
import { binaryOf, textOf } from '../types/values';
import { type Field, backend } from '../wire/backend';
import { OUT_HIGH_WATER, type Output } from './output';
import { type Portal, portalColumns } from './portal';
import { describedFields, tagOf, writeRowDescription } from './results';

export class PortalRunner {
  readonly #session: Session;
  readonly #out: Output;
  /** Transaction control closes every portal (the extended protocol's, extended-query.ts). */
  readonly #dropPortals: () => void;
  readonly #closed: () => boolean;

  constructor(session: Session, out: Output, dropPortals: () => void, closed: () => boolean) {
    this.#session = session;
    this.#out = out;
    this.#dropPortals = dropPortals;
    this.#closed = closed;
  }

  /** Runs (or continues) a portal: up to maxRows rows, then PortalSuspended or CommandComplete. */
  execute(p: Portal, maxRows: number, simple: boolean): void | Promise<void> {
    if (p.done) {
      this.#out.completeTag(tagOf(p.an, p.outcome, 0, true));
      return;
    }
    if (p.an.kind === 'empty') {
      backend.emptyQuery(this.#out.w);
      p.done = true;
      return;
    }
    if (p.outcome) return this.#emit(p, maxRows);
    if (p.an.kind === 'begin' || p.an.kind === 'commit' || p.an.kind === 'rollback') this.#dropPortals();
    const out = this.#session.execute(p.an, p.params, !simple);
    if (out instanceof Promise) return out.then((o) => this.#started(p, o, maxRows, simple));
    return this.#started(p, out, maxRows, simple);
  }

  #started(p: Portal, out: Outcome, maxRows: number, simple: boolean): void | Promise<void> {
    p.outcome = out;
    if (out.all) p.pending = out.all;
    if (out.paramScales) p.paramScales = out.paramScales; // (EXECUTE's arguments, for its statement's columns)
    if (out.columns && !p.fields) {
      if (!out.all) {
        return out.rows!.next().then((first) => {
          p.pending = first ?? [];
          this.#describeResult(p, out.columns!, simple);
          return this.#emit(p, maxRows);
        });
      }
      this.#describeResult(p, out.columns, simple);
    }
    return this.#emit(p, maxRows);
  }

  #describeResult(p: Portal, columns: ColumnDesc[], simple: boolean) {
    const d = describedFields(portalColumns(p, columns), p.formats, p.pending);
    p.fields = d.fields;
    if (simple) writeRowDescription(this.#out.w, d);
  }

  /** Sends the rows at hand, then streams the rest (reads on a worker) or completes. */
  #emit(p: Portal, maxRows: number): void | Promise<void> {
    const rows = p.pending;
    const from = p.at;
    const to = Math.min(rows.length, from + maxRows);
    const fields = p.fields!;
    const zone = this.#session.outputZone;
    const styles = this.#session.outputStyles;
    for (let i = from; i < to; i++) this.#dataRow(rows[i], fields, zone, styles);
    p.at = to;
    const count = to - from;
    if (to < rows.length || count === maxRows) {
      p.partial = true;
      backend.portalSuspended(this.#out.w);
      return;
    }
    if (p.outcome!.rows && p.outcome!.columns) return this.#stream(p, maxRows, count);
    this.#complete(p, count);
  }

  async #stream(p: Portal, maxRows: number, count: number) {
    const source = p.outcome!.rows!;
    for (;;) {
      if (this.#out.w.length > OUT_HIGH_WATER) await this.#out.flushAndWait();
      if (this.#closed()) return;
      const next = await source.next();
      if (next === null) break;
      p.pending = next;
      p.at = 0;
      if (next.length === 0) continue;
      const take = Math.min(next.length, maxRows - count);
      const zone = this.#session.outputZone;
      const styles = this.#session.outputStyles;
      for (let i = 0; i < take; i++) this.#dataRow(next[i], p.fields!, zone, styles);
      p.at = take;
      count += take;
      if (take < next.length || count === maxRows) {
        p.partial = true;
        backend.portalSuspended(this.#out.w);
        return;
      }
    }
    this.#complete(p, count);
  }

  #complete(p: Portal, count: number) {
    p.done = true;
    this.#out.completeTag(tagOf(p.an, p.outcome, count, p.partial));
  }

  /** One DataRow; `zone` is the session's TimeZone when it is not UTC (Session.outputZone), `styles` its IntervalStyle and bytea_output. */
  #dataRow(row: unknown[], fields: Field[], zone: string | null, styles: OutputStyles) {
    const w = this.#out.w;
    const charset = w.charset;
    // (no fields: a SELECT of no items, whose SQLite row holds one NULL, translate/empty-select.ts)
    const n = fields.length === 0 ? 0 : row.length;
    w.begin('D').i16(n);
    try {
      for (let i = 0; i < n; i++) {
        const f = fields[i];
        w.value(
          f === undefined
            ? textOf(row[i], OID.text)
            : f.format === 1
              ? binaryOf(row[i], f.typeOid, f.name, f.valueMod ?? f.typeMod, charset)
              : textOf(row[i], f.typeOid, f.valueMod ?? f.typeMod, zone, styles),
        );
      }
    } catch (err) {
      w.abandon(); // no half row: the error follows the rows sent before it
      throw err;
    }
    w.end();
  }
}
