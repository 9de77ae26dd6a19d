// The floor of a Node.js PostgreSQL front end, for the pgbench bench: a responder that knows only
// pgbench's select-only script (one point select on pgbench_accounts, simple or extended or
// prepared) and answers it with one better-sqlite3 `get` on the same SQLite file. It parses nothing
// else, checks nothing and types nothing, so what it costs per query is what Node itself costs (the
// socket read and write through libuv and V8, one SQLite lookup). Patina's listener is measured
// against it to tell what Patina's own code costs from what any Node process would.
//
// Run as a child process: `node pg-floor.js DB_PATH PROCESSES`; prints `port N` when listening.
// With PROCESSES > 1 it uses node:cluster (the primary accepts and hands connections round robin).
import cluster from 'node:cluster';
import net from 'node:net';
import Database from 'better-sqlite3';

const [dbPath, procsArg] = process.argv.slice(2);
const procs = Math.max(1, Number(procsArg ?? 1));

function msg(type: string, body: Buffer): Buffer {
  const b = Buffer.allocUnsafe(5 + body.length);
  b[0] = type.charCodeAt(0);
  b.writeInt32BE(4 + body.length, 1);
  body.copy(b, 5);
  return b;
}

const cstr = (s: string) => Buffer.from(s + '\0');
const EMPTY: Buffer = Buffer.alloc(0);

function startupReply(): Buffer {
  const settings = [['server_version', '15.0'], ['client_encoding', 'UTF8'], ['server_encoding', 'UTF8'], ['DateStyle', 'ISO, MDY'], ['integer_datetimes', 'on'], ['standard_conforming_strings', 'on']];
  const key = Buffer.alloc(8);
  key.writeInt32BE(process.pid, 0);
  return Buffer.concat([msg('R', Buffer.alloc(4)), ...settings.map(([k, v]) => msg('S', Buffer.concat([cstr(k), cstr(v)]))), msg('K', key), msg('Z', Buffer.from('I'))]);
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
const PARSE_COMPLETE = msg('1', EMPTY);
const BIND_COMPLETE = msg('2', EMPTY);
const SELECT_1 = msg('C', cstr('SELECT 1'));
const READY = msg('Z', Buffer.from('I'));

function serve() {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  const stmt = db.prepare('SELECT abalance FROM pgbench_accounts WHERE aid = ?').raw(true);
  const dataRow = (aid: number): Buffer => {
    const row = stmt.get(aid) as unknown[] | undefined;
    const text = Buffer.from(String(row ? row[0] : ''));
    const b = Buffer.allocUnsafe(6 + text.length);
    b.writeInt16BE(1, 0);
    b.writeInt32BE(text.length, 2);
    text.copy(b, 6);
    return msg('D', b);
  };
  const server = net.createServer((socket) => {
    socket.setNoDelay(true);
    socket.on('error', () => undefined);
    let started = false;
    let buf: Buffer = EMPTY;
    let aid = 0;
    socket.on('data', (d: Buffer) => {
      buf = buf.length > 0 ? Buffer.concat([buf, d]) : d;
      while (!started) {
        if (buf.length < 8 || buf.length < buf.readInt32BE(0)) return;
        const code = buf.readInt32BE(4);
        buf = buf.subarray(buf.readInt32BE(0));
        if (code === 80877103 || code === 80877104) socket.write('N'); // SSLRequest, GSSENCRequest
        else {
          started = true;
          socket.write(startupReply());
        }
      }
      const out: Buffer[] = [];
      while (buf.length >= 5) {
        const len = buf.readInt32BE(1);
        if (buf.length < len + 1) break;
        const type = buf[0];
        const body = buf.subarray(5, len + 1);
        buf = buf.subarray(len + 1);
        if (type === 0x50) out.push(PARSE_COMPLETE); // P
        else if (type === 0x44) { // D: statement (S) or portal
          if (body[0] === 0x53) out.push(PARAM_DESC);
          out.push(ROW_DESC);
        } else if (type === 0x42) { // B: portal\0 statement\0 nfmt fmts nparams len value
          let o = body.indexOf(0) + 1;
          o = body.indexOf(0, o) + 1;
          o += 2 + 2 * body.readInt16BE(o) + 2;
          const n = body.readInt32BE(o);
          aid = Number(body.toString('latin1', o + 4, o + 4 + n));
          out.push(BIND_COMPLETE);
        } else if (type === 0x45) out.push(dataRow(aid), SELECT_1); // E
        else if (type === 0x53) out.push(READY); // S
        else if (type === 0x51) { // Q: the simple query carries the key in its text
          aid = Number(/aid = (\d+)/.exec(body.toString('latin1'))?.[1] ?? 0);
          out.push(ROW_DESC, dataRow(aid), SELECT_1, READY);
        } else if (type === 0x58) return void socket.end(); // X
      }
      if (out.length > 0) socket.write(out.length === 1 ? out[0] : Buffer.concat(out));
    });
  });
  server.listen(0, '127.0.0.1', () => {
    if (cluster.isPrimary) process.stdout.write(`port ${(server.address() as net.AddressInfo).port}\n`);
    else process.send!({ port: (server.address() as net.AddressInfo).port });
  });
}

if (procs > 1 && cluster.isPrimary) {
  cluster.schedulingPolicy = cluster.SCHED_RR;
  let reported = false;
  for (let i = 0; i < procs; i++) {
    cluster.fork().on('message', (m: { port: number }) => {
      if (!reported) process.stdout.write(`port ${m.port}\n`);
      reported = true;
    });
  }
} else serve();
