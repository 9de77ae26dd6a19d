"use strict";
/** Waiting helpers shared by every test: a pause, and polling until a condition holds. */
Object.defineProperty(exports, "__esModule", { value: true });
exports.sleep = void 0;
exports.eventually = eventually;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
exports.sleep = sleep;
/**
 * Polls `check` until it holds: it returns true, or returns nothing without throwing (an assertion
 * that passed). A false, a string (a detail to report) or a thrown error means not yet. Fails with
 * `what` and the last detail after `timeoutMs`.
 */
async function eventually(what, timeoutMs, 
// biome-ignore lint/suspicious/noConfusingVoidType: an assertion callback returns void
check, everyMs = 100) {
    const deadline = Date.now() + timeoutMs;
    let last = '';
    for (;;) {
        try {
            const r = await check();
            if (r === true || r === undefined)
                return;
            last = r;
        }
        catch (err) {
            last = err.message;
        }
        if (Date.now() > deadline)
            throw new Error(`${what}: not reached in ${timeoutMs} ms (${String(last).slice(0, 2000)})`);
        await (0, exports.sleep)(everyMs);
    }
}
//# sourceMappingURL=wait.js.map