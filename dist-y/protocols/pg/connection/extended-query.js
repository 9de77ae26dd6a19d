"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ExtendedQuery = void 0;
const lexer_1 = require("../sql/lexer");
const sqlstate_1 = require("../sqlstate");
const oids_1 = require("../types/oids");
const values_1 = require("../types/values");
const backend_1 = require("../wire/backend");
const portal_1 = require("./portal");
const results_1 = require("./results");
class ExtendedQuery {
    #session;
    #w;
    #statements = new Map();
    /** The unnamed portal (the one nearly every client uses), apart from the named ones: no Map work per query. */
    #unnamed = null;
    #portals = new Map();
    constructor(session, w) {
        this.#session = session;
        this.#w = w;
    }
    /** Parse: the statement analysed (once per text and parameter types, in the session's Analyzer) and named. */
    parse(m) {
        if (m.name !== '' && this.#statements.has(m.name))
            throw (0, sqlstate_1.pgError)('42P05', `prepared statement "${m.name}" already exists`);
        const an = this.#session.analyzer.cached(`P${m.paramTypes.join(',')}\0${m.sql}`, () => {
            const stmts = (0, lexer_1.splitPgStatements)(m.sql);
            if (stmts.length > 1)
                throw (0, sqlstate_1.pgError)('42601', 'cannot insert multiple commands into a prepared statement');
            return stmts[0] ?? (0, lexer_1.lexPg)('');
        }, m.paramTypes);
        this.#statements.set(m.name, an);
        backend_1.backend.parseComplete(this.#w);
    }
    /** Bind: a portal of a prepared statement, its parameters read from the wire by their types and formats. */
    bind(m) {
        const an = this.#statements.get(m.statement);
        if (!an)
            throw (0, sqlstate_1.pgError)('26000', `prepared statement "${m.statement}" does not exist`);
        if (m.portal !== '' && this.#portals.has(m.portal))
            throw (0, sqlstate_1.pgError)('42P03', `cursor "${m.portal}" already exists`);
        if (m.params.length !== an.paramTypes.length) {
            throw (0, sqlstate_1.pgError)('08P01', `bind message supplies ${m.params.length} parameters, but prepared statement "${m.statement}" requires ${an.paramTypes.length}`);
        }
        (0, portal_1.checkFormats)(m.paramFormats, m.params.length);
        for (const code of m.resultFormats)
            if (code !== 0 && code !== 1)
                throw (0, sqlstate_1.pgError)('22023', `unsupported format code: ${code}`);
        const params = new Array(m.params.length);
        for (let i = 0; i < params.length; i++)
            params[i] = (0, values_1.paramValue)(m.params[i], an.paramTypes[i], (0, portal_1.formatOf)(m.paramFormats, i), i);
        const portal = (0, portal_1.newPortal)(an, params, m.resultFormats);
        if (an.scaleParams) {
            portal.paramScales = [];
            for (const k of an.scaleParams)
                portal.paramScales[k] = (0, portal_1.sentScale)(m.params[k], (0, portal_1.formatOf)(m.paramFormats, k));
        }
        if (m.portal === '') {
            if (this.#unnamed)
                (0, portal_1.cancelPortal)(this.#unnamed);
            this.#unnamed = portal;
        }
        else
            this.#portals.set(m.portal, portal);
        backend_1.backend.bindComplete(this.#w);
    }
    /** Describe: a statement's ParameterDescription and RowDescription (or NoData), or a portal's RowDescription. */
    describe(m) {
        if (m.kind === 'S') {
            const an = this.#statements.get(m.name);
            if (!an)
                throw (0, sqlstate_1.pgError)('26000', `prepared statement "${m.name}" does not exist`);
            backend_1.backend.parameterDescription(this.#w, an.paramTypes.map((t) => t || oids_1.OID.text));
            const columns = this.#session.resultColumns(an);
            if (columns)
                this.#w.bytes((0, results_1.describedFields)(columns, portal_1.NO_FORMATS, null).message);
            else
                backend_1.backend.noData(this.#w);
            return;
        }
        const p = this.portal(m.name);
        const columns = this.#session.resultColumns(p.an);
        if (columns) {
            const d = (0, results_1.describedFields)((0, portal_1.portalColumns)(p, columns), p.formats, null);
            p.fields = d.fields;
            this.#w.bytes(d.message);
        }
        else
            backend_1.backend.noData(this.#w);
    }
    /** Close of a statement or a portal (a portal's streamed read ends). */
    close(m) {
        if (m.kind === 'S')
            this.#statements.delete(m.name);
        else if (m.name === '') {
            if (this.#unnamed)
                (0, portal_1.cancelPortal)(this.#unnamed);
            this.#unnamed = null;
        }
        else {
            this.#portals.get(m.name)?.outcome?.rows?.cancel();
            this.#portals.delete(m.name);
        }
        backend_1.backend.closeComplete(this.#w);
    }
    /** DEALLOCATE name | ALL as a statement. */
    deallocate(an) {
        const name = an.setting?.name ?? '';
        if (name === 'all' || name === 'deallocate')
            this.#statements.clear();
        else
            this.#statements.delete(name);
    }
    /** The portal named so, or 34000. */
    portal(name) {
        const p = name === '' ? this.#unnamed : this.#portals.get(name);
        if (!p)
            throw (0, sqlstate_1.pgError)('34000', `portal "${name}" does not exist`);
        return p;
    }
    /** Every portal closed (at the end of a transaction, and of the connection). */
    dropPortals() {
        if (this.#unnamed) {
            (0, portal_1.cancelPortal)(this.#unnamed);
            this.#unnamed = null;
        }
        if (this.#portals.size === 0)
            return;
        this.#portals.forEach(portal_1.cancelPortal);
        this.#portals.clear();
    }
}
exports.ExtendedQuery = ExtendedQuery;
//# sourceMappingURL=extended-query.js.map