// POST /authorizations and POST /authorizations/:authorizationId/{capture,void}:
// the HTTP face of the commands, mapping each idempotency outcome to a status.
import { ProblemDetails } from '@effectively-once/contracts';
import type { FastifyZodInstance, ProblemError } from '@effectively-once/service-kit';
import {
  AuthorizationApprovedBody,
  AuthorizationCapturedBody,
  AuthorizationDeclinedBody,
  AuthorizationIdParams,
  AuthorizationVoidedBody,
  AuthorizeRequestBody,
  CaptureRequestBody,
  IdempotencyKeyHeaders,
} from '../../api/authorizations.api.js';
import {
  authorize,
  captureOnce,
  voidOnce,
  type ChangeRefusal,
  type CommandContext,
} from '../postgres/authorizations.commands.js';
import type { IdempotentResult } from '../postgres/idempotent-request.js';
import {
  authorizationCaptured,
  authorizationNotFound,
  authorizationVoided,
  captureAmountMismatch,
  idempotencyKeyClosed,
  idempotencyKeyRequired,
  idempotencyKeyReused,
  providerUnavailable,
  requestInFlight,
} from './provider.problems.js';
import type { ReplyDelay } from './reply-delay.js';

export const REPLAYED_HEADER = 'idempotent-replayed';

export interface AuthorizationRoutesDeps extends CommandContext {
  replyDelay: ReplyDelay;
  newAuthorizationId: () => string;
}

function requireKey(key: string | undefined): string {
  if (key === undefined) throw idempotencyKeyRequired();
  return key;
}

function refusalProblem(authorizationId: string, refusal: ChangeRefusal): ProblemError {
  switch (refusal.kind) {
    case 'authorization_not_found':
      return authorizationNotFound(authorizationId);
    case 'authorization_voided':
      return authorizationVoided(authorizationId);
    case 'authorization_captured':
      return authorizationCaptured(authorizationId);
    case 'capture_amount_mismatch':
      return captureAmountMismatch({ authorizationId, ...refusal });
  }
}

/** The outcomes that are not an answer to send: each is a problem. */
function throwUnanswered(
  input: { key: string; authorizationId?: string },
  result: IdempotentResult<unknown, ChangeRefusal>,
): never {
  switch (result.kind) {
    case 'released':
      throw providerUnavailable();
    case 'refused':
      throw refusalProblem(input.authorizationId ?? '', result.refusal);
    case 'reused_with_different_parameters':
      throw idempotencyKeyReused(input.key);
    case 'in_flight':
      throw requestInFlight(input.key);
    case 'closed':
      throw idempotencyKeyClosed(input.key);
    case 'executed':
    case 'replayed':
      throw new Error(`Outcome ${result.kind} carries an answer; send it.`);
  }
}

const problems = {
  400: ProblemDetails,
  404: ProblemDetails,
  409: ProblemDetails,
  422: ProblemDetails,
  503: ProblemDetails,
};

export function registerAuthorizationRoutes(
  app: FastifyZodInstance,
  deps: AuthorizationRoutesDeps,
): void {
  app.post(
    '/authorizations',
    {
      schema: {
        headers: IdempotencyKeyHeaders,
        body: AuthorizeRequestBody,
        response: { 201: AuthorizationApprovedBody, 402: AuthorizationDeclinedBody, ...problems },
      },
    },
    async (request, reply) => {
      const key = requireKey(request.headers['idempotency-key']);
      const { decision, result } = await authorize(deps, {
        key,
        request: request.body,
        authorizationId: deps.newAuthorizationId(),
      });
      if (result.kind !== 'executed' && result.kind !== 'replayed')
        throwUnanswered({ key }, result);
      if (result.kind === 'replayed') void reply.header(REPLAYED_HEADER, 'true');
      // Only the first answer is held back; a retry gets the stored one at once.
      else if (decision.kind === 'authorize' && decision.delayReply) await deps.replyDelay.wait();
      const { response } = result;
      switch (response.status) {
        case 201:
          return reply.code(201).send(response.body);
        case 402:
          return reply.code(402).send(response.body);
      }
    },
  );

  app.post(
    '/authorizations/:authorizationId/capture',
    {
      schema: {
        headers: IdempotencyKeyHeaders,
        params: AuthorizationIdParams,
        body: CaptureRequestBody,
        response: { 200: AuthorizationCapturedBody, ...problems },
      },
    },
    async (request, reply) => {
      const key = requireKey(request.headers['idempotency-key']);
      const { authorizationId } = request.params;
      const amountCents = request.body?.amountCents;
      const result = await captureOnce(deps, { key, authorizationId, amountCents });
      if (result.kind !== 'executed' && result.kind !== 'replayed') {
        throwUnanswered({ key, authorizationId }, result);
      }
      if (result.kind === 'replayed') void reply.header(REPLAYED_HEADER, 'true');
      return reply.code(200).send(result.response.body);
    },
  );

  app.post(
    '/authorizations/:authorizationId/void',
    {
      schema: {
        headers: IdempotencyKeyHeaders,
        params: AuthorizationIdParams,
        response: { 200: AuthorizationVoidedBody, ...problems },
      },
    },
    async (request, reply) => {
      const key = requireKey(request.headers['idempotency-key']);
      const { authorizationId } = request.params;
      const result = await voidOnce(deps, { key, authorizationId });
      if (result.kind !== 'executed' && result.kind !== 'replayed') {
        throwUnanswered({ key, authorizationId }, result);
      }
      if (result.kind === 'replayed') void reply.header(REPLAYED_HEADER, 'true');
      return reply.code(200).send(result.response.body);
    },
  );
}
