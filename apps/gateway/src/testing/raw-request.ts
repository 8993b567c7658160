// An HTTP request whose path goes out exactly as written: fetch and undici
// normalise `%2E%2E` and `..`, which is what the gateway's path checks are
// tested against.
import http from 'node:http';

/**
 * @example
 * const response = await rawRequest(gateway.url, 'GET', '/api/orders/%2E%2E/cancel');
 */
export function rawRequest(
  baseUrl: string,
  method: string,
  path: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(new URL(baseUrl), { method, path }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => {
        resolve({ status: response.statusCode ?? 0, body });
      });
    });
    request.on('error', reject);
    request.end();
  });
}
