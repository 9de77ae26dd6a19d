import { type IntegerMode } from './json.js';
import type { Cell, Row } from './types.js';
/** One line of a query or subscription stream, as the API defines it. */
export type WireEvent = {
    columns: string[];
} | {
    row: [number, Row];
} | {
    eoq: {
        time: number;
        change_id?: number;
    };
} | {
    change: ['insert' | 'update' | 'delete', number, Row, number];
} | {
    notify: ['update' | 'delete', Cell[]];
} | {
    error: string;
};
/** Parses one NDJSON line; in 'bigint' mode ids (row, change) still come back as numbers. */
export declare function parseLine(line: string, ints: IntegerMode): WireEvent;
