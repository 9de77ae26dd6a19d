// Certificates for tests, made by the same openssl recipe users run (examples/tls/generate.sh).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type BenchPostgres, startPostgres, stopPostgres } from './postgres-server';

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

/**
 * A throwaway PostgreSQL 15 as the TLS oracle: this certificate, `ssl = on`, database `db` with
 * `schema`, and a SCRAM-SHA-256 login role `user` that pg_hba.conf admits over TLS only (hostssl),
 * as the listener `pgListener` describes. The superuser `tester` still logs in by trust, unencrypted.
 */
export async function startTlsPostgres(
  certs: TestCerts,
  name: string,
  user: string,
  password: string,
  schema: string,
): Promise<BenchPostgres & { dispose(): void }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'patina-tls-pg-'));
  fs.chmodSync(dir, 0o755);
  // the server refuses a key others can read, or one it does not own
  for (const f of [`${name}.crt`, `${name}.key`]) {
    fs.copyFileSync(certs.file(f), path.join(dir, f));
    fs.chmodSync(path.join(dir, f), 0o600);
    if (process.getuid?.() === 0) execFileSync('chown', ['postgres', path.join(dir, f)]);
  }
  const pg = await startPostgres(
    dir,
    ['fsync=off', 'TimeZone=UTC', 'ssl=on', `ssl_cert_file=${dir}/${name}.crt`, `ssl_key_file=${dir}/${name}.key`],
    'tester',
  );
  const sql = (db: string, text: string) =>
    execFileSync(
      'psql',
      ['-X', '-q', '-h', '127.0.0.1', '-p', String(pg.port), '-U', 'tester', '-d', db, '-v', 'ON_ERROR_STOP=1'],
      {
        input: text,
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
  try {
    sql('postgres', `CREATE DATABASE db; CREATE ROLE ${user} LOGIN PASSWORD '${password}';`);
    sql('db', `${schema}\nGRANT ALL ON ALL TABLES IN SCHEMA public TO ${user};`);
    fs.writeFileSync(
      path.join(dir, 'data', 'pg_hba.conf'),
      `local all all trust\nhostssl all ${user} 127.0.0.1/32 scram-sha-256\nhostssl all ${user} ::1/128 scram-sha-256\nhost all tester 127.0.0.1/32 trust\n`,
    );
    sql('postgres', 'SELECT pg_reload_conf();');
  } catch (err) {
    stopPostgres(pg);
    throw err;
  }
  return {
    ...pg,
    dispose() {
      stopPostgres(pg);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
