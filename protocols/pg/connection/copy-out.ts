// COPY TO STDOUT on the wire: the rows of the COPY's read, formatted batch by batch in text or CSV
// as CopyData messages between CopyOutResponse and CopyDone, waiting for a slow client to read.
import type { Outcome } from '../session/engine';
import type { Analyzed } from '../sql/analyzed';
import { formatCopyRow } from '../copy/format';
import { textOf } from '../types/values';
import { type ByteWriter, backend } from '../wire/backend';
import { NO_FORMATS } from './portal';
import { fieldsOf } from './results';

/** What sending COPY TO's rows needs of the connection. */
export interface CopyOutput {
  /** Writes the output once it is large, waiting for a slow reader to take it. */
  drain(): void | Promise<void>;
  closed(): boolean;
  complete(tag: string): void;
}

/** COPY TO STDOUT: CopyOutResponse, a CopyData per row as the read yields them (waiting for a slow client), CopyDone. */
export async function sendCopyOut(w: ByteWriter, an: Analyzed, out: Outcome, io: CopyOutput): Promise<void> {
  const { options } = an.copy!.stmt;
  const names = an.copy!.columns;
  let batch = out.all;
  if (!batch) batch = (await out.rows!.next()) ?? [];
  const fields = fieldsOf(out.columns ?? names.map((name) => ({ name, declType: null })), NO_FORMATS, batch);
  backend.copyResponse(w, 'H', names.length);
  if (options.header) backend.copyData(w, Buffer.from(formatCopyRow(names, options)));
  let n = 0;
  const texts: (string | null)[] = new Array(names.length);
  for (;;) {
    for (const row of batch) {
      for (let k = 0; k < texts.length; k++)
        texts[k] = textOf(row[k], fields[k].typeOid, fields[k].valueMod ?? fields[k].typeMod);
      backend.copyData(w, Buffer.from(formatCopyRow(texts, options)));
    }
    n += batch.length;
    const drained = io.drain();
    if (drained) await drained;
    if (io.closed()) {
      out.rows?.cancel();
      return;
    }
    const next = out.rows ? await out.rows.next() : null;
    if (next === null) break;
    batch = next;
  }
  backend.copyDone(w);
  io.complete(`COPY ${n}`);
}
