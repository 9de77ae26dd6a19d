"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.Slicer = exports.Abandoned = void 0;
const node_perf_hooks_1 = require("node:perf_hooks");
/** Thrown out of sliced work when it is abandoned (the agent is stopping). */
class Abandoned extends Error {
    constructor() {
        super('abandoned: the agent is stopping');
    }
}
exports.Abandoned = Abandoned;
/**
 * Cooperative time slicing for subscription work on the agent's one thread. Work checks `due` between
 * small steps (a chunk of keys, a page of rows) and, when its slice is used up, awaits `pause()`,
 * which lets the event loop serve sockets, timers and signals before going on. A slice is `budgetMs`
 * long (10 ms: HTTP and PostgreSQL stay answered within a few slices); `budgetMs` Infinity never
 * pauses (an in-memory database, whose reads cannot hold a snapshot across turns).
 */
class Slicer {
    budgetMs;
    #start = node_perf_hooks_1.performance.now();
    #abandoned = false;
    constructor(budgetMs) {
        this.budgetMs = budgetMs;
    }
    /** Whether the current slice is used up. */
    get due() {
        return this.budgetMs !== Infinity && node_perf_hooks_1.performance.now() - this.#start >= this.budgetMs;
    }
    /** Yields to the event loop if the slice is used up; throws Abandoned once abandon() was called. */
    async pause() {
        if (this.#abandoned)
            throw new Abandoned();
        if (!this.due)
            return;
        await new Promise((resolve) => setImmediate(resolve));
        if (this.#abandoned)
            throw new Abandoned();
        this.#start = node_perf_hooks_1.performance.now();
    }
    /** Starts a fresh slice (work begins after an idle wait). */
    restart() {
        this.#start = node_perf_hooks_1.performance.now();
    }
    /** Makes every later pause() throw Abandoned. */
    abandon() {
        this.#abandoned = true;
    }
    get abandoned() {
        return this.#abandoned;
    }
}
exports.Slicer = Slicer;
//# sourceMappingURL=slicer.js.map