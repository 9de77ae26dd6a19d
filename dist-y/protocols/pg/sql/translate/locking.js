"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.hasLockingClause = void 0;
exports.rewriteLocking = rewriteLocking;
// Locking clauses (`FOR UPDATE`, `FOR NO KEY UPDATE`, `FOR SHARE`, `FOR KEY SHARE`, with `OF t`,
// `NOWAIT`, `SKIP LOCKED`), which ORMs send for "read, then update" (Django's update_or_create and
// select_for_update, SQLAlchemy's with_for_update, TypeORM's pessimistic locks): taken out, the
// SELECT run on the writer: in a transaction block it takes the writer for the rest of the block
// (as a write with RETURNING does), so a second session's locking read waits for the first one's
// COMMIT and then reads what it wrote, as PostgreSQL's row locks make it wait (whole-agent locks
// here, not row locks: other writers wait too). Outside a block a lock ends with its statement, as
// in PostgreSQL: a plain read. Locks are this agent's: another agent's writes merge as every write
// does. NOWAIT waits all the same, SKIP LOCKED skips nothing (the rows are all free once it runs).
const tokens_1 = require("../tokens");
const STRENGTHS = [['UPDATE'], ['NO', 'KEY', 'UPDATE'], ['SHARE'], ['KEY', 'SHARE']];
/** How many tokens of a locking clause start at toks[i] (0 when none does). */
function clauseLength(toks, i) {
    if (!(0, tokens_1.isWord)(toks[i], 'FOR'))
        return 0;
    const strength = STRENGTHS.find((words) => words.every((w, k) => (0, tokens_1.isWord)(toks[i + 1 + k], w)));
    if (!strength)
        return 0;
    let j = i + 1 + strength.length;
    if ((0, tokens_1.isWord)(toks[j], 'OF')) {
        j++;
        // OF t [, u ...]: names, dotted names
        while (toks[j]?.type === 'word' || toks[j]?.type === 'quoted') {
            j++;
            while ((0, tokens_1.isPunct)(toks[j], '.') && (toks[j + 1]?.type === 'word' || toks[j + 1]?.type === 'quoted'))
                j += 2;
            if (!(0, tokens_1.isPunct)(toks[j], ','))
                break;
            j++;
        }
    }
    if ((0, tokens_1.isWord)(toks[j], 'NOWAIT'))
        j++;
    else if ((0, tokens_1.isWord)(toks[j], 'SKIP') && (0, tokens_1.isWord)(toks[j + 1], 'LOCKED'))
        j += 2;
    return j - i;
}
/** Whether the statement has a locking clause anywhere. */
const hasLockingClause = (toks) => toks.some((t, i) => (0, tokens_1.isWord)(t, 'FOR') && clauseLength(toks, i) > 0);
exports.hasLockingClause = hasLockingClause;
function rewriteLocking(toks) {
    if (!(0, exports.hasLockingClause)(toks))
        return toks;
    const out = [];
    for (let i = 0; i < toks.length; i++) {
        const n = clauseLength(toks, i);
        if (n > 0)
            i += n - 1;
        else
            out.push(toks[i]);
    }
    return out;
}
//# sourceMappingURL=locking.js.map