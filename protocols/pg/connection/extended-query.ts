// The extended query protocol's named things: prepared statements (Parse, Close; the session keeps
// them with PREPARE's, session/prepared.ts) and portals (Bind), and what Describe says of either.
// Execute, Sync and Flush are the connection's (connection.ts); running a portal is run-portal.ts's.
import type { SqlValue } from '../../../src/engine/values';
import { analysedInBlock } from '../session/aborted-block';
import { lexPg } from '../sql/lexer';
import type { Session } from '../session/session';
import { boundParamTypes } from '../sql/bpchar-casts';
import { paramScaledAnalysis } from '../sql/json-builders';
import { pgError } from '../sqlstate';
import { OID } from '../types/oids';
import { inputStyleIn } from '../types/output-styles';
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
import { portalCursor } from './portal-cursor';
import { describedFields, writeRowDescription } from './results';

type Message<T extends Frontend['type']> = Extract<Frontend, { type: T }>;

export class ExtendedQuery {
  readonly #session: Session;
  readonly #w: ByteWriter;
  /** The unnamed portal (the one nearly every client uses), apart from the named ones: no Map work per query. */
  #unnamed: Portal | null = null;
  readonly #portals = new Map<string, Portal>();

  constructor(session: Session, w: ByteWriter) {
    this.#session = session;
    this.#w = w;
  }

  /** Parse: the statement analysed (once per text and parameter types, in the session's Analyzer) and named. */
  parse(m: Message<'parse'>) {
    const { prepared } = this.#session;
    if (m.name !== '' && prepared.has(m.name)) throw pgError('42P05', `prepared statement "${m.name}" already exists`);
    // (in a failed block: 25P02 once the statement parses, unless it ends the block)
    if (this.#session.tx === 'failed')
      analysedInBlock('failed', lexPg(m.sql), () => prepared.analysed(m.sql, m.paramTypes));
    prepared.add(m.name, m.sql, m.paramTypes, m.sql, false);
    // (in a block, a query's Parse takes the transaction's snapshot, as PostgreSQL's parse analysis)
    if (this.#session.tx === 'open') this.#session.parsed(prepared.get(m.name).an);
    backend.parseComplete(this.#w);
  }

  /** Bind: a portal of a prepared statement, its parameters read from the wire by their types and formats. */
  bind(m: Message<'bind'>) {
    const { prepared } = this.#session;
    const statement = prepared.get(m.statement);
    const an = prepared.inZone(statement);
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
    const charset = this.#w.charset;
    // (a bpchar kept as sent, its trailing spaces with it, is read as text: sql/bpchar-casts.ts)
    const types = boundParamTypes(an);
    const read = () => {
      for (let i = 0; i < params.length; i++) {
        const format = formatOf(m.paramFormats, i);
        try {
          params[i] = paramValue(m.params[i], types[i], format, i, zone, charset);
        } catch (err) {
          throw atParameter(err, m.portal, i, format === 0 ? m.params[i] : null);
        }
      }
    };
    // (a date or interval in text is read in the session's input style, as PostgreSQL's input at Bind)
    const style = inputStyleIn(this.#session.outputStyles);
    if (style === 'mdy') read();
    else withInputStyle(style, read);
    prepared.ran(statement);
    this.#session.sourceText = statement.sql; // (what a PREPARE run so shows in pg_prepared_statements)
    // (a numeric parameter in a JSON builder: its JSON at the scale of the text sent, written in)
    const sent = (k: number) => sentScale(m.params[k - 1] ?? null, formatOf(m.paramFormats, k - 1));
    const scaled = paramScaledAnalysis(an, sent);
    const portal = newPortal(scaled, params, m.resultFormats);
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
      const { an } = this.#session.prepared.get(m.name);
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
    if (m.kind === 'S') this.#session.prepared.delete(m.name);
    else if (m.name === '') {
      if (this.#unnamed) cancelPortal(this.#unnamed);
      this.#unnamed = null;
    } else {
      this.closeNamed(m.name);
    }
    backend.closeComplete(this.#w);
  }

  /**
   * SQL's CLOSE of a named portal made by Bind (PostgreSQL's portals and cursors share one
   * namespace), or CLOSE ALL's of every named one (null); false when there is no such portal.
   */
  closeNamed(name: string | null): boolean {
    if (name === null) {
      this.#portals.forEach(cancelPortal);
      this.#portals.clear();
      return true;
    }
    const p = name === '' ? undefined : this.#portals.get(name);
    if (!p) return false;
    cancelPortal(p);
    this.#portals.delete(name);
    return true;
  }

  /** The portal named so, or 34000. */
  portal(name: string): Portal {
    const p = name === '' ? this.#unnamed : this.#portals.get(name);
    if (!p) throw pgError('34000', `portal "${name}" does not exist`);
    return p;
  }

  /** The named portal `name` as FETCH and MOVE reach it (portal-cursor.ts); undefined if none. */
  cursor(name: string) {
    const p = name === '' ? undefined : this.#portals.get(name);
    return p && portalCursor(this.#session, p, name);
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
