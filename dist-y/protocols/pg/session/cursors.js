"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.SqlCursors = void 0;
exports.parseFetch = parseFetch;
const lexer_1 = require("../sql/lexer");
const sqlstate_1 = require("../sqlstate");
/** FETCH [NEXT | FORWARD [n | ALL] | n | ALL] [FROM | IN] name (and MOVE): forward only; ALL is Infinity. */
function parseFetch(sig, move) {
    let i = 1;
    let count = 1;
    const up = (k) => (sig[k]?.type === 'word' ? sig[k].text.toUpperCase() : '');
    const num = (k) => (sig[k]?.type === 'number' && /^\d+$/.test(sig[k].text) ? Number(sig[k].text) : null);
    if (['PRIOR', 'FIRST', 'LAST', 'ABSOLUTE', 'RELATIVE', 'BACKWARD'].includes(up(i)) || sig[i]?.text === '-') {
        throw (0, sqlstate_1.pgError)('55000', 'cursor can only scan forward: Patina cursors are NO SCROLL (FETCH NEXT, FORWARD n, n or ALL)');
    }
    if (up(i) === 'NEXT')
        i++;
    else if (up(i) === 'FORWARD') {
        i++;
        if (up(i) === 'ALL')
            (count = Infinity), i++;
        else if (num(i) !== null)
            (count = num(i)), i++;
    }
    else if (up(i) === 'ALL')
        (count = Infinity), i++;
    else if (num(i) !== null)
        (count = num(i)), i++;
    if (up(i) === 'FROM' || up(i) === 'IN')
        i++;
    if (!sig[i] || (sig[i].type !== 'word' && sig[i].type !== 'quoted') || sig.length > i + 1) {
        throw (0, sqlstate_1.pgError)('42601', `syntax error at or near "${sig[i]?.text ?? 'end of input'}": ${move ? 'MOVE' : 'FETCH'} needs a cursor name`);
    }
    return { name: (0, lexer_1.identName)(sig[i]), count };
}
/** The open cursors of one session; `C` is how the session describes a cursor's columns. */
class SqlCursors {
    #open = new Map();
    has(name) {
        return this.#open.has(name);
    }
    /** A cursor's columns; undefined when there is no such cursor. */
    columnsOf(name) {
        return this.#open.get(name)?.columns;
    }
    /** A new cursor over rows at hand (`all`) and then those `source` yields. */
    open(name, hold, columns, all, source) {
        if (this.#open.has(name))
            throw (0, sqlstate_1.pgError)('42P03', `cursor "${name}" already exists`);
        this.#open.set(name, { columns, hold, buffer: all ?? [], at: 0, source });
    }
    /** The next `count` rows (MOVE: skipped, not kept); 34000 for an unknown or closed cursor. */
    async fetch(name, count, move) {
        const c = this.#open.get(name);
        if (!c)
            throw (0, sqlstate_1.pgError)('34000', `cursor "${name}" does not exist`);
        const rows = [];
        let moved = 0;
        while (moved < count) {
            if (c.at >= c.buffer.length) {
                const next = c.source ? await c.source.next() : null;
                c.buffer = next ?? [];
                c.at = 0;
                if (next === null) {
                    c.source = null;
                    break;
                }
                continue;
            }
            const take = Math.min(c.buffer.length - c.at, count - moved);
            if (!move)
                for (let k = 0; k < take; k++)
                    rows.push(c.buffer[c.at + k]);
            c.at += take;
            moved += take;
        }
        return { columns: c.columns, rows, moved };
    }
    /** Closes one cursor (false when there is none of that name), or every one (null). */
    close(name) {
        if (name === null) {
            for (const n of [...this.#open.keys()])
                this.close(n);
            return true;
        }
        const c = this.#open.get(name);
        if (!c)
            return false;
        this.#open.delete(name);
        c.source?.cancel();
        return true;
    }
    /** The transaction ended: cursors without HOLD close with it. */
    transactionEnded() {
        for (const [name, c] of [...this.#open])
            if (!c.hold)
                this.close(name);
    }
}
exports.SqlCursors = SqlCursors;
//# sourceMappingURL=cursors.js.map