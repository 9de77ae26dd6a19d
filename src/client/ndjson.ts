import { PatinaError } from './errors.js';

/**
 * The lines of an NDJSON body as they arrive (web streams only). Stops reading and releases the
 * connection when the caller stops iterating.
 */
export async function* ndjsonLines(body: ReadableStream<Uint8Array> | null): AsyncGenerator<string> {
  if (!body) throw new PatinaError('protocol', 'the agent sent no body where a stream was expected');
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
      buf += decoder.decode(r.value, { stream: true });
      let start = 0;
      let nl;
      while ((nl = buf.indexOf('\n', start)) >= 0) {
        const line = buf.slice(start, nl);
        start = nl + 1;
        if (line.trim() !== '') yield line;
      }
      buf = buf.slice(start);
    }
    buf += decoder.decode();
    if (buf.trim() !== '') yield buf;
  } finally {
    if (!done) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}
