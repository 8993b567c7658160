// Where the embedded server's Unix socket lives, and the URL that reaches it.
// The stack's processes connect through it: a round trip over a Unix socket
// costs less CPU on both ends than one over TCP loopback (ADR 0030).
import path from 'node:path';

/** sun_path holds 108 bytes on Linux, its final NUL included (104 on macOS). */
const MAX_SOCKET_PATH_BYTES = process.platform === 'linux' ? 107 : 103;

/**
 * The directory of the server's Unix socket: its own data directory, which no
 * other server shares (a socket in /tmp could collide with another run's) and
 * which only the server's OS user and root can enter. Undefined when the
 * socket's path would not fit: the server then listens on TCP alone.
 */
export function socketDirectory(rootDir: string, port: number): string | undefined {
  const directory = path.join(rootDir, 'data');
  const socket = path.join(directory, `.s.PGSQL.${String(port)}`);
  return Buffer.byteLength(socket) <= MAX_SOCKET_PATH_BYTES ? directory : undefined;
}

/**
 * `url` with libpq's `host` parameter naming a socket directory: node-postgres
 * and psql both connect through the socket then, while tools that read only
 * the host and port of the URL still see the TCP address.
 */
export function overSocket(url: string, directory: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set('host', directory);
  return parsed.toString();
}
