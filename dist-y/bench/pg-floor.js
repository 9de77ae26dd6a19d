"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// The floor of a Node.js PostgreSQL front end, for the pgbench bench: a responder that knows only
// pgbench's select-only script (one point select on pgbench_accounts, simple or extended or
// prepared) and answers it with one better-sqlite3 `get` on the same SQLite file. It parses nothing
// else, checks nothing and types nothing, so what it costs per query is what Node itself costs (the
// socket read and write through libuv and V8, one SQLite lookup). Patina's listener is measured
// against it to tell what Patina's own code costs from what any Node process would.
//
// Run as a child process: `node pg-floor.js DB_PATH PROCESSES [write]`; prints `port N` when listening.
// With PROCESSES > 1 it uses node:cluster (the primary accepts and hands connections round robin).
//
// With `write` it is the floor of the writes bench instead: it knows only the one-row
// `UPDATE pgbench_accounts SET abalance = abalance + 1 WHERE aid = $1` and runs it on its own SQLite
// file (WAL, synchronous = NORMAL, the agent's 64 MiB page cache), with no change capture. Writes
// that arrive in the same turn of the event loop, from any connection, commit in one SQLite
// transaction (group commit, as Patina's writer does), and each is answered after that commit. So
// what a write costs here is what any Node front end over SQLite pays for it: the socket, one
// UPDATE, and a share of one commit. With `write-clock` each write also does the least that the
// agreed CRDT model (DESIGN.md, cr-sqlite's) asks of a captured write: it upserts the column's clock
// row (keyed by encoded primary key and column, indexed by site and version for sync) with the
// write's own db_version, and each commit records the last version: no triggers, no changeset, no
// feed. The file holds the clock table (see floorFile in writes.bench.ts).
const node_cluster_1 = __importDefault(require("node:cluster"));
const node_net_1 = __importDefault(require("node:net"));
const better_sqlite3_1 = __importDefault(require("better-sqlite3"));
const [dbPath, procsArg, modeArg] = process.argv.slice(2);
const procs = Math.max(1, Number(procsArg ?? 1));
const writes = modeArg === 'write' || modeArg === 'write-clock';
const clocked = modeArg === 'write-clock';
function msg(type, body) {
    const b = Buffer.allocUnsafe(5 + body.length);
    b[0] = type.charCodeAt(0);
    b.writeInt32BE(4 + body.length, 1);
    body.copy(b, 5);
    return b;
}
const cstr = (s) => Buffer.from(s + '\0');
const EMPTY = Buffer.alloc(0);
function startupReply() {
    const settings = [
        ['server_version', '15.0'],
        ['client_encoding', 'UTF8'],
        ['server_encoding', 'UTF8'],
        ['DateStyle', 'ISO, MDY'],
        ['integer_datetimes', 'on'],
        ['standard_conforming_strings', 'on'],
    ];
    const key = Buffer.alloc(8);
    key.writeInt32BE(process.pid, 0);
    return Buffer.concat([
        msg('R', Buffer.alloc(4)),
        ...settings.map(([k, v]) => msg('S', Buffer.concat([cstr(k), cstr(v)]))),
        msg('K', key),
        msg('Z', Buffer.from('I')),
    ]);
}
/** RowDescription of one int4 column named abalance. */
const ROW_DESC = (() => {
    const name = cstr('abalance');
    const b = Buffer.alloc(2 + name.length + 18);
    b.writeInt16BE(1, 0);
    name.copy(b, 2);
    const o = 2 + name.length;
    b.writeInt32BE(23, o + 6);
    b.writeInt16BE(4, o + 10);
    b.writeInt32BE(-1, o + 12);
    return msg('T', b);
})();
const PARAM_DESC = msg('t', Buffer.from([0, 1, 0, 0, 0, 23]));
const NO_DATA = msg('n', EMPTY);
const UPDATE_1 = msg('C', cstr('UPDATE 1'));
const PARSE_COMPLETE = msg('1', EMPTY);
const BIND_COMPLETE = msg('2', EMPTY);
const SELECT_1 = msg('C', cstr('SELECT 1'));
const READY = msg('Z', Buffer.from('I'));
function serve() {
    const db = new better_sqlite3_1.default(dbPath, { readonly: !writes, fileMustExist: true });
    if (writes) {
        db.pragma('journal_mode = WAL');
        db.pragma('synchronous = NORMAL');
        db.pragma('cache_size = -65536');
    }
    const stmt = db.prepare('SELECT abalance FROM pgbench_accounts WHERE aid = ?').raw(true);
    const update = writes ? db.prepare('UPDATE pgbench_accounts SET abalance = abalance + 1 WHERE aid = ?') : null;
    const clock = clocked
        ? db.prepare(`INSERT INTO pgbench_accounts__clock (pk, cid, col_version, db_version, site_id, seq) VALUES (?, 'abalance', 1, ?, ?, 0)
         ON CONFLICT (pk, cid) DO UPDATE SET col_version = col_version + 1, db_version = excluded.db_version, site_id = excluded.site_id, seq = 0`)
        : null;
    const setVersion = clocked ? db.prepare("UPDATE meta SET value = ? WHERE key = 'db_version'") : null;
    const site = Buffer.alloc(16, 7);
    let version = clocked ? Number(db.prepare("SELECT value FROM meta WHERE key = 'db_version'").pluck().get()) : 0;
    const begin = db.prepare('BEGIN IMMEDIATE');
    const commit = db.prepare('COMMIT');
    let group = [];
    const write = (aid) => {
        update.run(aid);
        if (!clock)
            return;
        const pk = Buffer.allocUnsafe(10); // pk.ts's encoding: the column count, then a type tag and the integer
        pk[0] = 1;
        pk[1] = 1;
        pk.writeBigInt64BE(BigInt(aid), 2);
        clock.run(pk, ++version, site);
    };
    const commitGroup = () => {
        const done = group;
        group = [];
        begin.run();
        for (const w of done)
            for (const aid of w.aids)
                write(aid);
        setVersion?.run(version);
        commit.run();
        for (const w of done)
            w.socket.write(w.out.length === 1 ? w.out[0] : Buffer.concat(w.out));
    };
    const dataRow = (aid) => {
        const row = stmt.get(aid);
        const text = Buffer.from(String(row ? row[0] : ''));
        const b = Buffer.allocUnsafe(6 + text.length);
        b.writeInt16BE(1, 0);
        b.writeInt32BE(text.length, 2);
        text.copy(b, 6);
        return msg('D', b);
    };
    const server = node_net_1.default.createServer((socket) => {
        socket.setNoDelay(true);
        socket.on('error', () => undefined);
        let started = false;
        let buf = EMPTY;
        let aid = 0;
        socket.on('data', (d) => {
            const aids = [];
            buf = buf.length > 0 ? Buffer.concat([buf, d]) : d;
            while (!started) {
                if (buf.length < 8 || buf.length < buf.readInt32BE(0))
                    return;
                const code = buf.readInt32BE(4);
                buf = buf.subarray(buf.readInt32BE(0));
                if (code === 80877103 || code === 80877104)
                    socket.write('N'); // SSLRequest, GSSENCRequest
                else {
                    started = true;
                    socket.write(startupReply());
                }
            }
            const out = [];
            while (buf.length >= 5) {
                const len = buf.readInt32BE(1);
                if (buf.length < len + 1)
                    break;
                const type = buf[0];
                const body = buf.subarray(5, len + 1);
                buf = buf.subarray(len + 1);
                if (type === 0x50)
                    out.push(PARSE_COMPLETE); // P
                else if (type === 0x44) {
                    // D: statement (S) or portal
                    if (body[0] === 0x53)
                        out.push(PARAM_DESC);
                    out.push(writes ? NO_DATA : ROW_DESC);
                }
                else if (type === 0x42) {
                    // B: portal\0 statement\0 nfmt fmts nparams len value
                    let o = body.indexOf(0) + 1;
                    o = body.indexOf(0, o) + 1;
                    o += 2 + 2 * body.readInt16BE(o) + 2;
                    const n = body.readInt32BE(o);
                    aid = Number(body.toString('latin1', o + 4, o + 4 + n));
                    out.push(BIND_COMPLETE);
                }
                else if (type === 0x45) {
                    // E
                    if (writes) {
                        aids.push(aid);
                        out.push(UPDATE_1);
                    }
                    else
                        out.push(dataRow(aid), SELECT_1);
                }
                else if (type === 0x53)
                    out.push(READY); // S
                else if (type === 0x51) {
                    // Q: the simple query carries the key in its text
                    aid = Number(/aid = (\d+)/.exec(body.toString('latin1'))?.[1] ?? 0);
                    out.push(ROW_DESC, dataRow(aid), SELECT_1, READY);
                }
                else if (type === 0x58)
                    return void socket.end(); // X
            }
            if (aids.length > 0) {
                if (group.length === 0)
                    setImmediate(commitGroup);
                group.push({ socket, out, aids });
            }
            else if (out.length > 0)
                socket.write(out.length === 1 ? out[0] : Buffer.concat(out));
        });
    });
    server.listen(0, '127.0.0.1', () => {
        if (node_cluster_1.default.isPrimary)
            process.stdout.write(`port ${server.address().port}\n`);
        else
            process.send({ port: server.address().port });
    });
}
if (procs > 1 && node_cluster_1.default.isPrimary) {
    node_cluster_1.default.schedulingPolicy = node_cluster_1.default.SCHED_RR;
    let reported = false;
    for (let i = 0; i < procs; i++) {
        node_cluster_1.default.fork().on('message', (m) => {
            if (!reported)
                process.stdout.write(`port ${m.port}\n`);
            reported = true;
        });
    }
}
else
    serve();
//# sourceMappingURL=pg-floor.js.map