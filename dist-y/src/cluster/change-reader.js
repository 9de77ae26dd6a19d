"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.ChangeReader = void 0;
const better_sqlite3_1 = __importDefault(require("better-sqlite3"));
const sql_text_1 = require("../engine/sql-text");
const clock_sql_1 = require("../crdt/clock-sql");
const pk_1 = require("../crdt/pk");
const wire_1 = require("./wire");
/**
 * Reads what an origin wrote at given versions back out of the clock tables, as wire rows with the
 * current values, on its own read-only connection (a consistent snapshot per call, never the
 * writer's open transaction). Changes since overwritten are gone: a version may come back empty.
 */
class ChangeReader {
    #db;
    #schema;
    #seen = null;
    #tables = [];
    constructor(path, schema) {
        this.#db = new better_sqlite3_1.default(path, { readonly: true, fileMustExist: true });
        this.#db.defaultSafeIntegers(true);
        this.#db.pragma('busy_timeout = 5000');
        this.#schema = schema;
    }
    /** Per version in from..to (ascending), the rows `actor` wrote there that still stand; empty versions are absent. */
    read(actor, from, to) {
        this.#refresh();
        const site = Buffer.from(actor, 'hex');
        const out = new Map();
        this.#db.exec('BEGIN');
        try {
            for (const t of this.#tables) {
                const byRow = new Map();
                let current;
                for (const [pk, cid, colVersion, dbVersion, seq, cl] of t.clocks.iterate(site, from, to)) {
                    const v = Number(dbVersion);
                    const key = v + ':' + pk.toString('latin1');
                    let row = byRow.get(key);
                    if (!row) {
                        if (cl === null)
                            continue; // no sentinel: nothing consistent to send
                        row = [t.def.name, pk.toString('base64'), Number(cl), -1];
                        byRow.set(key, row);
                        let list = out.get(v);
                        if (!list)
                            out.set(v, (list = []));
                        list.push(row);
                        current = undefined;
                    }
                    if (cid === clock_sql_1.SENTINEL) {
                        row[3] = Number(seq);
                        continue;
                    }
                    current ??= t.row.get(...(0, pk_1.decodePk)(pk));
                    if (!current)
                        continue;
                    row.push(cid, (0, wire_1.encodeValue)(current[cid]), Number(colVersion), Number(seq));
                }
            }
        }
        finally {
            this.#db.exec('COMMIT');
        }
        return new Map([...out.entries()].sort((a, b) => a[0] - b[0]));
    }
    #refresh() {
        const schema = this.#schema();
        if (schema === this.#seen)
            return;
        this.#seen = schema;
        this.#tables = [];
        for (const def of schema.tables.values()) {
            if (def.primaryKey.length === 0)
                continue;
            const clock = (0, sql_text_1.quoteIdentifier)((0, clock_sql_1.clockTableName)(def.name));
            try {
                this.#tables.push({
                    def,
                    // The change log names the rows; their clocks still stamped with that origin and version
                    // are what stands of the change. Ordered by version then key then seq, so one row's
                    // entries come together.
                    clocks: this.#db
                        .prepare(`SELECT c.pk, c.cid, c.col_version, c.db_version, c.seq, s.col_version FROM main.${clock_sql_1.CHANGE_LOG} l` +
                        ` JOIN ${clock} c ON c.pk = l.pk AND c.site_id = l.site_id AND c.db_version = l.db_version` +
                        ` LEFT JOIN ${clock} s ON s.pk = c.pk AND s.cid = '${clock_sql_1.SENTINEL}'` +
                        ` WHERE l.site_id = ? AND l.db_version BETWEEN ? AND ? AND l.tbl = ${(0, sql_text_1.quoteLiteral)(def.name)} ORDER BY l.db_version, c.pk, c.seq`)
                        .raw(true),
                    row: this.#db.prepare(`SELECT * FROM ${(0, sql_text_1.quoteIdentifier)(def.name)} WHERE ${def.primaryKey.map((c) => `${(0, sql_text_1.quoteIdentifier)(c)} IS ?`).join(' AND ')}`),
                });
            }
            catch {
                // The clock table is not there yet (capture installs it with the schema): nothing to read.
                this.#seen = null;
            }
        }
    }
    close() {
        this.#db.close();
    }
}
exports.ChangeReader = ChangeReader;
//# sourceMappingURL=change-reader.js.map