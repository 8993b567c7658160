// Every HTTP error leaves as an RFC 9457 problem document with a stable `code`,
// through this one mapping. Internal errors keep their message in the log
// and out of the response: a stack trace or an SQL message is no client's business.
import type { ProblemDetails } from '@effectively-once/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isConnectionFailure } from '@effectively-once/idempotency';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json; charset=utf-8';

/**
 * Thrown by a route to answer with a problem document: a business refusal
 * (409 ORDER_ALREADY_CONFIRMED) or a missing resource (404 ORDER_NOT_FOUND).
 *
 * @example
 * throw new ProblemError({ status: 409, code: 'ORDER_ALREADY_CONFIRMED', title: 'The order is already confirmed', detail: `Order ${id} cannot be cancelled.` });
 */
export class ProblemError extends Error {
  override readonly name = 'ProblemError';
  readonly status: number;
  readonly code: string;
  readonly title: string;
  readonly detail: string | undefined;
  /** RFC 9457 extension members: data a client acts on, such as the messages a refusal names. */
  readonly extensions: Readonly<Record<string, unknown>>;
  /** What VALIDATION_FAILED lists: one entry per refused part of the request. */
  readonly errors: ProblemDetails['errors'];

  constructor(input: {
    status: number;
    code: string;
    title: string;
    detail?: string;
    extensions?: Readonly<Record<string, unknown>>;
    errors?: ProblemDetails['errors'];
  }) {
    super(input.detail ?? input.title);
    this.status = input.status;
    this.code = input.code;
    this.title = input.title;
    this.detail = input.detail;
    this.extensions = input.extensions ?? {};
    this.errors = input.errors;
  }
}

/** A type URI per code; `urn:` because the codes are documented in docs/observability.md, not served. */
export function problemType(code: string): string {
  return `urn:effectively-once:problem:${code.toLowerCase().replaceAll('_', '-')}`;
}

export function problem(input: Omit<ProblemDetails, 'type'>): ProblemDetails {
  return { type: problemType(input.code), ...input };
}

/** Fastify's own client errors (parsing the request), by their code. */
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

interface FrameworkErrorFields {
  code?: unknown;
  statusCode?: unknown;
  message?: unknown;
  validationContext?: unknown;
}

function fieldsOf(error: unknown): FrameworkErrorFields {
  return typeof error === 'object' && error !== null ? error : {};
}

