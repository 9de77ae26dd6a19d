"use strict";
/** The NDJSON lines of a subscription stream (see the HTTP API: columns, row, eoq, change, error). */
Object.defineProperty(exports, "__esModule", { value: true });
exports.columnsLine = columnsLine;
exports.rowLine = rowLine;
exports.eoqLine = eoqLine;
exports.changeLine = changeLine;
exports.errorLine = errorLine;
function columnsLine(columns) {
    return `{"columns":${JSON.stringify(columns)}}\n`;
}
function rowLine(rowId, cellsJson) {
    return `{"row":[${rowId},${cellsJson}]}\n`;
}
function eoqLine(time, changeId) {
    return `{"eoq":{"time":${time},"change_id":${changeId}}}\n`;
}
function changeLine(kind, rowId, cellsJson, changeId) {
    return `{"change":["${kind}",${rowId},${cellsJson},${changeId}]}\n`;
}
function errorLine(message) {
    return `{"error":${JSON.stringify(message)}}\n`;
}
//# sourceMappingURL=events.js.map