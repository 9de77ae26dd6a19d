"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.MetaStore = exports.COMMITS_SQL = exports.COMMITS_KEY = void 0;
const node_crypto_1 = __importDefault(require("node:crypto"));
const database_1 = require("./database");
const META = '__patina_meta';
/** The key of the writer's count of committed transactions (see Writer.commits). */
exports.COMMITS_KEY = 'commits';
/** Reads the commit count in a read transaction of another connection: the position it sees. */
exports.COMMITS_SQL = `SELECT value FROM ${META} WHERE key = '${exports.COMMITS_KEY}'`;
/** The agent's own key-value table: site id and other facts kept with the data. */
class MetaStore {
    #db;
    #get;
    #set;
    constructor(db, get, set) {
        this.#db = db;
        this.#get = get;
        this.#set = set;
    }
    static open(knex, db) {
        const exists = db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?").get(META);
        if (!exists) {
            for (const q of knex.schema
                .createTable(META, (t) => {
                t.text('key').primary().notNullable();
                t.binary('value');
            })
                .toSQL()) {
                db.exec(q.sql);
            }
        }
        const get = (0, database_1.compile)(knex(META).select('value').where('key', '') /* SQL only; the key is bound at run time */);
        // On conflict only the value: merge() with no columns sets the key too, and SQLite then rewrites
        // the key's index entry, one more page written to the WAL by every commit (the writer sets the
        // commit count and db_version in each).
        const set = (0, database_1.compile)(knex(META).insert({ key: '', value: '' }).onConflict('key').merge(['value']));
        return new MetaStore(db, db.prepare(get.sql).pluck(), db.prepare(set.sql));
    }
    get(key) {
        return this.#get.get(key);
    }
    set(key, value) {
        this.#set.run(key, value);
    }
    /** This database's 16-byte site id, made once and kept. */
    siteId() {
        let id = this.get('site_id');
        if (!id) {
            id = node_crypto_1.default.randomBytes(16);
            this.#db.transaction(() => this.set('site_id', id))();
        }
        return Buffer.from(id);
    }
}
exports.MetaStore = MetaStore;
//# sourceMappingURL=meta.js.map