// Certificates for tests, made by the same openssl recipe users run (examples/tls/generate.sh).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const GENERATE = path.resolve(__dirname, '..', '..', '..', 'examples', 'tls', 'generate.sh');

/** A CA and named certificates in a folder: `file('ca.crt')`, `file('agent1.key')`. */
export class TestCerts {
  readonly dir: string;

  constructor(dir: string) {
    this.dir = dir;
  }

  /** Generates a fresh CA and a certificate for each name (openssl). */
  static generate(...names: string[]): TestCerts {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'patina-certs-'));
    execFileSync('bash', [GENERATE, dir, ...names], { stdio: 'pipe' });
    return new TestCerts(dir);
  }

  /** Adds certificates signed by the same CA. */
  add(...names: string[]): void {
    execFileSync('bash', [GENERATE, this.dir, ...names], { stdio: 'pipe' });
  }

  file(name: string): string {
    return path.join(this.dir, name);
  }

  read(name: string): Buffer {
    return fs.readFileSync(this.file(name));
  }

  /** TOML lines `cert_file`/`key_file` for a name. */
  pair(name: string): string {
    return `cert_file = "${this.file(`${name}.crt`)}"\nkey_file = "${this.file(`${name}.key`)}"\n`;
  }

  /**
   * A PostgreSQL listener's TOML that requires TLS with this certificate and names these users (each
   * a role and a `password = "..."` or `password_file = "..."` line).
   */
  pgListener(name: string, users: { name: string; role: string; secret: string }[]): string {
    const entries = users.map((u) => `[[api.pg.users]]\nname = "${u.name}"\n${u.secret}\nrole = "${u.role}"\n`);
    return `[api.pg]\naddr = "127.0.0.1:0"\nrequire_tls = true\n[api.pg.tls]\n${this.pair(name)}${entries.join('')}`;
  }

  dispose(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
