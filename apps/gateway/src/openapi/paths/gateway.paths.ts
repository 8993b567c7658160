// The routes the gateway answers itself rather than forwarding.
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { HealthReport, ServiceLiveness, ServiceNameParams } from '@effectively-once/contracts';
import { INVALID_REQUEST, UPSTREAM_FAILURES, jsonResponse } from '../responses.js';

export const gatewayPaths: ZodOpenApiPathsObject = {
  '/api/health': {
    get: {
      operationId: 'getHealth',
      tags: ['operations'],
      summary: 'Readiness of every service behind the gateway',
      description:
        "Asks each service's /ready at once, with a short timeout, and answers within about that timeout even when some are down.",
      responses: {
        '200': jsonResponse('Every service is ready.', HealthReport),
        '503': jsonResponse(
          'At least one service is not ready or unreachable; `services` names which.',
          HealthReport,
        ),
      },
    },
  },
  '/api/health/{service}': {
    get: {
      operationId: 'getServiceHealth',
      tags: ['operations'],
      summary: "One service's liveness, forwarded from its /health",
      requestParams: { path: ServiceNameParams },
      responses: {
        '200': jsonResponse('The service process is up.', ServiceLiveness),
        ...INVALID_REQUEST,
        ...UPSTREAM_FAILURES,
      },
    },
  },
  '/api/openapi.json': {
    get: {
      operationId: 'getOpenApiDocument',
      tags: ['operations'],
      summary: 'This document',
      responses: {
        '200': {
          description: 'The OpenAPI 3.1 document of the public API.',
          content: { 'application/json': { schema: { type: 'object' } } },
        },
      },
    },
  },
};
