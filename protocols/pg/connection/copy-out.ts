// COPY TO STDOUT on the wire: the rows of the COPY's read, formatted batch by batch in text, CSV or binary
// as CopyData messages between CopyOutResponse and CopyDone, waiting for a slow client to read.
import type { Outcome } from '../session/engine';
import type { Analyzed } from '../sql/analyzed';
import { binaryCopyHeader, binaryCopyRow, binaryCopyTrailer } from '../copy/binary';
import { formatCopyRow } from '../copy/format';
import { forcedColumns } from '../copy/statement';
import { DEFAULT_STYLES, type OutputStyles } from '../types/output-styles';
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
export async function sendCopyOut(
  w: ByteWriter,
  an: Analyzed,
  out: Outcome,
  io: CopyOutput,
  zone: string | null = null,
  styles: OutputStyles = DEFAULT_STYLES,
): Promise<void> {
  const { options } = an.copy!.stmt;
  const names = an.copy!.columns;
  let batch = out.all;
  if (!batch) batch = (await out.rows!.next()) ?? [];
  // binary: each column in its type's binary form (text for a type without one, as a binary result)
  const formats = options.format === 'binary' ? [1] : NO_FORMATS;
  const fields = fieldsOf(out.columns ?? names.map((name) => ({ name, declType: null })), formats, batch);
  const binary = options.format === 'binary';
  const forceQuote = forcedColumns(options.forceQuote, names, 'FORCE_QUOTE'); // (42P10 before any answer)
  backend.copyResponse(w, 'H', names.length, binary);
  // text and CSV in the client's encoding (22P05 for a character it has none for, as PostgreSQL)
  const charset = w.charset;
  const bytes = charset === null ? (s: string) => Buffer.from(s) : (s: string) => charset.encode(s);
  if (options.header) backend.copyData(w, bytes(formatCopyRow(names, options)));
  // the binary header goes with the first row, as PostgreSQL sends it (psycopg reads a row from that message)
  let header = binary ? binaryCopyHeader() : null;
  let n = 0;
  const texts: (string | null)[] = new Array(names.length);
  for (;;) {
    for (const row of batch) {
      if (binary) {
        const data = binaryCopyRow(row, fields, w.charset);
        backend.copyData(w, header ? Buffer.concat([header, data]) : data);
        header = null;
        continue;
      }
      for (let k = 0; k < texts.length; k++)
        texts[k] = textOf(row[k], fields[k].typeOid, fields[k].valueMod ?? fields[k].typeMod, zone, styles);
      backend.copyData(w, bytes(formatCopyRow(texts, options, forceQuote)));
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
  if (binary) backend.copyData(w, header ? Buffer.concat([header, binaryCopyTrailer()]) : binaryCopyTrailer());
  backend.copyDone(w);
  io.complete(`COPY ${n}`);
}
