"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.negotiateEncryption = negotiateEncryption;
const node_tls_1 = __importDefault(require("node:tls"));
const frontend_1 = require("../wire/frontend");
/**
 * Answers encryption requests until the client sends something else, then calls `done` with the
 * socket to speak the protocol on. A failed handshake or a client gone away just closes the socket.
 */
function negotiateEncryption(socket, context, done) {
    let input = Buffer.alloc(0);
    let upgraded = false;
    const onData = (d) => {
        input = input.length === 0 ? d : Buffer.concat([input, d]);
        if (input.length < 4)
            return;
        const len = input.readInt32BE(0);
        if (len !== 8)
            return finish(); // not a request: the startup packet (or garbage) for the connection to judge
        if (input.length < 8)
            return;
        const code = input.readInt32BE(4);
        if (code !== frontend_1.SSL_REQUEST && code !== frontend_1.GSSENC_REQUEST)
            return finish();
        input = input.subarray(8);
        const ctx = code === frontend_1.SSL_REQUEST && !upgraded ? context() : null;
        if (!ctx) {
            current.write('N');
            if (input.length >= 4)
                onData(Buffer.alloc(0));
            return;
        }
        if (input.length > 0)
            return socket.destroy(); // a client must wait for S before its handshake
        socket.off('data', onData);
        socket.write('S');
        const secure = new node_tls_1.default.TLSSocket(socket, { isServer: true, secureContext: ctx });
        secure.on('error', () => secure.destroy());
        upgraded = true;
        secure.once('secure', () => {
            input = Buffer.alloc(0);
            attach(secure);
        });
    };
    let current = socket;
    const attach = (s) => {
        current = s;
        s.on('data', onData);
        if (input.length > 0)
            onData(Buffer.alloc(0));
    };
    const finish = () => {
        current.off('data', onData);
        done({ socket: current, tls: upgraded, rest: input });
    };
    socket.on('error', () => socket.destroy());
    attach(socket);
}
//# sourceMappingURL=encryption.js.map