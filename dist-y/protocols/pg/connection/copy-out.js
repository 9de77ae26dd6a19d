"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.sendCopyOut = sendCopyOut;
const binary_1 = require("../copy/binary");
const format_1 = require("../copy/format");
const values_1 = require("../types/values");
const backend_1 = require("../wire/backend");
const portal_1 = require("./portal");
const results_1 = require("./results");
/** COPY TO STDOUT: CopyOutResponse, a CopyData per row as the read yields them (waiting for a slow client), CopyDone. */
async function sendCopyOut(w, an, out, io) {
    const { options } = an.copy.stmt;
    const names = an.copy.columns;
    let batch = out.all;
    if (!batch)
        batch = (await out.rows.next()) ?? [];
    // binary: each column in its type's binary form (text for a type without one, as a binary result)
    const formats = options.format === 'binary' ? [1] : portal_1.NO_FORMATS;
    const fields = (0, results_1.fieldsOf)(out.columns ?? names.map((name) => ({ name, declType: null })), formats, batch);
    const binary = options.format === 'binary';
    backend_1.backend.copyResponse(w, 'H', names.length, binary);
    if (options.header)
        backend_1.backend.copyData(w, Buffer.from((0, format_1.formatCopyRow)(names, options)));
    // the binary header goes with the first row, as PostgreSQL sends it (psycopg reads a row from that message)
    let header = binary ? (0, binary_1.binaryCopyHeader)() : null;
    let n = 0;
    const texts = new Array(names.length);
    for (;;) {
        for (const row of batch) {
            if (binary) {
                const data = (0, binary_1.binaryCopyRow)(row, fields);
                backend_1.backend.copyData(w, header ? Buffer.concat([header, data]) : data);
                header = null;
                continue;
            }
            for (let k = 0; k < texts.length; k++)
                texts[k] = (0, values_1.textOf)(row[k], fields[k].typeOid, fields[k].valueMod ?? fields[k].typeMod);
            backend_1.backend.copyData(w, Buffer.from((0, format_1.formatCopyRow)(texts, options)));
        }
        n += batch.length;
        const drained = io.drain();
        if (drained)
            await drained;
        if (io.closed()) {
            out.rows?.cancel();
            return;
        }
        const next = out.rows ? await out.rows.next() : null;
        if (next === null)
            break;
        batch = next;
    }
    if (binary)
        backend_1.backend.copyData(w, header ? Buffer.concat([header, (0, binary_1.binaryCopyTrailer)()]) : (0, binary_1.binaryCopyTrailer)());
    backend_1.backend.copyDone(w);
    io.complete(`COPY ${n}`);
}
//# sourceMappingURL=copy-out.js.map