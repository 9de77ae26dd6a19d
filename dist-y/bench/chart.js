"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.barChart = barChart;
// One row per figure: its name, then a bar as long as figure / anchor on a linear scale from 0, a
// vertical line at 1.0 (the anchor) through every row, and the ratio with both measurements beside
// the bar. A figure with a goal gets a dashed mark at the goal, and its bar is green when the goal is
// met and orange when it is not. The scale ends at 4 at most: a longer bar is cut there and marked
// with a break, so that one large ratio does not flatten the others. Text widths are estimated (no
// font metrics here), generously.
const PAD = 12;
const TITLE = 34;
const ROW = 40;
const PLOT = 420;
const MAX_SCALE = 4;
const CHAR = 6.6; // px per character at 12 px, an upper bound for the usual sans-serif fonts
const COLOURS = { plain: '#4e79a7', met: '#59a14f', unmet: '#f28e2b', anchor: '#333', goal: '#b22' };
/** An SVG horizontal bar chart of each figure's ratio to its anchor: the same input gives the same bytes. */
function barChart(title, figures) {
    const ratios = figures.map(ratioOf);
    const goals = figures.map((f) => (f.goal ? goalRatio(f.goal) : Number.NaN));
    const top = Math.min(MAX_SCALE, scaleTop([1, ...ratios, ...goals].filter((r) => Number.isFinite(r) && r > 0)));
    const x = (r) => PAD + (PLOT * r) / top;
    const textX = PAD + PLOT + 14;
    const rows = figures.map((f, i) => row(f, ratios[i], TITLE + i * ROW, x, top, textX));
    const width = Math.ceil(Math.max(textX + CHAR * Math.max(0, ...figures.map((f, i) => annotation(f, ratios[i]).length)), PAD + CHAR * Math.max(title.length, ...figures.map((f) => f.name.length))) + PAD);
    const height = TITLE + figures.length * ROW + PAD;
    const bottom = height - PAD;
    return [
        `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, -apple-system, 'Segoe UI', Helvetica, Arial, sans-serif" font-size="12">`,
        `<rect x="0" y="0" width="${width}" height="${height}" fill="#fff"/>`,
        `<text x="${PAD}" y="18" font-size="14" font-weight="bold">${escapeXml(title)}</text>`,
        `<text x="${num(x(1))}" y="${TITLE - 4}" text-anchor="middle" fill="${COLOURS.anchor}">1.0 = anchor</text>`,
        x(top) - x(1) > 90
            ? `<text x="${PAD + PLOT}" y="${TITLE - 4}" text-anchor="end" fill="#999">${ratioText(top)}</text>`
            : '',
        `<line x1="${PAD}" y1="${TITLE}" x2="${PAD}" y2="${bottom}" stroke="#999"/>`,
        `<line class="anchor" x1="${num(x(1))}" y1="${TITLE}" x2="${num(x(1))}" y2="${bottom}" stroke="${COLOURS.anchor}" stroke-width="1.5"/>`,
        ...rows,
        '</svg>\n',
    ]
        .filter((line) => line !== '')
        .join('\n');
}
function row(f, ratio, y, x, top, textX) {
    const indent = f.name.length - f.name.trimStart().length; // the benches indent a figure that belongs to the one above
    const out = [`<g class="figure">`];
    // a white outline keeps the name legible where the anchor line crosses it
    out.push(`<text x="${PAD + indent * CHAR}" y="${y + 13}" stroke="#fff" stroke-width="3" paint-order="stroke">${escapeXml(f.name.trim())}</text>`);
    if (Number.isFinite(ratio) && ratio >= 0) {
        const colour = !f.goal ? COLOURS.plain : goalMet(f.goal, ratio) ? COLOURS.met : COLOURS.unmet;
        const end = x(Math.min(ratio, top));
        out.push(`<rect class="bar" x="${PAD}" y="${y + 18}" width="${num(end - PAD)}" height="14" fill="${colour}"/>`);
        if (ratio > top)
            out.push(`<path class="break" d="M${num(end - 16)} ${y + 36}l6 -20m4 20l6 -20" stroke="#fff" stroke-width="2.5"/>`);
    }
    if (f.goal && Number.isFinite(goalRatio(f.goal))) {
        const gx = num(x(goalRatio(f.goal)));
        out.push(`<line class="goal" x1="${gx}" y1="${y + 15}" x2="${gx}" y2="${y + 35}" stroke="${COLOURS.goal}" stroke-width="3" stroke-dasharray="4 2"/>`);
    }
    const [head, tail] = annotationParts(f, ratio);
    out.push(`<text x="${textX}" y="${y + 29}"><tspan font-weight="bold">${escapeXml(head)}</tspan>${escapeXml(tail)}</text>`);
    out.push('</g>');
    return out.join('');
}
/** figure / anchor, or NaN when either is not a finite number or the anchor is 0. */
function ratioOf(f) {
    if (!Number.isFinite(f.value) || !Number.isFinite(f.anchor) || f.anchor === 0)
        return Number.NaN;
    return f.value / f.anchor;
}
function annotation(f, ratio) {
    return annotationParts(f, ratio).join('');
}
function annotationParts(f, ratio) {
    const goal = !f.goal ? '' : 'atMost' in f.goal ? `, goal ≤ ${f.goal.atMost}` : `, goal ≥ ${f.goal.atLeast}`;
    return [
        Number.isFinite(ratio) ? ratioText(ratio) : 'n/a',
        `  ${measure(f.value, f.unit)} / ${f.anchorName} ${measure(f.anchor, f.unit)}${goal}`,
    ];
}
function goalRatio(g) {
    return 'atMost' in g ? g.atMost : g.atLeast;
}
function goalMet(g, ratio) {
    return 'atMost' in g ? ratio <= g.atMost : ratio >= g.atLeast;
}
/** The scale's end: the largest ratio, rounded up to a quarter. */
function scaleTop(ratios) {
    return Math.ceil(Math.max(...ratios) * 4) / 4;
}
function ratioText(r) {
    return Math.abs(r) >= 100 ? r.toFixed(0) : r.toPrecision(3);
}
/** A measurement as the docs write it: whole numbers with thousands separators from 100 up. */
function measure(n, unit) {
    if (!Number.isFinite(n))
        return 'n/a';
    const a = Math.abs(n);
    const digits = a >= 100 ? n.toFixed(0).replace(/\B(?=(\d{3})+(?!\d))/g, ',') : a >= 1 ? n.toFixed(2) : n.toPrecision(3);
    return `${digits} ${unit}`;
}
function num(n) {
    return String(Math.round(n * 10) / 10);
}
/** Text made safe for SVG element content and attribute values (control characters, which XML forbids, dropped). */
function escapeXml(s) {
    return s
        .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '')
        .replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]);
}
//# sourceMappingURL=chart.js.map