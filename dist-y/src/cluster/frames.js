"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.FRAMES_PROTOCOL = exports.FRAMES_PATH = void 0;
exports.writeFrame = writeFrame;
exports.readFrames = readFrames;
/**
 * Framed peer messages: one persistent connection per peer, upgraded from an HTTP request (so it
 * passes the same mutual TLS handshake and cluster-id check as every peer request), then frames of
 * a 4-byte big-endian length and a JSON body: a request `{i, r, b}` (id, route, body), an answer
 * `{i, b}` or `{i, e}` (an error's message). Answers may come in any order.
 */
exports.FRAMES_PATH = '/peer/v1/frames';
exports.FRAMES_PROTOCOL = 'patina-frames/1';
/** Writes `obj` as one frame; returns the bytes of its body. */
function writeFrame(socket, obj) {
    const text = JSON.stringify(obj);
    const n = Buffer.byteLength(text);
    const buf = Buffer.allocUnsafe(4 + n);
    buf.writeUInt32BE(n, 0);
    buf.write(text, 4, 'utf8');
    socket.write(buf);
    return n;
}
/**
 * Reads frames from `socket` (after `head`, the bytes read past the upgrade) and hands each parsed
 * body to `onFrame`; a frame over `limit` bytes or one that does not parse destroys the socket.
 */
function readFrames(socket, head, limit, onFrame) {
    let chunks = [];
    let have = 0;
    const take = (chunk) => {
        chunks.push(chunk);
        have += chunk.length;
        while (have >= 4) {
            if (chunks[0].length < 4)
                chunks = [Buffer.concat(chunks, have)];
            const n = chunks[0].readUInt32BE(0);
            if (n > limit)
                return void socket.destroy(new Error(`peer frame of ${n} bytes is over the limit`));
            if (have < 4 + n)
                return; // joined once, when the frame is whole
            const buf = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, have);
            let obj;
            try {
                obj = JSON.parse(buf.toString('utf8', 4, 4 + n));
            }
            catch (err) {
                return void socket.destroy(err);
            }
            const rest = buf.subarray(4 + n);
            chunks = rest.length > 0 ? [rest] : [];
            have = rest.length;
            onFrame(obj);
        }
    };
    socket.on('data', take);
    if (head.length > 0)
        take(head);
}
//# sourceMappingURL=frames.js.map