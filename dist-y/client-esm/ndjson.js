import { PatinaError } from './errors.js';
/**
 * The lines of an NDJSON body as they arrive (web streams only); empty lines (an agent's heartbeats)
 * are skipped, after `onData` has seen them. Stops reading and releases the connection when the
 * caller stops iterating.
 */
export async function* ndjsonLines(body, onData) {
    if (!body)
        throw new PatinaError('protocol', 'the agent sent no body where a stream was expected');
    const reader = body.getReader();
    const decoder = new TextDecoder();
    let buf = '';
    let done = false;
    try {
        for (;;) {
            const r = await reader.read();
            if (r.done) {
                done = true;
                break;
            }
            onData?.();
            buf += decoder.decode(r.value, { stream: true });
            let start = 0;
            let nl;
            while ((nl = buf.indexOf('\n', start)) >= 0) {
                const line = buf.slice(start, nl);
                start = nl + 1;
                if (line.trim() !== '')
                    yield line;
            }
            buf = buf.slice(start);
        }
        buf += decoder.decode();
        if (buf.trim() !== '')
            yield buf;
    }
    finally {
        if (!done)
            await reader.cancel().catch(() => { });
        reader.releaseLock();
    }
}
/**
 * A watchdog for a stream whose agent sends a heartbeat every few seconds (its `patina-heartbeat`
 * header): when nothing arrives for 2.5 heartbeats it aborts `conn` with a network error, so a
 * connection whose peer vanished without a FIN is given up and resumed. `expect(s)` arms it before
 * the response (for requests the agent answers at once); `response(res)` arms it from the header,
 * or disarms it for an agent that sends none. Call `touch` on each chunk read, `stop` when done.
 */
export function streamWatchdog(conn, base) {
    let seconds = 0;
    let timer;
    let error;
    const stop = () => clearTimeout(timer);
    const touch = () => {
        stop();
        if (!(seconds > 0))
            return;
        const limitMs = seconds * 2500;
        timer = setTimeout(() => {
            error = new PatinaError('network', `nothing came from the agent at ${base} for ${limitMs / 1000} s though it sends a heartbeat every ${seconds} s: the connection is taken as dead`);
            conn.abort(error);
        }, limitMs);
        // Node: the watchdog alone must not keep a process alive.
        timer.unref?.();
    };
    return {
        expect: (s) => {
            seconds = s;
            touch();
        },
        response: (res) => {
            seconds = Number(res.headers.get('patina-heartbeat'));
            touch();
        },
        touch,
        stop,
        error: () => error,
    };
}
