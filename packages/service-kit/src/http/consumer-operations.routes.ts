// Two operator tools that share one number, the consumer's replay horizon.
// Pruning markers younger than the horizon is refused: a message replayed
// within the horizon whose marker is gone would be applied twice. Replaying a
// stored message older than the horizon is refused for the same reason: its
// marker may already be pruned. Old work is redone with an explicit repair
// that has its own business key, never by replaying old ids.
// Only registered when ADMIN_TOKEN is set; every call must carry it.
import type { EventStore } from '@effectively-once/event-store';
import {
  ConsumerFailure,
  pruneMarkers,
  RetentionError,
  type Consumer,
  type IdempotencyTables,
} from '@effectively-once/idempotency';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { parseDeliveredEvent } from '../consumer/parse-delivered-event.js';
import { DEFAULT_MAX_RETRY_COUNT } from '../consumer/consumer-settings.js';
import type { ConsumerHandler } from '../consumer/handler.js';
import { authorizeAdmin } from './admin-token.js';
import type { FastifyZodInstance } from './create-http-server.js';
import { registerParkedReplayRoutes } from './parked-replay.routes.js';
import { ProblemError } from './problem.js';

export interface OperatedConsumer {
  /** Its name and replay horizon. */
  readonly consumer: Consumer;
  /** The same handler its subscription runs. */
  readonly handle: ConsumerHandler;
  /** Its group's maxRetryCount, told to the handler with a replay; DEFAULT_MAX_RETRY_COUNT when not given. */
  readonly maxRetryCount?: number | undefined;
}

const ConsumerParams = z.object({ consumer: z.string().min(1) });
const PruneRequest = z.object({ olderThanMs: z.number().int().positive() });
const Pruned = z.object({ consumer: z.string(), deleted: z.number().int().nonnegative() });
const ReplayRequest = z.object({
  streamName: z.string().min(1),
  revision: z.number().int().nonnegative(),
});
const Replayed = z.object({
  consumer: z.string(),
  messageId: z.string(),
  outcome: z.enum(['applied', 'duplicate', 'ignored']),
});

function operated(consumers: readonly OperatedConsumer[], name: string): OperatedConsumer {
  const found = consumers.find((candidate) => candidate.consumer.name === name);
  if (found === undefined) {
    throw new ProblemError({
      status: 404,
      code: 'UNKNOWN_CONSUMER',
      title: 'Unknown consumer',
      detail: `This service runs ${consumers.map((candidate) => candidate.consumer.name).join(', ')}, not ${name}.`,
    });
  }
  return found;
}

/**
 * POST /admin/consumers/:consumer/markers/prune `{ olderThanMs }` and
 * POST /admin/consumers/:consumer/replay `{ streamName, revision }` (the
 * stored message, with its original id, handed to the consumer's handler),
 * and the replay of parked messages (registerParkedReplayRoutes), which the
 * same horizon guards.
 *
 * @example
 * registerConsumerOperationRoutes(app, { db, store, adminToken, consumers: [{ consumer: inventoryDemand, handle }] });
 */
export function registerConsumerOperationRoutes<Database extends IdempotencyTables>(
  app: FastifyZodInstance,
  input: {
    db: Kysely<Database>;
    store: EventStore;
    consumers: readonly OperatedConsumer[];
    adminToken: string | undefined;
    now?: () => Date;
  },
): void {
  const { db, store, consumers, adminToken } = input;
  if (adminToken === undefined) return;
  const now = input.now ?? (() => new Date());
  // Replaying parked messages is judged by the same markers and horizon.
  registerParkedReplayRoutes(app, {
    db,
    store,
    consumers: consumers.map((operatedConsumer) => operatedConsumer.consumer),
    adminToken,
    now,
  });

  app.post(
    '/admin/consumers/:consumer/markers/prune',
    { schema: { params: ConsumerParams, body: PruneRequest, response: { 200: Pruned } } },
    async (request) => {
      authorizeAdmin(request, adminToken);
      const { consumer } = operated(consumers, request.params.consumer);
      try {
        const deleted = await pruneMarkers(db, {
          consumer,
          olderThanMs: request.body.olderThanMs,
          now: now(),
        });
        return { consumer: consumer.name, deleted };
      } catch (error) {
        if (!(error instanceof RetentionError)) throw error;
        throw new ProblemError({
          status: 409,
          code: 'RETENTION_SHORTER_THAN_REPLAY_HORIZON',
          title: 'Markers younger than the replay horizon are kept',
          detail: error.message,
        });
      }
    },
  );

  app.post(
    '/admin/consumers/:consumer/replay',
    { schema: { params: ConsumerParams, body: ReplayRequest, response: { 200: Replayed } } },
    async (request) => {
      authorizeAdmin(request, adminToken);
      const { consumer, handle, maxRetryCount } = operated(consumers, request.params.consumer);
      const { streamName, revision } = request.body;
      const [recorded] = await store.readStream(streamName, {
        fromRevision: revision,
        maxCount: 1,
      });
      if (recorded?.revision !== BigInt(revision)) {
        throw new ProblemError({
          status: 404,
          code: 'NO_SUCH_EVENT',
          title: 'No such event',
          detail: `${streamName} has no event at revision ${String(revision)}.`,
        });
      }
      const ageMs = now().getTime() - recorded.createdAt.getTime();
      if (ageMs > consumer.replayHorizonMs) {
        throw new ProblemError({
          status: 409,
          code: 'REPLAY_BEYOND_HORIZON',
          title: 'Older than the replay horizon',
          detail: `Event ${recorded.id} is ${String(Math.round(ageMs / 86_400_000))} days old; ${consumer.name} keeps markers for ${String(Math.round(consumer.replayHorizonMs / 86_400_000))} days, so its marker may be gone and a replay could apply it twice. Redo old work with a repair command that has its own business key.`,
        });
      }
      try {
        // A replay is a first delivery: nothing retries it, the operator sees a failure.
        const result = await handle(parseDeliveredEvent(recorded), recorded, {
          retryCount: 0,
          maxRetryCount: maxRetryCount ?? DEFAULT_MAX_RETRY_COUNT,
        });
        return { consumer: consumer.name, messageId: recorded.id, outcome: result.outcome };
      } catch (error) {
        if (!(error instanceof ConsumerFailure)) throw error;
        throw new ProblemError({
          status: error.kind === 'terminal' ? 422 : 503,
          code: error.kind === 'terminal' ? 'REPLAY_REJECTED' : 'REPLAY_FAILED_RETRYABLE',
          title: 'The consumer did not apply the replayed message',
          detail: error.reason,
        });
      }
    },
  );
}
