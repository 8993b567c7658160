// POST /authorizations and POST /authorizations/:authorizationId/void: the
// HTTP face of the commands, mapping each idempotency outcome to a status.
import { ProblemDetails } from '@effectively-once/contracts';
import type { FastifyZodInstance } from '@effectively-once/service-kit';
import {
  AuthorizationApprovedBody,
  AuthorizationDeclinedBody,
  AuthorizationIdParams,
  AuthorizationVoidedBody,
  AuthorizeRequestBody,
  IdempotencyKeyHeaders,
} from '../../api/authorizations.api.js';
import { findAuthorization } from '../postgres/authorization.repository.js';
import { authorize, voidOnce, type CommandContext } from '../postgres/authorizations.commands.js';
import type { IdempotentResult } from '../postgres/idempotent-request.js';
import {
  authorizationNotFound,
  idempotencyKeyRequired,
  idempotencyKeyReused,
  providerUnavailable,
  requestInFlight,
  unknownPaymentToken,
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

/** The outcomes that are not an answer to send: each is a problem. */
function throwUnanswered(key: string, result: IdempotentResult<unknown>): never {
  switch (result.kind) {
    case 'released':
      throw providerUnavailable();
    case 'reused_with_different_parameters':
      throw idempotencyKeyReused(key);
    case 'in_flight':
      throw requestInFlight(key);
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
      const outcome = await authorize(deps, {
        key,
        request: request.body,
        authorizationId: deps.newAuthorizationId(),
      });
      if (outcome.kind === 'unknown_token') throw unknownPaymentToken(request.body.paymentToken);
      const { decision, result } = outcome;
      if (result.kind !== 'executed' && result.kind !== 'replayed') throwUnanswered(key, result);
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
      // Authorizations are never deleted, so this check cannot go stale.
      if ((await findAuthorization(deps.db, authorizationId)) === undefined) {
        throw authorizationNotFound(authorizationId);
      }
      const result = await voidOnce(deps, { key, authorizationId });
      if (result.kind !== 'executed' && result.kind !== 'replayed') throwUnanswered(key, result);
      if (result.kind === 'replayed') void reply.header(REPLAYED_HEADER, 'true');
      return reply.code(200).send(result.response.body);
    },
  );
}
