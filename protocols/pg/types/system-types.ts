// The types of PostgreSQL's system columns, which a catalog table's rows answer here
// (sql/translate/system-columns.ts): xid (xmin, xmax) and cid (cmin, cmax), 32-bit unsigned numbers
// sent as xidsend and cidsend send them, and tid (ctid), `(block,offset)`, sent as tidsend does: the
// block as 4 bytes and the offset as 2. Without them a binary-format client got the text's bytes.
import { type Codec, bytes, expectLength, notA } from './codec';
import { oidCodec } from './integer';

export const xidCodec: Codec = { ...oidCodec, oid: 28, name: 'xid' };
export const cidCodec: Codec = { ...oidCodec, oid: 29, name: 'cid' };

/** The block and offset of a tid's text, `(0,5)`. */
function tidParts(v: unknown): [number, number] {
  const m = /^\s*\(\s*(\d+)\s*,\s*(\d+)\s*\)\s*$/.exec(String(v));
  if (!m || Number(m[1]) > 4294967295 || Number(m[2]) > 65535) return notA('tid', v);
  return [Number(m[1]), Number(m[2])];
}

export const tidCodec: Codec = {
  oid: 27,
  name: 'tid',
  text: (v) => {
    const [block, offset] = tidParts(v);
    return `(${block},${offset})`;
  },
  binary: (v) => {
    const [block, offset] = tidParts(v);
    const b = bytes(6);
    b.writeUInt32BE(block, 0);
    b.writeUInt16BE(offset, 4);
    return b;
  },
  textOfBinary: (raw) => {
    expectLength(raw, 6, 'tid');
    return `(${raw.readUInt32BE(0)},${raw.readUInt16BE(4)})`;
  },
};
