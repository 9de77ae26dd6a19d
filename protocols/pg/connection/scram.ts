// SCRAM-SHA-256 (RFC 5802/7677) as PostgreSQL speaks it, user name from startup; over TLS also
// SCRAM-SHA-256-PLUS, bound to the server's certificate (tls-server-end-point, channel-binding.ts),
// with PostgreSQL's refusals when the client's flag and its mechanism disagree. The keys come from
// src/auth (the password store); this file only speaks the exchange.
import crypto from 'node:crypto';
import type { ScramSecret } from '../../../src/auth/scram-secret';

export type { ScramSecret };

/** The value of attribute `name` in a SCRAM attribute list (`a=..,r=..`), or undefined. Values hold no comma. */
function attribute(list: string, name: string): string | undefined {
  for (const part of list.split(',')) if (part.length > 1 && part[0] === name && part[1] === '=') return part.slice(2);
  return undefined;
}

const hmac = (key: Buffer, data: string) => crypto.createHmac('sha256', key).update(data).digest();
const sha256 = (data: Buffer) => crypto.createHash('sha256').update(data).digest();

/** A refusal in PostgreSQL's words (the login ends with it as FATAL). */
export interface ScramRefusal {
  code: string;
  message: string;
  detail?: string;
}

const PLUS = 'SCRAM-SHA-256-PLUS';
const refuse = (code: string, message: string, detail?: string): ScramRefusal => ({ code, message, detail });
const malformed = (detail: string) => refuse('08P01', 'malformed SCRAM message', detail);

/** One exchange: the client's first message gives the server's; the client's final is verified. */
export class ScramExchange {
  readonly #secret: ScramSecret;
  #clientFirstBare = '';
  #serverFirst = '';
  #nonce = '';
  /** The client's gs2 header (`n,,`, `y,,`, `p=tls-server-end-point,,`): its final message repeats it. */
  #header = '';
  #bound = false;

  readonly #known: boolean;
  /** tls-server-end-point data of the connection's certificate; null without TLS (no PLUS then). */
  readonly #binding: Buffer | null;

  /** `known` false: the user does not exist; the exchange runs on a decoy and always fails. */
  constructor(secret: ScramSecret, known = true, binding: Buffer | null = null) {
    this.#secret = secret;
    this.#known = known;
    this.#binding = binding;
  }

  /** The mechanisms AuthenticationSASL offers, as PostgreSQL orders them: PLUS first, over TLS. */
  get mechanisms(): string[] {
    return this.#binding ? [PLUS, 'SCRAM-SHA-256'] : ['SCRAM-SHA-256'];
  }

  /**
   * Takes SASLInitialResponse's mechanism and data; returns server-first-message, a refusal, or
   * null if malformed (answered as a wrong password).
   */
  first(mechanism: string, clientFirst: string): string | ScramRefusal | null {
    if (mechanism === PLUS && this.#binding) this.#bound = true;
    else if (mechanism !== 'SCRAM-SHA-256')
      return refuse('08P01', 'client selected an invalid SASL authentication mechanism');
    const m = /^(n|y|p=([^,]*)),(a=[^,]*)?,(.*)$/.exec(clientFirst);
    if (!m) return null;
    const flag = m[1][0];
    if (flag !== 'p' && this.#bound)
      return malformed(
        'The client selected SCRAM-SHA-256-PLUS, but the SCRAM message does not include channel binding data.',
      );
    if (flag === 'y' && this.#binding)
      // the client binds but thinks this server does not: PLUS was offered, so someone took it away
      return refuse(
        '28000',
        'SCRAM channel binding negotiation error',
        'The client supports SCRAM channel binding but thinks the server does not.  However, this server does support channel binding.',
      );
    if (flag === 'p' && !this.#bound)
      return malformed(
        'The client selected SCRAM-SHA-256 without channel binding, but the SCRAM message includes channel binding data.',
      );
    if (flag === 'p' && m[2] !== 'tls-server-end-point')
      return refuse('08P01', `unsupported SCRAM channel-binding type "${m[2]}"`);
    if (m[3]) return refuse('0A000', 'client uses authorization identity, but it is not supported');
    this.#header = `${m[1]},,`;
    this.#clientFirstBare = m[4];
    const nonce = attribute(this.#clientFirstBare, 'r');
    if (!nonce) return null;
    this.#nonce = nonce + crypto.randomBytes(18).toString('base64');
    this.#serverFirst = `r=${this.#nonce},s=${this.#secret.salt.toString('base64')},i=${this.#secret.iterations}`;
    return this.#serverFirst;
  }

  /** Takes the client's final message; returns server-final-message when the proof is right. */
  final(clientFinal: string): string | ScramRefusal | null {
    const i = clientFinal.lastIndexOf(',p=');
    if (i < 0) return null;
    const withoutProof = clientFinal.slice(0, i);
    // c= repeats the gs2 header, and after p= the certificate hash the client saw
    const cbind = attribute(withoutProof, 'c');
    const expected = Buffer.concat([Buffer.from(this.#header), this.#bound ? this.#binding! : Buffer.alloc(0)]);
    if (cbind !== expected.toString('base64'))
      return this.#bound
        ? refuse('28000', 'SCRAM channel binding check failed')
        : refuse('08P01', 'unexpected SCRAM channel-binding attribute in client-final-message');
    const proof = Buffer.from(clientFinal.slice(i + 3), 'base64');
    // The nonce is compared as a string: a client's nonce may hold any printable character but a comma.
    if (attribute(withoutProof, 'r') !== this.#nonce) return null;
    const authMessage = `${this.#clientFirstBare},${this.#serverFirst},${withoutProof}`;
    const signature = hmac(this.#secret.storedKey, authMessage);
    if (proof.length !== signature.length) return null;
    const clientKey = Buffer.alloc(proof.length);
    for (let k = 0; k < proof.length; k++) clientKey[k] = proof[k] ^ signature[k];
    if (!crypto.timingSafeEqual(sha256(clientKey), this.#secret.storedKey) || !this.#known) return null;
    return `v=${hmac(this.#secret.serverKey, authMessage).toString('base64')}`;
  }
}
