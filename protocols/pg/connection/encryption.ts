// Encryption negotiation, before the startup packet: SSLRequest is answered S and the socket upgraded
// to TLS when the listener has a certificate, N otherwise; GSSENCRequest is always N (libpq then
// tries SSL or plaintext). Whatever else comes first is the startup packet, handed on untouched.
import type net from 'node:net';
import tls from 'node:tls';
import { GSSENC_REQUEST, SSL_REQUEST } from '../wire/frontend';
import { tlsServerEndPoint } from './channel-binding';

export interface Negotiated {
  socket: net.Socket;
  /** Whether the connection is now TLS. */
  tls: boolean;
  /** Bytes read past the negotiation (the start of the startup packet). */
  rest: Buffer;
  /** Over TLS, the certificate's data for SCRAM channel binding (null when it names no hash). */
  binding: Buffer | null;
}

/**
 * Answers encryption requests until the client sends something else, then calls `done` with the
 * socket to speak the protocol on. A failed handshake or a client gone away just closes the socket.
 */
export function negotiateEncryption(
  socket: net.Socket,
  context: () => tls.SecureContext | null,
  done: (n: Negotiated) => void,
): void {
  let input: Buffer = Buffer.alloc(0);
  let upgraded = false;
  const onData = (d: Buffer) => {
    input = input.length === 0 ? d : Buffer.concat([input, d]);
    if (input.length < 4) return;
    const len = input.readInt32BE(0);
    if (len !== 8) return finish(); // not a request: the startup packet (or garbage) for the connection to judge
    if (input.length < 8) return;
    const code = input.readInt32BE(4);
    if (code !== SSL_REQUEST && code !== GSSENC_REQUEST) return finish();
    input = input.subarray(8);
    const ctx = code === SSL_REQUEST && !upgraded ? context() : null;
    if (!ctx) {
      current.write('N');
      if (input.length >= 4) onData(Buffer.alloc(0));
      return;
    }
    if (input.length > 0) return socket.destroy(); // a client must wait for S before its handshake
    socket.off('data', onData);
    socket.write('S');
    const secure = new tls.TLSSocket(socket, { isServer: true, secureContext: ctx });
    secure.on('error', () => secure.destroy());
    upgraded = true;
    secure.once('secure', () => {
      input = Buffer.alloc(0);
      attach(secure);
    });
  };
  let current: net.Socket = socket;
  const attach = (s: net.Socket) => {
    current = s;
    s.on('data', onData);
    if (input.length > 0) onData(Buffer.alloc(0));
  };
  const finish = () => {
    current.off('data', onData);
    const raw = upgraded ? ((current as tls.TLSSocket).getCertificate() as tls.PeerCertificate | null)?.raw : undefined;
    const binding = raw ? tlsServerEndPoint(raw) : null;
    done({ socket: current, tls: upgraded, rest: input, binding });
  };
  socket.on('error', () => socket.destroy());
  attach(socket);
}
