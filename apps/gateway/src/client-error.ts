// Errors met before Fastify has a request to hand to the error handler: Node's
// parser refusing the bytes (headers too large, a NUL in a header), Node's
// request timeout (a body that stops arriving), and the router's URL checks.
// Left to Fastify and Node they answer in ad-hoc JSON without a request id;
// here they are problem documents with an x-request-id like every other error.
// The services answer the same through packages/service-kit/src/http/client-error.ts;
// this copy keeps the gateway free of the services' kit.
import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import type { ProblemDetails } from '@effectively-once/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PROBLEM_CONTENT_TYPE, problem, sendProblem } from './problem.js';

/** What a client is told for an error Node's HTTP parser or its timers raised. */
export function clientErrorProblem(error: { code?: unknown }): ProblemDetails {
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return problem({
        status: 408,
        code: 'REQUEST_TIMEOUT',
        title: 'The request did not arrive in time',
        detail: 'Its headers and body were not all received within REQUEST_TIMEOUT_MS.',
      });
    case 'HPE_HEADER_OVERFLOW':
      return problem({
        status: 431,
        code: 'HEADERS_TOO_LARGE',
        title: 'The request headers are too large',
        detail: 'The headers are over 16 KiB in all.',
      });
    default:
      return problem({
        status: 400,
        code: 'BAD_REQUEST',
        title: 'The request could not be read',
        detail: 'It is not valid HTTP/1.1 (a bad request line, or a forbidden byte in a header).',
      });
  }
}

function rawProblemResponse(details: ProblemDetails, requestId: string): string {
  const body = JSON.stringify(details);
  return [
    `HTTP/1.1 ${String(details.status)} ${details.title}`,
    `Content-Type: ${PROBLEM_CONTENT_TYPE}`,
    `Content-Length: ${String(Buffer.byteLength(body))}`,
    `x-request-id: ${requestId}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/** Fastify's `clientErrorHandler`: Node's 'clientError' event, answered as a problem. */
export function clientErrorHandler(error: Error & { code?: unknown }, socket: Socket): void {
  // A reset connection has nobody to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  // A response already under way cannot get a second head.
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && inFlight?.headersSent !== true) {
    // No request was parsed, so no id came with it: the answer carries a fresh one.
    socket.end(rawProblemResponse(clientErrorProblem(error), randomUUID()));
  } else {
    socket.destroy(error);
  }
}

/** Fastify's `frameworkErrors`: a URL the router refused (bad encoding, a parameter too long). */
export function frameworkErrorHandler(
  error: Error & { code?: unknown },
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  // The router answers before the onRequest hooks, which set this header otherwise.
  void reply.header('x-request-id', request.id);
  const details =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? problem({
          status: 414,
          code: 'URI_TOO_LONG',
          title: 'A path parameter is too long',
          detail: 'A path segment is over 100 characters, longer than any id or SKU.',
        })
      : problem({
          status: 400,
          code: 'BAD_REQUEST',
          title: 'The request could not be read',
          detail: 'The URL is not validly percent-encoded.',
        });
  void sendProblem(request, reply, details);
}
