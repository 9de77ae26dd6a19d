import crypto from 'node:crypto';

const ITERATIONS = 4096;

const hmac = (key: Buffer, data: string) => crypto.createHmac('sha256', key).update(data).digest();
const sha256 = (data: Buffer) => crypto.createHash('sha256').update(data).digest();

/** A password's SCRAM-SHA-256 keys (what PostgreSQL stores as a verifier); the password is not kept. */
export interface ScramSecret {
  salt: Buffer;
  iterations: number;
  storedKey: Buffer;
  serverKey: Buffer;
}

export function scramSecret(password: string): ScramSecret {
  const salt = crypto.randomBytes(16);
  const salted = crypto.pbkdf2Sync(password.normalize('NFKC'), salt, ITERATIONS, 32, 'sha256');
  return {
    salt,
    iterations: ITERATIONS,
    storedKey: sha256(hmac(salted, 'Client Key')),
    serverKey: hmac(salted, 'Server Key'),
  };
}
