// SCRAM channel binding's data, tls-server-end-point (RFC 5929) as PostgreSQL uses it: the hash of
// the server's certificate, by the hash of the certificate's own signature (SHA-256 where that is
// MD5 or SHA-1). A client that binds (libpq's `channel_binding=require`, node-postgres's
// `enableChannelBinding`) hashes the certificate it received; the two must be the same.
import crypto from 'node:crypto';
import { lookup } from '../../../src/lookup';

/** The hash each signature algorithm's OID (its DER bytes, hex) names. */
const SIGNATURE_HASHES: Record<string, string> = lookup({
  '2a864886f70d010104': 'sha256', // md5WithRSAEncryption: SHA-256, as RFC 5929 says
  '2a864886f70d010105': 'sha256', // sha1WithRSAEncryption
  '2a864886f70d01010b': 'sha256',
  '2a864886f70d01010c': 'sha384',
  '2a864886f70d01010d': 'sha512',
  '2a864886f70d01010e': 'sha224',
  '2a8648ce3d0401': 'sha256', // ecdsa-with-SHA1
  '2a8648ce3d040301': 'sha224',
  '2a8648ce3d040302': 'sha256',
  '2a8648ce3d040303': 'sha384',
  '2a8648ce3d040304': 'sha512',
  '608648016503040302': 'sha256', // dsa-with-sha256
});

/** One DER element at `at`: where its content starts and ends, or null when it runs past the end. */
function element(der: Buffer, at: number): { tag: number; start: number; end: number } | null {
  if (at + 2 > der.length) return null;
  const tag = der[at];
  let len = der[at + 1];
  let start = at + 2;
  if (len & 0x80) {
    const bytes = len & 0x7f;
    if (bytes === 0 || bytes > 4 || start + bytes > der.length) return null;
    len = 0;
    for (let i = 0; i < bytes; i++) len = len * 256 + der[start + i];
    start += bytes;
  }
  return start + len <= der.length ? { tag, start, end: start + len } : null;
}

/**
 * The certificate's tls-server-end-point data, or null when its signature names no single hash
 * (RSASSA-PSS, Ed25519): the listener then offers SCRAM-SHA-256 only.
 */
export function tlsServerEndPoint(certificate: Buffer): Buffer | null {
  const cert = element(certificate, 0); // Certificate ::= SEQUENCE {
  if (cert?.tag !== 0x30) return null;
  const tbs = element(certificate, cert.start); // tbsCertificate,
  if (tbs?.tag !== 0x30) return null;
  const algorithm = element(certificate, tbs.end); // signatureAlgorithm SEQUENCE { OID, ... }
  if (algorithm?.tag !== 0x30) return null;
  const oid = element(certificate, algorithm.start);
  if (oid?.tag !== 0x06) return null;
  const hash = SIGNATURE_HASHES[certificate.subarray(oid.start, oid.end).toString('hex')];
  return hash ? crypto.createHash(hash).update(certificate).digest() : null;
}
