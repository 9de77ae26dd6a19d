import fs from 'node:fs';
import type { SecretSource } from '../config/config';
import { PatinaError } from '../errors';

/**
 * Reads a secret from where the config says it is. Errors name the file or variable, never the
 * value; a file's trailing newline is not part of the secret (`echo secret > file`).
 */
export function readSecret(source: SecretSource, what: string): string {
  if ('value' in source) return source.value;
  if ('file' in source) {
    let text: string;
    try {
      text = fs.readFileSync(source.file, 'utf8');
    } catch (err) {
      throw new PatinaError(
        'user',
        `${what}: cannot read ${source.file}: ${(err as NodeJS.ErrnoException).code ?? 'unreadable'}`,
      );
    }
    const secret = text.replace(/\r?\n$/, '');
    if (secret === '') throw new PatinaError('user', `${what}: ${source.file} is empty`);
    return secret;
  }
  const v = process.env[source.env];
  if (v === undefined || v === '')
    throw new PatinaError('user', `${what}: the environment variable ${source.env} is not set`);
  return v;
}
