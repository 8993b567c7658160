// The gateway's own errors as RFC 9457 problem documents, in the same shape and
// `type` URIs as the services' (packages/service-kit), kept local so that the
// public entry point depends on nothing but the contracts.
import { problemTypeOf, type ProblemDetails } from '@effectively-once/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json; charset=utf-8';

export function problem(input: Omit<ProblemDetails, 'type'>): ProblemDetails {
  return { type: problemTypeOf(input.code), ...input };
}

function pathOf(request: FastifyRequest): string {
  return request.url.split('?')[0] ?? request.url;
}

export function sendProblem(
  request: FastifyRequest,
  reply: FastifyReply,
  details: ProblemDetails,
): FastifyReply {
  return reply
    .code(details.status)
    .type(PROBLEM_CONTENT_TYPE)
    .send(JSON.stringify({ ...details, instance: pathOf(request) }));
}

function clientErrorOf(error: unknown): { status: number; message: string } | undefined {
  if (typeof error !== 'object' || error === null || !('statusCode' in error)) return undefined;
  const status = error.statusCode;
  if (typeof status !== 'number' || status < 400 || status >= 500) return undefined;
  return { status, message: error instanceof Error ? error.message : 'The request was refused.' };
}

/** What the client gets for an error thrown while the gateway handled its request. */
export function toProblem(error: unknown): ProblemDetails {
  if (hasZodFastifySchemaValidationErrors(error)) {
    const where = error.validationContext === undefined ? [] : [error.validationContext];
    const errors = error.validation.map((issue) => ({
      path: [...where, ...issue.instancePath.split('/').filter(Boolean)].join('.'),
      message: issue.message ?? 'is invalid',
    }));
    return problem({
      status: 400,
      code: 'VALIDATION_FAILED',
      title: 'The request is not valid',
      detail: errors.map((issue) => `${issue.path} ${issue.message}`).join('; '),
      errors,
    });
  }
  if (typeof error === 'object' && error !== null && 'code' in error) {
    // Fastify's body reader, counting what arrives against the limit.
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return problem({
        status: 413,
        code: 'PAYLOAD_TOO_LARGE',
        title: 'The request body is too large',
        detail: 'The body is over 1 MiB; it was not forwarded.',
      });
    }
  }
  const clientError = clientErrorOf(error);
  if (clientError !== undefined) {
    // A request Fastify or the proxy refused before it reached a service (a
    // bad URL, a path that climbs out with ".."): its message is about the request.
    return problem({
      status: clientError.status,
      code: 'BAD_REQUEST',
      title: 'The request could not be processed',
      detail: clientError.message,
    });
  }
  return problem({ status: 500, code: 'INTERNAL_ERROR', title: 'Internal server error' });
}

export function problemErrorHandler(
  error: unknown,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  const details = toProblem(error);
  if (details.status >= 500) request.log.error({ err: error }, 'request failed');
  return sendProblem(request, reply, details);
}

export function notFoundHandler(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return sendProblem(
    request,
    reply,
    problem({
      status: 404,
      code: 'NOT_FOUND',
      title: 'No such resource',
      detail: `No route answers ${request.method} ${pathOf(request)}; GET /api/openapi.json lists them.`,
    }),
  );
}
