// Small builders for the response objects every path repeats: a JSON body,
// a problem document with one example per code, and the gateway's own failures.
import type { $ZodType } from 'zod/v4/core';
import type { ZodOpenApiResponseObject, ZodOpenApiResponsesObject } from 'zod-openapi';
import {
  ProblemDetails,
  PROBLEMS,
  problemTypeOf,
  type ProblemCode,
} from '@effectively-once/contracts';

export function jsonResponse(description: string, schema: $ZodType): ZodOpenApiResponseObject {
  return { description, content: { 'application/json': { schema } } };
}

/** A problem response naming each code it can carry; each code is also an example. */
export function problemResponse(
  codes: readonly ProblemCode[],
  status?: number,
): ZodOpenApiResponseObject {
  const examples = Object.fromEntries(
    codes.map((code) => {
      const { title, meaning } = PROBLEMS[code];
      const value = {
        type: problemTypeOf(code),
        title,
        status: status ?? PROBLEMS[code].status,
        code,
      };
      return [code, { summary: meaning, value }];
    }),
  );
  return {
    description: codes.map((code) => `\`${code}\`: ${PROBLEMS[code].meaning}`).join('\n\n'),
    content: { 'application/problem+json': { schema: ProblemDetails, examples } },
  };
}

/** What any forwarded route can answer when the service behind it is down or slow. */
export const UPSTREAM_FAILURES: ZodOpenApiResponsesObject = {
  '502': problemResponse(['UPSTREAM_UNAVAILABLE'], 502),
  // 503 DATABASE_UNAVAILABLE is the service's own answer, passed on as it came.
  '503': problemResponse(['UPSTREAM_UNAVAILABLE', 'DATABASE_UNAVAILABLE']),
  '504': problemResponse(['UPSTREAM_TIMEOUT']),
};

/**
 * What the HTTP edge refuses below the routes (docs/api.md, "What the gateway
 * refuses itself"), on every operation; a body's refusals only where a body
 * is taken.
 */
export const EDGE_REFUSALS: ZodOpenApiResponsesObject = {
  '408': problemResponse(['REQUEST_TIMEOUT']),
  '414': problemResponse(['URI_TOO_LONG']),
  '431': problemResponse(['HEADERS_TOO_LARGE']),
};
export const BODY_REFUSALS: ZodOpenApiResponsesObject = {
  '413': problemResponse(['PAYLOAD_TOO_LARGE']),
  '415': problemResponse(['UNSUPPORTED_MEDIA_TYPE']),
};

/** Every route that takes a parameter or a body can refuse it. */
export const INVALID_REQUEST: ZodOpenApiResponsesObject = {
  '400': problemResponse(['VALIDATION_FAILED']),
};
