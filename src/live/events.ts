/** The NDJSON lines of a subscription stream (see the HTTP API: columns, row, eoq, change, error). */

export function columnsLine(columns: readonly string[]): string {
  return `{"columns":${JSON.stringify(columns)}}\n`;
}

export function rowLine(rowId: number, cellsJson: string): string {
  return `{"row":[${rowId},${cellsJson}]}\n`;
}

export function eoqLine(time: number, changeId: number): string {
  return `{"eoq":{"time":${time},"change_id":${changeId}}}\n`;
}

export function changeLine(kind: string, rowId: number, cellsJson: string, changeId: number): string {
  return `{"change":["${kind}",${rowId},${cellsJson},${changeId}]}\n`;
}

export function errorLine(message: string): string {
  return `{"error":${JSON.stringify(message)}}\n`;
}
