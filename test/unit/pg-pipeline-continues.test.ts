// pipelineContinues (protocols/pg/session/pipeline-transaction.ts) reads the messages a connection
// holds after an Execute to decide whether the pipeline's implicit transaction opens: another
// Execute before the Sync, or no Sync yet, opens it; a Sync first does not. Garbage lengths (a
// hostile client's bytes) must end the scan, not step back over the buffer for ever.
import assert from 'node:assert/strict';
import { pipelineContinues } from '../../protocols/pg/session/pipeline-transaction';

/** One message: its type byte, its length (4 + body unless given) and its body. */
function msg(type: string, body = Buffer.alloc(0), length = 4 + body.length): Buffer {
  const head = Buffer.alloc(5);
  head.write(type, 0, 'latin1');
  head.writeInt32BE(length, 1);
  return Buffer.concat([head, body]);
}

describe('pipelineContinues: whether an Execute is followed by another before the Sync', () => {
  const bind = msg('B', Buffer.from('\0\0\0\0\0\0\0', 'latin1'));
  const execute = msg('E', Buffer.from('\0\0\0\0\0', 'latin1'));
  const sync = msg('S');

  it('a Sync first: no; another Execute first: yes; nothing read yet or a message cut short: yes', () => {
    assert.equal(pipelineContinues(sync, 0), false);
    assert.equal(pipelineContinues(Buffer.concat([bind, execute, sync]), 0), true);
    assert.equal(pipelineContinues(Buffer.concat([bind, sync, bind, execute]), 0), false);
    assert.equal(pipelineContinues(Buffer.alloc(0), 0), true);
    assert.equal(pipelineContinues(Buffer.concat([bind, sync]).subarray(0, bind.length + 3), 0), true);
  });

  it('a length below 4 (negative, zero) ends the scan instead of stepping back for ever', () => {
    // a message whose length would step back to the start of the buffer, and round again
    const back = msg('B', Buffer.alloc(0), -(bind.length + 1));
    assert.equal(pipelineContinues(Buffer.concat([bind, back, sync]), 0), true);
    assert.equal(pipelineContinues(Buffer.concat([msg('B', Buffer.alloc(0), 0), sync]), 0), true);
  });
});
