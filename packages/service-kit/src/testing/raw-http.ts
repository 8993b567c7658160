// An HTTP/1.1 exchange over a bare TCP socket, for requests an HTTP client
// refuses to send: oversized or forbidden header bytes, a body that stops
// before its Content-Length, a path with raw "..".
import net from 'node:net';

export interface RawResponse {
  status: number;
  /** Header names in lower case. */
  headers: Readonly<Record<string, string>>;
  body: string;
  /** From connecting to the end of the response. */
  ms: number;
}

function parseResponse(text: string): RawResponse | undefined {
  const headEnd = text.indexOf('\r\n\r\n');
  if (headEnd < 0) return undefined;
  const [statusLine = '', ...lines] = text.slice(0, headEnd).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const body = text.slice(headEnd + 4);
  const length = Number(headers['content-length'] ?? Number.NaN);
  if (Number.isFinite(length) && Buffer.byteLength(body) < length) return undefined;
  return { status: Number(statusLine.split(' ')[1]), headers, body, ms: 0 };
}

/**
 * Writes `request` as it is and resolves with the first response read back;
 * the socket stays open after writing, as a stalled client's would, unless
 * `endAfterWrite` half-closes it.
 *
 * @example
 * const response = await rawHttp(url, 'GET / HTTP/1.1\r\nHost: x\r\nX-Big: ' + 'a'.repeat(70_000) + '\r\n\r\n');
 */
export function rawHttp(
  baseUrl: string,
  request: string | Buffer,
  options: {
    timeoutMs?: number;
    /** Half-close after writing (the client says it will send no more), instead of stalling. */
    endAfterWrite?: boolean;
  } = {},
): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: hostname, port: Number(port) });
    const chunks: Buffer[] = [];
    const finish = (): void => {
      const parsed = parseResponse(Buffer.concat(chunks).toString('utf8'));
      if (parsed === undefined) return;
      clearTimeout(timer);
      socket.destroy();
      resolve({ ...parsed, ms: performance.now() - started });
    };
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`No complete response within ${String(options.timeoutMs ?? 5_000)} ms`));
    }, options.timeoutMs ?? 5_000);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      finish();
    });
    socket.on('error', () => {
      // A reset after the answer was read is fine; before it, 'close' reports it.
    });
    socket.on('close', () => {
      finish();
      clearTimeout(timer);
      reject(
        new Error(`Connection closed without a response: ${Buffer.concat(chunks).toString()}`),
      );
    });
    if (options.endAfterWrite === true) socket.end(request);
    else socket.write(request);
  });
}
