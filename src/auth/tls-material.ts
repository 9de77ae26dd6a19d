import fs from 'node:fs';
import tls from 'node:tls';
import type { TlsFiles } from '../config/config';
import { PatinaError } from '../errors';

/** Certificate, key and CA as read from their files; what node:tls takes as options. */
export interface TlsMaterial {
  cert: Buffer;
  key: Buffer;
  ca?: Buffer;
}

function readPem(file: string, what: string): Buffer {
  try {
    return fs.readFileSync(file);
  } catch (err) {
    throw new PatinaError(
      'user',
      `${what}: cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? 'unreadable'}`,
    );
  }
}

/**
 * Reads and checks TLS files (a key that does not match its certificate, or a file that is not
 * PEM, is refused here, naming the files, rather than at the first handshake).
 */
export function loadTls(files: TlsFiles, what: string): TlsMaterial {
  const m: TlsMaterial = {
    cert: readPem(files.certFile, `${what}.cert_file`),
    key: readPem(files.keyFile, `${what}.key_file`),
  };
  if (files.caFile) m.ca = readPem(files.caFile, `${what} CA file`);
  try {
    tls.createSecureContext(m);
  } catch (err) {
    // OpenSSL's reason (e.g. "key values mismatch") names no secret
    throw new PatinaError(
      'user',
      `${what}: ${files.certFile} and ${files.keyFile}${files.caFile ? ` (CA ${files.caFile})` : ''} are not a usable certificate and key: ${(err as Error).message}`,
    );
  }
  return m;
}
