// The extended query protocol's named things: prepared statements (Parse, Close, DEALLOCATE) and
// portals (Bind), and what Describe says of either. Execute, Sync and Flush are the connection's
// (connection.ts); running a portal is run-portal.ts's.
import type { SqlValue } from '../../../src/engine/values';
import type { Session } from '../session/session';
import { type PgToken, lexPg, splitPgStatements } from '../sql/lexer';
import type { Analyzed } from '../sql/analyzed';
import { pgError } from '../sqlstate';
import { OID } from '../types/oids';
import { inputStyleIn, type OutputStyles } from '../types/output-styles';
import { atParameter, paramValue } from '../types/values';
import { withInputStyle } from '../../../src/engine/dates';
import { type ByteWriter, backend } from '../wire/backend';
import type { Frontend } from '../wire/frontend';
import {
  NO_FORMATS,
  type Portal,
  cancelPortal,
  checkFormats,
  formatOf,
  newPortal,
  portalColumns,
  sentScale,
} from './portal';
import { describedFields, writeRowDescription } from './results';

type Message<T extends Frontend['type']> = Extract<Frontend, { type: T }>;

/** A statement Parse named: its analysis, and what it was made from (the session's zone then). */
interface Prepared {
  an: Analyzed;
  sql: string;
  paramTypes: number[];
  zone: string | null;
  styles: OutputStyles;
  /** Its analysis for another zone or other output styles than Parse's, the last one asked for. */
  rezoned?: { zone: string | null; styles: OutputStyles; an: Analyzed };
}

/** The one statement of a Parse's text (42601 for several). */
function oneStatement(sql: string): PgToken[] {
  const stmts = splitPgStatements(sql);
  if (stmts.length > 1) throw pgError('42601', 'cannot insert multiple commands into a prepared statement');
  return stmts[0] ?? lexPg('');
}

export class ExtendedQuery {
  readonly #session: Session;
  readonly #w: ByteWriter;
  readonly #statements = new Map<string, Prepared>();
  /** The unnamed portal (the one nearly every client uses), apart from the named ones: no Map work per query. */
  #unnamed: Portal | null = null;
  readonly #portals = new Map<string, Portal>();

  constructor(session: Session, w: ByteWriter) {
    this.#session = session;
    this.#w = w;
  }

