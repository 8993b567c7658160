import { describe, expect, it } from 'vitest';
import { upstreamFailure } from './upstream-failure.js';

/** An error as @fastify/reply-from hands it over: its own code, the socket's in `cause`. */
function proxyError(code: string, causeCode?: string): Error {
  const cause =
    causeCode === undefined ? undefined : Object.assign(new Error(causeCode), { code: causeCode });
  return Object.assign(new Error(code, { cause }), { code });
}

describe('upstreamFailure', () => {
  it.each([
    [
      'a refused connection',
      proxyError('FST_REPLY_FROM_INTERNAL_SERVER_ERROR', 'ECONNREFUSED'),
      503,
      'UPSTREAM_UNAVAILABLE',
    ],
    [
      'an unknown host',
      proxyError('FST_REPLY_FROM_SERVICE_UNAVAILABLE'),
      503,
      'UPSTREAM_UNAVAILABLE',
    ],
    ['a connect timeout', proxyError('UND_ERR_CONNECT_TIMEOUT'), 503, 'UPSTREAM_UNAVAILABLE'],
    [
      'no answer in time',
      proxyError('FST_REPLY_FROM_GATEWAY_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT'),
      504,
      'UPSTREAM_TIMEOUT',
    ],
    ['a dropped connection', proxyError('UND_ERR_SOCKET'), 502, 'UPSTREAM_UNAVAILABLE'],
    ['anything else', new Error('boom'), 502, 'UPSTREAM_UNAVAILABLE'],
  ])('Given %s, Then %i %s', (_case, error, status, code) => {
    expect(upstreamFailure('order', error)).toMatchObject({
      status,
      code,
      type: `urn:effectively-once:problem:${code.toLowerCase().replaceAll('_', '-')}`,
      detail: expect.stringContaining('order service') as unknown,
    });
  });
});
