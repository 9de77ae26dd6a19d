"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.DataReader = void 0;
const better_sqlite3_1 = __importDefault(require("better-sqlite3"));
const functions_1 = require("../engine/functions");
const meta_1 = require("../engine/meta");
/**
 * A read connection of the live queries on the data file. Everything that touches the writer runs on
 * the agent's one thread, so between two JS tasks the committed state is exactly the one after the
 * writer's last commit; a read transaction begun then holds that state (WAL snapshot) until it ends,
 * and names it by the commit count stored with the data. An in-memory database has no second
 * connection: the writer's own is used, outside transactions.
 */
class DataReader {
    db;
    #writer;
    #own;
    #position;
    /** BEGIN and COMMIT prepared once: the matcher begins and ends a read for every batch. */
    #begin = null;
    #commit = null;
    constructor(path, writer) {
        this.#writer = writer;
        this.#own = path !== ':memory:';
        if (this.#own) {
            this.db = new better_sqlite3_1.default(path, { readonly: true, fileMustExist: true });
            this.db.defaultSafeIntegers(true);
            this.db.pragma('busy_timeout = 5000');
            (0, functions_1.installReadFunctions)(this.db);
            this.#position = this.db.prepare(meta_1.COMMITS_SQL).pluck();
            this.#begin = this.db.prepare('BEGIN');
            this.#commit = this.db.prepare('COMMIT');
        }
        else {
            this.db = writer.db;
            this.#position = null;
        }
    }
    /** Begins a read transaction at the committed state; returns its commit position. */
    begin() {
        if (!this.#position)
            return this.#writer.commits;
        if (this.db.inTransaction)
            this.#commit.run();
        this.#begin.run();
        return Number(this.#position.get() ?? 0);
    }
    end() {
        if (this.#own && this.db.inTransaction)
            this.#commit.run();
    }
    /** Runs `fn` in a read transaction; `fn` gets the position. */
    at(fn) {
        const p = this.begin();
        try {
            return fn(p);
        }
        finally {
            this.end();
        }
    }
    close() {
        if (this.#own && this.db.open)
            this.db.close();
    }
}
exports.DataReader = DataReader;
//# sourceMappingURL=data-reader.js.map