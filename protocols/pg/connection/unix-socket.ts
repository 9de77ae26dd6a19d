// The Unix-domain socket of a PG listener (`socket_dir`): where libpq looks for it, and what is done
// with a socket file an agent killed before it could remove its own left behind.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/** The longest path a Unix-domain socket address holds on Linux (sun_path less its terminating NUL). */
const MAX_SOCKET_PATH_BYTES = 107;

/** libpq's name for the socket of `port` in `dir`: `psql -h <dir> -p <port>` connects to it. */
export function unixSocketPath(dir: string, port: number): string {
  const p = path.join(dir, `.s.PGSQL.${port}`);
  if (Buffer.byteLength(p) > MAX_SOCKET_PATH_BYTES)
    throw new Error(
      `api.pg socket_dir: the socket path ${p} is longer than ${MAX_SOCKET_PATH_BYTES} bytes, the most a Unix-domain socket address holds; choose a shorter folder`,
    );
  if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory())
    throw new Error(`api.pg socket_dir: ${dir} is not a folder`);
  return p;
}

/**
 * Removes a socket file nothing listens on (an agent or PostgreSQL killed before it removed its own),
 * as PostgreSQL does with its lock file's help; refuses when a server answers there, or when the path
 * is not a socket (a user's file is never removed).
 */
export async function clearStaleSocket(p: string): Promise<void> {
  const st = fs.lstatSync(p, { throwIfNoEntry: false });
  if (!st) return;
  if (!st.isSocket()) throw new Error(`api.pg socket_dir: ${p} exists and is not a socket; not replacing it`);
  const answered = await new Promise<boolean>((resolve) => {
    const probe = net.connect(p);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
  if (answered) throw new Error(`api.pg socket_dir: another server is listening on ${p}`);
  fs.unlinkSync(p);
}

/** Runs `listen` and resolves once the server is bound, or rejects with the bind's error. */
export function listenOn(server: net.Server, listen: (done: () => void) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    listen(() => {
      server.off('error', reject);
      resolve();
    });
  });
}
