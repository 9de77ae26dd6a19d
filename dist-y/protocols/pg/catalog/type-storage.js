"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.typeStorage = typeStorage;
exports.typeAlign = typeAlign;
// Storage strategy and alignment of each type as PostgreSQL 15 declares them (pg_type.typstorage,
// typalign). `\d+` prints the storage, pg_dump compares a column's with its type's to decide whether
// to emit ALTER COLUMN SET STORAGE, so they have to agree with PostgreSQL's.
const STORAGE = { 1700: 'm' };
const ALIGN = {
    16: 'c',
    18: 'c',
    19: 'c',
    2950: 'c',
    21: 's',
    20: 'd',
    701: 'd',
    1083: 'd',
    1114: 'd',
    1184: 'd',
    1186: 'd',
    1016: 'd',
    1022: 'd',
    1115: 'd',
    1185: 'd',
    1183: 'd',
    1187: 'd',
};
/** 'p' (plain) for fixed-size types, 'm' for numeric, 'x' (extended) for the other varlena ones. */
function typeStorage(oid, size) {
    return STORAGE[oid] ?? (size > 0 ? 'p' : 'x');
}
/** 'c' char, 's' short, 'i' int, 'd' double alignment. */
function typeAlign(oid) {
    return ALIGN[oid] ?? 'i';
}
//# sourceMappingURL=type-storage.js.map