import { PatinaError } from './errors.js';
import { Real } from './types.js';
// An integer of 16 or more digits may not fit a double; without one, JSON.parse is exact.
const LONG_DIGITS = /\d{16}/;
/**
 * Parses one JSON text keeping integers exact. With 'auto', integers beyond ±2^53 become bigint;
 * with 'bigint' every integer does (numbers with a fraction or exponent stay numbers).
 */
export function parseExact(text, ints = 'auto') {
    if (ints === 'auto' && !LONG_DIGITS.test(text))
        return JSON.parse(text);
    return new ExactParser(text, ints).parseAll();
}
const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
const MAX_SAFE = 9007199254740991n;
class ExactParser {
    #s;
    #i = 0;
    #bigint;
    constructor(s, ints) {
        this.#s = s;
        this.#bigint = ints === 'bigint';
    }
    parseAll() {
        const v = this.#value();
        this.#ws();
        if (this.#i !== this.#s.length)
            this.#fail('unexpected text after the value');
        return v;
    }
    #fail(what) {
        throw new PatinaError('protocol', `malformed JSON from the agent at offset ${this.#i}: ${what}`);
    }
    #ws() {
        const s = this.#s;
        let c;
        while ((c = s.charCodeAt(this.#i)) === 32 || c === 10 || c === 13 || c === 9)
            this.#i++;
    }
    #value() {
        this.#ws();
        const s = this.#s;
        const c = s[this.#i];
        if (c === '{') {
            this.#i++;
            const o = {};
            this.#ws();
            if (s[this.#i] === '}')
                return (this.#i++, o);
            for (;;) {
                this.#ws();
                if (s[this.#i] !== '"')
                    this.#fail('expected a key');
                const k = this.#string();
                this.#ws();
                if (s[this.#i++] !== ':')
                    this.#fail('expected ":"');
                o[k] = this.#value();
                this.#ws();
                const d = s[this.#i++];
                if (d === '}')
                    return o;
                if (d !== ',')
                    this.#fail('expected "," or "}"');
            }
        }
        if (c === '[') {
            this.#i++;
            const a = [];
            this.#ws();
            if (s[this.#i] === ']')
                return (this.#i++, a);
            for (;;) {
                a.push(this.#value());
                this.#ws();
                const d = s[this.#i++];
                if (d === ']')
                    return a;
                if (d !== ',')
                    this.#fail('expected "," or "]"');
            }
        }
        if (c === '"')
            return this.#string();
        if (s.startsWith('true', this.#i))
            return ((this.#i += 4), true);
        if (s.startsWith('false', this.#i))
            return ((this.#i += 5), false);
        if (s.startsWith('null', this.#i))
            return ((this.#i += 4), null);
        NUMBER.lastIndex = this.#i;
        const m = NUMBER.exec(s);
        if (!m)
            this.#fail('expected a value');
        this.#i += m[0].length;
        if (m[1] !== undefined || m[2] !== undefined)
            return Number(m[0]);
        if (this.#bigint)
            return BigInt(m[0]);
        if (m[0].length < 16)
            return Number(m[0]);
        const b = BigInt(m[0]);
        return b > MAX_SAFE || b < -MAX_SAFE ? b : Number(b);
    }
    #string() {
        const s = this.#s;
        const start = this.#i;
        let j = start + 1;
        let escaped = false;
        for (;;) {
            const c = s.charCodeAt(j);
            if (Number.isNaN(c))
                this.#fail('unterminated string');
            if (c === 34)
                break;
            if (c === 92) {
                escaped = true;
                j++;
            }
            j++;
        }
        this.#i = j + 1;
        return escaped ? JSON.parse(s.slice(start, j + 1)) : s.slice(start + 1, j);
    }
}
/** A value as JSON for the agent: bigint as exact digits, bytes (Uint8Array) as an array of byte values. */
export function toJson(v, where = 'value') {
    if (v === null || v === undefined)
        return 'null';
    switch (typeof v) {
        case 'bigint':
            return v.toString();
        case 'number':
            if (!Number.isFinite(v))
                throw new PatinaError('request', `${where} is ${v}, which JSON cannot carry`);
            return String(v);
        case 'string':
            return JSON.stringify(v);
        case 'boolean':
            return v ? 'true' : 'false';
    }
    if (v instanceof Real) {
        const s = toJson(v.value, where);
        return /[.eE]/.test(s) ? s : s + '.0';
    }
    if (v instanceof Uint8Array)
        return '[' + Array.from(v).join(',') + ']';
    if (v instanceof ArrayBuffer)
        return toJson(new Uint8Array(v), where);
    if (v instanceof Date)
        return JSON.stringify(v.toISOString());
    if (Array.isArray(v))
        return '[' + v.map((x, i) => toJson(x, `${where}[${i}]`)).join(',') + ']';
    if (typeof v === 'object') {
        return ('{' +
            Object.entries(v)
                .map(([k, x]) => JSON.stringify(k) + ':' + toJson(x, `${where}.${k}`))
                .join(',') +
            '}');
    }
    throw new PatinaError('request', `${where} of type ${typeof v} cannot be sent`);
}
