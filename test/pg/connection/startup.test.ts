// The startup packet and SASL messages as the steps the connection acts on
// (protocols/pg/connection/startup.ts): encryption requests, CancelRequest, PostgreSQL's refusals
// (protocol 2, no user, too many clients, TLS required, a wrong SCRAM mechanism) and the login.
import assert from 'node:assert/strict';
import { PgUserStore } from '../../../src/auth/pg-users';
import type { PgListenerConfig } from '../../../src/config/config';
import type { Handshake, ListenerOptions } from '../../../protocols/pg/connection/listener-options';
import { ScramExchange } from '../../../protocols/pg/connection/scram';
import { readSasl, readStartup, startupParameters } from '../../../protocols/pg/connection/startup';
import { CANCEL_REQUEST, PROTOCOL_3, Reader, SSL_REQUEST } from '../../../protocols/pg/wire/frontend';

/** A startup packet's body (after its length): the code, then name/value pairs. */
function packet(code: number, params: Record<string, string> = {}, extra: number[] = []): Reader {
  const head = Buffer.alloc(4 + 4 * extra.length);
  head.writeInt32BE(code, 0);
  extra.forEach((v, i) => head.writeInt32BE(v, 4 + 4 * i));
  const pairs = Object.entries(params)
    .map(([k, v]) => `${k}\0${v}\0`)
    .join('');
  const body = Buffer.concat([head, Buffer.from(`${pairs}\0`)]);
  return new Reader(body);
}

const users = (l: Partial<PgListenerConfig>) =>
  PgUserStore.load({ password: null, users: [], ...l } as PgListenerConfig, 'test');
const opts = (o: Partial<ListenerOptions> = {}): ListenerOptions => ({
  readonly: false,
  users: users({}),
  requireTls: false,
  queryTimeoutMs: 1000,
  ...o,
});
const plain: Handshake = { tls: false, rest: Buffer.alloc(0), remoteAddress: '::ffff:10.0.0.7' };

describe('PG startup steps', () => {
  it('an encryption request after negotiation is answered N; a CancelRequest names its pid and key', () => {
    assert.deepEqual(readStartup(packet(SSL_REQUEST), opts(), plain), { kind: 'no-encryption' });
    assert.deepEqual(readStartup(packet(CANCEL_REQUEST, {}, [1234, -5]), opts(), plain), {
      kind: 'cancel',
      pid: 1234,
      key: -5,
    });
  });

  it("refusals in PostgreSQL's words: protocol 2, no user, too many clients, TLS required", () => {
    assert.deepEqual(readStartup(packet(2 << 16, { user: 'a' }), opts(), plain), {
      kind: 'fatal',
      code: '0A000',
      message: 'unsupported frontend protocol 2.0: server supports 3.0',
    });
    assert.deepEqual(readStartup(packet(PROTOCOL_3, { database: 'd' }), opts(), plain), {
      kind: 'fatal',
      code: '28000',
      message: 'no PostgreSQL user name specified in startup packet',
    });
    const counts = { tooMany: 0 } as ListenerOptions['counts'] & { tooMany: number };
    const full = readStartup(packet(PROTOCOL_3, { user: 'a' }), opts({ tooMany: true, counts }), plain);
    assert.equal(full.kind === 'fatal' && full.code, '53300');
    assert.equal(counts.tooMany, 1);
    assert.deepEqual(readStartup(packet(PROTOCOL_3, { user: 'bob' }), opts({ requireTls: true }), plain), {
      kind: 'fatal',
      code: '28000',
      message: 'no pg_hba.conf entry for host "10.0.0.7", user "bob", database "bob", no encryption',
    });
  });

  it('trust logs in at once; SCRAM starts the exchange, read-only for a user of the read role', () => {
    const trust = readStartup(packet(PROTOCOL_3, { user: 'a', database: 'd' }), opts(), plain);
    assert.deepEqual(trust, { kind: 'login', params: { user: 'a', database: 'd' }, scram: null, readonly: false });
    const store = users({ users: [{ name: 'reader', password: { value: 'pw' }, role: 'read' }] });
    const scram = readStartup(packet(PROTOCOL_3, { user: 'reader' }), opts({ users: store }), plain);
    assert.equal(scram.kind, 'login');
    if (scram.kind === 'login') {
      assert.ok(scram.scram instanceof ScramExchange);
      assert.equal(scram.readonly, true);
    }
    assert.deepEqual(startupParameters({ user: 'a' }, true).slice(-3), [
      ['session_authorization', 'a'],
      ['default_transaction_read_only', 'on'],
      ['in_hot_standby', 'off'],
    ]);
  });

  it('SASL: another mechanism is refused, a bad client-first message fails as a wrong password', () => {
    const scram = new ScramExchange(users({ password: 'pw' }).decoy, false);
    const initial = (mechanism: string, data: string) => {
      const d = Buffer.from(data);
      const len = Buffer.alloc(4);
      len.writeInt32BE(d.length, 0);
      return new Reader(Buffer.concat([Buffer.from(`${mechanism}\0`), len, d]));
    };
    assert.deepEqual(readSasl(initial('SCRAM-SHA-1', ''), scram, true, 'a'), {
      kind: 'fatal',
      code: '08P01',
      message: 'client selected an invalid SASL authentication mechanism',
      detail: undefined,
    });
    // PLUS is offered, and taken, only over TLS
    assert.deepEqual(scram.mechanisms, ['SCRAM-SHA-256']);
    assert.equal(
      readSasl(initial('SCRAM-SHA-256-PLUS', 'p=tls-server-end-point,,n=,r=x'), scram, true, 'a').kind,
      'fatal',
    );
    assert.deepEqual(readSasl(initial('SCRAM-SHA-256', 'garbage'), scram, true, 'a'), {
      kind: 'fatal',
      code: '28P01',
      message: 'password authentication failed for user "a"',
    });
  });
});
