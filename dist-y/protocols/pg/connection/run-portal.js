"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.PortalRunner = void 0;
const oids_1 = require("../types/oids");
const values_1 = require("../types/values");
const backend_1 = require("../wire/backend");
const output_1 = require("./output");
const portal_1 = require("./portal");
const results_1 = require("./results");
class PortalRunner {
    #session;
    #out;
    /** Transaction control closes every portal (the extended protocol's, extended-query.ts). */
    #dropPortals;
    #closed;
    constructor(session, out, dropPortals, closed) {
        this.#session = session;
        this.#out = out;
        this.#dropPortals = dropPortals;
        this.#closed = closed;
    }
    /** Runs (or continues) a portal: up to maxRows rows, then PortalSuspended or CommandComplete. */
    execute(p, maxRows, simple) {
        if (p.done) {
            this.#out.completeTag((0, results_1.tagOf)(p.an, p.outcome, 0));
            return;
        }
        if (p.an.kind === 'empty') {
            backend_1.backend.emptyQuery(this.#out.w);
            p.done = true;
            return;
        }
        if (p.outcome)
            return this.#emit(p, maxRows);
        if (p.an.kind === 'begin' || p.an.kind === 'commit' || p.an.kind === 'rollback')
            this.#dropPortals();
        const out = this.#session.execute(p.an, p.params);
        if (out instanceof Promise)
            return out.then((o) => this.#started(p, o, maxRows, simple));
        return this.#started(p, out, maxRows, simple);
    }
    #started(p, out, maxRows, simple) {
        p.outcome = out;
        if (out.all)
            p.pending = out.all;
        if (out.columns && !p.fields) {
            if (!out.all) {
                return out.rows.next().then((first) => {
                    p.pending = first ?? [];
                    this.#describeResult(p, out.columns, simple);
                    return this.#emit(p, maxRows);
                });
            }
            this.#describeResult(p, out.columns, simple);
        }
        return this.#emit(p, maxRows);
    }
    #describeResult(p, columns, simple) {
        const d = (0, results_1.describedFields)((0, portal_1.portalColumns)(p, columns), p.formats, p.pending);
        p.fields = d.fields;
        if (simple)
            this.#out.w.bytes(d.message);
    }
    /** Sends the rows at hand, then streams the rest (reads on a worker) or completes. */
    #emit(p, maxRows) {
        const rows = p.pending;
        const from = p.at;
        const to = Math.min(rows.length, from + maxRows);
        const fields = p.fields;
        for (let i = from; i < to; i++)
            this.#dataRow(rows[i], fields);
        p.at = to;
        const count = to - from;
        if (to < rows.length) {
            p.sent += count;
            backend_1.backend.portalSuspended(this.#out.w);
            return;
        }
        if (p.outcome.rows && p.outcome.columns)
            return this.#stream(p, maxRows, count);
        this.#complete(p, count);
    }
    async #stream(p, maxRows, count) {
        const source = p.outcome.rows;
        for (;;) {
            if (this.#out.w.length > output_1.OUT_HIGH_WATER)
                await this.#out.flushAndWait();
            if (this.#closed())
                return;
            const next = await source.next();
            if (next === null)
                break;
            p.pending = next;
            p.at = 0;
            if (next.length === 0)
                continue;
            const take = Math.min(next.length, maxRows - count);
            for (let i = 0; i < take; i++)
                this.#dataRow(next[i], p.fields);
            p.at = take;
            count += take;
            if (take < next.length) {
                p.sent += count;
                backend_1.backend.portalSuspended(this.#out.w);
                return;
            }
        }
        this.#complete(p, count);
    }
    #complete(p, count) {
        p.sent += count;
        p.done = true;
        this.#out.completeTag((0, results_1.tagOf)(p.an, p.outcome, p.sent));
    }
    #dataRow(row, fields) {
        const w = this.#out.w;
        w.begin('D').i16(row.length);
        try {
            for (let i = 0; i < row.length; i++) {
                const f = fields[i];
                w.value(f === undefined
                    ? (0, values_1.textOf)(row[i], oids_1.OID.text)
                    : f.format === 1
                        ? (0, values_1.binaryOf)(row[i], f.typeOid, f.name, f.valueMod ?? f.typeMod)
                        : (0, values_1.textOf)(row[i], f.typeOid, f.valueMod ?? f.typeMod));
            }
        }
        catch (err) {
            w.abandon(); // no half row: the error follows the rows sent before it
            throw err;
        }
        w.end();
    }
}
exports.PortalRunner = PortalRunner;
//# sourceMappingURL=run-portal.js.map