"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.encodeValue = encodeValue;
exports.decodeValue = decodeValue;
exports.decodeRows = decodeRows;
function encodeValue(v) {
    if (v === null || v === undefined)
        return null;
    switch (typeof v) {
        case 'bigint':
            return 'i' + v.toString();
        case 'number':
            // better-sqlite3 with safe integers returns INTEGER as bigint, so a number is a REAL.
            return 'r' + String(v);
        case 'string':
            return 't' + v;
    }
    return 'b' + Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64');
}
function decodeValue(w) {
    if (w === null)
        return null;
    const body = w.slice(1);
    switch (w.charCodeAt(0)) {
        case 105 /* i */:
            return BigInt(body);
        case 114 /* r */:
            return Number(body);
        case 116 /* t */:
            return body;
        case 98 /* b */:
            return Buffer.from(body, 'base64');
    }
    throw new Error(`bad value on the peer wire: ${JSON.stringify(w.slice(0, 20))}`);
}
/** Turns wire rows back into the merge's rows. */
function decodeRows(rows) {
    return rows.map((w) => {
        const cols = [];
        for (let i = 4; i + 3 < w.length; i += 4) {
            cols.push({
                cid: w[i],
                val: decodeValue(w[i + 1]),
                colVersion: w[i + 2],
                seq: w[i + 3],
            });
        }
        const sentinelSeq = w[3];
        return {
            table: w[0],
            pk: Buffer.from(w[1], 'base64'),
            cl: w[2],
            sentinelSeq: sentinelSeq < 0 ? null : sentinelSeq,
            cols,
        };
    });
}
//# sourceMappingURL=wire.js.map