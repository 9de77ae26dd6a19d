"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.SimpleQuery = void 0;
const lexer_1 = require("../sql/lexer");
const literals_1 = require("../sql/literals");
const sqlstate_1 = require("../sqlstate");
const backend_1 = require("../wire/backend");
const copy_out_1 = require("./copy-out");
const portal_1 = require("./portal");
class SimpleQuery {
    #session;
    #parts;
    constructor(session, parts) {
        this.#session = session;
        this.#parts = parts;
    }
    /** A Query message. */
    run(sql) {
        const stmts = (0, lexer_1.splitPgStatements)(sql);
        if (stmts.length === 0)
            backend_1.backend.emptyQuery(this.#parts.out.w);
        return this.#runFrom(stmts, 0);
    }
    #runFrom(stmts, from) {
        const session = this.#session;
        const { runner, extended } = this.#parts;
        try {
            for (let i = from; i < stmts.length; i++) {
                const tokens = stmts[i];
                if (stmts.length > 1 && session.tx === 'idle' && !controlsTransaction(tokens))
                    session.beginImplicit();
                const param = tokens.find((t) => t.type === 'param');
                if (param)
                    throw (0, sqlstate_1.pgError)('42P02', `there is no parameter ${param.text}`); // a simple query has none
                const { an, params } = this.#analyze(tokens);
                if (an.kind === 'noop' && an.command === 'DEALLOCATE')
                    extended.deallocate(an);
                if (an.kind === 'copy') {
                    if (an.copy.stmt.direction === 'in')
                        return this.#parts.copyIn.start(session, an, (err) => err === null ? this.#runFrom(stmts, i + 1) : this.#done(err));
                    const r = this.#copyOut(an);
                    if (r)
                        return this.#thenRest(r, stmts, i + 1);
                    continue;
                }
                const r = runner.execute((0, portal_1.newPortal)(an, params, portal_1.NO_FORMATS), Infinity, true);
                if (r)
                    return this.#thenRest(r, stmts, i + 1);
            }
        }
        catch (err) {
            return this.#done(err);
        }
        return this.#done(null);
    }
    /**
     * A statement's analysis, by its shape when literals lift out of it (literals.ts), with the
     * values to bind; as written when none do, or when an assigned value does not fit its column.
     */
    #analyze(tokens) {
        const analyzer = this.#session.analyzer;
        const lifted = (0, literals_1.liftLiterals)(tokens);
        if (lifted) {
            let an = null;
            try {
                an = analyzer.cached(`S${lifted.key}`, () => lifted.tokens);
            }
            catch (err) {
                // an assigned literal may be typed where a parameter cannot be: the statement as written decides
                if (!lifted.assigned.includes(true))
                    throw err;
            }
            const params = an && (0, literals_1.typedLiterals)(lifted, an.paramTypes);
            if (an && params)
                return { an, params };
        }
        return { an: analyzer.analyze(tokens), params: portal_1.NO_PARAMS };
    }
    /** The statements from `from` on once a statement that had to wait is done (or the end with its error). */
    #thenRest(r, stmts, from) {
        return r.then(() => this.#runFrom(stmts, from), (err) => this.#done(err));
    }
    /** The end of the message: its error, the implicit transaction's end, ReadyForQuery. */
    #done(err) {
        const session = this.#session;
        const { out } = this.#parts;
        if (err !== null) {
            if (session.tx === 'open')
                session.tx = 'failed';
            out.sendError(err);
        }
        if (session.implicit) {
            try {
                session.endImplicit(err === null);
            }
            catch (e) {
                out.sendError(e);
            }
        }
        if (session.tx === 'idle')
            this.#parts.extended.dropPortals();
        this.#parts.readyForQuery();
    }
    /** COPY TO STDOUT: CopyOutResponse, a CopyData per row as the read yields them (waiting for a slow client), CopyDone. */
    #copyOut(an) {
        const out = this.#session.copyOut(an);
        if (out instanceof Promise)
            return out.then((o) => this.#sendCopyOut(an, o));
        return this.#sendCopyOut(an, out);
    }
    #sendCopyOut(an, outcome) {
        const { out } = this.#parts;
        return (0, copy_out_1.sendCopyOut)(out.w, an, outcome, {
            drain: () => out.drain(),
            closed: () => this.#parts.closed(),
            complete: (tag) => out.completeTag(tag),
        });
    }
}
exports.SimpleQuery = SimpleQuery;
const TX_WORDS = new Set(['BEGIN', 'START', 'COMMIT', 'END', 'ROLLBACK', 'ABORT', 'SAVEPOINT', 'RELEASE', 'PREPARE']);
/** Whether a statement is transaction control (which turns off the implicit transaction of a simple query). */
function controlsTransaction(tokens) {
    const first = tokens.find((t) => t.type !== 'space' && t.type !== 'comment');
    return first !== undefined && first.type === 'word' && TX_WORDS.has(first.text.toUpperCase());
}
//# sourceMappingURL=simple-query.js.map