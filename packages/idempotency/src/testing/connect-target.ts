// Where a `net.Socket.prototype.connect` call goes, read from its arguments in
// every form Node accepts: (options), (port, host), (path), and the internal
// normalized array that `net.connect`, `tls.connect` and http's agents pass.

/** A TCP host and port, or a local (Unix-domain or named-pipe) path. */
export type ConnectTarget =
  { kind: 'tcp'; host: string; port: number } | { kind: 'ipc'; path: string };

const DEFAULT_HOST = 'localhost';

/**
 * @example
 * connectTarget([{ host: '127.0.0.1', port: 2525 }]) // { kind: 'tcp', host: '127.0.0.1', port: 2525 }
 * connectTarget([5432, 'db.local'])                  // { kind: 'tcp', host: 'db.local', port: 5432 }
 */
export function connectTarget(args: readonly unknown[]): ConnectTarget {
  const [first, second] = args;
  if (Array.isArray(first)) return connectTarget(first);
  if (typeof first === 'object' && first !== null) return fromOptions(first);
  if (typeof first === 'string' && !isPort(first)) return { kind: 'ipc', path: first };
  return {
    kind: 'tcp',
    host: typeof second === 'string' ? second : DEFAULT_HOST,
    port: Number(first),
  };
}

function fromOptions(options: object): ConnectTarget {
  const { path, host, port } = options as { path?: unknown; host?: unknown; port?: unknown };
  if (typeof path === 'string') return { kind: 'ipc', path };
  return {
    kind: 'tcp',
    host: typeof host === 'string' ? host : DEFAULT_HOST,
    port: Number(port),
  };
}

function isPort(value: string): boolean {
  return /^\d+$/.test(value);
}
