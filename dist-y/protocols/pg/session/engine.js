"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.NO_OUTCOME = void 0;
/** The outcome of a statement that answers nothing (transaction control, SET, LISTEN, ...). */
exports.NO_OUTCOME = Object.freeze({ columns: null, all: [], rows: null });
//# sourceMappingURL=engine.js.map