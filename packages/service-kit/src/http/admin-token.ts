// The bearer check every /admin route makes: the token the service was
// started with (ADMIN_TOKEN), compared in constant time.
import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { ProblemError } from './problem.js';

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function authorizeAdmin(request: FastifyRequest, adminToken: string): void {
  const header = request.headers.authorization;
  if (header === undefined || !header.startsWith('Bearer ')) {
    throw new ProblemError({
      status: 401,
      code: 'ADMIN_TOKEN_REQUIRED',
      title: 'Admin token required',
      detail:
        'Send the ADMIN_TOKEN the service was started with as "Authorization: Bearer <token>".',
    });
  }
  if (!sameToken(header.slice('Bearer '.length), adminToken)) {
    throw new ProblemError({
      status: 403,
      code: 'ADMIN_TOKEN_INVALID',
      title: 'Admin token invalid',
      detail: 'The bearer token is not this service\u2019s ADMIN_TOKEN.',
    });
  }
}