function validationProblem(
  error: unknown,
  validation: readonly { instancePath: string; message?: string | undefined }[],
): ProblemDetails {
  const { validationContext } = fieldsOf(error);
  const where = typeof validationContext === 'string' ? [validationContext] : [];
  const errors = validation.map((issue) => ({
    path: [...where, ...issue.instancePath.split('/').filter((part) => part !== '')].join('.'),
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

function frameworkProblem(error: unknown): ProblemDetails | undefined {
  const { code, statusCode, message } = fieldsOf(error);
  if (typeof code !== 'string' || !code.startsWith('FST_')) return undefined;
  const known = FRAMEWORK_ERRORS.get(code);
  if (known !== undefined) return problem(known);
  // Another client error of Fastify's own (a bad URL, a bad Content-Length):
  // its message describes the request, never server state.
  if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500) {
    return problem({
      status: statusCode,
      code: 'BAD_REQUEST',
      title: 'The request could not be processed',
      ...(typeof message === 'string' ? { detail: message } : {}),
    });
  }
  return undefined;
}

export const INTERNAL_ERROR: ProblemDetails = Object.freeze(
  problem({
    status: 500,
    code: 'INTERNAL_ERROR',
    title: 'Internal server error',
    detail: 'The error was logged; quote the x-request-id response header when reporting it.',
  }),
);

/**
 * The database connection broke or was refused under the request: not a bug,
 * and not the client's fault. A transaction cut off before its COMMIT was rolled back, but one
 * cut off during it may have committed, so the answer says "maybe", as the gateway's 502 does.
 */
export const DATABASE_UNAVAILABLE: ProblemDetails = Object.freeze(
  problem({
    status: 503,
    code: 'DATABASE_UNAVAILABLE',
    title: 'The service could not reach its database',
    detail:
      'The request may or may not have taken effect. Send it again; a POST that takes an Idempotency-Key with the same key.',
  }),
);

/** The members every problem document defines; an extension may not take their names. */
const STANDARD_MEMBERS: ReadonlySet<string> = new Set([
  'type',
  'title',
  'status',
  'detail',
  'instance',
  'code',
  'errors',
]);

/**
 * Where an error came from: a route (or a hook, or a parser) handling the
 * request, or the request's own stream, which breaks when the client stops
 * sending mid-body or goes away. Fastify stamps the stream's error with
 * `statusCode: 400` but it keeps Node's `code: 'ECONNRESET'`, which must not
 * read as a lost database connection.
 */
export type ErrorOrigin = 'route' | 'request-stream';

function requestStreamProblem(error: unknown): ProblemDetails {
  const { statusCode } = fieldsOf(error);
  return problem({
    status:
      typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500 ? statusCode : 400,
    code: 'BAD_REQUEST',
    title: 'The request body did not arrive whole',
    detail: 'The client stopped sending or closed the connection before the body was complete.',
  });
}

/** An error with an HTTP status came from HTTP code (Fastify, a client), never from the database driver. */
function isDatabaseUnreachable(error: unknown): boolean {
  return fieldsOf(error).statusCode === undefined && isConnectionFailure(error);
}

/**
 * What the client gets for an error thrown while handling its request. Pure,
 * so that every branch is unit-tested.
 */
export function toProblem(error: unknown, origin: ErrorOrigin = 'route'): ProblemDetails {
  if (origin === 'request-stream') return requestStreamProblem(error);
  if (error instanceof ProblemError) {
    const details = problem({
      status: error.status,
      code: error.code,
      title: error.title,
      ...(error.detail === undefined ? {} : { detail: error.detail }),
      ...(error.errors === undefined ? {} : { errors: error.errors }),
    });
    // After the standard members, never one of them.
    const extensions = Object.entries(error.extensions).filter(
      ([member]) => !STANDARD_MEMBERS.has(member),
    );
    return { ...details, ...Object.fromEntries(extensions) };
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    return validationProblem(error, error.validation);
  }
  if (isDatabaseUnreachable(error)) return DATABASE_UNAVAILABLE;
  return frameworkProblem(error) ?? INTERNAL_ERROR;
}

/** Sends a problem document; the path (without the query) is its `instance`. */
export function sendProblem(
  request: FastifyRequest,
  reply: FastifyReply,
  details: ProblemDetails,
): FastifyReply {
  const instance = request.url.split('?')[0] ?? request.url;
  return reply
    .code(details.status)
    .type(PROBLEM_CONTENT_TYPE)
    .send(JSON.stringify({ ...details, instance }));
}

/**
 * The server's one error handler: see toProblem. Server errors are logged
 * with their cause; a request stream the client broke is the client's doing,
 * so it is logged at info, not as a failure.
 */
export function problemErrorHandler(
  error: unknown,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  const origin: ErrorOrigin = request.raw.errored === error ? 'request-stream' : 'route';
  const details = toProblem(error, origin);
  if (origin === 'request-stream') {
    request.log.info({ err: error }, 'request stream broke: the client stopped sending');
  } else if (details.status >= 500) {
    request.log.error({ err: error }, 'request failed');
  }
  return sendProblem(request, reply, details);
}

/**
 * The 404 for a path no route answers; `hint` follows the detail (the
 * gateway says where its routes are listed).
 *
 * @example
 * app.setNotFoundHandler(notFoundHandlerWith('GET /api/openapi.json lists them.'));
 */
export function notFoundHandlerWith(
  hint?: string,
): (request: FastifyRequest, reply: FastifyReply) => FastifyReply {
  return (request, reply) => {
    const path = request.url.split('?')[0] ?? request.url;
    const where = `No route answers ${request.method} ${path}`;
    return sendProblem(
      request,
      reply,
      problem({
        status: 404,
        code: 'NOT_FOUND',
        title: 'No such resource',
        detail: hint === undefined ? `${where}.` : `${where}; ${hint}`,
      }),
    );
  };
}
