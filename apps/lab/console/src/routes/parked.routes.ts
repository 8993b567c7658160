// Parked messages of every consumer group, and the way back for them. The
// console lists them from the store directly, because each service's
// /admin/parked covers only its own consumers. A replay it leaves to the
// service that owns the consumer (replay-through-service.ts): only that
// service can tell a safe replay from one that could apply a message twice.
// Acting with that authority needs the same opt-in: an admin token.
import {
  EventStoreError,
  type EventStore,
  type ParkedMessage,
} from '@effectively-once/event-store';
import { ProblemError, type FastifyZodInstance } from '@effectively-once/service-kit';
import { ParkedList, ReplayedParked, ReplayParked, type ParkedView } from '../api/console.api.js';
import type { ConsoleConfig } from '../config.js';
import { CONSOLE_CONSUMERS, CONSUMER_SERVICES, isConsumerName } from './console-consumers.js';
import { replayThroughService } from './replay-through-service.js';

/** A group its service has not created yet (it never ran) has nothing parked. */
async function parkedOf(store: EventStore, consumer: string): Promise<ParkedMessage[]> {
  try {
    return await store.listParkedMessages(consumer);
  } catch (error) {
    if (error instanceof EventStoreError && error.code === 'SUBSCRIPTION_GROUP_NOT_FOUND') {
      return [];
    }
    throw error;
  }
}

function toParkedView(consumer: string, { event, reason }: ParkedMessage): ParkedView {
  return {
    consumer,
    eventId: event.id,
    type: event.type,
    streamName: event.streamName,
    orderId: event.metadata.correlationId ?? null,
    reason: reason ?? null,
  };
}

/**
 * GET /api/console/parked lists every group's parked messages (no payloads);
 * POST /api/console/parked/replay `{ consumer }` asks the owning service to
 * make one group's deliverable again, and answers what it answered (409
 * PARKED_REPLAY_BEYOND_HORIZON among them): 409 OPERATOR_ACTIONS_OFF without
 * an admin token, 404 UNKNOWN_CONSUMER.
 *
 * @example
 * registerParkedRoutes(app, { store, config });
 */
export function registerParkedRoutes(
  app: FastifyZodInstance,
  deps: { store: EventStore; config: Pick<ConsoleConfig, 'stack'> },
): void {
  const { store } = deps;
  app.get('/api/console/parked', { schema: { response: { 200: ParkedList } } }, async () => {
    const perConsumer = await Promise.all(
      CONSOLE_CONSUMERS.map(async (consumer) =>
        (await parkedOf(store, consumer)).map((message) => toParkedView(consumer, message)),
      ),
    );
    return { parked: perConsumer.flat() };
  });

  app.post(
    '/api/console/parked/replay',
    { schema: { body: ReplayParked, response: { 200: ReplayedParked } } },
    async (request) => {
      const { consumer } = request.body;
      const { adminToken, gatewayUrl } = deps.config.stack;
      if (adminToken === undefined) {
        throw new ProblemError({
          status: 409,
          code: 'OPERATOR_ACTIONS_OFF',
          title: 'Operator actions are off',
          detail:
            'Replaying parked messages needs a stack with an admin token: start it with ADMIN_TOKEN set, or in lab mode (STACK_FAULTS=true).',
        });
      }
      if (!isConsumerName(consumer)) {
        throw new ProblemError({
          status: 404,
          code: 'UNKNOWN_CONSUMER',
          title: 'Unknown consumer',
          detail: `The saga's consumers are ${CONSOLE_CONSUMERS.join(', ')}, not ${consumer}.`,
        });
      }
      const service = CONSUMER_SERVICES[consumer];
      const answer = await replayThroughService({ gatewayUrl, adminToken, service, consumer });
      request.log.info({ consumer, replayed: answer.replayed }, 'parked messages replayed');
      return answer;
    },
  );
}