  /** Parse: the statement analysed (once per text and parameter types, in the session's Analyzer) and named. */
  parse(m: Message<'parse'>) {
    if (m.name !== '' && this.#statements.has(m.name))
      throw pgError('42P05', `prepared statement "${m.name}" already exists`);
    const an = this.#session.analyzer.cached(
      `P${m.paramTypes.join(',')}\0${m.sql}`,
      () => oneStatement(m.sql),
      m.paramTypes,
    );
    const { analyzer } = this.#session;
    this.#statements.set(m.name, {
      an,
      sql: m.sql,
      paramTypes: m.paramTypes,
      zone: analyzer.zone(),
      styles: analyzer.styles(),
    });
    backend.parseComplete(this.#w);
  }

  /**
   * The statement's analysis for the session's zone and output styles now: the one made at Parse,
   * or, after a `SET TIME ZONE` (or IntervalStyle, bytea_output) since, one made again with its
   * literals read in the zone of Parse (kept for the last zone and styles it was asked for).
   */
  #inZone(p: Prepared): Analyzed {
    const { analyzer } = this.#session;
    const zone = analyzer.zone();
    const styles = analyzer.styles();
    if (zone === p.zone && styles === p.styles) return p.an;
    if (p.rezoned?.zone !== zone || p.rezoned.styles !== styles)
      p.rezoned = {
        zone,
        styles,
        an: analyzer.analyzeRezoned(oneStatement(p.sql), p.paramTypes, p.zone, inputStyleIn(p.styles)),
      };
    return p.rezoned.an;
  }

  /** Bind: a portal of a prepared statement, its parameters read from the wire by their types and formats. */
  bind(m: Message<'bind'>) {
    const prepared = this.#statements.get(m.statement);
    if (!prepared) throw pgError('26000', `prepared statement "${m.statement}" does not exist`);
    const an = this.#inZone(prepared);
    if (m.portal !== '' && this.#portals.has(m.portal)) throw pgError('42P03', `cursor "${m.portal}" already exists`);
    if (m.params.length !== an.paramTypes.length) {
      throw pgError(
        '08P01',
        `bind message supplies ${m.params.length} parameters, but prepared statement "${m.statement}" requires ${an.paramTypes.length}`,
      );
    }
    checkFormats(m.paramFormats, m.params.length);
    for (const code of m.resultFormats)
      if (code !== 0 && code !== 1) throw pgError('22023', `unsupported format code: ${code}`);
    const params: SqlValue[] = new Array(m.params.length);
    const zone = this.#session.outputZone;
    const read = () => {
      for (let i = 0; i < params.length; i++) {
        const format = formatOf(m.paramFormats, i);
        try {
          params[i] = paramValue(m.params[i], an.paramTypes[i], format, i, zone);
        } catch (err) {
          throw atParameter(err, m.portal, i, format === 0);
        }
      }
    };
    // (a date or interval in text is read in the session's input style, as PostgreSQL's input at Bind)
    const style = inputStyleIn(this.#session.outputStyles);
    if (style === 'mdy') read();
    else withInputStyle(style, read);
    const portal = newPortal(an, params, m.resultFormats);
    if (an.scaleParams) {
      portal.paramScales = [];
      for (const k of an.scaleParams) portal.paramScales[k] = sentScale(m.params[k], formatOf(m.paramFormats, k));
    }
    if (m.portal === '') {
      if (this.#unnamed) cancelPortal(this.#unnamed);
      this.#unnamed = portal;
    } else this.#portals.set(m.portal, portal);
    backend.bindComplete(this.#w);
  }

  /** Describe: a statement's ParameterDescription and RowDescription (or NoData), or a portal's RowDescription. */
  describe(m: Message<'describe'>) {
    if (m.kind === 'S') {
      const an = this.#statements.get(m.name)?.an;
      if (!an) throw pgError('26000', `prepared statement "${m.name}" does not exist`);
      backend.parameterDescription(
        this.#w,
        an.paramTypes.map((t) => t || OID.text),
      );
      const columns = this.#session.resultColumns(an);
      if (columns) writeRowDescription(this.#w, describedFields(columns, NO_FORMATS, null));
      else backend.noData(this.#w);
      return;
    }
    const p = m.name === '' ? this.#unnamed : this.#portals.get(m.name);
    if (!p) {
      // a cursor made by DECLARE is a portal of that name too, as in PostgreSQL: psycopg 3's named
      // cursors describe it so (its rows then come by FETCH, in text unless FETCH's Bind asks)
      const cursor = m.name === '' ? undefined : this.#session.cursorColumns(m.name);
      if (!cursor) throw pgError('34000', `portal "${m.name}" does not exist`);
      writeRowDescription(this.#w, describedFields(cursor, NO_FORMATS, null));
      return;
    }
    const columns = this.#session.resultColumns(p.an);
    if (columns) {
      const d = describedFields(portalColumns(p, columns), p.formats, null);
      p.fields = d.fields;
      writeRowDescription(this.#w, d);
    } else backend.noData(this.#w);
  }

  /** Close of a statement or a portal (a portal's streamed read ends). */
  close(m: Message<'close'>) {
    if (m.kind === 'S') this.#statements.delete(m.name);
    else if (m.name === '') {
      if (this.#unnamed) cancelPortal(this.#unnamed);
      this.#unnamed = null;
    } else {
      this.#portals.get(m.name)?.outcome?.rows?.cancel();
      this.#portals.delete(m.name);
    }
    backend.closeComplete(this.#w);
  }

  /** DEALLOCATE name | ALL as a statement. */
  deallocate(an: Analyzed) {
    const name = an.setting?.name ?? '';
    if (name === 'all' || name === 'deallocate') this.#statements.clear();
    else this.#statements.delete(name);
  }

  /** The portal named so, or 34000. */
  portal(name: string): Portal {
    const p = name === '' ? this.#unnamed : this.#portals.get(name);
    if (!p) throw pgError('34000', `portal "${name}" does not exist`);
    return p;
  }

  /** Every portal closed (at the end of a transaction, and of the connection). */
  dropPortals() {
    if (this.#unnamed) {
      cancelPortal(this.#unnamed);
      this.#unnamed = null;
    }
    if (this.#portals.size === 0) return;
    this.#portals.forEach(cancelPortal);
    this.#portals.clear();
  }
}
