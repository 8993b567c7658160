// POST /authorization-keys/:idempotencyKey/close: how a client whose
// authorization timed out learns what the provider did under its key, and,
// when the provider did nothing, makes sure it never will.
import { ProblemDetails } from '@effectively-once/contracts';
import type { FastifyZodInstance } from '@effectively-once/service-kit';
import { AuthorizationKeyCloseBody, AuthorizationKeyParams } from '../../api/authorizations.api.js';
import { closeAuthorizationKey, type CommandContext } from '../postgres/authorizations.commands.js';
import { notAnAuthorizationKey, requestInFlight } from './provider.problems.js';

export function registerAuthorizationKeyRoutes(
  app: FastifyZodInstance,
  deps: CommandContext,
): void {
  app.post(
    '/authorization-keys/:idempotencyKey/close',
    {
      schema: {
        params: AuthorizationKeyParams,
        response: {
          200: AuthorizationKeyCloseBody,
          400: ProblemDetails,
          409: ProblemDetails,
          422: ProblemDetails,
        },
      },
    },
    async (request, reply) => {
      const key = request.params.idempotencyKey;
      const result = await closeAuthorizationKey(deps, { key });
      switch (result.kind) {
        case 'answered':
          return reply.code(200).send(result.outcome);
        case 'in_flight':
          throw requestInFlight(key);
        case 'other_operation':
          throw notAnAuthorizationKey(key);
      }
    },
  );
}
