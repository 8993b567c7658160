import { timingSafeEqual } from 'node:crypto';
import { ProblemError } from '@effectively-once/service-kit';
import type { FastifyRequest } from 'fastify';

/** Compares in constant time, so the answer's timing does not reveal how much of a guess was right. */
function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * An onRequest hook that lets a request through only with
 * `Authorization: Bearer <FAULTS_TOKEN>`; otherwise a 401 problem, before the
 * body is even parsed.
 */
export function requireLabToken(token: string): (request: FastifyRequest) => Promise<void> {
  return (request) => {
    const header = request.headers.authorization;
    if (header === undefined || !header.startsWith('Bearer ')) {
      return Promise.reject(
        new ProblemError({
          status: 401,
          code: 'LAB_TOKEN_REQUIRED',
          title: 'Lab token required',
          detail:
            'Send the FAULTS_TOKEN the service was started with as "Authorization: Bearer <token>".',
        }),
      );
    }
    if (!sameToken(header.slice('Bearer '.length), token)) {
      return Promise.reject(
        new ProblemError({
          status: 401,
          code: 'LAB_TOKEN_INVALID',
          title: 'Lab token invalid',
          detail: 'The bearer token is not this service\u2019s FAULTS_TOKEN.',
        }),
      );
    }
    return Promise.resolve();
  };
}
