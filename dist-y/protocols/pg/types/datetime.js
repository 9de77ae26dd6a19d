"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.intervalCodec = exports.timestamptzCodec = exports.timestampCodec = exports.timeCodec = exports.dateCodec = void 0;
// date, time, timestamp, timestamptz and interval. They are stored as the text PostgreSQL prints
// (UTC); the binary forms count from 2000-01-01: date in int32 days, timestamps in int64
// microseconds, time in int64 microseconds since midnight, interval as int64 microseconds, int32
// days, int32 months. 'infinity' and '-infinity' are the extreme values, as in PostgreSQL.
const dates_1 = require("../../../src/engine/dates");
const codec_1 = require("./codec");
const text_1 = require("./text");
const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);
const INT32_MAX = 2 ** 31 - 1;
const INT32_MIN = -(2 ** 31);
const DAY_MICROS = 86400000000n;
/** The infinity a stored value names, if any. */
function infinityOf(v) {
    if (typeof v !== 'string')
        return 0;
    const w = v.trim().toLowerCase();
    return w === 'infinity' || w === '+infinity' ? 1 : w === '-infinity' ? -1 : 0;
}
function dateTimeCodec(oid, name, kind) {
    const size = kind === 'date' ? 4 : 8;
    return {
        oid,
        name,
        text: (v) => {
            if (typeof v !== 'string')
                return (0, text_1.plainText)(v);
            const inf = kind === 'time' ? 0 : infinityOf(v);
            if (inf)
                return inf > 0 ? 'infinity' : '-infinity';
            return (0, dates_1.pgDateText)(v, kind) ?? v;
        },
        binary: (v) => {
            const inf = kind === 'time' ? 0 : infinityOf(v);
            if (inf) {
                const b = (0, codec_1.bytes)(size);
                if (size === 4)
                    b.writeInt32BE(inf > 0 ? INT32_MAX : INT32_MIN);
                else
                    b.writeBigInt64BE(inf > 0 ? INT64_MAX : INT64_MIN);
                return b;
            }
            const b = typeof v === 'string' ? (0, dates_1.pgDateBinary)(v, kind) : null;
            return b ?? (0, codec_1.notA)(name, v);
        },
        textOfBinary: (raw) => {
            (0, codec_1.expectLength)(raw, size, name);
            if (size === 4) {
                const days = raw.readInt32BE(0);
                if (days === INT32_MAX)
                    return 'infinity';
                if (days === INT32_MIN)
                    return '-infinity';
                // JavaScript's dates reach 275760 years either side of 1970
                if (Math.abs(days) > 100_000_000)
                    throw new codec_1.BadBinary(`date out of range (${days} days from 2000-01-01)`);
            }
            else {
                const micros = raw.readBigInt64BE(0);
                if (kind === 'time') {
                    if (micros < 0n || micros > DAY_MICROS)
                        throw new codec_1.BadBinary(`time out of range (${micros} microseconds)`);
                    if (micros === DAY_MICROS)
                        return '24:00:00';
                }
                else {
                    if (micros === INT64_MAX)
                        return 'infinity';
                    if (micros === INT64_MIN)
                        return '-infinity';
                    if (micros > 8000000000000000000n || micros < -8000000000000000000n)
                        throw new codec_1.BadBinary(`timestamp out of range (${micros} microseconds from 2000-01-01)`);
                }
            }
            const text = (0, dates_1.pgDateFromBinary)(raw, kind);
            return kind === 'timestamptz' ? text + '+00' : text;
        },
    };
}
exports.dateCodec = dateTimeCodec(1082, 'date', 'date');
exports.timeCodec = dateTimeCodec(1083, 'time', 'time');
exports.timestampCodec = dateTimeCodec(1114, 'timestamp', 'timestamp');
exports.timestamptzCodec = dateTimeCodec(1184, 'timestamptz', 'timestamptz');
/** An interval value from stored text; null when it does not read as one. */
function intervalOf(v) {
    if (typeof v !== 'string')
        return null;
    try {
        return (0, dates_1.parseInterval)(v);
    }
    catch {
        return null;
    }
}
exports.intervalCodec = {
    oid: 1186,
    name: 'interval',
    text: (v) => {
        const iv = intervalOf(v);
        return iv ? (0, dates_1.formatInterval)(iv) : (0, text_1.plainText)(v);
    },
    binary: (v) => {
        const iv = intervalOf(v);
        if (!iv)
            return (0, codec_1.notA)('interval', v);
        const b = (0, codec_1.bytes)(16);
        b.writeBigInt64BE(BigInt(iv.micros), 0);
        b.writeInt32BE(iv.days, 8);
        b.writeInt32BE(iv.months, 12);
        return b;
    },
    textOfBinary: (raw) => {
        (0, codec_1.expectLength)(raw, 16, 'interval');
        const micros = raw.readBigInt64BE(0);
        if (micros > BigInt(Number.MAX_SAFE_INTEGER) || micros < BigInt(Number.MIN_SAFE_INTEGER))
            throw new codec_1.BadBinary(`interval out of range (${micros} microseconds)`);
        return (0, dates_1.formatInterval)({ micros: Number(micros), days: raw.readInt32BE(8), months: raw.readInt32BE(12) });
    },
};
//# sourceMappingURL=datetime.js.map