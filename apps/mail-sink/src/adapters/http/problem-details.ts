// Every error leaves as an RFC 9457 problem document with a stable `code`.
// (A copy of the service kit's handler: the stand-ins depend on no service code.)
import type { ProblemDetails } from '@effectively-once/contracts';
import type { FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { z } from 'zod';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** Thrown by a handler to answer with a problem document. */
export class ProblemError extends Error {
  readonly status: number;
  readonly code: string;
  readonly title: string;
  readonly detail: string | undefined;

  constructor(input: { status: number; code: string; title: string; detail?: string }) {
    super(input.detail ?? input.title);
    this.name = 'ProblemError';
    this.status = input.status;
    this.code = input.code;
    this.title = input.title;
    this.detail = input.detail;
  }
}

/** A stable, non-resolvable type URI per code, e.g. urn:effectively-once:problem:request-in-flight. */
function problemType(code: string): string {
  return `urn:effectively-once:problem:${code.toLowerCase().replaceAll('_', '-')}`;
}

export function problemDocument(input: {
  status: number;
  code: string;
  title: string;
  detail?: string | undefined;
  errors?: ProblemDetails['errors'];
}): ProblemDetails {
  return {
    type: problemType(input.code),
    title: input.title,
    status: input.status,
    ...(input.detail === undefined ? {} : { detail: input.detail }),
    code: input.code,
    ...(input.errors === undefined ? {} : { errors: input.errors }),
  };
}

/**
 * Fastify's own client errors, under the codes the service kit gives them,
 * so that a client meets one vocabulary across every process.
 */
const FRAMEWORK_ERRORS: ReadonlyMap<string, { status: number; code: string; title: string }> =
  new Map([
    [
      'FST_ERR_CTP_INVALID_JSON_BODY',
      { status: 400, code: 'MALFORMED_JSON', title: 'The request body is not valid JSON' },
    ],
    [
      'FST_ERR_CTP_EMPTY_JSON_BODY',
      { status: 400, code: 'MALFORMED_JSON', title: 'The request body is empty' },
    ],
    [
      'FST_ERR_CTP_BODY_TOO_LARGE',
      { status: 413, code: 'PAYLOAD_TOO_LARGE', title: 'The request body is too large' },
    ],
    [
      'FST_ERR_CTP_INVALID_MEDIA_TYPE',
      { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', title: 'Unsupported content type' },
    ],
  ]);

const FastifyClientError = z.object({
  code: z.string().startsWith('FST_'),
  statusCode: z.number().int().min(400).max(499),
  message: z.string(),
});

function frameworkProblem(error: unknown): ProblemDetails | undefined {
  const parsed = FastifyClientError.safeParse(error);
  if (!parsed.success) return undefined;
  const known = FRAMEWORK_ERRORS.get(parsed.data.code);
  if (known !== undefined) return problemDocument(known);
  // Another client error of Fastify's (a bad URL, a bad Content-Length): its
  // message describes the request, never server state.
  return problemDocument({
    status: parsed.data.statusCode,
    code: 'BAD_REQUEST',
    title: 'The request could not be processed',
    detail: parsed.data.message,
  });
}

function toProblem(error: unknown): ProblemDetails {
  if (error instanceof ProblemError) return problemDocument(error);
  if (hasZodFastifySchemaValidationErrors(error)) {
    const where = error.validationContext === undefined ? [] : [error.validationContext];
    const errors = error.validation.map((issue) => ({
      path: [...where, ...issue.instancePath.split('/').filter((part) => part !== '')].join('.'),
      message: issue.message ?? 'is invalid',
    }));
    return problemDocument({
      status: 400,
      code: 'VALIDATION_FAILED',
      title: 'The request is not valid',
      detail: errors.map((issue) => `${issue.path} ${issue.message}`).join('; '),
      errors,
    });
  }
  return (
    frameworkProblem(error) ??
    problemDocument({ status: 500, code: 'INTERNAL_ERROR', title: 'Internal server error' })
  );
}

/**
 * Installs the error and not-found handlers. An unexpected error is logged
 * with its stack; a deliberate 5xx problem (an outage the fake plays) as a
 * warning; a client error is the client's business and is not logged.
 */
export function registerProblemHandlers(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    const problem = toProblem(error);
    if (problem.status >= 500) {
      if (error instanceof ProblemError) request.log.warn({ code: problem.code }, problem.title);
      else request.log.error({ err: error }, 'request failed');
    }
    return reply.code(problem.status).type(PROBLEM_CONTENT_TYPE).send(problem);
  });
  app.setNotFoundHandler((request, reply) =>
    reply
      .code(404)
      .type(PROBLEM_CONTENT_TYPE)
      .send(
        problemDocument({
          status: 404,
          code: 'NOT_FOUND',
          title: 'Not found',
          detail: `No route ${request.method} ${request.url}`,
        }),
      ),
  );
}
