/** How integers of result cells come back: exact either way, never a rounded number. */
export type IntegerMode = 
/** Integers a double holds exactly as numbers, larger ones (beyond ±2^53) as bigint. */
'auto'
/** Every integer of a cell as bigint. */
 | 'bigint';
/**
 * Parses one JSON text keeping integers exact. With 'auto', integers beyond ±2^53 become bigint;
 * with 'bigint' every integer does (numbers with a fraction or exponent stay numbers).
 */
export declare function parseExact(text: string, ints?: IntegerMode): unknown;
/** A value as JSON for the agent: bigint as exact digits, bytes (Uint8Array) as an array of byte values. */
export declare function toJson(v: unknown, where?: string): string;
