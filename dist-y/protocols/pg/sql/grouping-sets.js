"use strict";
// GROUP BY's grouping sets (ROLLUP, CUBE, GROUPING SETS) as the list of plain groupings they stand
// for, in PostgreSQL's order. One expansion for both users: sql/grouping.ts reads it on the parse
// tree (42803 and functional dependency), translate/grouping-sets.ts on tokens (one grouped query
// per set, joined by UNION ALL, since SQLite has no grouping sets).
Object.defineProperty(exports, "__esModule", { value: true });
exports.MAX_GROUPINGS = void 0;
exports.expandGroupingSets = expandGroupingSets;
exports.treeElement = treeElement;
/** The expressions of a ROLLUP's or CUBE's unit: `a` or `(a, b)`. */
function unit(e) {
    if ('expr' in e)
        return [e.expr];
    if ('row' in e)
        return e.row;
    return e.kind === 'empty' ? [] : expandOne(e).flat();
}
/** The groupings one element stands for. */
function expandOne(e) {
    if ('expr' in e)
        return [[e.expr]];
    if ('row' in e)
        return [e.row];
    switch (e.kind) {
        case 'empty':
            return [[]];
        case 'sets':
            return e.content.flatMap(expandOne);
        case 'rollup': {
            // ROLLUP(a, b, c): (a, b, c), (a, b), (a), ()
            const units = e.content.map(unit);
            return Array.from({ length: units.length + 1 }, (_, k) => units.slice(0, units.length - k).flat());
        }
        case 'cube': {
            // CUBE(a, b): (a, b), (a), (b), (): the subsets, a's bit the highest
            const units = e.content.map(unit);
            const n = units.length;
            if (n > 12)
                throw new RangeError('too many groupings');
            const out = [];
            for (let mask = (1 << n) - 1; mask >= 0; mask--)
                out.push(units.filter((_, k) => mask & (1 << (n - 1 - k))).flat());
            return out;
        }
    }
}
/** Most groupings a GROUP BY may expand to (CUBE of 12 is 4,096 queries joined). */
exports.MAX_GROUPINGS = 4096;
/**
 * The plain groupings a GROUP BY list stands for: each element's groupings, crossed with the next
 * element's (`GROUP BY a, ROLLUP(b)` is (a, b) and (a)). Null past MAX_GROUPINGS.
 */
function expandGroupingSets(elements) {
    let out = [[]];
    for (const e of elements) {
        let sets;
        try {
            sets = expandOne(e);
        }
        catch {
            return null;
        }
        if (out.length * sets.length > exports.MAX_GROUPINGS)
            return null;
        out = out.flatMap((before) => sets.map((s) => [...before, ...s]));
    }
    return out;
}
/** A GROUP BY element of PostgreSQL's parse tree (libpg-query) as a GroupElement. */
// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
function treeElement(n) {
    const g = n.GroupingSet;
    if (!g)
        return n.RowExpr ? { row: n.RowExpr.args ?? [] } : { expr: n };
    if (g.kind === 'GROUPING_SET_EMPTY')
        return { kind: 'empty' };
    const kind = g.kind === 'GROUPING_SET_ROLLUP' ? 'rollup' : g.kind === 'GROUPING_SET_CUBE' ? 'cube' : 'sets';
    return { kind, content: (g.content ?? []).map(treeElement) };
}
//# sourceMappingURL=grouping-sets.js.map