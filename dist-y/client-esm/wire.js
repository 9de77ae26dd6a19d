import { PatinaError } from './errors.js';
import { parseExact } from './json.js';
/** Parses one NDJSON line; in 'bigint' mode ids (row, change) still come back as numbers. */
export function parseLine(line, ints) {
    const ev = parseExact(line, ints);
    if (ev === null || typeof ev !== 'object' || Array.isArray(ev))
        throw new PatinaError('protocol', `unexpected line from the agent: ${line.slice(0, 200)}`);
    if (ints === 'bigint') {
        if ('row' in ev)
            ev.row[0] = Number(ev.row[0]);
        else if ('change' in ev) {
            const c = ev.change;
            c[1] = Number(c[1]);
            c[3] = Number(c[3]);
        }
        else if ('eoq' in ev) {
            const e = ev.eoq;
            e.time = Number(e.time);
            if (e.change_id !== undefined)
                e.change_id = Number(e.change_id);
        }
    }
    return ev;
}
